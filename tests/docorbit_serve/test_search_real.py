"""The two backends are each other's oracle on real documentation and real questions."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from docorbit_serve.catalog import Catalog
from docorbit_serve.search import search
from tests.support.paths import shared_data

REPO = Path(__file__).resolve().parents[2]
DATA = (REPO / ".." / "shared" / "data").resolve()
LIBS = ("httpx", "pydantic")


def _eval_dev():
    spec = importlib.util.spec_from_file_location("eval_dev", REPO / "scripts" / "eval_dev.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    shared_data("docs/pydantic")  # optional evaluation over the whole dev doc sets
    home = _eval_dev().build_dev_home(tmp_path_factory.mktemp("real") / "home", DATA, LIBS)
    cat = Catalog(home)
    queries = [
        json.loads(line)
        for line in (DATA / "eval" / "dev_queries.jsonl").read_text().splitlines()
        if line.strip()
    ]
    yield cat, [q for q in queries if q["library"] in LIBS]
    cat.close()


def test_bm25_and_fts_backends_agree_on_top_results_for_real_questions(real):
    cat, queries = real
    overlaps, top_agrees = [], []
    for q in queries:
        a = [h.chunk_id for h in search(cat, q["query"], library=q["library"], backend="bm25").hits]
        b = [h.chunk_id for h in search(cat, q["query"], library=q["library"], backend="fts").hits]
        assert a and b, q["query"]
        overlaps.append(len(set(a) & set(b)) / max(len(a), len(b)))
        top_agrees.append(a[0] in b[:5] or b[0] in a[:5])
    assert len(queries) == 30
    assert sum(overlaps) / len(overlaps) >= 0.6
    assert sum(top_agrees) / len(top_agrees) >= 0.9


def test_real_identifier_query_finds_the_migration_section(real):
    cat, _ = real
    hits = search(cat, "pydantic.generics.GenericModel", library="pydantic").hits
    assert any(h.path == "migration.md" and "GenericModel" in h.heading for h in hits[:3])
