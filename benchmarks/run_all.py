"""Run every ``benchmarks/*_bench.py`` as a subprocess and print its figures (``make bench``).

Each benchmark prints its own figures to stdout; this runner streams them, times each script,
and ends with a summary table. Exit status is non-zero when any benchmark failed.
Usage: ``.venv/bin/python benchmarks/run_all.py [NAME ...]`` (NAME = ``ingest``, ``search``, …).
The search benchmark alone takes ~35 min: it builds and measures 10k, 100k and 1M chunks;
``refresh`` (cold ingest vs unchanged vs one-page-changed refresh of the three real doc sets)
takes a few minutes.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("*_bench.py"))
    if argv:
        wanted = set(argv)
        scripts = [s for s in scripts if s.stem.removesuffix("_bench") in wanted]
    if not scripts:
        print("no benchmarks matched", file=sys.stderr)
        return 2
    summary: list[tuple[str, int, float]] = []
    for script in scripts:
        print(f"\n=== {script.name} ===", flush=True)
        start = time.perf_counter()
        rc = subprocess.run([sys.executable, str(script)], cwd=HERE.parent).returncode
        summary.append((script.name, rc, time.perf_counter() - start))
    print("\n=== summary ===")
    for name, rc, secs in summary:
        print(f"{name:24} {'ok' if rc == 0 else f'FAILED (exit {rc})':18} {secs:8.1f} s")
    return 0 if all(rc == 0 for _, rc, _ in summary) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
