"""The retrieval_benchmark check leaves its scores in the dashboard's benchmark history
(home/benchmarks/retrieval.jsonl), one line per scored source and run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from docorbit_assets.ingest import run_ingest
from docorbit_serve.home import Home
from docorbit_serve.web.timings import benchmark_history

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "dashboard" / "orbit-2.0"


def test_each_benchmark_run_appends_its_scores_to_the_history(tmp_path: Path) -> None:
    home = Home(tmp_path / ".docorbit", tmp_path)
    shutil.copytree(FIXTURE, tmp_path / "orbit")
    queries = [
        {
            "id": "q1",
            "query": "set a timeout",
            "gold": [{"path": "guide.md", "anchor": "timeouts"}],
        },
        {"id": "q2", "query": "enable http2", "gold": [{"path": "guide.md", "anchor": "http2"}]},
    ]
    (tmp_path / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    home.config_path.write_text(
        '[[sources]]\nname = "orbit"\nkind = "local"\nlocation = "orbit"\nlibrary = "orbit"\n'
        'eval_queries = "queries.jsonl"\n'
    )
    assert run_ingest(home)["ok"]
    (first,) = benchmark_history(home)
    assert first["source"] == "orbit" and 0 < first["mrr@10"] <= 1
    (tmp_path / "orbit" / "extra.md").write_text("# Extra\n\n## Proxies\n\nUse a proxy.\n")
    assert run_ingest(home)["ok"]
    assert [r["source"] for r in benchmark_history(home)] == ["orbit", "orbit"]
