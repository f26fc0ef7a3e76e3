"""Version-correct answers: pydantic 1.10.26 and 2.12.5 side by side, one workspace per pin.

    .venv/bin/python benchmarks/version_bench.py [--home DIR] [--json]

Without ``--home`` it ingests both versions into a temporary home through the CLI (``add`` +
``ingest``, ~20-30 s). For each fixture workspace it prints the share of the questions in
``fixtures/version_questions.jsonl`` whose top result (and top-3 results) come from the pinned
version's docs, next to the version-unaware search, plus the median time of both.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docorbit_serve.catalog import Catalog  # noqa: E402
from docorbit_serve.cli import main as cli_main  # noqa: E402
from docorbit_serve.home import resolve_home  # noqa: E402
from docorbit_serve.search import search  # noqa: E402
from docorbit_serve.versioned import versioned_search, workspace_pins  # noqa: E402

PYDANTIC = (REPO / ".." / "shared" / "data" / "docs" / "versions" / "pydantic").resolve()
WORKSPACES = {
    "pydantic-v1-requirements": "1.10.26",
    "pydantic-v2-uv": "2.12.5",
    "pydantic-unavailable": None,  # 0.32.2: no docs for its line
}


def build(home: Path) -> None:
    h = str(home)
    assert cli_main(["--home", h, "init"]) == 0
    for v in ("1.10.26", "2.12.5"):
        folder = str(PYDANTIC / f"v{v}" / "docs")
        assert cli_main(["--home", h, "add", folder, "--library", "pydantic", "--version", v]) == 0
    assert cli_main(["--home", h, "ingest"]) == 0


def measure(home: Path) -> list[dict]:
    cat = Catalog(resolve_home(home=home, env={}))
    qs = [
        json.loads(x) for x in (REPO / "fixtures" / "version_questions.jsonl").open() if x.strip()
    ]
    rows = []
    for name, want in WORKSPACES.items():
        pins = workspace_pins(REPO / "fixtures" / "workspaces" / name, cat.manifest())
        top1 = top3 = base = stamped_other = 0
        n3 = 0
        t_aware, t_plain = [], []
        for q in qs:
            t0 = time.perf_counter()
            hits = versioned_search(cat, q["query"], pins=pins, library="pydantic", limit=3).hits
            t_aware.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            plain = search(cat, q["query"], library="pydantic", limit=3).hits
            t_plain.append(time.perf_counter() - t0)
            if want is None:  # unavailable: every hit must say it is another version
                stamped_other += all(h.version_match == "other" for h in hits)
                continue
            top1 += hits[0].version == want
            top3 += sum(h.version == want for h in hits)
            n3 += len(hits)
            base += plain[0].version == want
        rows.append(
            {
                "workspace": name,
                "pinned_docs": want,
                "status": pins["pydantic"].status,
                "questions": len(qs),
                "top1_correct": round(top1 / len(qs), 3) if want else None,
                "top3_correct": round(top3 / n3, 3) if want else None,
                "unaware_top1_correct": round(base / len(qs), 3) if want else None,
                "answers_stamped_other": round(stamped_other / len(qs), 3) if not want else None,
                "p50_ms_aware": round(statistics.median(t_aware) * 1000, 1),
                "p50_ms_unaware": round(statistics.median(t_plain) * 1000, 1),
            }
        )
    cat.close()
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", help="a home that already holds both versions")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(args.home) if args.home else Path(tmp) / "docs-home"
        if not args.home:
            build(home)
        rows = measure(home)
    if args.json:
        print(json.dumps(rows, indent=2, sort_keys=True))
        return 0
    print("| workspace | docs | status | top-1 correct | top-3 correct | unaware top-1 | p50 aware / unaware |")  # fmt: skip
    print("|---" * 7 + "|")
    for r in rows:
        pct = lambda x: "-" if x is None else f"{x:.0%}"  # noqa: E731
        print(
            f"| {r['workspace']} | {r['pinned_docs'] or '(none)'} | {r['status']} | "
            f"{pct(r['top1_correct']) if r['pinned_docs'] else 'all hits stamped other: ' + pct(r['answers_stamped_other'])} | {pct(r['top3_correct'])} | "
            f"{pct(r['unaware_top1_correct'])} | {r['p50_ms_aware']} / {r['p50_ms_unaware']} ms |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
