"""diffs stage: what a source's new snapshot changed against its previous one.

Contract:
- ``source_diff(home, source, snapshot_id) -> pa.Table``: ``DIFFS`` rows (schemas.py) of
  ``docorbit_serve.changes.diff`` between the snapshot of ``source`` created before
  ``snapshot_id`` and ``snapshot_id`` itself, read from the frozen Parquet on disk; empty when
  the source has no earlier snapshot. Sorted as the serving diff sorts (kind, change, key), so
  the same two snapshots always give the same table.
- ``freeze_diff(home, source, snapshot_id, table) -> Path``: writes it once to
  ``tables/diffs/source=<s>/snapshot=<id>/part-0.parquet`` (temp file + rename); an existing
  file is left as it is (a snapshot's diff never changes).
- ``empty()``: the empty ``DIFFS`` table. The asset logs a diff that cannot be computed (an
  unreadable earlier snapshot) and stores it empty: a diff never fails an ingest.
- ``summary(table) -> dict``: counts per ``kind.change`` (for the asset's metadata).
The pipeline imports the serving package here, never the reverse.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pyarrow as pa

from docorbit_assets.lib.snapshot import write_parquet
from docorbit_serve.changes.diff import KINDS, diff_tables, load_tables
from docorbit_serve.changes.snapshots import resolve_pair
from docorbit_serve.errors import NotFound
from docorbit_serve.home import Home
from docorbit_serve.schemas import SCHEMAS

__all__ = ["empty", "freeze_diff", "source_diff", "summary"]

PART = "part-0.parquet"


def empty() -> pa.Table:
    return SCHEMAS["diffs"].empty_table()


def source_diff(home: Home, source: str, snapshot_id: str) -> pa.Table:
    try:
        old, new, _ = resolve_pair(home, source, None, snapshot_id)
    except NotFound:  # the source's first snapshot: nothing to compare with
        return empty()
    items = diff_tables(
        load_tables(home, old, KINDS), load_tables(home, new, KINDS), old.id, new.id
    )
    rows = [
        {
            "source": source,
            "from_snapshot": i.from_snapshot,
            "to_snapshot": i.to_snapshot,
            "kind": i.kind,
            "change": i.change,
            "key": i.key,
            "title": i.title,
            "url": i.url,
            "anchor": i.anchor,
            "pointer": i.pointer,
            "details": i.details,
        }
        for i in items
    ]
    return pa.Table.from_pylist(rows, schema=SCHEMAS["diffs"])


def freeze_diff(home: Home, source: str, snapshot_id: str, table: pa.Table) -> Path:
    path = home.table_dir("diffs", source, snapshot_id) / PART
    if not path.exists():
        write_parquet(table, path)
    return path


def summary(table: pa.Table) -> dict[str, int]:
    counts = Counter(
        f"{k}.{c}"
        for k, c in zip(table["kind"].to_pylist(), table["change"].to_pylist(), strict=True)
    )
    return dict(sorted(counts.items()))
