"""Snapshot stage: ``snapshots`` freezes every per-source table under an immutable id."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import json

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib import snapshot as lib_snapshot

__all__ = ["snapshots"]


@dg.asset(partitions_def=SOURCE_PARTITIONS, group_name="snapshot", kinds={"parquet"})
def snapshots(
    context: dg.AssetExecutionContext,
    docorbit: DocOrbitResource,
    sources: pa.Table,
    discovered: pa.Table,
    fetches: pa.Table,
    pages: pa.Table,
    chunks: pa.Table,
    symbols: pa.Table,
    endpoints: pa.Table,
    examples: pa.Table,
    pitfalls: pa.Table,
    links: pa.Table,
    postings: pa.Table,
) -> dg.Output[pa.Table]:
    """The source's frozen snapshot (one row); staging it makes it the source's latest."""
    tables = {
        "sources": sources,
        "discovered": discovered,
        "fetches": fetches,
        "pages": pages,
        "chunks": chunks,
        "symbols": symbols,
        "endpoints": endpoints,
        "examples": examples,
        "pitfalls": pitfalls,
        "links": links,
        "postings": postings,
    }
    row = lib_snapshot.freeze(docorbit.resolve(), docorbit.source(context.partition_key), tables)
    info = row.to_pylist()[0]
    return dg.Output(
        row,
        metadata={
            "snapshot_id": info["id"],
            "created_at": info["created_at"],
            **{f"rows_{k}": v for k, v in json.loads(info["row_counts_json"]).items()},
        },
    )
