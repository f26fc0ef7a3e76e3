"""Extract stage: ``symbols``, ``endpoints``, ``examples``, ``pitfalls`` and ``links``.

Each table is whole-source; when its inputs equal the latest snapshot's (``fetched_at``
aside), the snapshot's rows are reused instead of extracting again (``lib/refresh.py``).
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
from docorbit_assets.defs.reuse import previous_snapshot
from docorbit_assets.lib import extract as lib_extract
from docorbit_assets.lib.refresh import reuse_table

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


@dg.asset(**_spec("symbols"))
def symbols(
    context: dg.AssetExecutionContext, docorbit: DocOrbitResource, pages: pa.Table, chunks: pa.Table
):
    """API symbols (classes, functions, ...) named in the docs."""
    inputs = {"pages": pages, "chunks": chunks}
    yield from _table(
        "symbols",
        context.partition_key,
        docorbit,
        inputs,
        lambda: lib_extract.extract_symbols(pages, chunks),
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
    if source_root is not None:  # included snippet files are not in the inputs: never reuse
        table = lib_extract.extract_examples(chunks, source_root)
        yield from emit("examples", table, cfg.name, {"reused": False})
        return
    yield from _table(
        "examples",
        context.partition_key,
        docorbit,
        {"chunks": chunks},
        lambda: lib_extract.extract_examples(chunks, source_root),
    )


@dg.asset(**_spec("pitfalls"))
def pitfalls(context: dg.AssetExecutionContext, docorbit: DocOrbitResource, chunks: pa.Table):
    """Deprecations, breaking changes, removals and warnings."""
    yield from _table(
        "pitfalls",
        context.partition_key,
        docorbit,
        {"chunks": chunks},
        lambda: lib_extract.extract_pitfalls(chunks),
    )


@dg.asset(**_spec("links"))
def links(
    context: dg.AssetExecutionContext, docorbit: DocOrbitResource, pages: pa.Table, chunks: pa.Table
):
    """Links between pages (internal targets resolved to page ids)."""
    yield from _table(
        "links",
        context.partition_key,
        docorbit,
        {"pages": pages, "chunks": chunks},
        lambda: lib_extract.extract_links(pages, chunks),
    )
