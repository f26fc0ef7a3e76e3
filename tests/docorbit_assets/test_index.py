"""build_index: a self-contained DuckDB file from frozen snapshots, swapped in atomically."""

from __future__ import annotations

import duckdb
import pytest

from docorbit_assets.lib import index
from docorbit_assets.lib.index import INDEX_TABLES, build_index
from docorbit_serve.errors import IngestError
from docorbit_serve.home import Home
from docorbit_serve.search.analyze import ANALYZER_VERSION
from docorbit_serve.search.scoring import INDEX_FORMAT
from tests.docorbit_serve.test_search_corpus import DOCS, freeze_library, make_manifest


@pytest.fixture()
def frozen(tmp_path):
    home = Home(tmp_path / ".docorbit", tmp_path)
    entries = {lib: freeze_library(home, lib, secs) for lib, secs in DOCS.items()}
    return home, make_manifest(entries)


def test_build_index_holds_every_table_with_snapshot_provenance(frozen):
    home, manifest = frozen
    path = build_index(home, manifest)
    assert path == home.index_dir / f"{manifest['publish_id']}.duckdb"
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        assert set(INDEX_TABLES) <= tables
        assert con.execute("SELECT count(*) FROM chunks").fetchone()[0] == 7
        assert con.execute("SELECT count(*) FROM symbols").fetchone()[0] == 0  # empty, typed
        snaps = dict(con.execute("SELECT DISTINCT library, snapshot FROM chunks").fetchall())
        assert snaps == {lib: manifest["sources"][lib]["snapshot"] for lib in DOCS}
        assert con.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 2
    finally:
        con.close()


def test_build_index_precomputes_bm25_structures_and_meta(frozen):
    home, manifest = frozen
    path = build_index(home, manifest)
    con = duckdb.connect(str(path), read_only=True)
    try:
        df, idf = con.execute("SELECT df, idf FROM bm25_terms WHERE term = 'timeout'").fetchone()
        assert df == 3 and idf > 0
        rare = con.execute("SELECT idf FROM bm25_terms WHERE term = 'extra_forbidden'").fetchone()
        assert rare[0] > idf  # rarer terms weigh more
        ids = [r[0] for r in con.execute("SELECT term_id FROM bm25_postings").fetchall()]
        assert ids == sorted(ids)
        meta = dict(con.execute("SELECT key, value FROM index_meta").fetchall())
        assert meta["publish_id"] == manifest["publish_id"]
        assert meta["analyzer_version"] == ANALYZER_VERSION
        assert meta["index_format"] == INDEX_FORMAT
        summaries = [r[0] for r in con.execute("SELECT summary FROM search_docs").fetchall()]
        assert all(isinstance(x, str) for x in summaries) and any(summaries)
        fts_tables = con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'fts_main_fts_docs'"
        ).fetchone()[0]
        assert fts_tables >= 3
    finally:
        con.close()
    assert index.index_format(path) == INDEX_FORMAT  # what ingest checks before reusing it


def test_build_index_leaves_no_temp_files_and_rebuilds_in_place(frozen):
    home, manifest = frozen
    build_index(home, manifest)
    build_index(home, manifest)
    assert [p.name for p in home.index_dir.iterdir()] == [f"{manifest['publish_id']}.duckdb"]


def test_failed_build_raises_and_leaves_no_index_file(frozen):
    home, manifest = frozen
    part = home.table_dir("chunks", "alpha", manifest["sources"]["alpha"]["snapshot"])
    (part / "part-0.parquet").write_bytes(b"not parquet")
    with pytest.raises(IngestError):
        build_index(home, manifest)
    assert list(home.index_dir.iterdir()) == []


def test_build_index_refuses_a_publish_id_that_is_not_a_file_name(frozen):
    home, manifest = frozen
    with pytest.raises(IngestError):
        build_index(home, {**manifest, "publish_id": "../evil"})


def test_fts_documents_and_bm25_tables_do_not_depend_on_the_batch_size(frozen, monkeypatch):
    home, manifest = frozen
    tables = ("fts_docs", "bm25_postings", "bm25_terms", "search_docs")

    def contents():
        con = duckdb.connect(str(build_index(home, manifest)), read_only=True)
        try:
            return {t: con.execute(f"SELECT * FROM {t}").fetchall() for t in tables}
        finally:
            con.close()

    whole = contents()
    monkeypatch.setattr(index, "FTS_BATCH", 2)
    assert contents() == whole


def test_search_docs_ids_are_chunk_rowids_in_chunk_id_order(frozen):
    home, manifest = frozen
    con = duckdb.connect(str(build_index(home, manifest)), read_only=True)
    try:
        rows = con.execute(
            "SELECT d.cid, c.rowid, c.id FROM search_docs d JOIN chunks c ON c.id = d.chunk_id "
            "ORDER BY d.cid"
        ).fetchall()
        assert [r[0] for r in rows] == [r[1] + 1 for r in rows] == list(range(1, len(rows) + 1))
        assert [r[2] for r in rows] == sorted(r[2] for r in rows)
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        assert "postings" not in tables  # the frozen postings are an input, not kept
    finally:
        con.close()


def test_an_index_of_an_older_format_is_refused_and_not_reused(frozen):
    from docorbit_serve.catalog import IndexFile
    from docorbit_serve.errors import SearchError

    home, manifest = frozen
    path = build_index(home, manifest)
    con = duckdb.connect(str(path))
    con.execute("DELETE FROM index_meta WHERE key = 'index_format'")  # as built before format 2
    con.close()
    assert index.index_format(path) == ""  # so the next ingest rebuilds it (defs/index.py)
    with pytest.raises(SearchError, match="docorbit ingest"):
        IndexFile(path)
