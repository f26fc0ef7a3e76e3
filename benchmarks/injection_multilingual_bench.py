"""What the multilingual injection signal costs on real documentation.

Prints, over the pages of ``../shared/data/docs`` (or ``--docs``): how many paragraphs the
language gate passes to the model, the gate's own time, and the model's time per embedded
window and per page (one thread). Run on purpose, not in tests:

    .venv/bin/python benchmarks/injection_multilingual_bench.py
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from docorbit_assets.lib import injection_multilingual as ml  # noqa: E402
from docorbit_assets.lib.injection_multilingual_gate import non_english  # noqa: E402

_PARAGRAPH = re.compile(r"\n\s*\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=Path, default=Path(__file__).resolve().parents[2] / "shared/data/docs")
    ap.add_argument("--embed-sample", type=int, default=200, help="windows timed through the model")
    args = ap.parse_args()
    pages = [
        f.read_text(encoding="utf-8", errors="replace")
        for f in sorted(args.docs.rglob("*"))
        if f.suffix in (".md", ".mdx") and f.is_file()
    ]
    paras = [p for page in pages for p in _PARAGRAPH.split(page) if p.strip()]
    t0 = time.perf_counter()
    gated = sum(non_english(p) for p in paras)
    gate_s = time.perf_counter() - t0
    wins = [w for page in pages for w in ml.windows(page)]
    pages_with = sum(bool(ml.windows(page)) for page in pages)
    sample = wins[: args.embed_sample]
    ml.embed(["warm-up"])
    t0 = time.perf_counter()
    for w in sample:
        ml.embed([w])
    per_window = (time.perf_counter() - t0) / max(len(sample), 1)
    print(f"pages: {len(pages)}, paragraphs: {len(paras)}")
    print(f"gate passes: {gated} paragraphs ({gated / len(paras):.1%}); windows: {len(wins)}")
    print(f"pages with at least one window: {pages_with} ({pages_with / len(pages):.1%})")
    print(f"gate time: {gate_s / len(paras) * 1e6:.1f} us per paragraph")
    print(f"model time: {per_window * 1000:.0f} ms per window (first {len(sample)}, one thread)")
    print(f"model time per page on average: {per_window * len(wins) / len(pages) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
