"""Diff stage: ``diffs`` — what each refresh of a source changed (shown in the Dagster UI)."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib import diffs as lib_diffs
from docorbit_serve.errors import DocOrbitError

__all__ = ["diffs"]

_PREVIEW = 50


def _preview(table: pa.Table) -> str:
    rows = table.slice(0, _PREVIEW).to_pylist()
    lines = ["| change | kind | key |", "|---|---|---|"]
    lines += [f"| {r['change']} | {r['kind']} | `{r['key'][:120]}` |" for r in rows]
    more = table.num_rows - len(rows)
    return "\n".join(lines) + (f"\n\n… and {more} more" if more > 0 else "")


@dg.asset(partitions_def=SOURCE_PARTITIONS, group_name="snapshot", kinds={"parquet"})
def diffs(
    context: dg.AssetExecutionContext, docorbit: DocOrbitResource, snapshots: pa.Table
) -> dg.Output[pa.Table]:
    """Endpoints, pages, sections, pitfalls and symbols the new snapshot changed."""
    home, source = docorbit.resolve(), context.partition_key
    snapshot_id = snapshots.to_pylist()[0]["id"]
    try:
        table = lib_diffs.source_diff(home, source, snapshot_id)
    except DocOrbitError as e:  # a diff is information: it never fails the source's ingest
        context.log.warning(f"diff of {source} {snapshot_id} skipped: [{e.code}] {e.message}")
        table = lib_diffs.empty()
    path = lib_diffs.freeze_diff(home, source, snapshot_id, table)
    first = table.num_rows and table["from_snapshot"][0].as_py()
    return dg.Output(
        table,
        metadata={
            "to_snapshot": snapshot_id,
            "from_snapshot": first or "",
            "changes": table.num_rows,
            **{f"changes_{k}": v for k, v in lib_diffs.summary(table).items()},
            "preview": dg.MetadataValue.md(_preview(table) if table.num_rows else "no changes"),
            "frozen": dg.MetadataValue.path(str(path)),
        },
    )
