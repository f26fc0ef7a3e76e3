"""Change intelligence costs (docs/changes.md): endpoint diff of the OpenAI spec versions, call
extraction per language, verification per call, and the section diff of the full pydantic
trees (normalisation cost; read straight from ``../shared/data``, skipped with one line when
absent).

Prints wall times (best of 3) and rates. Usage: ``.venv/bin/python benchmarks/change_bench.py``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
FIX = REPO / "fixtures" / "changes"
PYD = (REPO / ".." / "shared" / "data" / "docs" / "versions" / "pydantic").resolve()


def _best(fn: Callable[[], Any], n: int = 3) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(n):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def _rows(version: str) -> list[dict]:
    from docorbit_assets.lib.endpoints import endpoint_rows, parse_spec

    path = FIX / "openai" / version / "openapi.yaml"
    parsed = parse_spec(path.read_bytes(), spec_url=str(path))
    return endpoint_rows(parsed, source="openai", library="openai", version=version, spec_url="s")


def main() -> None:
    from docorbit_serve.changes import diff_tables
    from docorbit_serve.changes.normalize import normalized
    from docorbit_serve.codecalls import extract_calls, read_sources
    from docorbit_serve.verify import Contract, verify_calls

    a, b = _rows("2.0.0"), _rows("2023-11-06-devday")
    secs, items = _best(lambda: diff_tables({"endpoints": a}, {"endpoints": b}, "x", "y"))
    print(
        f"endpoint diff 2.0.0 -> 2023-11-06 ({len(a)} -> {len(b)} ops): {secs * 1000:.1f} ms, {len(items)} items"
    )

    files, _ = read_sources([FIX / "workspace"], root=FIX / "workspace")
    for name, text in sorted(files.items()):
        big = text * 50
        secs, calls = _best(lambda big=big, name=name: extract_calls(big, path=name))
        lines = big.count("\n")
        print(
            f"extract {name} x50 ({lines} lines): {secs * 1000:.1f} ms, {lines / secs:,.0f} lines/s, {len(calls)} calls"
        )

    contract = Contract.from_rows(b, _rows("1.3.0") + a)
    calls = [c for name, text in files.items() for c in extract_calls(text, path=name)] * 100
    secs, res = _best(lambda: verify_calls(calls, contract))
    print(
        f"verify {len(calls)} calls against {len(b)} ops: {secs * 1000:.1f} ms, {len(calls) / secs:,.0f} calls/s"
    )

    if not (PYD / "v2.11.10").is_dir():
        print(f"pydantic trees absent ({PYD}): skipped")
        return
    pages = [p for p in (PYD / "v2.12.5" / "docs").rglob("*.md")]
    texts = [p.read_text(encoding="utf-8") for p in pages]
    chars = sum(map(len, texts))
    secs, _ = _best(lambda: [normalized(t) for t in texts])
    print(
        f"normalise {len(pages)} pydantic pages ({chars / 1e6:.2f} M chars): {secs * 1000:.0f} ms, {chars / secs / 1e6:.1f} M chars/s"
    )


if __name__ == "__main__":
    main()
