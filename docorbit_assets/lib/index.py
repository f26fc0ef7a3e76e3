"""Index stage: ``build_index(home, manifest) -> Path`` of ``home/index/<publish_id>.duckdb``.

Reads the frozen snapshot Parquet of every source named in ``manifest["sources"]``
(``tables/<table>/source=<s>/snapshot=<id>/part-0.parquet``) and writes one self-contained
DuckDB file holding:
  - the tables ``INDEX_TABLES`` (schemas.py columns + ``snapshot``; a table no source froze is
    created empty with its schema);
  - the postings-BM25 structures (``sql/index_bm25.sql``): ``search_docs`` (integer chunk ids and
    filter columns), ``bm25_fields`` (average field lengths), ``bm25_terms`` (term dictionary with
    df and idf), ``bm25_postings`` (one row per term and chunk: the term, its idf and one
    length-normalised tf column per field in ``BM25_FIELDS``, stored in term order);
  - the FTS-extension index over ``fts_docs`` (``sql/index_fts.sql``);
  - ``index_meta`` (publish id, schema/analyzer/scoring versions, k1, b).

The file is written to a temp name in the same folder, checkpointed, fsynced and renamed into
place with ``os.replace``, so ``index/<publish_id>.duckdb`` is either absent or complete. A
failed build removes its temp file and raises ``IngestError``.
"""

from __future__ import annotations

import contextlib
import os
import re
import uuid
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from docorbit_serve.errors import IngestError
from docorbit_serve.home import Home
from docorbit_serve.schemas import SCHEMA_VERSION, SCHEMAS
from docorbit_serve.search.analyze import ANALYZER_VERSION, FIELDS
from docorbit_serve.search.fts import DUCKDB_CONFIG, load_extension
from docorbit_serve.search.scoring import SCORING, ScoringConfig
from docorbit_serve.search.sqlfiles import statements

__all__ = ["INDEX_TABLES", "build_index", "index_schema"]

INDEX_TABLES = (
    "sources",
    "snapshots",
    "pages",
    "chunks",
    "symbols",
    "endpoints",
    "examples",
    "pitfalls",
    "links",
    "postings",
)
# The per-field columns of bm25_postings (sql/index_bm25.sql, sql/search_bm25*.sql).
BM25_FIELDS = ("body", "heading", "breadcrumb", "title", "code", "symbol")
_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,128}$")
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def index_schema(table: str) -> pa.Schema:
    """The schema of ``table`` inside the index: schemas.py columns plus ``snapshot``."""
    schema = SCHEMAS[table]
    if "snapshot" not in schema.names:
        schema = schema.append(pa.field("snapshot", pa.string()))
    return schema


def _conform(tbl: pa.Table, schema: pa.Schema, snapshot: str) -> pa.Table:
    cols = []
    for f in schema:
        if f.name in tbl.column_names:
            cols.append(tbl.column(f.name).cast(f.type))
        elif f.name == "snapshot":
            cols.append(pa.array([snapshot] * tbl.num_rows, type=pa.string()))
        else:
            cols.append(pa.nulls(tbl.num_rows, type=f.type))
    return pa.Table.from_arrays(cols, schema=schema)


def _gather(home: Home, table: str, sources: dict[str, Any]) -> pa.Table:
    schema = index_schema(table)
    parts = []
    for name in sorted(sources):
        snap = str(sources[name]["snapshot"])
        path = home.table_dir(table, name, snap) / "part-0.parquet"
        if not path.is_file():
            continue
        try:
            tbl = pq.read_table(path)
        except (OSError, pa.ArrowException) as e:
            raise IngestError(f"cannot read frozen table {path}: {e}") from e
        parts.append(_conform(tbl, schema, snap))
    if not parts:
        return schema.empty_table()
    return pa.concat_tables(parts)


def _run(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any]) -> None:
    for stmt in statements(name):
        wanted = set(_PARAM.findall(stmt))
        con.execute(stmt, {k: v for k, v in params.items() if k in wanted} or None)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(path: Path) -> None:
    for p in (path, path.with_name(path.name + ".wal")):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


def build_index(home: Home, manifest: dict[str, Any], *, cfg: ScoringConfig = SCORING) -> Path:
    """Build the search index of a candidate publication; returns its final path."""
    publish_id = str(manifest.get("publish_id") or "")
    if not _SAFE_ID.match(publish_id):
        raise IngestError(f"invalid publish id {publish_id!r}", detail={"manifest": manifest})
    if tuple(FIELDS) != BM25_FIELDS:
        raise IngestError(
            f"the analyzer's fields {FIELDS} differ from the index's BM25 field columns "
            f"{BM25_FIELDS}; update sql/index_bm25.sql and sql/search_bm25*.sql"
        )
    sources = dict(manifest.get("sources") or {})
    home.index_dir.mkdir(parents=True, exist_ok=True)
    final = home.index_dir / f"{publish_id}.duckdb"
    tmp = home.index_dir / f".{publish_id}.{uuid.uuid4().hex[:12]}.tmp.duckdb"
    params = {
        "k1": cfg.k1,
        "b": cfg.b,
        "publish_id": publish_id,
        "schema_version": SCHEMA_VERSION,
        "analyzer_version": ANALYZER_VERSION,
        "scoring_version": cfg.version,
    }
    params_text = {k: str(v) for k, v in params.items()}
    try:
        con = duckdb.connect(str(tmp), config=dict(DUCKDB_CONFIG))
        try:
            load_extension(con)
            for table in INDEX_TABLES:
                tbl = _gather(home, table, sources)
                if table == "chunks":  # stored in id order: id lookups skip row groups
                    tbl = tbl.sort_by("id")
                con.from_arrow(tbl).create(table)
            _run(con, "index_bm25", params)
            _run(con, "index_fts", params)
            _run(con, "index_meta", params_text)  # ends with CHECKPOINT
        finally:
            con.close()
        _fsync(tmp)
        os.replace(tmp, final)
        _fsync(home.index_dir)
    except duckdb.Error as e:
        _remove(tmp)
        raise IngestError(f"building the search index {final} failed: {e}") from e
    except BaseException:
        _remove(tmp)
        raise
    return final
