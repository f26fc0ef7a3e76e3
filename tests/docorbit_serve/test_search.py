"""search(): both backends over a small hand-made corpus; bounds, filters and errors."""

from __future__ import annotations

import subprocess
import sys

import duckdb
import pytest

from docorbit_serve import search as search_mod
from docorbit_serve.catalog import Catalog
from docorbit_serve.errors import NotFound, SearchError, UnknownLibrary, UsageError
from docorbit_serve.search import BACKENDS, DEFAULT_BACKEND, MAX_RESULTS, Hit, search
from docorbit_serve.search.fts import safe_fts_query
from tests.docorbit_serve.test_search_corpus import publish_corpus


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    cat = Catalog(publish_corpus(tmp_path_factory.mktemp("corpus")))
    yield cat
    cat.close()


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_search_ranks_the_section_whose_heading_and_text_match_first(catalog, backend):
    res = search(catalog, "default timeout for a client", library="alpha", backend=backend)
    assert res.backend == backend
    assert res.hits[0].heading == "Setting a default timeout on a client"
    assert res.hits[0].path == "advanced/timeouts.md"


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_search_finds_snake_case_identifiers_whole_and_by_their_words(catalog, backend):
    whole = search(catalog, "extra_forbidden", backend=backend)
    words = search(catalog, "extra forbidden", backend=backend)
    assert whole.hits[0].heading == "`extra_forbidden`"
    assert words.hits[0].heading == "`extra_forbidden`"


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_search_finds_dotted_paths_and_camel_case_parts(catalog, backend):
    assert search(catalog, "pydantic.generics", backend=backend).hits[0].heading == "Generic models"
    assert search(catalog, "generic model", backend=backend).hits[0].heading == "Generic models"


def test_search_hits_carry_provenance_and_are_marked_untrusted(catalog):
    hit = search(catalog, "form encoded data", library="alpha").hits[0]
    assert isinstance(hit, Hit)
    assert hit.untrusted is True
    assert hit.library == "alpha" and hit.source == "alpha"
    assert hit.snapshot.startswith("s_")
    assert hit.url.endswith("#sending-form-encoded-data")
    assert hit.breadcrumb == ["QuickStart"]
    assert "several values" in hit.content
    assert hit.tokens > 0 and hit.score > 0
    assert sorted(hit.model_dump()) == sorted(Hit.model_fields)
    assert hit.version_match is None and hit.untrusted is True


def test_library_filter_keeps_other_libraries_out(catalog):
    res = search(catalog, "timeout", library="beta")
    assert res.hits and {h.library for h in res.hits} == {"beta"}


def test_unknown_library_lists_the_known_ones(catalog):
    with pytest.raises(UnknownLibrary) as e:
        search(catalog, "timeout", library="gamma")
    assert e.value.detail["known"] == ["alpha", "beta"]
    assert "alpha, beta" in e.value.message


def test_unknown_version_is_not_found_with_the_known_versions(catalog):
    with pytest.raises(NotFound) as e:
        search(catalog, "timeout", library="alpha", version="9.9")
    assert e.value.detail["known"] == [""]


@pytest.mark.parametrize("query", ["", "   ", None])
def test_blank_query_is_a_usage_error(catalog, query):
    with pytest.raises(UsageError):
        search(catalog, query)


@pytest.mark.parametrize("kw", [{"limit": 0}, {"offset": -1}, {"backend": "lucene"}])
def test_bad_limit_offset_or_backend_is_a_usage_error(catalog, kw):
    with pytest.raises(UsageError):
        search(catalog, "timeout", **kw)


def test_query_of_stop_words_only_returns_no_hits(catalog):
    res = search(catalog, "how do I do it")
    assert res.hits == [] and res.truncated is False


def test_offset_pages_through_the_same_ranking(catalog):
    full = [h.chunk_id for h in search(catalog, "timeout client data", limit=4).hits]
    second = [h.chunk_id for h in search(catalog, "timeout client data", limit=2, offset=2).hits]
    assert len(full) == 4 and second == full[2:4]


def test_window_beyond_the_row_cap_is_cut_and_flagged(tmp_path):
    sections = [
        (f"p{i:03d}.md", "Page", f"Widget {i}", [], f"## Widget {i}\n\nwidget number {i}")
        for i in range(MAX_RESULTS + 5)
    ]
    cat = Catalog(publish_corpus(tmp_path, {"many": sections}))
    try:
        res = search(cat, "widget", limit=MAX_RESULTS + 5)
        assert len(res.hits) == MAX_RESULTS and res.truncated is True
        assert search(cat, "widget", limit=10).truncated is False
    finally:
        cat.close()


def test_time_limit_interrupts_a_long_query_as_search_error():
    con = duckdb.connect()
    with pytest.raises(SearchError) as e, search_mod._time_limit(con, 0.05):
        con.execute("SELECT count(*) FROM range(100000000000) a").fetchall()
    assert e.value.code == "search_timeout"


def test_fts_query_text_keeps_only_safe_tokens():
    assert safe_fts_query(["timeout", "x'); drop", "a.b_c"]) == "timeout a.b_c"


def test_user_text_with_sql_and_fts_syntax_is_searched_as_words(catalog):
    for backend in BACKENDS:
        res = search(catalog, "timeout'); DROP TABLE chunks; -- \"* OR", backend=backend)
        assert res.hits
    assert search(catalog, "timeout").hits


def test_a_search_without_backend_runs_the_default_one(catalog):
    res = search(catalog, "timeout")
    assert res.backend == DEFAULT_BACKEND == "bm25" and res.hits
    assert search(catalog, "timeout", backend="fts").backend == "fts"


def test_importing_search_loads_neither_dagster_nor_the_pipeline():
    code = (
        "import sys, docorbit_serve, docorbit_serve.search, docorbit_serve.catalog; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('dagster', 'docorbit_assets')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
