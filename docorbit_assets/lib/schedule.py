"""What runs when, from ``docorbit.toml`` alone (no Dagster import: ``docorbit schedule`` and
the Dagster definitions share it).

- ``job_names(sources) -> {source: slug}``: job-safe names (``[A-Za-z0-9_]``; ``-``/``.``/``@``
  become ``_``; slugs that clash get ``_<6 hex of the name>``). Jobs are ``ingest_<slug>``,
  schedules ``refresh_<slug>``, freshness checks ``fresh_<slug>``.
- ``schedule_table(registry) -> [{name, cron, job, source, refresh, timezone}]``: one row per
  source with a ``refresh`` cadence (``registry.refresh_cron``), then ``freshness_hourly``. A
  source's schedule runs ``refresh_check`` for that source alone (the cheap conditional check);
  the ``refresh_changed`` sensor then runs ``refresh_all`` for it only if it changed.
- ``next_runs(rows, now)``: each row with ``next_run`` (ISO-8601 UTC), computed with Dagster's
  own cron iterator when Dagster is importable (it is in this package's environment).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from docorbit_serve.registry import Registry, refresh_cron

__all__ = ["FRESHNESS_CRON", "job_names", "next_runs", "schedule_table", "slug"]

FRESHNESS_CRON = "0 * * * *"


def slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def job_names(sources: Iterable[str]) -> dict[str, str]:
    """``{source: job-safe slug}`` (see the module docstring)."""
    names = sorted(set(sources))
    slugs = [slug(n) for n in names]
    return {
        n: s if slugs.count(s) == 1 else f"{s}_{hashlib.sha256(n.encode()).hexdigest()[:6]}"
        for n, s in zip(names, slugs, strict=True)
    }


def schedule_table(registry: Registry) -> list[dict[str, Any]]:
    """Rows ``{name, cron, job, source, refresh, timezone}`` (per source, then the checks)."""
    slugs = job_names(s.name for s in registry.sources)
    rows: list[dict[str, Any]] = [
        {
            "name": f"refresh_{slugs[s.name]}",
            "cron": refresh_cron(s.refresh),
            "job": "refresh_check",
            "source": s.name,
            "refresh": s.refresh,
            "timezone": "UTC",
        }
        for s in sorted(registry.sources, key=lambda s: s.name)
        if s.refresh
    ]
    rows.append(
        {
            "name": "freshness_hourly",
            "cron": FRESHNESS_CRON,
            "job": "freshness_checks",
            "source": None,
            "refresh": "hourly",
            "timezone": "UTC",
        }
    )
    return rows


def next_runs(rows: list[dict[str, Any]], now: datetime | None = None) -> list[dict[str, Any]]:
    """``rows`` with ``next_run`` (ISO-8601 UTC) added."""
    from dagster._utils.schedules import cron_string_iterator

    start = (now or datetime.now(UTC)).timestamp()
    out = []
    for row in rows:
        tick = next(cron_string_iterator(start, row["cron"], "UTC"))
        out.append({**row, "next_run": tick.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")})
    return out
