"""Hybrid search costs: model load, embedding throughput at ingest, dense search at 10k-1M chunks.

What it measures (prints a table; ``make bench`` runs it):
  - model load (first ``dense.embed`` in a fresh process, sha256 checks included);
  - ingest-side embedding throughput on real chunks (the httpx dev docs, through the pipeline's
    lib functions, ``dense.chunk_text`` as ``build_vectors`` uses it);
  - query side: embedding a query, and the dense top 50 over 10k, 100k and 1M vectors
    (the real chunk vectors tiled with a little noise, unit rows, memory-mapped from a .npy
    exactly as ``VectorIndex`` opens a publication's file), without and with a filter that
    keeps a third of the rows. The lexical half of a hybrid search is ``search_bench.py``'s
    figure; a hybrid search costs about the sum plus the fusion (< 1 ms).

Usage: ``.venv/bin/python benchmarks/hybrid_bench.py [--sizes 10000,100000,1000000] [--queries 50]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docorbit_serve.search import dense  # noqa: E402

DATA = (REPO / ".." / "shared" / "data").resolve()
QUERIES = [
    "set a default timeout on a client",
    "stream a large download without loading it into memory",
    "retry a request when the connection drops",
    "send a multipart file upload",
    "how do I use a proxy for some hosts only",
    "why use a Client instead of top-level functions",
    "raise an error for 4xx and 5xx responses",
    "mount a custom transport",
]


def real_chunks() -> list[str]:
    from docorbit_assets.lib import discover, fetch, normalize, slice
    from docorbit_serve.registry import SourceConfig

    cfg = SourceConfig(
        name="httpx", kind="local", location=str(DATA / "docs/httpx/docs"), library="httpx"
    )
    pages = normalize.normalize(cfg, fetch.fetch_source(cfg, discover.discover(cfg, REPO), REPO))
    chunks = slice.slice_pages(pages).to_pylist()
    return [
        dense.chunk_text(c["title"] or "", c["breadcrumb"], c["heading"] or "", c["text"] or "")
        for c in chunks
    ]


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--queries", type=int, default=50)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]

    t0 = time.perf_counter()
    dense.embed(["warm up"])
    print(f"model load (first embed, fresh process): {time.perf_counter() - t0:.2f} s")

    texts = real_chunks()
    t0 = time.perf_counter()
    base = dense.embed(texts)
    took = time.perf_counter() - t0
    print(
        f"ingest embedding: {len(texts)} real httpx chunks in {took:.1f} s "
        f"({took / len(texts) * 1000:.1f} ms a chunk, {len(texts) / took:.0f} chunks/s)"
    )

    qs = [QUERIES[i % len(QUERIES)] + ("" if i < len(QUERIES) else f" {i}") for i in range(64)]
    times = []
    for q in qs[: args.queries]:
        t0 = time.perf_counter()
        dense.embed([q])
        times.append((time.perf_counter() - t0) * 1000)
    print(f"query embedding: p50 {statistics.median(times):.1f} ms, p95 {pct(times, 0.95):.1f} ms")
    qvecs = dense.embed(qs[: args.queries])

    rng = np.random.default_rng(0)
    rows = []
    with tempfile.TemporaryDirectory(prefix="docorbit-hybrid-bench-") as tmp:
        for n in sizes:
            reps = -(-n // len(base))
            m = np.tile(base, (reps, 1))[:n]
            m += rng.normal(scale=0.02, size=m.shape).astype(np.float32)
            m /= np.linalg.norm(m, axis=1, keepdims=True)
            path = Path(tmp) / f"v{n}.npy"
            np.save(path, m.astype(np.float32))
            del m
            vi = dense.VectorIndex.open(path, dense.MODEL_ID)
            allowed = np.arange(1, n + 1, 3, dtype=np.int64)
            for label, filt in (("all rows", None), ("1/3 filter", allowed)):
                vi.top(qvecs[0], 50, filt)  # page in
                lat = []
                for qv in qvecs:
                    t0 = time.perf_counter()
                    vi.top(qv, 50, filt)
                    lat.append((time.perf_counter() - t0) * 1000)
                rows.append((n, label, statistics.median(lat), pct(lat, 0.95), path.stat().st_size))
            del vi
    print("\n| vectors | rows searched | top-50 p50 ms | p95 ms | file MB |")
    print("|---|---|---|---|---|")
    for n, label, p50, p95, size in rows:
        print(f"| {n:,} | {label} | {p50:.1f} | {p95:.1f} | {size / 1e6:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
