"""The third, fourth and fifth question sets (sessions 7, 23 and 24, issue 16): 60 questions
each over the dev set's own corpus (fastapi, pydantic, httpx) by authors who saw neither the dev
set nor any result. Well-formed, not a copy of any dev or earlier question, and every gold
section is a section of a real slice (matched as the kit's scorer matches: the path and the
anchor, or the path and the heading)."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from tests.docorbit_serve.test_second_set import _eval_dev
from tests.support.paths import FIXTURES, REPO, SHARED_DATA, shared_data

SETS = ("third", "fourth", "fifth")
KINDS = {"api", "conceptual", "config", "error", "howto", "migration"}


def _queries(name: str) -> list[dict]:
    path = FIXTURES / "eval" / f"{name}_queries.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _norm(heading: str) -> str:
    heading = re.sub(r"\{\s*#[^}]*\}\s*$", "", heading)
    return " ".join(re.sub(r"[`*_]", "", heading).lower().split())


@pytest.mark.parametrize("name", SETS)
def test_blind_set_is_in_the_dev_sets_format_and_spreads_libraries_and_kinds(name):
    qs = _queries(name)
    assert len(qs) == 60 and len({q["id"] for q in qs}) == 60
    assert Counter(q["library"] for q in qs) == {"fastapi": 20, "pydantic": 20, "httpx": 20}
    kinds = Counter(q["kind"] for q in qs)
    assert set(kinds) == KINDS and min(kinds.values()) >= 6
    dev = {
        json.loads(line)["query"]
        for line in (FIXTURES / "kit" / "eval" / "dev_queries.jsonl").read_text().splitlines()
    }
    earlier = {q["query"] for other in SETS[: SETS.index(name)] for q in _queries(other)}
    for q in qs:
        assert q["query"] not in dev | earlier and q["gold"], q["id"]


@pytest.mark.slow  # slices the three corpora's gold pages
@pytest.mark.parametrize("name", SETS)
def test_every_blind_set_gold_section_is_a_section_of_a_real_slice(name):
    shared_data("docs/fastapi")
    from docorbit_serve.registry import SourceConfig

    mod = _eval_dev()
    wanted: dict[str, set[tuple[str, str, str]]] = {}
    for q in _queries(name):
        for g in q["gold"] + q["alternates"]:
            wanted.setdefault(q["library"], set()).add(
                (g["path"], g["anchor"], _norm(g["heading"]))
            )
    for library, sections in wanted.items():
        cfg = SourceConfig(
            name=library,
            kind="local",
            location=str(SHARED_DATA / mod.DOC_SETS[library]),
            library=library,
            version="",
            include=tuple(sorted({p for p, _, _ in sections})),
        )
        rows = (
            mod.source_tables(cfg, REPO)["chunks"].select(["path", "anchor", "heading"]).to_pylist()
        )
        anchors = {(r["path"], r["anchor"] or "") for r in rows}
        headings = {(r["path"], _norm(r["heading"] or "")) for r in rows}
        missing = [
            s for s in sections if (s[0], s[1]) not in anchors and (s[0], s[2]) not in headings
        ]
        assert missing == [], (library, sorted(missing))
