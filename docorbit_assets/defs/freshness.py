"""Per-source freshness checks, visible on the ``published`` asset in the UI.

``freshness_checks(names)`` builds one non-blocking asset check ``fresh_<slug>`` on
``published`` per configured source: it fails (severity WARN) when the source's last successful
fetch is older than ``[settings] stale_after_hours`` (default 48) or never happened; metadata
carries ``fetched_at`` and ``age_hours``. The rule itself is ``docorbit_serve.freshness``, the
same one ``docorbit list``, MCP ``list_sources`` and search provenance use. The checks run with
every ``publish`` run and on their own hourly (``freshness_checks`` job, ``freshness_hourly``
schedule).
"""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg

from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_serve.freshness import source_freshness

__all__ = ["freshness_checks"]


def _check(source: str, job_slug: str) -> dg.AssetChecksDefinition:
    @dg.asset_check(
        asset="published",
        name=f"fresh_{job_slug}",
        blocking=False,
        description=f"Source {source!r} was fetched successfully within "
        "[settings] stale_after_hours (default 48).",
    )
    def fresh(docorbit: DocOrbitResource) -> dg.AssetCheckResult:
        home = docorbit.resolve()
        limit = docorbit.registry().stale_after_hours
        info = source_freshness(home, source, limit)
        return dg.AssetCheckResult(
            passed=not info["stale"],
            severity=dg.AssetCheckSeverity.WARN,
            metadata={
                "source": source,
                "fetched_at": info["fetched_at"] or "never",
                "age_hours": info["age_hours"] if info["age_hours"] is not None else -1.0,
                "stale_after_hours": limit,
            },
        )

    return fresh


def freshness_checks(slugs: dict[str, str]) -> list[dg.AssetChecksDefinition]:
    """One ``fresh_<slug>`` check per ``{source: slug}``."""
    return [_check(name, s) for name, s in sorted(slugs.items())]
