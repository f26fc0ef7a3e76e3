"""Fetch stage: ``fetches``, the raw bodies of the best discovered candidate.

Short cut of a refresh: when the source's configuration, its discovery and every fetched
document (``fetched_at`` aside; conditional GETs answered 304 keep the stored rows) equal its
latest frozen snapshot's, nothing downstream can change, so the asset writes the new rows to
its staging file (freshness and the next conditional GETs read them) and produces **no
output**: Dagster skips ``pages`` … ``snapshots`` for the run, the source keeps its latest
snapshot and publishing is a no-op (metadata ``unchanged: true`` in the run's logs).
"""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import logging

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.checks import emit, own_rows_spec
from docorbit_assets.defs.discover import run_allow_hosts
from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.defs.reuse import previous_snapshot
from docorbit_assets.lib import fetch as lib_fetch
from docorbit_assets.lib.refresh import unchanged_since
from docorbit_assets.lib.snapshot import read_parquet, write_parquet

__all__ = ["fetches"]


class _SkippedGate(logging.Filter):
    """Dagster warns that a blocking check "emitted no result" when its asset was skipped; after
    the unchanged short cut every step behind the gate is skipped too, so the line is noise."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "emitted no result" not in record.getMessage()


logging.getLogger("dagster._core.execution.plan.active").addFilter(_SkippedGate())


@dg.asset(
    partitions_def=SOURCE_PARTITIONS,
    group_name="fetch",
    kinds={"parquet"},
    check_specs=[own_rows_spec("fetches")],
    output_required=False,
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
    prev = previous_snapshot(docorbit, cfg.name)
    if prev is not None and unchanged_since(prev, cfg, registry.project_root, discovered, table):
        write_parquet(table, staged)  # the IO manager's file: freshness, next conditional GETs
        context.log.info(f"{cfg.name}: unchanged since snapshot {prev.snapshot}; nothing to redo")
        yield list(emit("fetches", table, cfg.name))[-1]  # the check result, without the output
        return
    yield from emit("fetches", table, cfg.name)
