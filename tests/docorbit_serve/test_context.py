"""Context packing: never over budget, an omission manifest, cursors that never repeat."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from docorbit_serve.catalog import Catalog
from docorbit_serve.context import pack_context
from docorbit_serve.errors import InputError
from docorbit_serve.tokens import count_tokens
from tests.support.paths import shared_data

REPO = Path(__file__).resolve().parents[2]
DATA = (REPO / ".." / "shared" / "data").resolve()


def _eval_dev():
    spec = importlib.util.spec_from_file_location("eval_dev", REPO / "scripts" / "eval_dev.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def dev(tmp_path_factory):
    shared_data("docs/fastapi")  # optional evaluation over the whole dev doc sets
    home = _eval_dev().build_dev_home(tmp_path_factory.mktemp("ctx") / "home", DATA)
    cat = Catalog(home)
    lines = (DATA / "eval" / "dev_queries.jsonl").read_text().splitlines()
    yield cat, [json.loads(x) for x in lines if x.strip()]
    cat.close()


@pytest.mark.parametrize("budget", [500, 2000, 8000])
def test_pack_never_exceeds_the_budget_over_the_dev_set(dev, budget):
    cat, queries = dev
    gold_inside = 0
    for q in queries:
        pack = pack_context(cat, q["query"], budget=budget, library=q["library"])
        assert count_tokens(pack.text) == pack.tokens <= budget
        assert pack.items, q["query"]
        assert all(i.untrusted and i.text.startswith("<!-- chunk ") for i in pack.items)
        gold = {(g["path"], g["anchor"]) for g in q["gold"] + q["alternates"]}
        gold_inside += any((i.path, i.anchor) in gold for i in pack.items)
    # measured: 26 / 34 / 44 of 45 questions have a gold section inside the pack
    assert gold_inside >= {500: 22, 2000: 30, 8000: 40}[budget]


def test_cursor_continues_without_repeating_and_manifest_lists_what_was_left_out(dev):
    cat, _ = dev
    task = "stream a large download with httpx and show progress"
    seen: list[str] = []
    pack = pack_context(cat, task, budget=500, library="httpx")
    assert pack.omitted and all(o.tokens > 0 for o in pack.omitted)
    for _ in range(4):
        ids = [i.chunk_id for i in pack.items]
        assert not set(ids) & set(seen)
        seen += ids
        if pack.next_cursor is None:
            break
        pack = pack_context(cat, task, budget=500, library="httpx", cursor=pack.next_cursor)
    assert len(seen) > len(set(seen[:1]))


def test_cursor_of_another_task_is_refused(dev):
    cat, _ = dev
    pack = pack_context(cat, "httpx timeouts", budget=300, library="httpx")
    assert pack.next_cursor
    with pytest.raises(InputError):
        pack_context(cat, "httpx proxies", budget=300, library="httpx", cursor=pack.next_cursor)


def test_budget_outside_bounds_is_an_input_error(dev):
    cat, _ = dev
    with pytest.raises(InputError):
        pack_context(cat, "timeouts", budget=10)


@pytest.mark.parametrize("power", [0.25, 4.0])
def test_packing_follows_the_search_order_not_the_scale_of_its_scores(
    published_home, monkeypatch, power
):
    # The utility's relevance is rank-based (docs/retrieval.md, session 7): a monotone change of
    # the scores (as between scoring versions, or the dense stage's rank fusion) packs the same
    # sections. The floor and the confidence rule, which do read score ratios, are set aside.
    import docorbit_serve.context as ctx
    from docorbit_serve.search import search as real_search

    monkeypatch.setattr(ctx, "RELEVANCE_FLOOR", 0.0)
    monkeypatch.setattr(ctx, "CONFIDENT_LEAD", 1.01)
    cat = Catalog(published_home)
    tasks = [
        "set a timeout on a client and retry when the connection fails",
        "send a file upload with multipart form data and custom headers",
        "use a proxy with authentication for every request of a client",
    ]
    try:
        packs = {t: [i.chunk_id for i in pack_context(cat, t, budget=500).items] for t in tasks}

        def rescaled(*a, **kw):
            res = real_search(*a, **kw)
            res.hits = [h.model_copy(update={"score": h.score**power}) for h in res.hits]
            return res

        monkeypatch.setattr(ctx, "search", rescaled)
        for t in tasks:
            assert (
                packs[t]
                and [i.chunk_id for i in pack_context(cat, t, budget=500).items] == packs[t]
            )
    finally:
        cat.close()
