"""Slice stage: ``chunks``, one per heading section, with provenance and neighbours."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.checks import emit, own_rows_spec
from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.defs.reuse import previous_snapshot, reuse_metadata
from docorbit_assets.lib.refresh import slice_incremental

__all__ = ["chunks"]


@dg.asset(
    partitions_def=SOURCE_PARTITIONS,
    group_name="slice",
    kinds={"parquet"},
    check_specs=[own_rows_spec("chunks")],
)
def chunks(context: dg.AssetExecutionContext, docorbit: DocOrbitResource, pages: pa.Table):
    """Heading-section chunks of every page (unchanged pages keep their latest snapshot's)."""
    prev = previous_snapshot(docorbit, context.partition_key)
    table, stats = slice_incremental(pages, prev)
    yield from emit("chunks", table, context.partition_key, reuse_metadata(stats))
