"""Extract stage: ``symbols``, ``endpoints``, ``examples``, ``pitfalls`` and ``links``."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

from typing import Any

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.checks import emit, own_rows_spec
from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib import extract as lib_extract

__all__ = ["endpoints", "examples", "links", "pitfalls", "symbols"]


def _spec(name: str) -> dict[str, Any]:
    return {
        "partitions_def": SOURCE_PARTITIONS,
        "group_name": "extract",
        "kinds": {"parquet"},
        "check_specs": [own_rows_spec(name)],
    }


@dg.asset(**_spec("symbols"))
def symbols(context: dg.AssetExecutionContext, pages: pa.Table, chunks: pa.Table):
    """API symbols (classes, functions, ...) named in the docs."""
    yield from emit("symbols", lib_extract.extract_symbols(pages, chunks), context.partition_key)


@dg.asset(**_spec("endpoints"))
def endpoints(context: dg.AssetExecutionContext, docorbit: DocOrbitResource, fetches: pa.Table):
    """HTTP endpoints from OpenAPI documents among the fetched bodies."""
    cfg = docorbit.source(context.partition_key)
    project_root = docorbit.resolve().project_root
    rows = lib_extract.extract_endpoints(cfg, fetches, project_root)
    yield from emit("endpoints", rows, cfg.name)


@dg.asset(**_spec("examples"))
def examples(context: dg.AssetExecutionContext, chunks: pa.Table):
    """Code examples with the section they illustrate."""
    yield from emit("examples", lib_extract.extract_examples(chunks), context.partition_key)


@dg.asset(**_spec("pitfalls"))
def pitfalls(context: dg.AssetExecutionContext, chunks: pa.Table):
    """Deprecations, breaking changes, removals and warnings."""
    yield from emit("pitfalls", lib_extract.extract_pitfalls(chunks), context.partition_key)


@dg.asset(**_spec("links"))
def links(context: dg.AssetExecutionContext, pages: pa.Table, chunks: pa.Table):
    """Links between pages (internal targets resolved to page ids)."""
    yield from emit("links", lib_extract.extract_links(pages, chunks), context.partition_key)
