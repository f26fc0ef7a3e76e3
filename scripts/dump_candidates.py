"""The lexical top K of a published home per question, with content and gold flags (issue 16).

    .venv/bin/python scripts/dump_candidates.py HOME QUERIES.jsonl OUT.jsonl K

Input of ``scripts/finetune_reranker.py`` (training on synthetic questions, scoring on the
evaluation sets). A candidate is gold when its path ends with a gold path and its anchor (less
a ``_N`` duplicate suffix) is the gold anchor, or, for questions that give a heading instead of
an anchor (``fixtures/eval/synthetic_train_questions.jsonl``), its heading is the gold heading
(an empty heading: the page's top section).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from docorbit_serve.catalog import Catalog  # noqa: E402
from docorbit_serve.evaluate import load_queries, query_hits  # noqa: E402
from docorbit_serve.home import Home  # noqa: E402


def _norm(s: str | None) -> str:
    return re.sub(r"\s+", " ", (s or "").strip().lower())


def is_gold(hit: Any, gold: list[dict[str, Any]]) -> bool:
    for g in gold:
        gp = g.get("path") or ""
        if not (hit.path == gp or hit.path.endswith("/" + gp)):
            continue
        if "anchor" in g:
            if re.sub(r"_\d+$", "", hit.anchor) == g["anchor"]:
                return True
        elif _norm(hit.heading) == _norm(g.get("heading")) or (
            not g.get("heading") and not hit.anchor
        ):
            return True
    return False


def main() -> None:
    home_dir, qfile, out, k = (
        Path(sys.argv[1]),
        Path(sys.argv[2]),
        Path(sys.argv[3]),
        int(sys.argv[4]),
    )
    home = Home(home_dir.resolve(), home_dir.resolve())
    cat = Catalog(home)
    with out.open("w", encoding="utf-8") as f:
        for q in load_queries(qfile):
            hits = query_hits(cat, q, limit=k)
            gold = [*(q.get("gold") or []), *(q.get("alternates") or [])]
            cands = [
                {
                    "path": h.path,
                    "anchor": h.anchor,
                    "heading": h.heading,
                    "title": h.title,
                    "breadcrumb": h.breadcrumb,
                    "content": h.content,
                    "score": h.score,
                    "gold": is_gold(h, gold),
                }
                for h in hits
            ]
            row = {
                "id": q["id"],
                "query": q["query"],
                "library": q.get("library"),
                "kind": q.get("kind"),
                "n_gold": len(gold),
                "cands": cands,
            }
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    cat.close()


if __name__ == "__main__":
    main()
