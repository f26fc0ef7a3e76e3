"""What the dashboard shows, as plain functions over a home and its catalog (no HTTP here).

Contract (every function is read-only, bounded in rows, and raises ``DocOrbitError`` subclasses):

- ``source_health(catalog, now=None) -> list[dict]``: one row per published source: the
  ``list_sources`` fields plus ``oldest_fetch``/``newest_fetch`` (pages' ``fetched_at``),
  ``age_days`` (now − snapshot ``created_at``), ``last_fetch``/``age_hours``/``stale`` (the one
  definition of stale, ``freshness.source_freshness`` with ``[settings] stale_after_hours``),
  ``failed_fetches`` and ``health``: ``failing`` (a fetch of the published snapshot failed),
  ``stale`` or ``ok``.
- ``snapshot_history(home) -> list[dict]``: every frozen snapshot (published or not), oldest
  first, with ``chunks``/``pages`` from its row counts and ``published``.
- ``publications(home, manifest) -> list[dict]``: the publications whose index files are still
  under ``home/index`` (``publish_id``, ``built_at`` = the file's mtime in UTC, ``mb``,
  ``current``), newest first, at most ``MAX_PUBLICATIONS``.
- ``fetch_failures(home, manifest) -> list[dict]``: failed fetches of the published snapshots
  (``url``, ``status``, ``error_code`` …).
- ``table_rows(catalog, table, library=None, limit, offset) -> (rows, truncated)`` for
  ``pitfalls`` and ``endpoints``: the raw index rows (the API-intelligence services
  refine these; the dashboard shows them as they are).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import duckdb

from docorbit_serve.errors import DocOrbitError, InputError
from docorbit_serve.home import Home
from docorbit_serve.manifest import published_manifest
from docorbit_serve.reader import list_sources
from docorbit_serve.search.sqlfiles import sql
from docorbit_serve.table_rows import table_rows

__all__ = [
    "MAX_ROWS",
    "fetch_failures",
    "publications",
    "snapshot_history",
    "source_health",
    "table_rows",
]

MAX_ROWS = 1000
MAX_PUBLICATIONS = 50
DEFAULT_STALE_HOURS = 48.0  # registry default when docorbit.toml cannot be read
_PART = "part-0.parquet"


def _query(cur: Any, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    cur.execute(sql(name), params)
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def _parquet(paths: list[str], name: str) -> list[dict[str, Any]]:
    if not paths:
        return []
    con = duckdb.connect()
    try:
        return _query(con, name, {"paths": paths, "max_rows": MAX_ROWS})
    except duckdb.Error as e:
        raise InputError(f"cannot read frozen tables: {e}", detail={"files": len(paths)}) from e
    finally:
        con.close()


def _parse_time(value: str) -> datetime | None:
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return None


def fetch_failures(home: Home, manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """Failed fetches recorded in the published snapshots (see module docstring)."""
    paths = []
    for name, s in sorted((manifest.get("sources") or {}).items()):
        path = home.table_dir("fetches", name, str(s.get("snapshot", ""))) / _PART
        if path.is_file():
            paths.append(str(path))
    return _parquet(paths, "dashboard_fetch_failures")


def publications(home: Home, manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """Publications still on disk, newest first (see module docstring)."""
    current = str(manifest.get("publish_id", ""))
    rows = []
    for path in home.index_dir.glob("u_*.duckdb"):
        try:
            st = path.stat()
        except OSError:
            continue
        built = datetime.fromtimestamp(st.st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        rows.append(
            {
                "publish_id": path.stem,
                "built_at": built,
                "mb": round(st.st_size / 1e6, 2),
                "current": path.stem == current,
            }
        )
    rows.sort(key=lambda r: (r["built_at"], r["publish_id"]), reverse=True)
    return rows[:MAX_PUBLICATIONS]


def snapshot_history(home: Home) -> list[dict[str, Any]]:
    """Every frozen snapshot, oldest first (see module docstring)."""
    paths = sorted(str(p) for p in (home.tables / "snapshots").glob(f"source=*/snapshot=*/{_PART}"))
    sources = published_manifest(home.published_path).get("sources", {})
    published = {n: s.get("snapshot") for n, s in sources.items()}
    out = []
    for r in _parquet(paths, "dashboard_snapshot_history"):
        try:
            counts = json.loads(r.pop("row_counts_json") or "{}")
        except ValueError:
            counts = {}
        out.append(
            {
                **r,
                "chunks": int(counts.get("chunks", 0)),
                "pages": int(counts.get("pages", 0)),
                "published": published.get(r["source"]) == r["id"],
            }
        )
    return out


def _stale_after(home: Home) -> float:
    from docorbit_serve.registry import load_registry

    try:
        return float(load_registry(home.config_path).stale_after_hours)
    except (DocOrbitError, OSError, TypeError, ValueError):
        return DEFAULT_STALE_HOURS


def source_health(catalog: Any, now: datetime | None = None) -> list[dict[str, Any]]:
    """Published sources with freshness and health (see module docstring)."""
    from docorbit_serve.freshness import source_freshness

    now = now or datetime.now(UTC)
    manifest = catalog.manifest()
    rows = list_sources(catalog)
    cur = catalog.cursor()
    try:
        fresh = {r["source"]: r for r in _query(cur, "dashboard_freshness", {"max_rows": MAX_ROWS})}
    finally:
        cur.close()
    failures: dict[str, int] = {}
    try:
        for f in fetch_failures(catalog.home, manifest):
            failures[f["source"]] = failures.get(f["source"], 0) + 1
    except DocOrbitError:
        pass  # unreadable frozen fetches: health falls back to freshness only
    limit = _stale_after(catalog.home)
    out = []
    for r in rows:
        f = fresh.get(r["name"], {})
        created = _parse_time(r.get("created_at", ""))
        age = round((now - created).total_seconds() / 86400, 2) if created else None
        fr = source_freshness(catalog.home, r["name"], limit, now=now)
        health = "failing" if failures.get(r["name"]) else "stale" if fr["stale"] else "ok"
        out.append(
            {
                **r,
                "oldest_fetch": f.get("oldest") or "",
                "newest_fetch": f.get("newest") or "",
                "age_days": age,
                "last_fetch": fr["fetched_at"] or "",
                "age_hours": None if fr["age_hours"] is None else round(fr["age_hours"], 1),
                "stale": fr["stale"],
                "stale_after_hours": limit,
                "failed_fetches": failures.get(r["name"], 0),
                "health": health,
            }
        )
    return out
