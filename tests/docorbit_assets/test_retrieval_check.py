"""The retrieval benchmark is a blocking check: a source's query set gates its publication."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from docorbit_assets.ingest import run_ingest
from docorbit_serve.evaluate import retrieval_gate, score_run
from docorbit_serve.home import Home
from tests.support.paths import KIT_DATA

HTTPX_DOCS = (KIT_DATA / "docs" / "httpx" / "docs").resolve()
DEV = KIT_DATA / "eval" / "dev_queries.jsonl"


def _project(root: Path, **eval_keys: object) -> Home:
    home = Home(root / ".docorbit", root)
    shutil.copytree(HTTPX_DOCS, root / "httpx")
    queries = [json.loads(x) for x in DEV.read_text().splitlines() if x.strip()]
    (root / "queries.jsonl").write_text(
        "".join(json.dumps(q) + "\n" for q in queries if q["library"] == "httpx")
    )
    extra = "".join(f"{k} = {json.dumps(v)}\n" for k, v in eval_keys.items())
    home.config_path.write_text(  # eval_* keys are read from the raw source entry
        '[[sources]]\nname = "httpx"\nkind = "local"\nlocation = "httpx"\nlibrary = "httpx"\n'
        + extra
    )
    return home


def test_a_source_below_its_retrieval_floor_is_not_published(tmp_path: Path) -> None:
    home = _project(tmp_path, eval_queries="queries.jsonl", eval_min_mrr=1.01)
    report = run_ingest(home)
    assert not report["ok"]
    assert not home.published_path.exists()


def test_a_source_meeting_its_query_set_is_published(tmp_path: Path) -> None:
    home = _project(tmp_path, eval_queries="queries.jsonl", eval_min_mrr=0.3)
    report = run_ingest(home)
    assert report["ok"], report
    assert home.published_path.exists()


def test_gate_blocks_a_drop_beyond_the_tolerance_and_passes_within_it() -> None:
    base = {"n": 10, "mrr@10": 0.70, "r@5": 0.80}
    assert retrieval_gate({"n": 10, "mrr@10": 0.69, "r@5": 0.80}, base, tolerance=0.02) == []
    problems = retrieval_gate({"n": 10, "mrr@10": 0.60, "r@5": 0.80}, base, tolerance=0.02)
    assert len(problems) == 1 and "mrr@10" in problems[0]
    assert retrieval_gate({"n": 10, "mrr@10": 0.9, "r@5": 0.9}, None, tolerance=0.0) == []


def test_score_run_counts_gold_and_alternate_sections_at_their_rank() -> None:
    queries = [
        {"id": "a", "gold": [{"path": "x.md", "anchor": "one"}], "alternates": []},
        {
            "id": "b",
            "gold": [{"path": "y.md", "anchor": "two"}],
            "alternates": [{"path": "z.md", "anchor": "alt"}],
        },  # fmt: skip
    ]
    rows = [
        {"id": "a", "ranked": [{"path": "x.md", "anchor": "one"}]},
        {"id": "b", "ranked": [{"path": "q.md", "anchor": ""}, {"path": "z.md", "anchor": "alt"}]},
    ]
    s = score_run(queries, rows)
    assert s["n"] == 2 and s["mrr@10"] == 0.75 and s["r@1"] == 0.5 and s["r@5"] == 1.0
