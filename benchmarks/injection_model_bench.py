"""Cost of the learned injection classifier (printed, never asserted).

Usage: ``.venv/bin/python benchmarks/injection_model_bench.py [PAGES]``

Scores the paragraphs (and short-paragraph windows, ``injection_model.units``) of the first
PAGES (default 40) Markdown pages of the kit's real docs (``../shared/data/docs``, else the
in-project copy ``fixtures/kit/docs``) through ``model_findings``, after one warm-up call that
loads the model. Prints units per second, ms per unit and ms per page.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docorbit_assets.lib.injection_model import model_findings, units  # noqa: E402


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    docs = ROOT.parent / "shared" / "data" / "docs"
    if not docs.is_dir():
        docs = ROOT / "fixtures" / "kit" / "docs"
    pages = [
        p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(docs.rglob("*"))
        if p.suffix in (".md", ".mdx")
    ][:limit]
    model_findings("warm up: load the model.")
    n_units = sum(len(units(t)) for t in pages)
    started = time.perf_counter()
    found = sum(len(model_findings(t)) for t in pages)
    took = time.perf_counter() - started
    chars = sum(len(t) for t in pages)
    print(
        f"{len(pages)} pages, {chars:,d} chars, {n_units} units (paragraphs + windows), "
        f"{found} findings: {took:.1f} s; {n_units / took:.0f} units/s, "
        f"{1000 * took / n_units:.1f} ms/unit, {1000 * took / len(pages):.0f} ms/page"
    )


if __name__ == "__main__":
    main()
