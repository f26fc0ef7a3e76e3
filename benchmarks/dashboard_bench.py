"""Dashboard and REST latency over a published home (in-process, Starlette TestClient).

    .venv/bin/python benchmarks/dashboard_bench.py --home PATH/.docorbit [--n 30] [--q "set a timeout"]

Prints p50/p95 wall milliseconds per route (page render included: SQL, templates, SVG plots).
Run on purpose; tests never assert times.
"""

from __future__ import annotations

import argparse
import statistics
import time

from starlette.testclient import TestClient

from docorbit_serve.catalog import Catalog
from docorbit_serve.home import resolve_home
from docorbit_serve.web.app import build_web_app


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--home", required=True)
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--q", default="set a timeout")
    args = ap.parse_args()
    home = resolve_home(home=args.home, env={})
    client = TestClient(build_web_app(home, Catalog(home)))
    routes = {
        "overview /": ("/", {}),
        "search page": ("/search", {"q": args.q}),
        "REST search": ("/api/v1/search", {"q": args.q}),
        "REST sources": ("/api/v1/sources", {}),
        "openapi.json": ("/api/v1/openapi.json", {}),
    }
    print(f"home {home.path}, {args.n} requests per route (first one excluded)")
    for name, (path, params) in routes.items():
        client.get(path, params=params)  # warm: index open, templates compiled
        times = []
        for _ in range(args.n):
            t0 = time.perf_counter()
            r = client.get(path, params=params)
            times.append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200, (path, r.status_code)
        times.sort()
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        print(f"{name:14s} p50 {statistics.median(times):7.1f} ms  p95 {p95:7.1f} ms")


if __name__ == "__main__":
    main()
