"""Hybrid search: the real model, a real ingest with ``[settings] hybrid = true``, real questions."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from docorbit_assets.lib import publish as lib_publish
from docorbit_assets.lib.vectors import build_vectors, vectors_path
from docorbit_serve.catalog import Catalog
from docorbit_serve.cli import cli
from docorbit_serve.errors import ConfigError, IngestError, SearchError
from docorbit_serve.evaluate import load_queries, score_run
from docorbit_serve.registry import load_registry, save_registry
from docorbit_serve.search import dense, search

from .conftest import HTTPX_DOCS, httpx_source, ingest, make_home

DEV = (HTTPX_DOCS / ".." / ".." / ".." / "eval" / "dev_queries.jsonl").resolve()  # fixtures/kit


def _set_hybrid(home, value) -> None:
    reg = load_registry(home.config_path)
    reg.settings["hybrid"] = value
    reg.settings["dense_stage"] = "rrf"  # these tests are about the RRF fusion (hybrid.fuse)
    save_registry(reg)


@pytest.fixture(scope="module")
def hybrid_home(tmp_path_factory):
    home = make_home(tmp_path_factory.mktemp("hybrid"), httpx_source())
    _set_hybrid(home, True)
    ingest(home)
    return home


# --- the model -------------------------------------------------------------------------------


def test_embed_gives_unit_vectors_and_is_deterministic():
    texts = ["set a default timeout on a client", "Streaming responses", "x" * 5000]
    a, b = dense.embed(texts), dense.embed(list(texts))
    assert a.shape == (3, dense.DIM) and a.dtype == np.float32
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(a, b)
    # Order is kept although texts are batched by length.
    assert np.allclose(dense.embed([texts[1]])[0], a[1], atol=1e-5)


def test_embed_places_a_question_nearer_its_answer_than_an_unrelated_section():
    q, good, bad = dense.embed(
        [
            "how long does the client wait before giving up on a slow server",
            "Timeouts > Setting a default timeout on a client\nHTTPX enforces timeouts by default.",
            "Authentication > Basic auth\nPass a username and password tuple.",
        ]
    )
    assert q @ good > q @ bad + 0.1


def test_a_model_file_that_fails_its_checksum_is_refused(tmp_path):
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not the model")
    with pytest.raises(SearchError) as e:
        dense._checked(bad, dense._MODEL_SHA256)
    assert e.value.code == "hybrid_unavailable"


def test_rrf_prefers_an_item_both_rankings_agree_on():
    fused = [item for item, _ in dense.rrf([["a", "b", "c"], ["c", "d", "b"]], k=60)]
    assert fused[0] in {"b", "c"} and set(fused[:2]) == {"b", "c"}
    assert fused.index("a") < fused.index("d")  # tie on one list each: first appearance wins


def test_vector_index_top_honours_the_allowed_rows_and_refuses_other_models(tmp_path):
    rng = np.random.default_rng(7)
    m = rng.normal(size=(20, dense.DIM)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    path = tmp_path / "v.npy"
    np.save(path, m)
    vi = dense.VectorIndex.open(path, dense.MODEL_ID)
    assert vi.top(m[4], 1)[0][0] == 5  # cid = row + 1
    allowed = np.array([1, 2, 3])
    assert {cid for cid, _ in vi.top(m[4], 5, allowed)} == {1, 2, 3}
    with pytest.raises(SearchError) as e:
        dense.VectorIndex.open(path, "another-model")
    assert e.value.code == "hybrid_unavailable"
    np.save(path, m[:, :10])
    with pytest.raises(SearchError):
        dense.VectorIndex.open(path, dense.MODEL_ID)


# --- settings, ingest, publish ---------------------------------------------------------------


def test_hybrid_setting_must_be_a_boolean(tmp_path):
    home = make_home(tmp_path / "p", httpx_source())
    _set_hybrid(home, "yes")
    with pytest.raises(ConfigError):
        _ = load_registry(home.config_path).hybrid


def test_ingest_with_hybrid_publishes_one_vector_per_chunk(hybrid_home):
    manifest = json.loads(hybrid_home.published_path.read_text())
    entry = manifest["vectors"]
    assert entry["model"] == dense.MODEL_ID
    vecs = np.load(hybrid_home.path / entry["path"], mmap_mode="r")
    cat = Catalog(hybrid_home)
    try:
        n = cat.cursor().execute("SELECT count(*) FROM search_docs").fetchone()[0]
    finally:
        cat.close()
    assert vecs.shape == (n, dense.DIM) == (entry["rows"], dense.DIM)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)


def test_vectors_are_rebuilt_from_the_snapshot_cache_not_recomputed(hybrid_home):
    manifest = json.loads(hybrid_home.published_path.read_text())
    out = vectors_path(hybrid_home, manifest["publish_id"])
    before = np.load(out)
    caches = sorted((hybrid_home.path / "vectors").rglob("*.npz"))
    assert caches
    stamps = [c.stat().st_mtime_ns for c in caches]
    out.unlink()
    entry = build_vectors(hybrid_home, manifest, hybrid_home.path / manifest["index"])
    assert entry == manifest["vectors"]
    assert np.array_equal(np.load(out), before)
    assert [c.stat().st_mtime_ns for c in caches] == stamps


def test_publish_refuses_a_manifest_whose_vectors_file_is_missing(hybrid_home):
    manifest = json.loads(hybrid_home.published_path.read_text())
    bad = {**manifest, "vectors": {**manifest["vectors"], "path": "index/absent.vectors.npy"}}
    before = hybrid_home.published_path.read_bytes()
    with pytest.raises(IngestError):
        lib_publish.publish(hybrid_home, bad)
    assert hybrid_home.published_path.read_bytes() == before


# --- search ----------------------------------------------------------------------------------


def test_search_fuses_when_vectors_exist_and_can_be_told_not_to(hybrid_home):
    cat = Catalog(hybrid_home)
    try:
        q = "async for chunk over a download with httpx AsyncClient"
        fused = search(cat, q, library="httpx")
        plain = search(cat, q, library="httpx", hybrid=False)
    finally:
        cat.close()
    assert fused.hybrid and not plain.hybrid
    assert fused.hits and plain.hits
    # One hit per section in both.
    for res in (fused, plain):
        keys = [(h.source, h.path, h.anchor) for h in res.hits]
        assert len(keys) == len(set(keys))


def test_hybrid_ranks_real_httpx_questions_at_least_as_well_as_lexical(hybrid_home):
    queries = [q for q in load_queries(DEV) if q["library"] == "httpx"]
    assert len(queries) == 15
    cat = Catalog(hybrid_home)
    scores = {}
    try:
        for mode in (True, False):
            rows = []
            for q in queries:
                hits = search(cat, q["query"], library="httpx", hybrid=mode).hits
                ranked = [{"path": h.path, "anchor": h.anchor} for h in hits]
                rows.append({"id": q["id"], "ranked": ranked})
            scores[mode] = score_run(queries, rows)
    finally:
        cat.close()
    assert scores[True]["mrr@10"] >= scores[False]["mrr@10"]
    assert scores[True]["r@5"] >= scores[False]["r@5"]


def test_cli_search_reports_hybrid_and_obeys_lexical(hybrid_home):
    args = ["--home", str(hybrid_home.path), "search", "--json", "--no-project-aware"]
    r = CliRunner().invoke(cli, [*args, "stream a large download"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["hybrid"] is True
    r = CliRunner().invoke(cli, [*args, "--lexical", "stream a large download"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["hybrid"] is False


def test_switching_hybrid_on_republishes_the_same_index_with_vectors(tmp_path):
    home = make_home(tmp_path / "p", httpx_source())
    ingest(home)
    lexical = json.loads(home.published_path.read_text())
    assert "vectors" not in lexical
    cat = Catalog(home)  # stays open across the second ingest, as a server's would
    try:
        assert not search(cat, "timeouts").hybrid
        with pytest.raises(SearchError) as e:
            search(cat, "timeouts", hybrid=True)
        assert e.value.code == "hybrid_unavailable"
        _set_hybrid(home, True)
        ingest(home)
        manifest = json.loads(home.published_path.read_text())
        assert manifest["publish_id"] == lexical["publish_id"]  # same snapshots, same index
        assert manifest["vectors"]["rows"] > 0
        assert search(cat, "timeouts").hybrid
    finally:
        cat.close()


def test_vectors_of_another_model_answer_lexically_until_the_next_ingest_rebuilds_them(tmp_path):
    # An upgrade that changes the search model: the published vectors were made by the old one.
    home = make_home(tmp_path / "p", httpx_source())
    _set_hybrid(home, True)
    ingest(home)
    manifest = json.loads(home.published_path.read_text())
    old = "all-MiniLM-L6-v2/int8-onnx/128"  # the model before session 25
    assert manifest["vectors"]["model"] == dense.MODEL_ID != old
    manifest["vectors"]["model"] = old
    home.published_path.write_text(json.dumps(manifest))
    cat = Catalog(home)
    try:
        res = search(cat, "how do I set a timeout")
        assert not res.hybrid and res.hits  # a lexical answer, not an error
        assert any(old in n and "docorbit ingest" in n for n in res.notices)
        with pytest.raises(SearchError) as e:
            search(cat, "how do I set a timeout", hybrid=True)
        assert e.value.code == "hybrid_unavailable" and "docorbit ingest" in str(e.value)
        report = ingest(home)  # same sources, same snapshots: still rebuilt
        assert report["publish"]["status"] == "ok"
        rebuilt = json.loads(home.published_path.read_text())
        assert rebuilt["publish_id"] == manifest["publish_id"]
        assert rebuilt["vectors"]["model"] == dense.MODEL_ID
        res = search(cat, "how do I set a timeout")
        assert res.hybrid and not res.notices
    finally:
        cat.close()


def test_vectors_cache_lives_under_the_home(hybrid_home):
    caches = list((hybrid_home.path / "vectors").rglob("*.npz"))
    manifest = json.loads(hybrid_home.published_path.read_text())
    snaps = {s["snapshot"] for s in manifest["sources"].values()}
    assert {Path(c).stem for c in caches} == snaps


def test_mcp_server_answers_from_a_hybrid_publication(hybrid_home, clean_env):
    import anyio
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "docorbit_serve", "--home", str(hybrid_home.path), "mcp"],
        env=clean_env,
    )
    out = {}

    async def main() -> None:
        with anyio.fail_after(120):
            async with Client(params, read_timeout_seconds=60) as client:
                out["r"] = await client.call_tool(
                    "search_docs", {"query": "stream a large download", "limit": 3}
                )

    anyio.run(main)
    hits = out["r"].structured_content["hits"]
    assert hits and all(h["library"] == "httpx" for h in hits)
    cat = Catalog(hybrid_home)
    try:
        fused = search(cat, "stream a large download", limit=3)
    finally:
        cat.close()
    assert fused.hybrid
    assert [h["chunk_id"] for h in hits] == [h.chunk_id for h in fused.hits]


def test_init_starts_a_new_project_hybrid_and_sets_or_clears_the_setting(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    base = ["-p", str(project), "init", "--json"]
    r = CliRunner().invoke(cli, base)
    assert r.exit_code == 0, r.output
    config = project / "docorbit.toml"
    # A new project is hybrid, written in its file where the user sees it.
    assert json.loads(r.stdout)["hybrid"] is True and load_registry(config).hybrid is True
    assert "hybrid = true" in config.read_text()
    r = CliRunner().invoke(cli, [*base, "--lexical"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["hybrid"] is False and load_registry(config).hybrid is False
    r = CliRunner().invoke(cli, base)  # no flag: left as it is
    assert json.loads(r.stdout)["hybrid"] is False
    r = CliRunner().invoke(cli, [*base, "--hybrid"])
    assert json.loads(r.stdout)["hybrid"] is True and load_registry(config).hybrid is True
    # A project made lexical from the start; and an existing file without the key stays lexical.
    other = tmp_path / "lex"
    other.mkdir()
    r = CliRunner().invoke(cli, ["-p", str(other), "init", "--lexical", "--json"])
    assert json.loads(r.stdout)["hybrid"] is False
    old = tmp_path / "old"
    old.mkdir()
    (old / "docorbit.toml").write_text("[settings]\nstale_after_hours = 24\n")
    r = CliRunner().invoke(cli, ["-p", str(old), "init", "--json"])
    assert json.loads(r.stdout)["hybrid"] is False


def test_the_first_add_without_init_also_starts_a_hybrid_project(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    r = CliRunner().invoke(cli, ["-p", str(project), "add", str(HTTPX_DOCS), "--library", "httpx"])
    assert r.exit_code == 0, r.output
    assert load_registry(project / "docorbit.toml").hybrid is True


def test_mcp_server_that_ends_at_once_does_not_abort_while_the_model_loads(hybrid_home):
    import subprocess

    # stdin at EOF: the server ends right away, while the warm-up is still loading the model.
    proc = subprocess.run(
        [sys.executable, "-m", "docorbit_serve", "--home", str(hybrid_home.path), "mcp"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "terminate called" not in proc.stderr


# --- results that do not mislead (issue 13 item 4) -------------------------------------------

# Kinds of query with nothing to match in any document.
NOTHING_TO_MATCH = [
    "?!?",
    "()[]{} <> ;;",
    "...",
    "таймаут",
    "日本語の説明",
    "zzqx wvvk",
    "the of and",
]


@pytest.mark.parametrize("text", NOTHING_TO_MATCH)
def test_a_query_with_nothing_to_match_gets_no_dense_only_hits(hybrid_home, text):
    from docorbit_serve.errors import UsageError

    cat = Catalog(hybrid_home)
    try:
        res = search(cat, text, limit=10)
    except UsageError:  # a query with no searchable words at all may be refused
        return
    finally:
        cat.close()
    assert res.hybrid and res.to_json()["ranking"] == "hybrid"
    # The dense ranking always has a top ten; below the floor it is not evidence of a match.
    assert [h.matched_by for h in res.hits if h.matched_by == "dense"] == []


def test_every_hybrid_hit_says_what_found_it_and_dense_ones_clear_the_floor(hybrid_home):
    from docorbit_serve.search.hybrid import DENSE_FLOOR, MATCHED_BY

    q = "how long does the client wait before giving up on a slow server"
    cat = Catalog(hybrid_home)
    try:
        fused = search(cat, q, limit=20)
        plain = search(cat, q, limit=20, hybrid=False)
        _cur, vectors = cat.search_view()
        _cur.close()
    finally:
        cat.close()
    assert fused.hits and {h.matched_by for h in fused.hits} <= set(MATCHED_BY)
    assert {h.matched_by for h in plain.hits} == {"lexical"}
    assert plain.to_json()["ranking"] == "lexical"
    qvec = dense.embed([q])[0]
    sims = dict(vectors.top(qvec, len(vectors)))
    lexical_ids = {h.chunk_id for h in plain.hits}
    for h in fused.hits:
        if h.matched_by == "dense":
            assert h.chunk_id not in lexical_ids
    # Every dense-only hit is at least DENSE_FLOOR similar to the query.
    manifest = json.loads(hybrid_home.published_path.read_text())
    import duckdb

    con = duckdb.connect(str(hybrid_home.path / manifest["index"]), read_only=True)
    try:
        cid_of = dict(con.execute("SELECT chunk_id, cid FROM search_docs").fetchall())
    finally:
        con.close()
    for h in fused.hits:
        if h.matched_by == "dense":
            assert sims[cid_of[h.chunk_id]] >= DENSE_FLOOR


def test_cli_json_says_which_ranking_answered_and_what_matched(hybrid_home):
    res = CliRunner().invoke(
        cli, ["--home", str(hybrid_home.path), "search", "stream a response body", "--json"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["ranking"] == "hybrid" and data["hybrid"] is True
    assert data["hits"] and all(
        h["matched_by"] in ("lexical", "dense", "both") for h in data["hits"]
    )


def test_embedding_reports_progress_and_a_cached_snapshot_costs_nothing(tmp_path, monkeypatch):
    from docorbit_assets.lib import vectors as lib_vectors
    from tests.docorbit_serve.test_search_corpus import publish_corpus

    home = publish_corpus(tmp_path)
    manifest = json.loads(home.published_path.read_text())
    monkeypatch.setattr(lib_vectors, "PROGRESS_EVERY", 2)
    calls: list[tuple[int, int]] = []
    entry = build_vectors(
        home, manifest, home.path / manifest["index"], progress=lambda *a: calls.append(a)
    )
    n = entry["rows"]
    assert calls[0] == (0, n) and calls[-1] == (n, n)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)  # monotonic
    assert len(calls) >= 1 + n // 2  # one line per PROGRESS_EVERY chunks
    again: list[tuple[int, int]] = []
    build_vectors(
        home, manifest, home.path / manifest["index"], progress=lambda *a: again.append(a)
    )
    assert again == []  # every snapshot cached: nothing to embed, nothing to report


def test_stderr_progress_prints_one_line_on_stderr(capsys):
    from docorbit_assets.lib.vectors import stderr_progress

    stderr_progress(256, 1024)
    out = capsys.readouterr()
    assert out.out == "" and out.err == "embedding chunks for hybrid search: 256/1,024 (25%)\n"
