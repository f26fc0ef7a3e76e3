"""Discover stage: ``sources`` (the configured entry) and ``discovered`` (ranked endpoints)."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

from typing import Any

import dagster as dg

from docorbit_assets.defs.checks import emit, own_rows_spec
from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib import discover as lib_discover
from docorbit_assets.lib import sources as lib_sources

__all__ = ["discovered", "sources"]

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
    """Candidate endpoints of the source, ranked (llms.txt, Markdown, local folder, ...)."""
    cfg = docorbit.source(context.partition_key)
    table = lib_discover.discover(cfg, docorbit.resolve().project_root)
    yield from emit("discovered", table, cfg.name)
