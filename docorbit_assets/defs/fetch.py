"""Fetch stage: ``fetches``, the raw bodies of the best discovered candidate."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.checks import emit, own_rows_spec
from docorbit_assets.defs.discover import run_allow_hosts
from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib import fetch as lib_fetch
from docorbit_assets.lib.snapshot import read_parquet

__all__ = ["fetches"]


@dg.asset(
    partitions_def=SOURCE_PARTITIONS,
    group_name="fetch",
    kinds={"parquet"},
    check_specs=[own_rows_spec("fetches")],
)
def fetches(context: dg.AssetExecutionContext, docorbit: DocOrbitResource, discovered: pa.Table):
    """One row per fetched document (status, bytes, etag, error code, body)."""
    registry = docorbit.registry()
    cfg = registry.get(context.partition_key)
    staged = docorbit.resolve().staging_file("fetches", cfg.name)
    previous = read_parquet(staged) if staged.exists() else None  # for conditional GETs
    table = lib_fetch.fetch_source(
        cfg,
        discovered,
        registry.project_root,
        allow_hosts=(*registry.allow_hosts, *run_allow_hosts(context)),
        previous=previous,
    )
    yield from emit("fetches", table, cfg.name)
