"""Catalog: published.json, read-only connection, reopen on a new publication, threads."""

from __future__ import annotations

import json
import threading

import duckdb
import pytest

from docorbit_serve.catalog import Catalog
from docorbit_serve.errors import NotPublished
from docorbit_serve.home import Home, atomic_write_json
from docorbit_serve.search import search
from tests.docorbit_serve.test_search_corpus import DOCS, publish_corpus


def test_manifest_without_publication_raises_not_published_with_the_fix(tmp_path):
    cat = Catalog(Home(tmp_path / ".docorbit", tmp_path))
    with pytest.raises(NotPublished) as e:
        cat.manifest()
    assert "docorbit ingest" in e.value.message
    with pytest.raises(NotPublished):
        cat.connection()


def test_corrupt_published_json_is_not_published(tmp_path):
    home = Home(tmp_path / ".docorbit", tmp_path)
    home.path.mkdir()
    home.published_path.write_text("{not json")
    with pytest.raises(NotPublished) as e:
        Catalog(home).manifest()
    assert "unreadable" in e.value.message


def test_manifest_naming_a_missing_index_is_not_published(tmp_path):
    home = publish_corpus(tmp_path)
    manifest = json.loads(home.published_path.read_text())
    (home.path / manifest["index"]).unlink()
    with pytest.raises(NotPublished) as e:
        Catalog(home).connection()
    assert "missing" in e.value.message


def test_connection_is_read_only_and_loads_fts_on_the_first_fts_search(tmp_path):
    cat = Catalog(publish_corpus(tmp_path))
    try:
        con = cat.connection()
        with pytest.raises(duckdb.Error):
            con.execute("CREATE TABLE x (i INTEGER)")
        loaded = "SELECT loaded FROM duckdb_extensions() WHERE extension_name = 'fts'"
        assert not cat.cursor().execute(loaded).fetchone()[0]  # the default backend needs none
        assert search(cat, "timeout").hits
        assert not cat.cursor().execute(loaded).fetchone()[0]
        assert search(cat, "timeout", backend="fts").hits
        cur = cat.cursor()
        n = cur.execute(
            "SELECT count(*) FROM fts_docs WHERE fts_main_fts_docs.match_bm25(cid, 'timeout') "
            "IS NOT NULL"
        ).fetchone()[0]
        assert n >= 2
        assert cat.manifest()["publish_id"] == cat.publish_id
    finally:
        cat.close()


def test_catalog_reopens_when_published_json_names_another_publication(tmp_path):
    home = publish_corpus(tmp_path, {"alpha": DOCS["alpha"]})
    cat = Catalog(home)
    try:
        cat.connection()
        first = cat.publish_id
        assert {h.library for h in search(cat, "timeout").hits} == {"alpha"}
        old_cursor = cat.cursor()
        publish_corpus(tmp_path, DOCS)  # a second publication with both libraries
        assert {h.library for h in search(cat, "timeout").hits} == {"alpha", "beta"}
        assert cat.publish_id != first
        # a cursor taken before the swap still reads its own (immutable) publication
        libs = old_cursor.execute("SELECT DISTINCT library FROM chunks").fetchall()
        assert libs == [("alpha",)]
    finally:
        cat.close()


def test_catalog_keeps_the_connection_while_published_json_is_unchanged(tmp_path):
    cat = Catalog(publish_corpus(tmp_path))
    try:
        assert cat.connection() is cat.connection()
        home = cat.home
        atomic_write_json(home.published_path, json.loads(home.published_path.read_text()))
        con = cat.connection()  # rewritten with the same publish id: same connection
        assert con is cat.connection()
    finally:
        cat.close()


def test_cursors_serve_concurrent_searches_from_threads(tmp_path):
    cat = Catalog(publish_corpus(tmp_path))
    errors: list[BaseException] = []
    tops: list[str] = []

    def worker():
        try:
            for _ in range(5):
                tops.append(search(cat, "default timeout client").hits[0].heading)
        except BaseException as e:  # collected and asserted below
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    cat.close()
    assert errors == []
    assert tops == ["Setting a default timeout on a client"] * 20


def test_connections_run_search_queries_on_one_thread(tmp_path):
    from docorbit_serve.catalog import SEARCH_THREADS

    cat = Catalog(publish_corpus(tmp_path))
    try:
        threads = cat.cursor().execute("SELECT current_setting('threads')").fetchone()[0]
        assert threads == SEARCH_THREADS == 1
    finally:
        cat.close()
