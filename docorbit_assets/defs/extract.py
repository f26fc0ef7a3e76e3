"""Extract stage: ``symbols``, ``endpoints``, ``examples``, ``pitfalls`` and ``links``.

Incremental against the source's latest snapshot (``lib/refresh.py``): ``symbols``,
``examples`` and ``pitfalls`` reuse the rows of every unchanged chunk and extract the changed
chunks alone (``reuse_by_chunk``; a local source's chunks with include markers are always
re-extracted: the files they include are not inputs); ``links`` reuse unchanged pages' rows
while the source's page URLs are unchanged (``reuse_links``); ``endpoints`` (whole spec
documents) are reused when every fetched row is unchanged (``reuse_table``). Metadata
``rows_reused`` / ``rows_computed`` count chunks (pages for ``links``).
"""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

from collections.abc import Callable
from pathlib import Path
from typing import Any

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.checks import emit, own_rows_spec
from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.defs.reuse import previous_snapshot, reuse_metadata
from docorbit_assets.lib import extract as lib_extract
from docorbit_assets.lib.refresh import include_hinted, reuse_by_chunk, reuse_links, reuse_table

__all__ = ["endpoints", "examples", "links", "pitfalls", "symbols"]


def _spec(name: str) -> dict[str, Any]:
    return {
        "partitions_def": SOURCE_PARTITIONS,
        "group_name": "extract",
        "kinds": {"parquet"},
        "check_specs": [own_rows_spec(name)],
    }


def _table(
    name: str,
    source: str,
    docorbit: DocOrbitResource,
    inputs: dict[str, pa.Table],
    compute: Callable[[], pa.Table],
):
    reused = reuse_table(name, inputs, previous_snapshot(docorbit, source))
    table = reused if reused is not None else compute()
    yield from emit(name, table, source, {"reused": reused is not None})


def _per_chunk(
    name: str,
    source: str,
    docorbit: DocOrbitResource,
    chunks: pa.Table,
    compute: Callable[[pa.Table], pa.Table],
    recompute: set[str] | None = None,
):
    prev = previous_snapshot(docorbit, source)
    table, stats = reuse_by_chunk(name, chunks, prev, compute, recompute or set())
    yield from emit(name, table, source, reuse_metadata(stats))


@dg.asset(**_spec("symbols"))
def symbols(
    context: dg.AssetExecutionContext, docorbit: DocOrbitResource, pages: pa.Table, chunks: pa.Table
):
    """API symbols (classes, functions, ...) named in the docs."""
    yield from _per_chunk(
        "symbols",
        context.partition_key,
        docorbit,
        chunks,
        lambda todo: lib_extract.extract_symbols(pages, todo),
    )


@dg.asset(**_spec("endpoints"))
def endpoints(context: dg.AssetExecutionContext, docorbit: DocOrbitResource, fetches: pa.Table):
    """HTTP endpoints from OpenAPI documents among the fetched bodies."""
    cfg = docorbit.source(context.partition_key)
    project_root = docorbit.resolve().project_root
    yield from _table(
        "endpoints",
        cfg.name,
        docorbit,
        {"fetches": fetches},
        lambda: lib_extract.extract_endpoints(cfg, fetches, project_root),
    )


@dg.asset(**_spec("examples"))
def examples(context: dg.AssetExecutionContext, docorbit: DocOrbitResource, chunks: pa.Table):
    """Code examples with the section they illustrate (include markers resolved from a local
    source's tree)."""
    cfg = docorbit.source(context.partition_key)
    folder = Path(cfg.resolved_location(docorbit.resolve().project_root))
    source_root = folder if not cfg.is_web and folder.is_dir() else None
    # included snippet files are not inputs: chunks that may include one are always extracted
    hinted = include_hinted(chunks) if source_root is not None else set()
    yield from _per_chunk(
        "examples",
        cfg.name,
        docorbit,
        chunks,
        lambda todo: lib_extract.extract_examples(todo, source_root),
        hinted,
    )


@dg.asset(**_spec("pitfalls"))
def pitfalls(context: dg.AssetExecutionContext, docorbit: DocOrbitResource, chunks: pa.Table):
    """Deprecations, breaking changes, removals and warnings."""
    yield from _per_chunk(
        "pitfalls", context.partition_key, docorbit, chunks, lib_extract.extract_pitfalls
    )


@dg.asset(**_spec("links"))
def links(
    context: dg.AssetExecutionContext, docorbit: DocOrbitResource, pages: pa.Table, chunks: pa.Table
):
    """Links between pages (internal targets resolved to page ids)."""
    prev = previous_snapshot(docorbit, context.partition_key)
    table, stats = reuse_links(
        pages, chunks, prev, lambda todo, sub: lib_extract.extract_links(todo, sub, pages)
    )
    yield from emit("links", table, context.partition_key, reuse_metadata(stats))
