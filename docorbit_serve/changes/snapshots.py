"""Find and read the frozen snapshots a diff compares (DESIGN.md §4: every snapshot stays on disk).

Contract:
- ``list_snapshots(home) -> list[SnapshotRef]``: every complete snapshot under
  ``home/tables/snapshots/source=<s>/snapshot=<id>/part-0.parquet`` (the folder that marks a
  snapshot complete), sorted by source, created_at, id.
- ``resolve_pair(home, target, from_, to) -> (SnapshotRef, SnapshotRef, kind)``: ``target`` is
  a source name (``from_``/``to`` are snapshot ids or unique prefixes; default: the published
  snapshot, else the newest, against the one before it) or a library name (``from_``/``to`` are
  version labels; default: the two highest versions; each version's snapshot is the published
  one, else the newest). ``kind`` is ``"source"`` or ``"library"``. Unknown names raise
  ``NotFound``/``UnknownLibrary``; a missing ``target`` with several sources is ``UsageError``.
- ``read_rows(home, ref, table) -> list[dict]``: the rows of one frozen table via DuckDB
  (``sql/changes_table.sql``); an absent table file (a snapshot older than the table) is ``[]``.
Read-only; never imports Dagster.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import duckdb

from docorbit_serve.errors import InputError, NotFound, UnknownLibrary, UsageError
from docorbit_serve.home import Home
from docorbit_serve.manifest import published_manifest
from docorbit_serve.search.sqlfiles import sql

__all__ = ["SnapshotRef", "list_snapshots", "read_rows", "resolve_pair", "version_key"]

PART = "part-0.parquet"


@dataclass(frozen=True)
class SnapshotRef:
    id: str
    source: str
    library: str
    version: str
    created_at: str
    published: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "snapshot": self.id,
            "source": self.source,
            "library": self.library,
            "version": self.version,
            "created_at": self.created_at,
            "published": self.published,
        }


def _published(home: Home) -> dict[str, str]:
    srcs = published_manifest(home.published_path).get("sources", {})
    return {s: str(v["snapshot"]) for s, v in srcs.items()}


def list_snapshots(home: Home) -> list[SnapshotRef]:
    paths = sorted(str(p) for p in (home.tables / "snapshots").glob(f"source=*/snapshot=*/{PART}"))
    if not paths:
        return []
    pub = _published(home)
    con = duckdb.connect()
    try:
        rows = con.execute(sql("changes_snapshots"), {"paths": paths}).fetchall()
    except duckdb.Error as e:
        raise InputError(f"cannot read the snapshots under {home.tables}: {e}") from e
    finally:
        con.close()
    return [
        SnapshotRef(r[0], r[1], r[2] or "", r[3] or "", r[6] or "", pub.get(r[1]) == r[0])
        for r in rows
    ]


def read_rows(home: Home, ref: SnapshotRef, table: str) -> list[dict[str, Any]]:
    path = home.table_dir(table, ref.source, ref.id) / PART
    if not path.is_file():
        return []
    con = duckdb.connect()
    try:
        rel = con.execute(sql("changes_table"), {"path": str(path)})
        cols = [d[0] for d in rel.description]
        return [dict(zip(cols, row, strict=True)) for row in rel.fetchall()]
    except duckdb.Error as e:
        raise InputError(f"cannot read {path}: {e}", detail={"path": str(path)}) from e
    finally:
        con.close()


_NUM = re.compile(r"\d+|[^\d]+")


def version_key(label: str) -> tuple[Any, ...]:
    """Natural order of version labels: ``v2.9`` < ``v2.11.10`` < ``v2.12.5``; ``2023-11-06`` >
    ``2.0.0`` (a date-like label counts its year as the major)."""
    parts = _NUM.findall(label.lstrip("vV"))
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)


def _pick(snaps: list[SnapshotRef], ident: str) -> SnapshotRef:
    hits = [s for s in snaps if s.id == ident] or [s for s in snaps if s.id.startswith(ident)]
    if len(hits) != 1:
        known = [s.id for s in snaps]
        why = "is ambiguous" if hits else "is not a snapshot of this source"
        raise NotFound(
            f"snapshot {ident!r} {why}; known: {', '.join(known)}", detail={"known": known}
        )
    return hits[0]


def _source_pair(
    snaps: list[SnapshotRef], from_: str | None, to: str | None
) -> tuple[SnapshotRef, SnapshotRef]:
    new = _pick(snaps, to) if to else next((s for s in snaps if s.published), snaps[-1])
    if from_:
        return _pick(snaps, from_), new
    before = [s for s in snaps if (s.created_at, s.id) < (new.created_at, new.id)]
    if not before:
        raise NotFound(
            f"source {new.source!r} has one snapshot before {new.id}: nothing to compare; "
            "ingest it again after its docs change, or pass --from",
            detail={"source": new.source, "snapshots": [s.id for s in snaps]},
        )
    return before[-1], new


def _version_snapshot(snaps: list[SnapshotRef], version: str, library: str) -> SnapshotRef:
    cands = [s for s in snaps if s.version == version]
    if not cands:
        known = sorted({s.version for s in snaps}, key=version_key)
        raise NotFound(
            f"library {library!r} has no snapshot of version {version!r}; known: {', '.join(known)}",
            detail={"library": library, "versions": known},
        )
    pub = [s for s in cands if s.published]
    return (pub or sorted(cands, key=lambda s: (s.created_at, s.id)))[-1]


def _as_version(snaps: list[SnapshotRef], ref: str | None) -> str | None:
    """A snapshot id (or unique prefix, ``s_…``) given for a library side names its version."""
    if ref and ref.startswith("s_") and not any(s.version == ref for s in snaps):
        return _pick(snaps, ref).version
    return ref


def _library_pair(
    snaps: list[SnapshotRef], library: str, from_: str | None, to: str | None
) -> tuple[SnapshotRef, SnapshotRef]:
    versions = sorted({s.version for s in snaps}, key=version_key)
    ids = {r: _pick(snaps, r) for r in (from_, to) if r and _as_version(snaps, r) != r}
    from_, to = _as_version(snaps, from_), _as_version(snaps, to)
    new_v = to or versions[-1]
    older = [v for v in versions if version_key(v) < version_key(new_v)]
    old_v = from_ or (older[-1] if older else "")
    if not old_v:
        raise NotFound(
            f"library {library!r} has no version before {new_v!r} to compare with; pass --from",
            detail={"library": library, "versions": versions},
        )
    old = next((v for k, v in ids.items() if v.version == old_v), None)
    new = next((v for k, v in ids.items() if v.version == new_v), None)
    return (
        old or _version_snapshot(snaps, old_v, library),
        new or _version_snapshot(snaps, new_v, library),
    )


def resolve_pair(
    home: Home, target: str | None, from_: str | None = None, to: str | None = None
) -> tuple[SnapshotRef, SnapshotRef, str]:
    snaps = list_snapshots(home)
    sources = sorted({s.source for s in snaps})
    if target is None:
        if len(sources) != 1:
            raise UsageError(
                "say which source or library to diff: " + (", ".join(sources) or "none ingested"),
                detail={"sources": sources},
            )
        target = sources[0]
    by_source = [s for s in snaps if s.source == target]
    if by_source:
        old, new = _source_pair(by_source, from_, to)
        return old, new, "source"
    by_lib = [s for s in snaps if s.library == target]
    if by_lib:
        old, new = _library_pair(by_lib, target, from_, to)
        return old, new, "library"
    raise UnknownLibrary(
        f"{target!r} is neither an ingested source nor a library; known sources: "
        + (", ".join(sources) or "none"),
        detail={"target": target, "sources": sources},
    )
