"""The fast shape of the bm25 backend: term-sorted postings, bound terms, variants, term cap."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from docorbit_serve.catalog import Catalog
from docorbit_serve.search import bm25, search
from docorbit_serve.search.scoring import ScoringConfig
from tests.docorbit_serve.test_search_corpus import publish_corpus


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    cat = Catalog(publish_corpus(tmp_path_factory.mktemp("corpus")))
    yield cat
    cat.close()


def test_candidate_sql_has_one_bound_branch_per_term_and_no_values():
    text = bm25.query_sql(3)
    assert [f"$term_{i}" in text for i in range(4)] == [True, True, True, False]
    assert text.count("UNION ALL") == 2
    assert "{" not in text and "timeout" not in text
    with pytest.raises(ValueError):
        bm25.query_sql(0)


def test_terms_with_quotes_and_sql_are_bound_not_spliced(catalog):
    cur = catalog.cursor()
    odd = {"x'); DROP TABLE chunks; --": 1.0, "timeout": 1.0}
    rows = bm25.candidates(cur, odd, library=None, version=None, cap=10)
    plain = bm25.candidates(cur, {"timeout": 1.0}, library=None, version=None, cap=10)
    # the hostile term is a bound value that matches nothing: the answer is timeout's alone
    assert rows and [r["cid"] for r in rows] == [r["cid"] for r in plain]
    assert cur.execute("SELECT count(*) FROM chunks").fetchone()[0] > 0


def test_postings_are_stored_in_term_order_with_one_row_per_term_and_chunk(catalog):
    cur = catalog.cursor()
    rows = cur.execute("SELECT term, term_id, cid FROM bm25_postings").fetchall()
    assert rows == sorted(rows)
    assert [r[1] for r in rows] == sorted(r[1] for r in rows)
    assert len({(r[0], r[2]) for r in rows}) == len(rows)
    # every field weight of the postings stage survives the pivot (nothing dropped)
    per_field = cur.execute(
        "SELECT sum((ntf_body > 0)::INT + (ntf_heading > 0)::INT + (ntf_breadcrumb > 0)::INT"
        " + (ntf_title > 0)::INT + (ntf_code > 0)::INT + (ntf_symbol > 0)::INT)"
        " FROM bm25_postings"
    ).fetchone()[0]
    sources = catalog.manifest()["sources"]
    frozen = sum(  # the frozen postings are the build's input; the index does not keep them
        pq.read_metadata(
            catalog.home.table_dir("postings", s, e["snapshot"]) / "part-0.parquet"
        ).num_rows
        for s, e in sources.items()
    )
    assert per_field == frozen


def test_repeated_candidate_queries_rank_the_same_best_first(catalog):
    cur = catalog.cursor()
    terms = {"timeout": 1.0, "client": 1.0, "data": 0.4}
    first = bm25.candidates(cur, terms, library=None, version=None, cap=20)
    again = bm25.candidates(cur, terms, library=None, version=None, cap=20)
    assert [r["chunk_id"] for r in first] == [r["chunk_id"] for r in again]
    scores = [r["score"] for r in first]
    assert scores == sorted(scores, reverse=True)


def test_stem_variants_add_branches_and_count_once_per_query_term(catalog):
    cfg = ScoringConfig.from_mapping({"w_variant": 0.5, "variant_min": 5, "variant_cut": 2})
    cur = catalog.cursor()
    vocab = {t for (t,) in cur.execute("SELECT term FROM bm25_terms").fetchall()}
    term = next(
        t
        for t in sorted(vocab)
        if bm25.variant_prefix(t, cfg)
        and any(v != t and v.startswith(bm25.variant_prefix(t, cfg)) for v in vocab)
    )
    plain = bm25.candidates(cur, [term], library=None, version=None, cap=50)
    wide = bm25.candidates(cur, [term], library=None, version=None, cap=50, cfg=cfg)
    assert {r["chunk_id"] for r in plain} <= {r["chunk_id"] for r in wide}
    assert all(r["matched"] == 1 for r in wide)  # one query term: never counted twice
    assert search(catalog, term, cfg=cfg).hits


def test_queries_beyond_the_term_cap_keep_the_heaviest_terms(catalog):
    cur = catalog.cursor()
    many = {f"zzfiller{i:03d}": 0.4 for i in range(bm25.MAX_TERMS + 10)}
    many["timeout"] = 1.0
    rows = bm25.candidates(cur, many, library=None, version=None, cap=5)
    assert rows and rows[0]["matched"] == 1
    assert len(bm25._weighted(many)) == bm25.MAX_TERMS


def test_library_filter_applies_before_the_row_cap(catalog):
    cur = catalog.cursor()
    rows = bm25.candidates(cur, ["timeout"], library="beta", version=None, cap=1)
    assert [r["library"] for r in rows] == ["beta"]
    assert bm25.candidates(cur, ["timeout"], library="beta", version="9", cap=5) == []
