"""Normalize stage: ``pages``, one normalized Markdown page per fetched document."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg
import pyarrow as pa

from docorbit_assets.defs.checks import emit, own_rows_spec
from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.defs.reuse import previous_snapshot, reuse_metadata
from docorbit_assets.lib.refresh import normalize_incremental

__all__ = ["pages"]


@dg.asset(
    partitions_def=SOURCE_PARTITIONS,
    group_name="normalize",
    kinds={"parquet"},
    check_specs=[own_rows_spec("pages")],
)
def pages(context: dg.AssetExecutionContext, docorbit: DocOrbitResource, fetches: pa.Table):
    """Normalized pages (title, Markdown, headings, links, code examples, tokens, security
    annotations, truncation). Local paths are relative to the source folder resolved exactly
    as fetch resolved it (against the project root). Unchanged documents keep the latest
    snapshot's page rows (lib/refresh.py)."""
    cfg = docorbit.source(context.partition_key)
    project_root = docorbit.resolve().project_root
    prev = previous_snapshot(docorbit, cfg.name)
    table, stats = normalize_incremental(cfg, fetches, project_root, prev)
    yield from emit("pages", table, cfg.name, reuse_metadata(stats))
