"""OpenAPI parsing costs: every spec of the shared kit through ``endpoints.parse_spec`` (and the
Markdown rendering of ``render_markdown``), one fresh process per spec so peak memory is the
spec's own.

Prints per spec: version, paths, operations, deprecated, webhooks, issues by code, parse and
render wall time (s), peak RSS (MB). Reads ``../shared/data/openapi`` (skipped with one line when
absent) and ``fixtures/openapi/badinputs``.

Usage: ``.venv/bin/python benchmarks/openapi_bench.py``.
"""

from __future__ import annotations

import collections
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
KIT = (REPO / ".." / "shared" / "data" / "openapi").resolve()
BAD = REPO / "fixtures" / "openapi" / "badinputs"


def _one(path: str) -> dict:
    from docorbit_assets.lib.endpoints import parse_spec, render_markdown
    from docorbit_assets.lib.openapi import SpecError

    body = Path(path).read_bytes()
    t0 = time.perf_counter()
    try:
        parsed = parse_spec(body, spec_url=path)
    except SpecError as e:
        return {"error": e.reason, "s": time.perf_counter() - t0}
    t1 = time.perf_counter()
    markdown, _ = render_markdown(parsed)
    t2 = time.perf_counter()
    ops = [o for o in parsed.operations if not o.webhook]
    return {
        "version": parsed.version,
        "paths": parsed.paths,
        "operations": len(ops),
        "deprecated": sum(o.deprecated for o in ops),
        "webhooks": len(parsed.operations) - len(ops),
        "issues": dict(collections.Counter(i.code for i in parsed.issues)),
        "parse_s": round(t1 - t0, 2),
        "render_s": round(t2 - t1, 2),
        "markdown_kb": len(markdown) // 1024,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(_one(sys.argv[2])))
        return
    specs = (
        sorted(p for p in KIT.rglob("*") if p.suffix in (".json", ".yaml")) if KIT.is_dir() else []
    )
    if not specs:
        print(f"shared kit absent ({KIT}): only the hostile inputs are measured")
    for path in [*specs, *sorted(BAD.iterdir())]:
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(path)],
            capture_output=True, text=True, timeout=300, check=True,
        )  # fmt: skip
        print(f"{path.relative_to(path.parents[2])}: {out.stdout.strip()}")


if __name__ == "__main__":
    main()
