"""Named jobs: what the UI, the schedules and the CLI run (never ``__ephemeral_asset_job__``).

- ``ingest_<source>`` — one per ``docorbit.toml`` source: the per-source assets (``sources`` …
  ``snapshots`` with their checks) for that source's partition. ``docorbit ingest`` and the
  source's refresh schedule run it.
- ``refresh_all`` — the same assets, any source partition: ``docorbit refresh`` runs it once per
  source (tag ``docorbit/mode=refresh``: discovery reused, see ``defs/discover.py``).
- ``publish`` — ``search_index`` + ``published`` (+ their checks and the freshness checks).
- ``freshness_checks`` — only the per-source freshness checks on ``published``.
- ``gc`` — retention (``lib/gc.py``): removes unreferenced snapshots, index files and debris.

``job_names(sources)`` (``lib/schedule.py``) maps source names to job-safe names.
"""

from __future__ import annotations

import dagster as dg

from docorbit_assets.defs import PER_SOURCE_ASSETS, PUBLISH_ASSETS
from docorbit_assets.lib.schedule import job_names, slug

__all__ = [
    "MODE_TAG",
    "PUBLISH_JOB",
    "REFRESH_ALL",
    "freshness_job",
    "ingest_job",
    "job_names",
    "slug",
]

MODE_TAG = "docorbit/mode"

_PER_SOURCE = dg.AssetSelection.assets(*PER_SOURCE_ASSETS)

REFRESH_ALL = dg.define_asset_job(
    "refresh_all",
    selection=_PER_SOURCE,
    description="Refresh one source partition (conditional GETs, reused discovery and rows); "
    "`docorbit refresh` runs it for every source, then `publish`.",
    tags={MODE_TAG: "refresh"},
)
PUBLISH_JOB = dg.define_asset_job(
    "publish",
    selection=dg.AssetSelection.assets(*PUBLISH_ASSETS),
    description="Build the search index of the latest snapshots and swap published.json.",
)


def freshness_job(checks: list[dg.AssetChecksDefinition]) -> dg.UnresolvedAssetJobDefinition:
    """``freshness_checks``: only the per-source freshness checks (no materialization)."""
    return dg.define_asset_job(
        "freshness_checks",
        selection=dg.AssetSelection.checks(*checks),
        description="Evaluate every source's freshness check (stale after N hours without a "
        "successful fetch; N = [settings] stale_after_hours).",
    )


def ingest_job(source: str, job_slug: str) -> dg.UnresolvedAssetJobDefinition:
    """``ingest_<slug>``: the per-source assets of ``source``'s partition."""
    return dg.define_asset_job(
        f"ingest_{job_slug}",
        selection=_PER_SOURCE,
        description=f"Ingest source {source!r}: discover, fetch, normalize, slice, extract, "
        "snapshot (partition key = the source name).",
        tags={"docorbit/source": source},
    )
