"""Search benchmark: index build time and query latency (p50/p95) of both backends.

    .venv/bin/python benchmarks/search_bench.py [--sizes 10000,100000] [--passes 3]

Corpus: the three dev doc sets (fastapi, pydantic, httpx) through the pipeline's lib functions
(``scripts/eval_dev.py``). ``--sizes`` additionally replicates their chunks (ids, paths and one
word per replica made unique) into synthetic sources of about that many chunks, and times
SQLite FTS5 (stdlib ``sqlite3``, ``porter unicode61``, ``ORDER BY rank``) alongside over the
same text. Queries: the 45 dev questions, without library filter. Figures are printed, never
asserted; read ratios, not absolute times (shared 2-core machine).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docorbit_assets.lib.index import build_index  # noqa: E402
from docorbit_assets.lib.postings import build_postings  # noqa: E402
from docorbit_assets.lib.snapshot import freeze  # noqa: E402
from docorbit_serve.catalog import Catalog  # noqa: E402
from docorbit_serve.evaluate import load_queries  # noqa: E402
from docorbit_serve.home import Home, atomic_write_json  # noqa: E402
from docorbit_serve.registry import SourceConfig  # noqa: E402
from docorbit_serve.schemas import PER_SOURCE_TABLES, SCHEMA_VERSION, empty_table, stable_id  # noqa: E402
from docorbit_serve.search import BACKENDS, search  # noqa: E402


def _eval_dev():
    spec = importlib.util.spec_from_file_location("eval_dev", REPO / "scripts" / "eval_dev.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def latency(fn, queries: list[str], passes: int) -> tuple[float, float]:
    for q in queries[:10]:  # warm-up
        fn(q)
    per_query: dict[str, list[float]] = {q: [] for q in queries}
    for _ in range(passes):
        for q in queries:
            t0 = time.perf_counter()
            fn(q)
            per_query[q].append((time.perf_counter() - t0) * 1000)
    med = [statistics.median(v) for v in per_query.values()]
    return pct(med, 50), pct(med, 95)


def publish(home: Home, entries: dict) -> tuple[Path, float]:
    pairs = [f"{s}={entries[s]['snapshot']}" for s in sorted(entries)]
    pid = stable_id("u_", SCHEMA_VERSION, *pairs)
    manifest = {
        "publish_id": pid,
        "created_at": "",
        "schema_version": SCHEMA_VERSION,
        "index": f"index/{pid}.duckdb",
        "sources": entries,
    }
    t0 = time.perf_counter()
    path = build_index(home, manifest)
    took = time.perf_counter() - t0
    atomic_write_json(home.published_path, manifest)
    return path, took


_WORD = re.compile(r"\b([A-Za-z]{6,})\b")


def _suffix_every_7th(text: str, suffix: str) -> str:
    count = iter(range(10**9))
    return _WORD.sub(lambda m: m.group(1) + (suffix if next(count) % 7 == 0 else ""), text)


def replicate(chunks: pa.Table, n: int) -> pa.Table:
    """Replica ``n`` of ``chunks``: new ids/paths, every 7th long word suffixed (vocabulary grows)."""
    rows = chunks.to_pylist()
    for r in rows:
        r["id"] = f"{r['id']}_r{n}"
        r["path"] = f"r{n}/{r['path']}"
        r["text"] = _suffix_every_7th(r["text"], f"r{n}")
    return pa.Table.from_pylist(rows, schema=chunks.schema)


def sqlite_fts5(chunks: pa.Table, queries: list[str], passes: int, tmp: Path) -> str:
    from docorbit_serve.search.analyze import query_terms

    db = sqlite3.connect(tmp / "fts5.db")
    t0 = time.perf_counter()
    db.execute(
        "CREATE VIRTUAL TABLE docs USING fts5(heading, breadcrumb, title, text, "
        "tokenize='porter unicode61')"
    )
    db.executemany(
        "INSERT INTO docs VALUES (?, ?, ?, ?)",
        [
            (r["heading"], " ".join(r["breadcrumb"]), r["title"], r["text"])
            for r in chunks.select(["heading", "breadcrumb", "title", "text"]).to_pylist()
        ],
    )
    db.commit()
    build = time.perf_counter() - t0

    def run(q: str) -> None:
        words = [w for w in re.findall(r"[a-z0-9]+", q.lower()) if len(w) > 1]
        if not words or not query_terms(q):
            return
        match = " OR ".join('"' + w + '"' for w in words)
        db.execute(
            "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10", (match,)
        ).fetchall()

    p50, p95 = latency(run, queries, passes)
    db.close()
    return f"sqlite_fts5  build {build:6.1f} s  p50 {p50:7.2f} ms  p95 {p95:7.2f} ms"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--sizes", default="", help="replicated corpus sizes in chunks, e.g. 10000,100000"
    )
    ap.add_argument("--passes", type=int, default=3)
    args = ap.parse_args(argv)
    ed = _eval_dev()
    data = ed.data_dir()
    queries = [q["query"] for q in load_queries(data / "eval" / "dev_queries.jsonl")]
    with tempfile.TemporaryDirectory(prefix="docorbit-bench-") as tmp:
        root = Path(tmp)
        home = Home(root / "home", root / "home")
        entries, all_chunks = {}, []
        t0 = time.perf_counter()
        for lib in ed.DOC_SETS:
            cfg = SourceConfig(
                name=lib, kind="local", location=str(data / ed.DOC_SETS[lib]), library=lib
            )
            tables = ed.source_tables(cfg, home.project_root)
            all_chunks.append(tables["chunks"])
            snap = freeze(home, cfg, tables).to_pylist()[0]
            entries[lib] = {
                "snapshot": snap["id"],
                "library": lib,
                "version": "",
                "kind": "local",
                "location": cfg.location,
                "created_at": "",
            }
        pipeline = time.perf_counter() - t0
        base = pa.concat_tables(all_chunks)
        sizes = [("dev", 0)] + [(s, int(s)) for s in args.sizes.split(",") if s.strip()]
        for label, target in sizes:
            if target:
                reps = max(0, -(-target // base.num_rows) - 1)
                for n in range(1, reps + 1):
                    name = f"rep{n:03d}"
                    if name in entries:
                        continue
                    cfg = SourceConfig(
                        name=name, kind="local", location=f"/bench/{name}", library=name
                    )
                    tables = {t: empty_table(t) for t in PER_SOURCE_TABLES}
                    tables["chunks"] = replicate(base, n)
                    tables["postings"] = build_postings(tables["chunks"], tables["symbols"])
                    snap = freeze(home, cfg, tables).to_pylist()[0]
                    entries[name] = {
                        "snapshot": snap["id"],
                        "library": name,
                        "version": "",
                        "kind": "local",
                        "location": cfg.location,
                        "created_at": "",
                    }
            path, build = publish(home, entries)
            n_chunks = base.num_rows * (1 + sum(1 for e in entries if e.startswith("rep")))
            size_mb = path.stat().st_size / 1e6
            print(
                f"== corpus {label}: {n_chunks} chunks, index {size_mb:.1f} MB, "
                f"build_index {build:.1f} s"
                + (f" (pipeline {pipeline:.1f} s)" if not target else "")
            )
            cat = Catalog(home)
            for backend in sorted(BACKENDS):
                p50, p95 = latency(
                    lambda q, b=backend, c=cat: search(c, q, backend=b), queries, args.passes
                )
                print(f"{backend:12s} p50 {p50:7.2f} ms  p95 {p95:7.2f} ms")
            cat.close()
            if target:
                reps = [replicate(base, n) for n in range(1, n_chunks // base.num_rows)]
                print(sqlite_fts5(pa.concat_tables([base, *reps]), queries, args.passes, root))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
