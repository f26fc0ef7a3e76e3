"""The synthetic training questions (sessions 12 and 23, issue 16) are well-formed and hold no
question of any evaluation set: a model trained on them is never scored on its own data."""

from __future__ import annotations

import json
from collections import Counter

from tests.support.paths import FIXTURES

TRAIN = ("synthetic_train_questions.jsonl", "synthetic_train_questions_2.jsonl")
EVAL = ("second_queries.jsonl", "third_queries.jsonl", "fourth_queries.jsonl")
KINDS = {"api", "conceptual", "config", "error", "how-to", "migration"}


def _lines(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_training_questions_are_well_formed_and_unique():
    qs = [q for name in TRAIN for q in _lines(FIXTURES / "eval" / name)]
    assert len(qs) > 2_000
    ids = Counter(q["id"] for q in qs)
    assert max(ids.values()) == 1
    assert {q["library"] for q in qs} == {"fastapi", "pydantic", "httpx"}
    assert {q["kind"] for q in qs} == KINDS
    for q in qs:
        assert q["query"].strip() and q["gold"], q["id"]
        for gold in q["gold"]:
            assert gold["path"].endswith(".md") and not gold["path"].startswith("/"), q["id"]
            heading = gold["heading"]
            assert "{#" not in heading.replace(" ", "") and "<a " not in heading, q["id"]


def test_no_training_question_is_an_evaluation_question():
    def norm(s):
        return " ".join(s.lower().split())

    evaluation = {norm(q["query"]) for name in EVAL for q in _lines(FIXTURES / "eval" / name)}
    evaluation |= {
        norm(q["query"]) for q in _lines(FIXTURES / "kit" / "eval" / "dev_queries.jsonl")
    }
    assert len(evaluation) > 200
    training = [q for name in TRAIN for q in _lines(FIXTURES / "eval" / name)]
    assert [q["id"] for q in training if norm(q["query"]) in evaluation] == []
