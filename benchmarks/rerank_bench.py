"""Second-stage cost: lexical search vs lexical + re-scorer (``rerank``) vs RRF hybrid, per query.

What it measures (prints a table):
  - per query, end to end through the public ``search()`` (limit 10), the three rankings
    interleaved query by query so machine load hits them alike: lexical (``hybrid=False``),
    ``dense_stage="rerank"`` and ``dense_stage="rrf"``; p50 / p95 ms over all repeats;
  - the second stage alone (``rerank.rescore`` on the lexical top ``rerank_depth`` of each
    query): the query embedding, and the rest (vector gather, dot products, fusion) per query
    and per candidate.
The one-off model load (~0.6-0.9 s per process) is paid before timing and printed apart.

Home: ``--home`` a published home with vectors (e.g. one ``scripts/eval_dev.py`` built), else
one is built in a temp folder from the kit's httpx docs in ``fixtures/kit`` (lexical index plus
vectors, as ``[settings] hybrid = true`` does). Queries: the dev questions of the home's
libraries (``--queries``; default the kit's ``eval/dev_queries.jsonl``).

Usage: ``.venv/bin/python benchmarks/rerank_bench.py [--home H] [--queries F] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from docorbit_serve.catalog import Catalog  # noqa: E402
from docorbit_serve.evaluate import load_queries  # noqa: E402
from docorbit_serve.home import Home  # noqa: E402
from docorbit_serve.search import dense, search  # noqa: E402
from docorbit_serve.search import rerank as stage  # noqa: E402
from docorbit_serve.search.scoring import SCORING  # noqa: E402

KIT = REPO / "fixtures" / "kit"
RERANK = replace(SCORING, dense_stage="rerank")
RRF = replace(SCORING, dense_stage="rrf")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def kit_home(root: Path) -> Home:
    import eval_dev

    home = eval_dev.build_dev_home(root, KIT, libraries=("httpx",))
    eval_dev.set_hybrid(home, True)
    return home


def end_to_end(cat: Catalog, queries: list[dict], repeat: int) -> dict[str, list[float]]:
    ways = {
        "lexical": {"hybrid": False},
        "lexical + rerank": {"cfg": RERANK},
        "hybrid rrf": {"cfg": RRF},
    }
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(repeat):
        for q in queries:
            for name, kw in ways.items():
                t0 = time.perf_counter()
                search(cat, q["query"], library=q.get("library"), limit=10, **kw)
                times[name].append((time.perf_counter() - t0) * 1000)
    return times


def stage_alone(cat: Catalog, queries: list[dict]) -> tuple[list[float], list[float], int]:
    """(embed ms per query, re-scoring ms per query: gather, dot products, fusion, order;
    candidates re-scored in all)."""
    cur, vectors = cat.search_view()
    cur.close()
    embed_ms, rest_ms, n = [], [], 0
    for q in queries:
        res = search(
            cat, q["query"], library=q.get("library"), limit=RERANK.rerank_depth, hybrid=False
        )
        cur = cat.cursor()
        try:
            ids = cur.execute(
                "SELECT chunk_id, cid FROM search_docs WHERE list_contains(?, chunk_id)",
                [[h.chunk_id for h in res.hits]],
            ).fetchall()
        finally:
            cur.close()
        cid = dict(ids)
        ranked = [
            {"chunk_id": h.chunk_id, "cid": cid[h.chunk_id], "score": h.score} for h in res.hits
        ]
        t0 = time.perf_counter()
        qvec = dense.embed([q["query"]])[0]
        t1 = time.perf_counter()
        cands = ranked[: RERANK.rerank_depth]
        lexical = np.array([c["score"] for c in cands], dtype=np.float64)
        sims = stage._similarities(vectors, qvec, [c["cid"] for c in cands])
        stage._order(lexical, stage.fuse_scores(lexical, sims, RERANK), RERANK.rerank_keep_margin)
        t2 = time.perf_counter()
        embed_ms.append((t1 - t0) * 1000)
        rest_ms.append((t2 - t1) * 1000)
        n += len(ranked[: RERANK.rerank_depth])
    return embed_ms, rest_ms, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--home", help="a published home with vectors (default: build one)")
    ap.add_argument("--queries", default=str(KIT / "eval" / "dev_queries.jsonl"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="docorbit-rerank-bench-") as tmp:
        t0 = time.perf_counter()
        dense.embed(["warm up"])  # the model load, before any build embeds with it
        load_ms = (time.perf_counter() - t0) * 1000
        if args.home:
            home = Home(Path(args.home).resolve(), Path(args.home).resolve())
        else:
            home = kit_home(Path(tmp) / "home")
        cat = Catalog(home)
        libs = set(cat.manifest().get("sources", {}).keys()) | {
            s.get("library") for s in cat.manifest().get("sources", {}).values()
        }
        queries = [q for q in load_queries(Path(args.queries)) if q.get("library") in libs]
        times = end_to_end(cat, queries, args.repeat)
        embed_ms, rest_ms, n = stage_alone(cat, queries)
        cat.close()
    print(f"queries: {len(queries)} x {args.repeat} repeats; model load {load_ms:.0f} ms (once)")
    print(f"{'ranking':<18} {'p50 ms':>8} {'p95 ms':>8}")
    for name, xs in times.items():
        print(f"{name:<18} {statistics.median(xs):8.1f} {pct(xs, 0.95):8.1f}")
    per_cand = sum(rest_ms) / max(1, n) * 1000
    print(
        f"second stage alone: query embedding p50 {statistics.median(embed_ms):.1f} ms, "
        f"re-scoring p50 {statistics.median(rest_ms):.2f} ms per query "
        f"({per_cand:.1f} us per candidate, depth {RERANK.rerank_depth})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
