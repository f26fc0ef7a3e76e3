"""Query understanding on pathological queries: CPU time per kind, at the length cap.

    .venv/bin/python benchmarks/query_bench.py [--repeat 5]

Prints, for each kind of pathological query of ``tests/docorbit_serve/test_badinput_search.py``
(at ``MAX_QUERY_CHARS`` characters), the best-of-``repeat`` CPU time of ``understand`` and, for
comparison, of the code-token pattern run over the whole text at once (what understanding did
before it ran per whitespace token: ~20 s of CPU for a 10,000-character word). Figures are
printed, never asserted; the tests assert the work done instead.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from docorbit_serve.errors import InputError  # noqa: E402
from docorbit_serve.search import query as query_mod  # noqa: E402
from tests.docorbit_serve.test_badinput_search import PATHOLOGICAL  # noqa: E402


def _cpu(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    print(f"{'kind':<22} {'chars':>6} {'understand ms':>14} {'whole-text pattern ms':>22}")
    for kind, text in sorted(PATHOLOGICAL.items()):
        now = _cpu(lambda t=text: query_mod.understand(t), args.repeat)
        before = _cpu(lambda t=text: list(query_mod._CODE_TOKEN.finditer(t)), 1)
        print(f"{kind:<22} {len(text):>6} {now * 1000:>14.2f} {before * 1000:>22.2f}")
    issue = "a" * 10_000  # the issue's case: refused by the cap before any pattern runs
    refused = _cpu(lambda: _refused(issue), args.repeat)
    before = _cpu(lambda: list(query_mod._CODE_TOKEN.finditer(issue)), 1)
    print(
        f"{'10,000-char word':<22} {len(issue):>6} {refused * 1000:>14.2f} {before * 1000:>22.2f}"
    )
    return 0


def _refused(text: str) -> None:
    try:
        query_mod.understand(text)
    except InputError:
        return
    raise AssertionError("the cap did not refuse the query")


if __name__ == "__main__":
    raise SystemExit(main())
