"""Postings: per-source (chunk, field, term) rows the index turns into BM25 weights."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.defs.reuse import previous_snapshot, reuse_metadata
from docorbit_assets.lib import postings as lib_postings
from docorbit_assets.lib.refresh import reuse_by_chunk

__all__ = ["postings"]


@dg.asset(partitions_def=SOURCE_PARTITIONS, group_name="extract", kinds={"parquet"})
def postings(
    context: dg.AssetExecutionContext,
    docorbit: DocOrbitResource,
    chunks: pa.Table,
    symbols: pa.Table,
) -> dg.Output[pa.Table]:
    """Field-term postings of every chunk (the input of postings-BM25). An unchanged chunk keeps
    the latest snapshot's postings (its symbols come from the chunk alone, so they are unchanged
    too); only changed chunks are analysed (``lib/refresh.reuse_by_chunk``)."""
    prev = previous_snapshot(docorbit, context.partition_key)
    table, stats = reuse_by_chunk(
        "postings", chunks, prev, lambda todo: lib_postings.build_postings(todo, symbols)
    )
    return dg.Output(table, metadata=reuse_metadata(stats))
