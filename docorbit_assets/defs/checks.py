"""Quality gates as asset checks.

Blocking checks (``BLOCKING_CHECKS``) run as their own steps right after their asset; an ERROR
result fails the step and Dagster skips everything downstream in the run, so a bad source never
reaches ``snapshots`` (its previous snapshot stays the latest) and a bad index never reaches
``published``:

- ``pages_are_valid``  (``pages``):  schema, ids present and unique, rows of this source only,
  at least one page (a source that yields nothing is a failed ingest, not an empty library);
- ``chunks_are_valid`` (``chunks``): schema, ids present and unique, rows of this source only,
  every chunk's ``page_id`` is a staged page;
- ``search_index_is_complete`` (``search_index``): the built index file opens read-only and holds
  exactly the chunks and pages of the snapshots it was planned from;
- ``retrieval_benchmark`` (``search_index``): every source whose ``docorbit.toml`` entry names a
  query set (``eval_queries = "path.jsonl"``, relative to the project; lines as in the shared
  dev set: ``id``, ``query``, ``gold``/``alternates`` sections) is scored on the candidate index
  (section MRR@10, R@5; its library as filter). It fails when a score falls below the currently
  published index's score on the same queries by more than ``eval_tolerance`` (default
  ``DEFAULT_EVAL_TOLERANCE``) or MRR@10 is below ``eval_min_mrr`` (optional). Scores are check
  metadata. Without any query set it passes with ``sources_scored: 0``.

Cheap invariants run inside the asset step (``rows_belong_to_source``, a ``check_specs`` entry
on every per-source table asset, via ``own_rows_spec``/``emit``).
"""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import duckdb
import numpy as np
import pyarrow as pa

from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib.snapshot import read_parquet, table_problems
from docorbit_serve.catalog import Catalog, IndexFile, open_index, vectors_file
from docorbit_serve.errors import NotPublished
from docorbit_serve.evaluate import load_queries, retrieval_gate, run_queries, score_run
from docorbit_serve.registry import SourceConfig
from docorbit_serve.web.timings import record_benchmark

__all__ = [
    "BLOCKING_CHECKS",
    "chunks_are_valid",
    "emit",
    "own_rows_spec",
    "pages_are_valid",
    "retrieval_benchmark",
    "search_index_is_complete",
]

DEFAULT_EVAL_TOLERANCE = 0.02

_OWN_ROWS = "rows_belong_to_source"


def own_rows_spec(asset: str) -> dg.AssetCheckSpec:
    return dg.AssetCheckSpec(
        _OWN_ROWS, asset=asset, description="Every row belongs to the partition's source."
    )


def emit(
    asset: str, table: pa.Table, source: str, metadata: dict | None = None
) -> Iterator[dg.Output | dg.AssetCheckResult]:
    """The asset's output (with ``metadata``), then its ``rows_belong_to_source`` result."""
    yield dg.Output(table, metadata=metadata)
    column = "name" if asset == "sources" else "source"
    others = sorted({v for v in table.column(column).to_pylist() if v != source})
    yield dg.AssetCheckResult(
        check_name=_OWN_ROWS,
        asset_key=asset,
        passed=not others,
        metadata={"rows": table.num_rows, "other_sources": ", ".join(others[:5])},
    )


def _staged(context: dg.AssetCheckExecutionContext, docorbit: DocOrbitResource, asset: str):
    source = context.op_execution_context.partition_key
    return source, read_parquet(docorbit.resolve().staging_file(asset, source))


def _result(problems: list[str], rows: int) -> dg.AssetCheckResult:
    return dg.AssetCheckResult(
        passed=not problems,
        severity=dg.AssetCheckSeverity.ERROR,
        metadata={"rows": rows, "problems": "\n".join(problems[:20]) or "none"},
    )


@dg.asset_check(
    asset="pages", blocking=True, description="Schema, unique ids, own rows, not empty."
)
def pages_are_valid(
    context: dg.AssetCheckExecutionContext, docorbit: DocOrbitResource
) -> dg.AssetCheckResult:
    source, pages = _staged(context, docorbit, "pages")
    problems = table_problems("pages", pages, source=source)
    if pages.num_rows == 0:
        problems.append(f"source {source!r} produced no pages")
    return _result(problems, pages.num_rows)


@dg.asset_check(
    asset="chunks", blocking=True, description="Schema, unique ids, own rows, pages exist."
)
def chunks_are_valid(
    context: dg.AssetCheckExecutionContext, docorbit: DocOrbitResource
) -> dg.AssetCheckResult:
    source, chunks = _staged(context, docorbit, "chunks")
    problems = table_problems("chunks", chunks, source=source)
    if not problems:
        pages = read_parquet(docorbit.resolve().staging_file("pages", source))
        orphans = set(chunks.column("page_id").to_pylist()) - set(pages.column("id").to_pylist())
        if orphans:
            problems.append(f"chunks: {len(orphans)} page ids not among the pages")
    return _result(problems, chunks.num_rows)


def _frozen_counts(docorbit: DocOrbitResource, manifest: dict) -> dict[str, int]:
    home = docorbit.resolve()
    totals = {"chunks": 0, "pages": 0}
    for name, entry in manifest["sources"].items():
        path = home.table_dir("snapshots", name, entry["snapshot"]) / "part-0.parquet"
        counts = json.loads(read_parquet(path).column("row_counts_json")[0].as_py())
        for table in totals:
            totals[table] += int(counts.get(table, 0))
    return totals


@dg.asset_check(
    asset="search_index",
    blocking=True,
    description="The index file opens read-only and holds exactly the planned chunks and pages "
    "(and, with hybrid on, one vector per chunk).",
)
def search_index_is_complete(
    context: dg.AssetCheckExecutionContext, docorbit: DocOrbitResource
) -> dg.AssetCheckResult:
    home = docorbit.resolve()
    manifest = json.loads((home.staging / "search_index" / "search_index.json").read_text())
    path = Path(home.path / manifest["index"])
    expected = _frozen_counts(docorbit, manifest)
    problems: list[str] = []
    try:
        # The serving configuration: a catalog in this process may hold the same file open
        # (a re-ingest of unchanged snapshots), and DuckDB refuses a second configuration.
        con = open_index(path)
        try:
            for table, want in expected.items():
                row = con.table(table).count("*").fetchone()
                got = row[0] if row else 0
                if got != want:
                    problems.append(f"{table}: {got} rows in the index, {want} in the snapshots")
            vectors = manifest.get("vectors")
            if vectors:
                rows = np.load(vectors_file(vectors, path.parent), mmap_mode="r").shape[0]
                if rows != expected.get("chunks"):
                    problems.append(f"vectors: {rows} rows, {expected.get('chunks')} chunks")
        finally:
            con.close()
    except duckdb.Error as e:
        problems.append(f"index {path} does not open: {e}")
    except (OSError, ValueError) as e:
        problems.append(f"vectors file does not open: {e}")
    return dg.AssetCheckResult(
        passed=not problems,
        metadata={"index": str(path), **expected, "problems": "\n".join(problems) or "none"},
    )


def _eval_entries(docorbit: DocOrbitResource) -> dict[str, tuple[SourceConfig, Path]]:
    """Source name -> (its config, its query file) for sources that name ``eval_queries``."""
    reg = docorbit.registry()
    out = {}
    for src in reg.sources:
        if src.eval_queries:
            q = Path(src.eval_queries).expanduser()
            out[src.name] = (src, q if q.is_absolute() else reg.project_root / q)
    return out


def _score(catalog, queries: list, library: str) -> dict:
    rows = run_queries(catalog, [{**q, "library": library} for q in queries])
    return score_run(queries, rows)


def _record_history(home, name: str, scores: dict, manifest: dict) -> None:
    """Append the candidate's scores to the dashboard's benchmark history
    (``home/benchmarks/retrieval.jsonl``); history is a by-product, never a reason to fail."""
    from datetime import UTC, datetime

    row = {
        "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "source": name,
        "mrr@10": scores["mrr@10"],
        "r@5": scores["r@5"],
        "n": scores["n"],
        "publish_id": manifest.get("publish_id"),
    }
    with contextlib.suppress(OSError):
        record_benchmark(home, row)


@dg.asset_check(
    asset="search_index",
    blocking=True,
    description="Sources with a query set keep their retrieval quality (MRR@10, R@5).",
)
def retrieval_benchmark(
    context: dg.AssetCheckExecutionContext, docorbit: DocOrbitResource
) -> dg.AssetCheckResult:
    home = docorbit.resolve()
    manifest = json.loads((home.staging / "search_index" / "search_index.json").read_text())
    entries = {n: e for n, e in _eval_entries(docorbit).items() if n in manifest["sources"]}
    metadata: dict = {"sources_scored": len(entries)}
    problems: list[str] = []
    if entries:
        candidate = IndexFile(home.path / manifest["index"], manifest)
        published = Catalog(home)
        try:
            try:
                published.manifest()
                has_published = True
            except NotPublished:
                has_published = False
            for name, (src, query_file) in sorted(entries.items()):
                library = manifest["sources"][name]["library"]
                queries = load_queries(query_file)
                cand = _score(candidate, queries, library)
                base = _score(published, queries, library) if has_published else None
                tol = DEFAULT_EVAL_TOLERANCE if src.eval_tolerance is None else src.eval_tolerance
                found = retrieval_gate(cand, base, tolerance=tol, min_mrr=src.eval_min_mrr)
                problems += [f"{name}: {p}" for p in found]
                metadata[f"{name}.mrr@10"] = cand["mrr@10"]
                metadata[f"{name}.r@5"] = cand["r@5"]
                metadata[f"{name}.n"] = cand["n"]
                _record_history(home, name, cand, manifest)
                if base is not None:
                    metadata[f"{name}.published_mrr@10"] = base["mrr@10"]
                    metadata[f"{name}.published_r@5"] = base["r@5"]
        finally:
            candidate.close()
            published.close()
    return dg.AssetCheckResult(
        passed=not problems,
        severity=dg.AssetCheckSeverity.ERROR,
        metadata={**metadata, "problems": "\n".join(problems) or "none"},
    )


BLOCKING_CHECKS = [
    pages_are_valid,
    chunks_are_valid,
    search_index_is_complete,
    retrieval_benchmark,
]
