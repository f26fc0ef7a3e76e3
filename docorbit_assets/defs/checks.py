"""Quality gates as asset checks.

Blocking checks (``BLOCKING_CHECKS``) run as their own steps right after their asset; an ERROR
result fails the step and Dagster skips everything downstream in the run, so a bad source never
reaches ``snapshots`` (its previous snapshot stays the latest) and a bad index never reaches
``published``:

- ``pages_are_valid``  (``pages``):  schema, ids present and unique, rows of this source only,
  at least one page (a source that yields nothing is a failed ingest, not an empty library);
- ``chunks_are_valid`` (``chunks``): schema, ids present and unique, rows of this source only,
  every chunk's ``page_id`` is a staged page;
- ``search_index_is_complete`` (``search_index``): the built index file opens read-only and holds
  exactly the chunks and pages of the snapshots it was planned from.

Cheap invariants run inside the asset step (``rows_belong_to_source``, a ``check_specs`` entry
on every per-source table asset, via ``own_rows_spec``/``emit``).
"""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import json
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import duckdb
import pyarrow as pa

from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib.snapshot import read_parquet, table_problems

__all__ = [
    "BLOCKING_CHECKS",
    "chunks_are_valid",
    "emit",
    "own_rows_spec",
    "pages_are_valid",
    "search_index_is_complete",
]

_OWN_ROWS = "rows_belong_to_source"


def own_rows_spec(asset: str) -> dg.AssetCheckSpec:
    return dg.AssetCheckSpec(
        _OWN_ROWS, asset=asset, description="Every row belongs to the partition's source."
    )


def emit(asset: str, table: pa.Table, source: str) -> Iterator[dg.Output | dg.AssetCheckResult]:
    """The asset's output, then its ``rows_belong_to_source`` result."""
    yield dg.Output(table)
    column = "name" if asset == "sources" else "source"
    others = sorted({v for v in table.column(column).to_pylist() if v != source})
    yield dg.AssetCheckResult(
        check_name=_OWN_ROWS,
        asset_key=asset,
        passed=not others,
        metadata={"rows": table.num_rows, "other_sources": ", ".join(others[:5])},
    )


def _staged(context: dg.AssetCheckExecutionContext, docorbit: DocOrbitResource, asset: str):
    source = context.op_execution_context.partition_key
    return source, read_parquet(docorbit.resolve().staging_file(asset, source))


def _result(problems: list[str], rows: int) -> dg.AssetCheckResult:
    return dg.AssetCheckResult(
        passed=not problems,
        severity=dg.AssetCheckSeverity.ERROR,
        metadata={"rows": rows, "problems": "\n".join(problems[:20]) or "none"},
    )


@dg.asset_check(
    asset="pages", blocking=True, description="Schema, unique ids, own rows, not empty."
)
def pages_are_valid(
    context: dg.AssetCheckExecutionContext, docorbit: DocOrbitResource
) -> dg.AssetCheckResult:
    source, pages = _staged(context, docorbit, "pages")
    problems = table_problems("pages", pages, source=source)
    if pages.num_rows == 0:
        problems.append(f"source {source!r} produced no pages")
    return _result(problems, pages.num_rows)


@dg.asset_check(
    asset="chunks", blocking=True, description="Schema, unique ids, own rows, pages exist."
)
def chunks_are_valid(
    context: dg.AssetCheckExecutionContext, docorbit: DocOrbitResource
) -> dg.AssetCheckResult:
    source, chunks = _staged(context, docorbit, "chunks")
    problems = table_problems("chunks", chunks, source=source)
    if not problems:
        pages = read_parquet(docorbit.resolve().staging_file("pages", source))
        orphans = set(chunks.column("page_id").to_pylist()) - set(pages.column("id").to_pylist())
        if orphans:
            problems.append(f"chunks: {len(orphans)} page ids not among the pages")
    return _result(problems, chunks.num_rows)


def _frozen_counts(docorbit: DocOrbitResource, manifest: dict) -> dict[str, int]:
    home = docorbit.resolve()
    totals = {"chunks": 0, "pages": 0}
    for name, entry in manifest["sources"].items():
        path = home.table_dir("snapshots", name, entry["snapshot"]) / "part-0.parquet"
        counts = json.loads(read_parquet(path).column("row_counts_json")[0].as_py())
        for table in totals:
            totals[table] += int(counts.get(table, 0))
    return totals


@dg.asset_check(
    asset="search_index",
    blocking=True,
    description="The index file opens read-only and holds exactly the planned chunks and pages.",
)
def search_index_is_complete(
    context: dg.AssetCheckExecutionContext, docorbit: DocOrbitResource
) -> dg.AssetCheckResult:
    home = docorbit.resolve()
    manifest = json.loads((home.staging / "search_index" / "search_index.json").read_text())
    path = Path(home.path / manifest["index"])
    expected = _frozen_counts(docorbit, manifest)
    problems: list[str] = []
    try:
        con = duckdb.connect(str(path), read_only=True)
        try:
            for table, want in expected.items():
                row = con.table(table).count("*").fetchone()
                got = row[0] if row else 0
                if got != want:
                    problems.append(f"{table}: {got} rows in the index, {want} in the snapshots")
        finally:
            con.close()
    except duckdb.Error as e:
        problems.append(f"index {path} does not open: {e}")
    return dg.AssetCheckResult(
        passed=not problems,
        metadata={"index": str(path), **expected, "problems": "\n".join(problems) or "none"},
    )


BLOCKING_CHECKS = [pages_are_valid, chunks_are_valid, search_index_is_complete]
