"""``docorbit eval``: a question set scored against the published docs, per kind and library,
with the misses named and an MRR floor for CI (exit 4 below it, after the report)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from docorbit_serve.catalog import Catalog
from docorbit_serve.cli import cli
from docorbit_serve.evaluate import run_queries, score_run
from tests.docorbit_serve.test_search_corpus import publish_corpus

_TIMEOUTS = {"path": "advanced/timeouts.md", "anchor": "setting-a-default-timeout-on-a-client"}
QUESTIONS = [
    {"id": "q1", "query": "default timeout client", "library": "alpha", "kind": "config",
     "gold": [_TIMEOUTS]},
    {"id": "q2", "query": "default timeout client", "library": "alpha", "kind": "howto",
     "gold": [{"path": "nowhere.md", "anchor": "no-such-section"}]},
    {"id": "q3", "query": "timeout", "library": "beta", "kind": "howto", "gold": [_TIMEOUTS]},
    {"id": "q4", "query": "no gold here", "library": "alpha"},
]  # fmt: skip


def _run(home, *args):
    return CliRunner().invoke(cli, ["--home", str(home.path), "--json", "eval", *args])


def _write(tmp_path, rows):
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_eval_scores_overall_per_kind_and_library_and_names_the_misses(tmp_path):
    home = publish_corpus(tmp_path)
    questions = _write(tmp_path, QUESTIONS)
    res = _run(home, str(questions), "--out", str(tmp_path / "run.jsonl"))
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    cat = Catalog(home)
    rows = run_queries(cat, QUESTIONS)  # the same search, scored independently
    cat.close()
    want = score_run(QUESTIONS, rows)
    assert (data["queries"], data["scored"]) == (4, 3)
    assert data["mrr@10"] == want["mrr@10"] and data["r@5"] == want["r@5"]
    assert set(data["by_kind"]) == {"config", "howto"} and data["by_kind"]["config"]["n"] == 1
    assert data["by_kind"]["config"]["mrr@10"] == score_run(QUESTIONS[:1], rows)["mrr@10"] > 0
    assert data["by_library"]["beta"] == score_run(QUESTIONS[2:3], rows)
    assert "q2" in data["misses"] and "q1" not in data["misses"] and "q4" not in data["misses"]
    written = [json.loads(x) for x in (tmp_path / "run.jsonl").read_text().splitlines()]
    assert [r["id"] for r in written] == ["q1", "q2", "q3", "q4"]
    assert data["publish_id"] and data["passed"] and data["floor"] is None


def test_eval_below_the_floor_prints_the_report_and_exits_4(tmp_path):
    home = publish_corpus(tmp_path)
    questions = _write(tmp_path, QUESTIONS[:2])  # one found, one impossible: MRR <= 0.5
    res = _run(home, str(questions), "--min-mrr", "0.9")
    assert res.exit_code == 4
    data = json.loads(res.stdout)
    assert data["passed"] is False and data["floor"] == 0.9 and data["mrr@10"] < 0.9
    ok = _run(home, str(questions), "--min-mrr", "0.1")
    assert ok.exit_code == 0 and json.loads(ok.stdout)["passed"] is True


def test_eval_text_report_has_a_row_per_group(tmp_path):
    home = publish_corpus(tmp_path)
    res = CliRunner().invoke(
        cli, ["--home", str(home.path), "eval", str(_write(tmp_path, QUESTIONS))]
    )
    assert res.exit_code == 0, res.output
    for row in ("| all | 3 |", "| kind config | 1 |", "| kind howto | 2 |", "| library beta | 1 |"):
        assert row in res.stdout
    assert "Not in the top 10: q2" in res.stdout


def test_eval_refuses_a_missing_or_empty_or_malformed_file_with_bad_input(tmp_path):
    home = publish_corpus(tmp_path)
    missing = _run(home, str(tmp_path / "nope.jsonl"))
    empty = _run(home, str(_write(tmp_path, [])))
    (tmp_path / "bad.jsonl").write_text('{"id": "a"}\n', encoding="utf-8")
    bad = _run(home, str(tmp_path / "bad.jsonl"))
    for res in (missing, empty, bad):
        assert res.exit_code == 7 and json.loads(res.stdout)["error"]["code"] == "bad_input"
    assert ":1:" in json.loads(bad.stdout)["error"]["message"]


def test_eval_before_anything_is_published_is_not_found(tmp_path):
    from docorbit_serve.home import Home

    home = Home(tmp_path / ".docorbit", tmp_path)
    res = _run(home, str(_write(tmp_path, QUESTIONS)))
    assert res.exit_code == 3, res.output
