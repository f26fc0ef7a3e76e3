"""Postings: per-source (chunk, field, term) rows the index turns into BM25 weights."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.defs.reuse import previous_snapshot
from docorbit_assets.lib import postings as lib_postings
from docorbit_assets.lib.refresh import reuse_table

__all__ = ["postings"]


@dg.asset(partitions_def=SOURCE_PARTITIONS, group_name="extract", kinds={"parquet"})
def postings(
    context: dg.AssetExecutionContext,
    docorbit: DocOrbitResource,
    chunks: pa.Table,
    symbols: pa.Table,
) -> dg.Output[pa.Table]:
    """Field-term postings of every chunk (the input of postings-BM25); reused from the latest
    snapshot when its chunks and symbols are unchanged."""
    prev = previous_snapshot(docorbit, context.partition_key)
    reused = reuse_table("postings", {"chunks": chunks, "symbols": symbols}, prev)
    table = reused if reused is not None else lib_postings.build_postings(chunks, symbols)
    return dg.Output(table, metadata={"reused": reused is not None})
