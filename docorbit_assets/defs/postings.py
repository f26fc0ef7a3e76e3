"""Postings: per-source (chunk, field, term) rows the index turns into BM25 weights."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.lib import postings as lib_postings

__all__ = ["postings"]


@dg.asset(partitions_def=SOURCE_PARTITIONS, group_name="extract", kinds={"parquet"})
def postings(chunks: pa.Table, symbols: pa.Table) -> pa.Table:
    """Field-term postings of every chunk (the input of postings-BM25)."""
    return lib_postings.build_postings(chunks, symbols)
