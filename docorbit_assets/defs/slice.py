"""Slice stage: ``chunks``, one per heading section, with provenance and neighbours."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.checks import emit, own_rows_spec
from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.lib import slice as lib_slice

__all__ = ["chunks"]


@dg.asset(
    partitions_def=SOURCE_PARTITIONS,
    group_name="slice",
    kinds={"parquet"},
    check_specs=[own_rows_spec("chunks")],
)
def chunks(context: dg.AssetExecutionContext, pages: pa.Table):
    """Heading-section chunks of every page."""
    yield from emit("chunks", lib_slice.slice_pages(pages), context.partition_key)
