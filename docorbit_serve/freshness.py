"""Freshness of each source: when it was last fetched successfully, and whether that is too long ago.

``source_freshness(home, name, stale_after_hours, now=None) -> dict`` looks at the pipeline's
latest ``fetches`` staging file (``staging/fetches/source=<name>/part-0.parquet``, replaced by
every fetch that succeeded, a 304 revalidation included) and returns::

    {"fetched_at": str|None, "age_hours": float|None, "stale": bool,
     "stale_after_hours": float}

``fetched_at`` is when that file was written (UTC ISO-8601, see ``last_fetched_at``); a source
never fetched (or whose staging file is unreadable or holds no document) is ``stale`` with
``None`` values.
A failed refresh leaves the staging file as it was, so the age keeps growing until a fetch
succeeds. Used by ``docorbit list``, MCP ``list_sources``, search provenance and the Dagster
freshness checks (``docorbit_assets/defs/freshness.py``): one definition of "stale" everywhere.
Standard library + pyarrow only (the serving package never loads Dagster).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from docorbit_serve.home import Home

__all__ = ["age_hours", "last_fetched_at", "parse_time", "source_freshness"]


def parse_time(text: str) -> datetime | None:
    """An ISO-8601 timestamp as an aware UTC datetime (naive = UTC); ``None`` when unreadable."""
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def age_hours(text: str, now: datetime | None = None) -> float | None:
    """Hours since the ISO-8601 time ``text`` (search provenance); ``None`` when unreadable."""
    when = parse_time(text) if text else None
    if when is None:
        return None
    return round(max(((now or datetime.now(UTC)) - when).total_seconds() / 3600, 0.0), 2)


def last_fetched_at(home: Home, name: str) -> str | None:
    """When ``name``'s fetch stage last succeeded with at least one document, or ``None``.

    That is the modification time of its ``fetches`` staging file, which the pipeline replaces
    (atomically) after every successful fetch — 304 revalidations and unchanged local files
    included — so it measures when the source was last checked, not when its content changed
    (a local file's ``fetched_at`` row is its own modification time).
    """
    import pyarrow.parquet as pq

    path = home.staging_file("fetches", name)
    try:
        mtime = path.stat().st_mtime
        ok = pq.read_table(path, columns=["ok"]).column("ok").to_pylist()
    except (OSError, ValueError, KeyError):
        return None
    if not any(ok):
        return None
    return datetime.fromtimestamp(mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def source_freshness(
    home: Home, name: str, stale_after_hours: float, now: datetime | None = None
) -> dict[str, Any]:
    """Freshness of source ``name`` (see the module docstring)."""
    fetched_at = last_fetched_at(home, name)
    when = parse_time(fetched_at) if fetched_at else None
    if when is None:
        return {
            "fetched_at": None,
            "age_hours": None,
            "stale": True,
            "stale_after_hours": stale_after_hours,
        }
    age = ((now or datetime.now(UTC)) - when).total_seconds() / 3600
    return {
        "fetched_at": fetched_at,
        "age_hours": round(max(age, 0.0), 2),
        "stale": age > stale_after_hours,
        "stale_after_hours": stale_after_hours,
    }
