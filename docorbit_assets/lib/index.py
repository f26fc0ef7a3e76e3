"""Index stage: ``build_index(home, manifest) -> Path`` of ``home/index/<publish_id>.duckdb``.

Reads the frozen snapshot Parquet of every source named in ``manifest["sources"]``
(``tables/<table>/source=<s>/snapshot=<id>/part-0.parquet``) and writes one self-contained
DuckDB file holding:
  - the tables ``INDEX_TABLES`` (schemas.py columns + ``snapshot``; a table no source froze is
    created empty with its schema); the frozen ``postings`` are an input only (read by DuckDB
    from their Parquet files into TEMP tables of the build's connection, which DuckDB spills
    under the index folder when large, ``sql/index_stage.sql``), not stored;
  - the postings-BM25 structures: ``bm25_fields`` (average field lengths) and ``bm25_terms``
    (term dictionary with df and idf) (``sql/index_bm25_terms.sql``), ``bm25_postings`` (one
    row per term and chunk: the term, its idf and one length-normalised tf column per field in
    ``BM25_FIELDS``, stored in term order; ``sql/index_bm25.sql``), and ``search_docs``
    (integer chunk ids ``cid`` = the chunk's rowid + 1, filter and re-ranking columns, among
    them ``summary``: the chunk's opening terms, ``analyze.summary_terms`` of its first
    ``cfg.summary_words`` words, computed here in Python; ``sql/index_docs.sql``);
  - the FTS-extension index over ``fts_docs`` (``sql/index_fts_docs.sql``, filled in batches of
    ``FTS_BATCH`` chunks by ``sql/index_fts_batch.sql`` to bound memory, indexed by
    ``sql/index_fts.sql``);
  - ``index_meta`` (publish id, schema/analyzer/scoring versions, ``INDEX_FORMAT``, k1, b);
    ``index_format(path)`` reads the format back ("" when unreadable).

Row groups are sized per table for how search reads it (``_write``): the default 122,880 rows
for the catalog tables, the term dictionary and the FTS index; ``POSTINGS_ROW_GROUP`` for
``bm25_postings`` (a query term's branch scans fewer rows around its term);
``LOOKUP_ROW_GROUP`` for ``chunks`` and ``search_docs`` (a search reads ~100 scattered rows
of them). DuckDB sets the size per attached session and a checkpoint merges a table's row
groups up to the current session's size (never splits them), so the file is attached once per
phase, largest size first.

1M chunks (~55M postings): ~5 min on 2 cores, peak ~10 GB resident, 2.3 GB file.

The file is written to a temp name in the same folder, checkpointed, fsynced and renamed into
place with ``os.replace``, so ``index/<publish_id>.duckdb`` is either absent or complete. A
failed build removes its temp file and raises ``IngestError``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import uuid
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from docorbit_serve.catalog import open_index
from docorbit_serve.errors import IngestError
from docorbit_serve.home import Home
from docorbit_serve.schemas import SCHEMA_VERSION, SCHEMAS
from docorbit_serve.search.analyze import ANALYZER_VERSION, FIELDS, summary_terms
from docorbit_serve.search.fts import DUCKDB_CONFIG, load_extension
from docorbit_serve.search.scoring import INDEX_FORMAT, SCORING, ScoringConfig
from docorbit_serve.search.sqlfiles import sql, statements

__all__ = ["INDEX_TABLES", "build_index", "index_format", "index_schema"]

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
)
# The per-field columns of bm25_postings (sql/index_bm25.sql, sql/search_bm25*.sql).
BM25_FIELDS = ("body", "heading", "breadcrumb", "title", "code", "symbol")
# Rows per row group (see the module docstring); None = DuckDB's default (122,880).
POSTINGS_ROW_GROUP = 16_384
LOOKUP_ROW_GROUP = 2_048
# Chunks per batch of FTS documents (sql/index_fts_batch.sql): bounds the build's memory.
FTS_BATCH = 131_072
# Chunks per slice of texts read into Python for their opening terms (``_summaries``).
SUMMARY_BATCH = 65_536
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


def _attach(con: duckdb.DuckDBPyConnection, path: Path, row_group: int | None) -> None:
    # ATTACH takes a literal, not a parameter; the path is ours (home/index/.<safe id>.tmp...),
    # and single quotes are doubled so that no path can break out of the literal.
    literal = str(path).replace("'", "''")
    option = f" (ROW_GROUP_SIZE {int(row_group)})" if row_group else ""
    con.execute(f"ATTACH '{literal}' AS idx{option}")
    con.execute("USE idx")


def _detach(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("CHECKPOINT idx")
    con.execute("USE memory")
    con.execute("DETACH idx")


def _summaries(chunks: pa.Table, words: int) -> pa.Table:
    """(chunk_id, summary): each chunk's opening terms, space-joined (``summary_terms``).

    Texts are read in slices of ``SUMMARY_BATCH`` (not all as Python strings at once)."""
    summary: list[str] = []
    for lo in range(0, chunks.num_rows, SUMMARY_BATCH):
        texts = chunks.column("text").slice(lo, SUMMARY_BATCH).to_pylist()
        summary += [" ".join(summary_terms(t or "", words)) for t in texts]
    return pa.table({"chunk_id": chunks.column("id"), "summary": pa.array(summary, pa.string())})


def _stage(
    con: duckdb.DuckDBPyConnection, home: Home, sources: dict[str, Any], cfg: ScoringConfig
) -> int:
    """TEMP tables of the chunks and postings (``sql/index_stage.sql``); returns the chunks.

    The postings are read by DuckDB straight from their Parquet files (only the columns the
    build needs; at 1M chunks they are ~55M rows, too many to hold as Python objects)."""
    chunks = _gather(home, "chunks", sources)
    files = []
    for name in sorted(sources):
        path = home.table_dir("postings", name, str(sources[name]["snapshot"])) / "part-0.parquet"
        if path.is_file():
            files.append(str(path))
    cols = ["chunk_id", "field", "term", "tf", "doc_len"]
    if files:
        postings = con.read_parquet(files).select(*cols)
    else:
        postings = con.from_arrow(index_schema("postings").empty_table().select(cols))
    postings.create_view("postings_in")
    con.register("chunks_in", chunks)
    con.register("summaries_in", _summaries(chunks, cfg.summary_words))
    try:
        _run(con, "index_stage", {})
    finally:
        con.unregister("chunks_in")
        con.unregister("summaries_in")
        con.execute("DROP VIEW postings_in")
    return chunks.num_rows


def _write(
    con: duckdb.DuckDBPyConnection,
    tmp: Path,
    home: Home,
    sources: dict[str, Any],
    n: int,
    params: dict[str, Any],
) -> None:
    """The phases of the build, largest row groups first (see the module docstring)."""
    _attach(con, tmp, None)
    for table in INDEX_TABLES:
        if table != "chunks":  # chunks come from the staged copy, in the last phase
            con.from_arrow(_gather(home, table, sources)).create(table)
    _run(con, "index_bm25_terms", params)
    _run(con, "index_fts_docs", params)
    for lo in range(1, n + 1, FTS_BATCH):
        _run(con, "index_fts_batch", {"lo": lo, "hi": lo + FTS_BATCH})
    _run(con, "index_fts", params)
    _detach(con)
    _attach(con, tmp, POSTINGS_ROW_GROUP)
    _run(con, "index_bm25", params)
    _detach(con)
    _attach(con, tmp, LOOKUP_ROW_GROUP)
    _run(con, "index_docs", params)
    _run(con, "index_meta", {k: str(v) for k, v in params.items()})  # ends with CHECKPOINT
    _detach(con)


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
    spill = tmp.with_name(tmp.name + ".spill")
    params = {
        "k1": cfg.k1,
        "b": cfg.b,
        "publish_id": publish_id,
        "schema_version": SCHEMA_VERSION,
        "analyzer_version": ANALYZER_VERSION,
        "scoring_version": cfg.version,
        "index_format": INDEX_FORMAT,
    }
    try:
        # An in-memory connection: the staged inputs stay in its memory (spilling under the
        # index folder, not the working directory); the index file is attached per phase.
        con = duckdb.connect(config={**DUCKDB_CONFIG, "temp_directory": str(spill)})
        try:
            load_extension(con)
            n = _stage(con, home, sources, cfg)
            _write(con, tmp, home, sources, n, params)
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
    finally:
        shutil.rmtree(spill, ignore_errors=True)
    return final


def index_format(path: Path) -> str:
    """The ``index_format`` an index file records ("" when absent or unreadable)."""
    try:
        con = open_index(path)  # the serving configuration: the file may be open for serving
    except duckdb.Error:
        return ""
    try:
        meta = dict(con.execute(sql("index_info")).fetchall())
    except duckdb.Error:
        return ""
    finally:
        con.close()
    return str(meta.get("index_format") or "")
