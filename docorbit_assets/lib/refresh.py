"""Incremental refresh: reuse the rows of a source's latest snapshot for what did not change.

The reference is the source's **latest frozen snapshot** (``Previous.load(home, cfg,
project_root)``: the snapshot the ``snapshots`` staging row names, complete, and built from the
same source configuration — its frozen ``sources`` row equals today's). Frozen tables are
immutable, so the reference cannot be half-written by a killed run.

- ``normalize_incremental(cfg, fetches, project_root, previous)``: a fetched document whose
  fetch key (url, final url, ok, content type, error code, bytes, body SHA-256) equals the
  reference's keeps the reference's page row (``fetched_at`` refreshed); only the others go
  through ``normalize``. For local files the body hash is the change test (fetch reads the file
  and hashes it); for web pages a 304 keeps the stored row, so its key is unchanged too.
- ``slice_incremental(pages, previous)``: a page whose row (``fetched_at`` aside) equals the
  reference's keeps its chunk rows in their stored order; only changed or new pages are sliced.
- ``reuse_table(name, inputs, previous)``: for whole-table stages (extract, postings) — when
  every input table equals the reference's (``fetched_at`` aside), the reference's ``name`` rows
  are the output; ``None`` means "compute it".
- ``reuse_by_chunk(name, chunks, previous, compute, recompute=())``: for the per-chunk tables
  (``symbols``, ``examples``, ``pitfalls``, ``postings``: every row belongs to one chunk and
  depends on that chunk only) — the reference's rows of every chunk whose row (``fetched_at``
  aside) is unchanged, ``compute`` over the other chunks only, merged in the order a full
  computation gives (``id``; ``postings``: chunk id, then the rows' own order). ``recompute``:
  chunk ids that must be computed anyway (a local source's include markers read files).
- ``reuse_links(pages, chunks, previous, compute)``: ``links`` per page — the reference's rows
  of unchanged pages while the set of page URLs (what link targets resolve to) is unchanged.
- ``unchanged_since(previous, cfg, project_root, discovered, fetches)``: whether nothing
  downstream of ``fetches`` can change (configuration, discovery and every fetched row equal the
  reference's, and a local source's included snippets still give the stored examples). The
  ``fetches`` asset and ``probe_source`` both decide with it.
- ``probe_source(home, cfg, project_root, allow_hosts)``: the refresh short cut outside a
  per-source run — fetch (conditional GETs / file hashes) against the reference's discovery,
  stage the ``fetches`` rows (freshness, the next conditional GETs) and say whether the source
  is unchanged (``Probe``). The ``refresh_check`` job runs it for every source in one run.

Rows reused this way are exactly what a cold run computes (the stages are deterministic per
page), so the snapshot id comes out identical when nothing changed and only a changed page's
rows differ when one page changed. Each function also returns counts (``reused``, ``computed``)
that the assets report as metadata.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from docorbit_assets.lib import normalize as lib_normalize
from docorbit_assets.lib import slice as lib_slice
from docorbit_assets.lib import snapshot as lib_snapshot
from docorbit_assets.lib.publish import latest_snapshot
from docorbit_assets.lib.sources import source_table
from docorbit_serve.home import Home
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS

__all__ = [
    "Previous",
    "Probe",
    "include_hinted",
    "includes_unchanged",
    "fetch_key",
    "normalize_incremental",
    "probe_source",
    "reuse_by_chunk",
    "reuse_links",
    "reuse_table",
    "same_rows",
    "slice_incremental",
    "unchanged_since",
]

_KEY_FIELDS = ("url", "final_url", "ok", "content_type", "error_code", "bytes")


@dataclass
class Previous:
    """The latest complete snapshot of one source, read table by table on demand."""

    home: Home
    source: str
    snapshot: str
    _cache: dict[str, pa.Table] = field(default_factory=dict)

    @classmethod
    def load(cls, home: Home, cfg: SourceConfig, project_root: Path) -> Previous | None:
        """The reference snapshot, or ``None`` (no snapshot, or the configuration changed)."""
        row = latest_snapshot(home, cfg.name)
        if row is None:
            return None
        prev = cls(home, cfg.name, str(row["id"]))
        try:
            frozen = prev.table("sources")
        except (OSError, pa.ArrowException):
            return None
        if not same_rows("sources", frozen, source_table(cfg, project_root)):
            return None
        return prev

    def table(self, name: str) -> pa.Table:
        """The frozen ``name`` table without its ``snapshot`` column."""
        if name not in self._cache:
            path = self.home.table_dir(name, self.source, self.snapshot) / lib_snapshot.PARQUET_FILE
            table = pq.read_table(path)
            if "snapshot" in table.column_names:
                table = table.drop_columns(["snapshot"])
            self._cache[name] = table
        return self._cache[name]


def _digest(name: str, table: pa.Table) -> bytes:
    # The snapshot id's own per-table digest (conformed, fetched_at dropped).
    return lib_snapshot._table_digest(lib_snapshot.conform(name, table))


def same_rows(name: str, a: pa.Table, b: pa.Table) -> bool:
    """Whether two ``name`` tables hold the same rows in the same order (``fetched_at`` aside)."""
    return a.num_rows == b.num_rows and _digest(name, a) == _digest(name, b)


def fetch_key(row: dict[str, Any]) -> tuple[Any, ...]:
    """What a page's normalization depends on, from its ``fetches`` row."""
    body = row.get("body") or b""
    digest = row.get("content_hash") or (hashlib.sha256(body).hexdigest() if body else "")
    return (*(row.get(k) for k in _KEY_FIELDS), digest)


def _page_url(row: dict[str, Any]) -> str:
    return str(row.get("final_url") or row.get("url") or "")


def normalize_incremental(
    cfg: SourceConfig, fetches: pa.Table, project_root: Path, previous: Previous | None
) -> tuple[pa.Table, dict[str, int]]:
    """``normalize`` that keeps the reference's page rows of unchanged documents."""
    if previous is None:
        pages = lib_normalize.normalize(cfg, fetches, project_root)
        return pages, {"reused": 0, "computed": pages.num_rows}
    old_keys = {r["url"]: fetch_key(r) for r in previous.table("fetches").to_pylist()}
    old_pages: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for page in previous.table("pages").to_pylist():
        old_pages[page["url"]].append(page)
    kept: list[dict[str, Any]] = []
    todo: list[int] = []
    for i, row in enumerate(fetches.to_pylist()):
        reusable = row.get("ok") and old_keys.get(row["url"]) == fetch_key(row)
        if reusable and old_pages.get(_page_url(row)):
            stamp = row.get("fetched_at") or ""
            kept.extend({**p, "fetched_at": stamp} for p in old_pages[_page_url(row)])
        elif row.get("ok"):
            todo.append(i)
    subset = fetches.take(pa.array(todo, type=pa.int64()))
    fresh = lib_normalize.normalize(cfg, subset, project_root).to_pylist()
    rows = sorted(kept + fresh, key=lambda r: (r["path"], r["url"]))
    stats = {"reused": len(kept), "computed": len(fresh)}
    return pa.Table.from_pylist(rows, schema=SCHEMAS["pages"]), stats


def slice_incremental(
    pages: pa.Table, previous: Previous | None
) -> tuple[pa.Table, dict[str, int]]:
    """``slice_pages`` that keeps the reference's chunks of unchanged pages (same order)."""
    if previous is None:
        return lib_slice.slice_pages(pages), {"reused": 0, "computed": pages.num_rows}
    old_pages = {p["id"]: p for p in previous.table("pages").to_pylist()}
    old_chunks: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for chunk in previous.table("chunks").to_pylist():
        old_chunks[chunk["page_id"]].append(chunk)
    rows: list[dict[str, Any]] = []
    stats = {"reused": 0, "computed": 0}
    for page in sorted(pages.to_pylist(), key=lambda p: (p["path"], p["url"])):
        before = old_pages.get(page["id"])
        if before is not None and _without_time(before) == _without_time(page):
            rows.extend({**c, "fetched_at": page["fetched_at"]} for c in old_chunks[page["id"]])
            stats["reused"] += 1
        else:
            rows.extend(lib_slice.slice_markdown(page))
            stats["computed"] += 1
    return pa.Table.from_pylist(rows, schema=SCHEMAS["chunks"]), stats


def _without_time(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != "fetched_at"}


# Chunks that may hold an include marker (examples.include_markers: ``{* … *}`` / ``--8<--``).
_INCLUDE_HINT = re.compile(r"\{\*|8<")


def includes_unchanged(previous: Previous, source_root: Path) -> bool:
    """Whether the reference's examples still come out the same: a local source's include
    markers read snippet files that are not fetched documents, so an edited snippet changes
    ``examples`` while every fetched row stays equal. Only chunks that may hold a marker are
    re-extracted (the others' examples cannot depend on a file)."""
    from docorbit_assets.lib.extract import extract_examples

    chunks = previous.table("chunks")
    subset = _rows_of(chunks, "id", include_hinted(chunks))
    if subset.num_rows == 0:
        return True
    stored = previous.table("examples")
    mine = stored.filter(pc.is_in(stored.column("chunk_id"), value_set=subset.column("id")))
    return same_rows("examples", extract_examples(subset, source_root), mine)


def unchanged_since(
    previous: Previous,
    cfg: SourceConfig,
    project_root: Path,
    discovered: pa.Table,
    fetches: pa.Table,
) -> bool:
    """Whether nothing downstream of ``fetches`` can change (see the module docstring)."""
    if not all(
        same_rows(name, mine, previous.table(name))
        for name, mine in (("discovered", discovered), ("fetches", fetches))
    ):
        return False
    folder = Path(cfg.resolved_location(project_root))
    return cfg.is_web or not folder.is_dir() or includes_unchanged(previous, folder)


@dataclass(frozen=True)
class Probe:
    """What ``probe_source`` found for one source."""

    source: str
    unchanged: bool
    snapshot: str | None  # the reference snapshot (None: no usable reference)
    documents: int  # fetched rows staged (0 when nothing was fetched)
    reason: str  # one line for the run log and the report


def probe_source(
    home: Home, cfg: SourceConfig, project_root: Path, allow_hosts: tuple[str, ...] = ()
) -> Probe:
    """Fetch ``cfg`` against its reference's discovery and stage the rows (module docstring).

    Without a reference (never ingested, configuration changed) nothing is fetched: the source
    needs its full run. Fetch errors propagate (the caller falls back to the full run, which
    reports them the usual way)."""
    from docorbit_assets.lib import fetch as lib_fetch

    previous = Previous.load(home, cfg, project_root)
    if previous is None:
        return Probe(cfg.name, False, None, 0, "no reference snapshot for this configuration")
    discovered = lib_snapshot.conform("discovered", previous.table("discovered"))
    staged = home.staging_file("fetches", cfg.name)
    before = pq.read_table(staged) if staged.exists() else None  # for conditional GETs
    fetches = lib_fetch.fetch_source(
        cfg, discovered, project_root, allow_hosts=allow_hosts, previous=before
    )
    lib_snapshot.write_parquet(fetches, staged)
    if unchanged_since(previous, cfg, project_root, discovered, fetches):
        why = f"unchanged since snapshot {previous.snapshot}"
        return Probe(cfg.name, True, previous.snapshot, fetches.num_rows, why)
    why = f"changed since snapshot {previous.snapshot}"
    return Probe(cfg.name, False, previous.snapshot, fetches.num_rows, why)


def reuse_table(
    name: str, inputs: dict[str, pa.Table], previous: Previous | None
) -> pa.Table | None:
    """The reference's ``name`` rows when every input equals the reference's; else ``None``."""
    if previous is None:
        return None
    try:
        if all(same_rows(t, table, previous.table(t)) for t, table in inputs.items()):
            return lib_snapshot.conform(name, previous.table(name))
    except (OSError, pa.ArrowException):
        return None
    return None


def _same_ids(current: pa.Table, before: pa.Table) -> set[str]:
    """Ids of ``current`` rows equal (``fetched_at`` aside) to ``before``'s row of that id."""
    old = {r["id"]: _without_time(r) for r in before.to_pylist()}
    return {r["id"] for r in current.to_pylist() if old.get(r["id"]) == _without_time(r)}


def _rows_of(table: pa.Table, column: str, ids: Iterable[str]) -> pa.Table:
    mask = pc.is_in(table.column(column), value_set=pa.array(sorted(ids), type=pa.string()))
    return table.filter(mask)


def include_hinted(chunks: pa.Table) -> set[str]:
    """Ids of chunks that may hold an include marker (their examples read other files)."""
    hinted = pc.fill_null(
        pc.match_substring_regex(chunks.column("text"), _INCLUDE_HINT.pattern), False
    )
    return set(chunks.filter(hinted).column("id").to_pylist())


def reuse_by_chunk(
    name: str,
    chunks: pa.Table,
    previous: Previous | None,
    compute: Callable[[pa.Table], pa.Table],
    recompute: Iterable[str] = (),
) -> tuple[pa.Table, dict[str, int]]:
    """Per-chunk reuse of table ``name`` (module docstring); returns the table and chunk counts."""
    if previous is None:
        return compute(chunks), {"reused": 0, "computed": chunks.num_rows}
    try:
        same = _same_ids(chunks, previous.table("chunks")) - set(recompute)
        kept = lib_snapshot.conform(name, _rows_of(previous.table(name), "chunk_id", same))
    except (OSError, pa.ArrowException):
        return compute(chunks), {"reused": 0, "computed": chunks.num_rows}
    todo = chunks.filter(
        pc.invert(pc.is_in(chunks.column("id"), value_set=pa.array(sorted(same), type=pa.string())))
    )
    fresh = lib_snapshot.conform(name, compute(todo))
    merged = pa.concat_tables([kept, fresh])
    keys = [("chunk_id", "ascending")] if name == "postings" else [("id", "ascending")]
    # Arrow's sort is stable: a chunk's postings keep their own (field, term) order.
    stats = {"reused": len(same), "computed": todo.num_rows}
    return merged.sort_by(keys), stats


def reuse_links(
    pages: pa.Table,
    chunks: pa.Table,
    previous: Previous | None,
    compute: Callable[[pa.Table, pa.Table], pa.Table],
) -> tuple[pa.Table, dict[str, int]]:
    """Per-page reuse of ``links`` (module docstring). ``compute(pages, chunks)`` must resolve
    targets against every page, whatever subset of pages it extracts."""
    if previous is None:
        return compute(pages, chunks), {"reused": 0, "computed": pages.num_rows}
    try:
        before = previous.table("pages")
        urls = set(pages.column("url").to_pylist()) == set(before.column("url").to_pylist())
        same = _same_ids(pages, before) if urls else set()
        kept = lib_snapshot.conform("links", _rows_of(previous.table("links"), "page_id", same))
    except (OSError, pa.ArrowException):
        return compute(pages, chunks), {"reused": 0, "computed": pages.num_rows}
    ids = pa.array(sorted(same), type=pa.string())
    todo = pages.filter(pc.invert(pc.is_in(pages.column("id"), value_set=ids)))
    todo_chunks = chunks.filter(pc.invert(pc.is_in(chunks.column("page_id"), value_set=ids)))
    fresh = lib_snapshot.conform("links", compute(todo, todo_chunks))
    keys = [(k, "ascending") for k in ("page_id", "chunk_id", "url", "text")]
    merged = pa.concat_tables([kept, fresh]).sort_by(keys)
    return merged, {"reused": len(same), "computed": todo.num_rows}
