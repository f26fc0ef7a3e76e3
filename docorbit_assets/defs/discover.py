"""Discover stage: ``sources`` (the configured entry) and ``discovered`` (ranked endpoints)."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

from typing import Any

import dagster as dg

from docorbit_assets.defs.checks import emit, own_rows_spec
from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.defs.reuse import previous_snapshot
from docorbit_assets.lib import discover as lib_discover
from docorbit_assets.lib import sources as lib_sources
from docorbit_assets.lib.snapshot import conform

__all__ = ["ALLOW_HOSTS_TAG", "discovered", "run_allow_hosts", "sources"]

ALLOW_HOSTS_TAG = "docorbit/allow_hosts"

_COMMON: dict[str, Any] = {
    "partitions_def": SOURCE_PARTITIONS,
    "group_name": "discover",
    "kinds": {"parquet"},
}


@dg.asset(**_COMMON, check_specs=[own_rows_spec("sources")])
def sources(context: dg.AssetExecutionContext, docorbit: DocOrbitResource):
    """The source as configured in docorbit.toml (one row)."""
    cfg = docorbit.source(context.partition_key)
    yield from emit(
        "sources", lib_sources.source_table(cfg, docorbit.resolve().project_root), cfg.name
    )


@dg.asset(**_COMMON, deps=[sources], check_specs=[own_rows_spec("discovered")])
def discovered(context: dg.AssetExecutionContext, docorbit: DocOrbitResource):
    """Candidate endpoints of the source, ranked (llms.txt, Markdown, local folder, ...).
    A refresh run (tag ``docorbit/mode=refresh``) reuses the latest snapshot's discovery when
    the source's configuration is unchanged: only its endpoints are fetched again."""
    registry = docorbit.registry()
    cfg = registry.get(context.partition_key)
    if context.run.tags.get("docorbit/mode") == "refresh":
        prev = previous_snapshot(docorbit, cfg.name)
        if prev is not None:
            table = conform("discovered", prev.table("discovered"))
            yield from emit("discovered", table, cfg.name, {"reused": True})
            return
    hosts = (*registry.allow_hosts, *run_allow_hosts(context))
    table = lib_discover.discover(cfg, registry.project_root, allow_hosts=hosts)
    yield from emit("discovered", table, cfg.name)


def run_allow_hosts(context: dg.AssetExecutionContext) -> tuple[str, ...]:
    """Per-run allowances (``docorbit ingest --allow-host``), carried by the run tag
    ``docorbit/allow_hosts`` (comma-separated HOST:PORT)."""
    raw = context.run.tags.get(ALLOW_HOSTS_TAG, "")
    return tuple(h for h in raw.split(",") if h)
