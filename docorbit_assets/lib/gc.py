"""Retention: which snapshots, index files, vectors and debris a home can lose.

``plan_gc(home, *, keep_last=N, locks=()) -> dict`` decides (reads only); ``apply_gc(home,
plan) -> dict`` removes what the plan lists. The caller holds the home's ingest lock while
applying and refuses while another Dagster run is in progress (``docorbit_assets.ingest.run_gc``
does both: runs the UI's daemon launches do not take the lock), so no build is writing what is
removed.

Kept, per source (``keep`` lists the reasons):

- ``published`` — the snapshot ``published.json`` serves;
- ``latest`` — the snapshot the pipeline staged last (the next publication's input);
- ``pinned`` — a snapshot a ``docs.lock`` names (``content.publication.sources.*.snapshot``;
  the project's ``docs.lock`` and any ``locks`` given);
- ``recent`` — the newest ``keep_last`` complete snapshots by ``created_at``.

Removed (``remove``: ``{path (relative to home), kind, bytes}``, sorted by path):

- ``snapshot`` — every table folder ``tables/<t>/source=<s>/snapshot=<id>/`` of a snapshot not
  kept (a complete one's ``snapshots`` folder goes first, so a half-removed snapshot reads as
  incomplete, never as complete with tables missing); also folders of snapshots a killed run
  never completed;
- ``vectors`` — ``vectors/<model>/<snapshot>.npz`` caches of removed snapshots;
- ``index`` — ``index/<publish_id>.duckdb`` (+ ``.wal``, ``.vectors.npy``) of publications that
  are neither served nor pinned;
- ``debris`` — what a killed build leaves: ``index/.*.tmp.duckdb*`` and their ``.spill``
  folders, ``tables/.tmp/*``, ``.*.tmp-*`` Parquet temp files under ``tables/`` and
  ``staging/``.

The served index, its vectors file and every snapshot the publication names are never in
``remove``: a server answering from the current publication is unaffected (an older index a
server still holds open stays readable through its open file until the server reopens).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from docorbit_assets.lib.publish import current_manifest, latest_snapshot
from docorbit_serve.catalog import vectors_file
from docorbit_serve.home import Home

__all__ = ["apply_gc", "lock_pins", "plan_gc"]

_PART = "part-0.parquet"


def lock_pins(paths: list[Path]) -> dict[str, Any]:
    """``{"snapshots": {(source, id)}, "publications": {publish_id}}`` named by docs.lock files."""
    snaps: set[tuple[str, str]] = set()
    pubs: set[str] = set()
    for path in paths:
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
            pub = doc["content"]["publication"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if isinstance(pub.get("publish_id"), str):
            pubs.add(pub["publish_id"])
        for name, entry in (pub.get("sources") or {}).items():
            if isinstance(entry, dict) and entry.get("snapshot"):
                snaps.add((str(name), str(entry["snapshot"])))
    return {"snapshots": snaps, "publications": pubs}


def _snapshot_dirs(home: Home) -> dict[tuple[str, str], list[Path]]:
    """Every ``tables/<t>/source=<s>/snapshot=<id>`` folder, by (source, id)."""
    out: dict[tuple[str, str], list[Path]] = {}
    if not home.tables.is_dir():
        return out
    for folder in sorted(home.tables.glob("*/source=*/snapshot=*")):
        if folder.parts[-3] == ".tmp" or not folder.is_dir():
            continue
        key = (folder.parent.name.removeprefix("source="), folder.name.removeprefix("snapshot="))
        out.setdefault(key, []).append(folder)
    return out


def _created_at(home: Home, source: str, snapshot: str) -> str | None:
    path = home.table_dir("snapshots", source, snapshot) / _PART
    try:
        rows = pq.read_table(path, columns=["created_at"]).to_pylist()
    except (OSError, ValueError):
        return None
    return str(rows[0]["created_at"]) if rows else None


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _keep_reasons(
    home: Home, keys: list[tuple[str, str]], keep_last: int, pins: dict[str, Any]
) -> dict[tuple[str, str], list[str]]:
    manifest = current_manifest(home) or {}
    served = {(n, str(s.get("snapshot"))) for n, s in (manifest.get("sources") or {}).items()}
    reasons: dict[tuple[str, str], list[str]] = {}
    by_source: dict[str, list[tuple[str, str]]] = {}
    for source, snap in keys:
        created = _created_at(home, source, snap)
        if created is not None:
            by_source.setdefault(source, []).append((created, snap))
    for source, rows in by_source.items():
        latest = (latest_snapshot(home, source) or {}).get("id")
        for rank, (_, snap) in enumerate(sorted(rows, reverse=True)):
            why = [
                r
                for r, ok in (
                    ("published", (source, snap) in served),
                    ("latest", snap == latest),
                    ("pinned", (source, snap) in pins["snapshots"]),
                    ("recent", rank < keep_last),
                )
                if ok
            ]
            if why:
                reasons[(source, snap)] = why
    for key in served:  # never lose what is served, even if its row is unreadable
        reasons.setdefault(key, ["published"])
    return reasons


def _entry(home: Home, path: Path, kind: str) -> dict[str, Any]:
    return {"path": path.relative_to(home.path).as_posix(), "kind": kind, "bytes": _size(path)}


def _index_files(home: Home, pins: dict[str, Any]) -> list[dict[str, Any]]:
    if not home.index_dir.is_dir():
        return []
    manifest = current_manifest(home) or {}
    keep = {home.path / manifest["index"]} if manifest.get("index") else set()
    if manifest.get("vectors"):
        keep.add(vectors_file(manifest["vectors"], home.index_dir))
    keep_ids = set(pins["publications"]) | {str(manifest.get("publish_id") or "")}
    out = []
    for path in sorted(home.index_dir.iterdir()):
        name = path.name
        if name.startswith(".") and (".tmp.duckdb" in name):
            out.append(_entry(home, path, "debris"))
        elif name.startswith("u_") and path not in keep and name.split(".")[0] not in keep_ids:
            out.append(_entry(home, path, "index"))
    return out


def _debris(home: Home) -> list[dict[str, Any]]:
    out = []
    tmp = home.tables / ".tmp"
    if tmp.is_dir():
        out += [_entry(home, p, "debris") for p in sorted(tmp.iterdir())]
    for root in (home.tables, home.staging):
        if root.is_dir():
            out += [
                _entry(home, p, "debris")
                for p in sorted(root.rglob(".*.tmp-*"))
                if p.is_file() and tmp not in p.parents
            ]
    return out


def plan_gc(home: Home, *, keep_last: int = 3, locks: list[Path] | tuple[Path, ...] = ()) -> dict:
    """What a gc would keep and remove (see the module docstring); touches nothing."""
    lock_files = [home.project_root / "docs.lock", *locks]
    pins = lock_pins([p for p in lock_files if Path(p).is_file()])
    folders = _snapshot_dirs(home)
    reasons = _keep_reasons(home, list(folders), keep_last, pins)
    remove: list[dict[str, Any]] = []
    for key, dirs in sorted(folders.items()):
        if key in reasons:
            continue
        # the snapshots folder (the completeness marker) first
        for d in sorted(dirs, key=lambda d: d.parts[-3] != "snapshots"):
            remove.append(_entry(home, d, "snapshot"))
        for cache in sorted((home.path / "vectors").glob(f"*/{key[1]}.npz")):
            remove.append(_entry(home, cache, "vectors"))
    remove += _index_files(home, pins) + _debris(home)
    keep = {
        source: {snap: why for (s, snap), why in sorted(reasons.items()) if s == source}
        for source in sorted({s for s, _ in reasons})
    }
    return {
        "home": str(home.path),
        "keep_last": keep_last,
        "locks": [str(p) for p in lock_files if Path(p).is_file()],
        "keep": keep,
        "remove": remove,
        "bytes": sum(e["bytes"] for e in remove),
    }


def apply_gc(home: Home, plan: dict) -> dict:
    """Remove the plan's entries in order; returns the plan with ``removed`` and ``errors``."""
    removed, errors = [], []
    served = current_manifest(home) or {}
    protected = {home.path / served["index"]} if served.get("index") else set()
    for entry in plan["remove"]:
        path = home.path / entry["path"]
        if path in protected:  # published in between: never remove what is served
            continue
        try:
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)
            removed.append(entry["path"])
        except OSError as e:
            errors.append({"path": entry["path"], "error": f"{type(e).__name__}: {e}"})
    return {**plan, "applied": True, "removed": removed, "errors": errors}
