"""The sixth question set (session 25, issue 16): 60 questions by a blind author over docs no
other set's corpus or training question covers as a whole (Express 5.x, an Elysia llms.txt dump,
FastHTML's llms-ctx.txt). Well-formed, not a copy of any earlier question, and every gold
section is a section of a real slice (the docs are read from ``../shared/data``; the slice test
skips with one line when they are absent)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.docorbit_serve.test_second_set import _eval_dev, _slice
from tests.support.paths import FIXTURES, shared_data

SIXTH = FIXTURES / "eval" / "sixth_queries.jsonl"
KINDS = {"api", "conceptual", "config", "error", "howto", "migration"}
EARLIER = ["kit/eval/dev_queries.jsonl", *(f"eval/{n}_queries.jsonl" for n in
           ("second", "third", "fourth", "fifth"))]  # fmt: skip


def _queries() -> list[dict]:
    return [json.loads(line) for line in SIXTH.read_text(encoding="utf-8").splitlines()]


def test_sixth_set_is_in_the_dev_sets_format_and_spreads_libraries_and_kinds():
    qs = _queries()
    assert len(qs) == 60 and len({q["id"] for q in qs}) == 60
    assert Counter(q["library"] for q in qs) == {"express": 25, "elysia": 25, "fasthtml": 10}
    kinds = Counter(q["kind"] for q in qs)
    assert set(kinds) == KINDS and min(kinds.values()) >= 4
    earlier = {
        json.loads(line)["query"]
        for name in EARLIER
        for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    }
    assert len({q["query"] for q in qs}) == 60
    for q in qs:
        assert q["query"] not in earlier and q["gold"], q["id"]
        assert q["version"] == ("5.x" if q["library"] == "express" else ""), q["id"]
        for g in q["gold"] + q["alternates"]:
            assert sorted(g) == ["anchor", "breadcrumb", "heading", "path"], q["id"]
            # the kit's scorer strips a leading docs/ from result paths only
            assert not g["path"].startswith(("docs/", "/")), q["id"]


@pytest.mark.slow  # slices the gold pages of the three corpora
def test_every_sixth_set_gold_section_is_a_section_of_a_real_slice():
    shared_data("llms/elysia")
    mod = _eval_dev()
    wanted: dict[str, set[tuple[str, str]]] = {}
    for q in _queries():
        for g in q["gold"] + q["alternates"]:
            wanted.setdefault(q["library"], set()).add((g["path"], g["anchor"]))
    assert set(wanted) == set(mod.SIXTH_SETS)
    for name, sections in wanted.items():
        have = _slice(mod, name, mod.SIXTH_SETS[name], {p for p, _ in sections})
        assert sections <= have, (name, sorted(sections - have))
