"""Search benchmark: build time, index size, p50/p95 and start-to-first-answer per backend.

    .venv/bin/python benchmarks/search_bench.py [--sizes 10000,100000,1000000] [--work DIR]
                                                [--rebuild] [--budget 40] [--passes 3]
                                                [--queries 100]

For each size (default 10k, 100k and 1M chunks, in one run; ``make bench``) it prints:

- the wall time of making the corpus (replicas) and of ``build_index`` (the DocOrbit index;
  both backends live in it) and the index file size;
- search p50/p95 of each backend (``bm25``, ``fts``) through the public ``search()`` (query
  understanding, candidates, re-ranking, fetching the hits' rows: what a caller waits for);
- the same for SQLite FTS5 (stdlib ``sqlite3``, ``porter unicode61``, ``ORDER BY rank``, content
  stored, the top 10 rows' heading and text fetched) over the same chunk texts, with its build
  time and file size;
- start-to-first-answer: a fresh ``docorbit search`` subprocess on the published index (median
  of 3, OS page cache warm), next to a fresh ``python -S -c`` process doing one FTS5 query;

and ends with one table of every size. A whole default run takes ~35 min on 2 busy cores
(most of it the 1M corpus: ~340 replicas through the analyzer, the 1M index build, the FTS5
build) and ~9 GB of disk in a temp folder; ``--work DIR`` keeps the corpus and indexes there
and a second run reuses them (``reused`` in the build column; ``--rebuild`` rebuilds indexes).

Corpus (the PERFORMANCE-NOTES method, on this project's data): the real chunks of the three dev
doc sets (fastapi, pydantic, httpx) through the pipeline's lib functions, plus perturbed
replicas up to the size: each replica renames ~30% of the words of 4+ letters with a
replica suffix (chosen per word and replica by a stable hash, so the vocabulary grows as if
from new libraries), drops ~10% of the paragraphs after the first, and tags the breadcrumb
with a version. Replica postings come from the pipeline's ``build_postings`` over the perturbed
text, so both engines index exactly the same text. Replicas are built in worker processes
(``--workers``, default 2) and written straight into the home's table folders (one synthetic
source per replica); a larger size reuses the smaller sizes' full replicas.

Queries: the 45 dev questions plus heading ("how to ...") and identifier queries drawn
deterministically from the base chunks, no library filter. FTS5 gets the query's
``[a-z0-9]+`` words minus DocOrbit's stop list, OR-ed (the same bag of words). Latency: 10
warm-up queries, then up to ``--passes`` passes over all queries within ``--budget`` seconds
(at least one pass); p50/p95 over the per-query medians. Figures are printed, never asserted;
read ratios, not absolute times (shared 2-core machine).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docorbit_assets.lib.index import build_index  # noqa: E402
from docorbit_assets.lib.postings import build_postings  # noqa: E402
from docorbit_assets.lib.snapshot import freeze  # noqa: E402
from docorbit_serve.catalog import Catalog  # noqa: E402
from docorbit_serve.evaluate import load_queries  # noqa: E402
from docorbit_serve.home import Home, atomic_write_json  # noqa: E402
from docorbit_serve.registry import SourceConfig  # noqa: E402
from docorbit_serve.schemas import SCHEMA_VERSION, empty_table, stable_id  # noqa: E402
from docorbit_serve.search import BACKENDS, DEFAULT_BACKEND, search  # noqa: E402
from docorbit_serve.search.analyze import STOPWORDS  # noqa: E402

BASE_LIBS = ("fastapi", "pydantic", "httpx")


def _eval_dev():
    spec = importlib.util.spec_from_file_location("eval_dev", REPO / "scripts" / "eval_dev.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def latency(
    engines: dict[str, Callable[[str], object]], queries: list[str], passes: int, budget: float
) -> tuple[dict[str, tuple[float, float]], int]:
    """Per engine (p50, p95) over the per-query medians, and the passes run.

    Engines are interleaved query by query (A B C, then C B A on the next pass), so a burst of
    load on the shared machine hits all of them alike.
    """
    names = list(engines)
    for q in queries[:10]:  # warm-up
        for n in names:
            engines[n](q)
    per: dict[str, dict[str, list[float]]] = {n: {q: [] for q in queries} for n in names}
    start = time.perf_counter()
    done = 0
    while done < passes and (done == 0 or time.perf_counter() - start < budget):
        order = names if done % 2 == 0 else names[::-1]
        for q in queries:
            for n in order:
                t0 = time.perf_counter()
                engines[n](q)
                per[n][q].append((time.perf_counter() - t0) * 1000)
        done += 1
    out = {}
    for n in names:
        med = [statistics.median(v) for v in per[n].values()]
        out[n] = (pct(med, 50), pct(med, 95))
    return out, done


# ----------------------------------------------------------------------------- corpus

_WORD = re.compile(r"\b[A-Za-z][A-Za-z0-9_]{3,}\b")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _tag(n: int) -> str:
    """A letters-only replica suffix ('zq' + base-26 of n): one word for both tokenizers."""
    out = ""
    while True:
        n, r = divmod(n, 26)
        out = _LETTERS[r] + out
        if not n:
            return "zq" + out


def perturb_text(text: str, n: int, salt: str) -> str:
    """Replica ``n`` of a chunk's Markdown: ~30% of words renamed, ~10% of paragraphs dropped."""
    suffix = _tag(n)
    chosen: dict[str, bool] = {}

    def rename(m: re.Match[str]) -> str:
        w = m.group()
        key = w.lower()
        pick = chosen.get(key)
        if pick is None:
            pick = chosen[key] = zlib.crc32(f"{key}|{n}".encode()) % 10 < 3
        return w + suffix if pick else w

    paras = text.split("\n\n")
    kept = [
        p
        for i, p in enumerate(paras)
        if i == 0 or "```" in p or zlib.crc32(f"{salt}|{i}|{n}".encode()) % 10 != 0
    ]
    return _WORD.sub(rename, "\n\n".join(kept))


def replica_chunks(base: pa.Table, n: int, name: str) -> pa.Table:
    suffix = _tag(n)
    rows = base.to_pylist()
    for r in rows:
        old = r["id"]
        r["id"] = f"{old}_r{n}"
        r["page_id"] = f"{r['page_id']}_r{n}"
        r["source"] = r["library"] = name
        r["path"] = f"r{n}/{r['path']}"
        r["text"] = perturb_text(r["text"] or "", n, old)
        r["heading"] = _WORD.sub(
            lambda m: (
                m.group()
                + (suffix if zlib.crc32(f"{m.group().lower()}|{n}".encode()) % 10 < 3 else "")
            ),
            r["heading"] or "",
        )
        r["breadcrumb"] = [*(r["breadcrumb"] or []), f"v{n}"]
        r["code_blocks"] = [
            {"language": b["language"], "code": perturb_text(b["code"] or "", n, old)}
            for b in (r["code_blocks"] or [])
        ]
        for k in ("prev_id", "next_id", "parent_id"):
            if r[k]:
                r[k] = f"{r[k]}_r{n}"
    return pa.Table.from_pylist(rows, schema=base.schema)


def _write(home: Home, table: str, source: str, snap: str, tbl: pa.Table) -> None:
    d = home.table_dir(table, source, snap)
    d.mkdir(parents=True, exist_ok=True)
    pq.write_table(tbl, d / "part-0.parquet")


def _replica_name(n: int, count: int, full: bool) -> str:
    return f"rep{n:04d}" + ("" if full else f"_{count}")


def _build_replica(args: tuple[str, str, int, int]) -> tuple[str, str, int]:
    """Worker: replica ``n`` (first ``count`` base chunks) written as source ``rep<n>``."""
    home_dir, base_path, n, count = args
    home = Home(Path(home_dir), Path(home_dir))
    base = pq.read_table(base_path)
    full = count == base.num_rows
    name = _replica_name(n, count, full)
    chunks = replica_chunks(base if full else base.slice(0, count), n, name)
    snap = f"s_bench{n:04d}x{count}"
    post = build_postings(chunks, empty_table("symbols"))
    _write(home, "chunks", name, snap, chunks)
    _write(home, "postings", name, snap, post)
    return name, snap, chunks.num_rows


def base_corpus(home: Home, data: Path) -> tuple[dict[str, dict], pa.Table, float]:
    ed = _eval_dev()
    entries, parts = {}, []
    t0 = time.perf_counter()
    for lib in BASE_LIBS:
        cfg = SourceConfig(
            name=lib, kind="local", location=str(data / ed.DOC_SETS[lib]), library=lib
        )
        tables = ed.source_tables(cfg, home.project_root)
        parts.append(tables["chunks"])
        snap = freeze(home, cfg, tables).to_pylist()[0]
        entries[lib] = _entry(lib, snap["id"], cfg.location)
    return entries, pa.concat_tables(parts), time.perf_counter() - t0


def _entry(name: str, snap: str, location: str) -> dict:
    return {
        "snapshot": snap,
        "library": name,
        "version": "",
        "kind": "local",
        "location": location,
        "created_at": "",
    }


def corpus_sources(
    home: Home, base_path: Path, n_base: int, target: int, workers: int
) -> dict[str, dict]:
    """Replica sources so that base + replicas = ``target`` chunks (the last one partial)."""
    jobs = []
    have, n = n_base, 1
    while have < target:
        count = min(n_base, target - have)
        jobs.append((str(home.path), str(base_path), n, count))
        have += count
        n += 1
    todo = []
    out = {}
    for job in jobs:
        _, _, n, count = job
        name = _replica_name(n, count, count == n_base)
        snap = f"s_bench{n:04d}x{count}"
        if (home.table_dir("postings", name, snap) / "part-0.parquet").is_file():
            out[name] = _entry(name, snap, f"/bench/{name}")
        else:
            todo.append(job)
    if todo:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for name, snap, _rows in pool.imap_unordered(_build_replica, todo):
                out[name] = _entry(name, snap, f"/bench/{name}")
    return out


def publish(home: Home, entries: dict, rebuild: bool) -> tuple[Path, float | None]:
    pairs = [f"{s}={entries[s]['snapshot']}" for s in sorted(entries)]
    pid = stable_id("u_", SCHEMA_VERSION, *pairs)
    manifest = {
        "publish_id": pid,
        "created_at": "",
        "schema_version": SCHEMA_VERSION,
        "index": f"index/{pid}.duckdb",
        "sources": entries,
    }
    path = home.index_dir / f"{pid}.duckdb"
    took = None
    if rebuild or not path.is_file():
        t0 = time.perf_counter()
        path = build_index(home, manifest)
        took = time.perf_counter() - t0
    atomic_write_json(home.published_path, manifest)
    return path, took


def bench_queries(data: Path, base: pa.Table, n: int) -> list[str]:
    """The dev questions, then heading and identifier queries from the base chunks (stable)."""
    qs = [q["query"] for q in load_queries(data / "eval" / "dev_queries.jsonl")]
    rows = base.select(["id", "heading", "code_blocks"]).to_pylist()
    rows.sort(key=lambda r: zlib.crc32(r["id"].encode()))
    idents: list[str] = []
    for r in rows:
        h = (r["heading"] or "").strip("` ")
        if len(h.split()) >= 2 and len(qs) < (n * 3) // 4:
            qs.append(f"how to {h.lower()}")
        for b in r["code_blocks"] or []:
            m = re.findall(r"\b[a-z]+_[a-z_]+\b|\b[A-Z][a-z]+[A-Z]\w+\b", b["code"] or "")
            if m:
                idents.append(f"{m[0]} example")
                break
    qs = list(dict.fromkeys(qs))
    qs.extend([q for q in dict.fromkeys(idents) if q not in qs][: max(0, n - len(qs))])
    return qs[:n]


# ----------------------------------------------------------------------------- engines


def fts5_words(q: str) -> list[str]:
    words = [w for w in re.findall(r"[a-z0-9]+", q.lower()) if w not in STOPWORDS]
    return list(dict.fromkeys(words))


def build_fts5(home: Home, entries: dict, db_path: Path, rebuild: bool = True) -> float | None:
    """Build the FTS5 table (seconds), or None when ``db_path`` exists and ``rebuild`` is off."""
    done = db_path.with_name(db_path.name + ".done")
    if not rebuild and db_path.is_file() and done.is_file():
        return None
    done.unlink(missing_ok=True)
    if db_path.exists():
        db_path.unlink()
    db = sqlite3.connect(db_path)
    t0 = time.perf_counter()
    db.execute(
        "CREATE VIRTUAL TABLE docs USING fts5(heading, breadcrumb, title, text, "
        "tokenize='porter unicode61')"
    )
    for name in sorted(entries):
        path = home.table_dir("chunks", name, entries[name]["snapshot"]) / "part-0.parquet"
        tbl = pq.read_table(path, columns=["heading", "breadcrumb", "title", "text"])
        db.executemany(
            "INSERT INTO docs VALUES (?, ?, ?, ?)",
            (
                (r["heading"], " ".join(r["breadcrumb"] or []), r["title"], r["text"])
                for r in tbl.to_pylist()
            ),
        )
    db.commit()
    db.close()
    done.touch()
    return time.perf_counter() - t0


FTS5_SQL = "SELECT rowid, heading, text FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10"


def fts5_query(db: sqlite3.Connection, q: str) -> list:
    words = fts5_words(q)
    if not words:
        return []
    return db.execute(FTS5_SQL, (" OR ".join(f'"{w}"' for w in words),)).fetchall()


def _env() -> dict[str, str]:
    """The subprocess imports this tree's code (not another checkout's editable install)."""
    return {**os.environ, "PYTHONPATH": str(REPO)}


def cold_docorbit(home: Home, query: str, backend: str, reps: int = 3) -> float:
    exe = Path(sys.executable).with_name("docorbit")
    cmd = [str(exe), "--home", str(home.path), "search", query, "--json", "--backend", backend]
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        proc = subprocess.run(
            cmd, capture_output=True, text=True, check=False, env=_env(), cwd=home.path
        )
        times.append((time.perf_counter() - t0) * 1000)
        if proc.returncode != 0 or not json.loads(proc.stdout).get("hits"):
            raise SystemExit(f"docorbit search failed: {proc.stderr or proc.stdout}")
    return statistics.median(times)


_FTS5_COLD = """
import re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
words = sys.argv[2:]
print(len(db.execute({sql!r}, (" OR ".join('"' + w + '"' for w in words),)).fetchall()))
"""


def cold_fts5(db_path: Path, query: str, reps: int = 3) -> float:
    code = _FTS5_COLD.format(sql=FTS5_SQL)
    cmd = [sys.executable, "-S", "-c", code, str(db_path), *fts5_words(query)]
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


# ----------------------------------------------------------------------------- main


def _size_label(n: int) -> str:
    return f"{n // 1_000_000}M" if n % 1_000_000 == 0 else f"{n // 1000}k"


def run_size(
    home: Home,
    base_entries: dict,
    base_path: Path,
    n_base: int,
    target: int,
    queries: list[str],
    args: argparse.Namespace,
) -> list[tuple[str, ...]]:
    """Build, measure and print one size; returns its table rows (with the size in front)."""
    label = _size_label(target)
    print(f"\n== {label}: {target} chunks", flush=True)
    t0 = time.perf_counter()
    entries = {**base_entries, **corpus_sources(home, base_path, n_base, target, args.workers)}
    print(
        f"   corpus: {len(entries) - len(base_entries)} replica sources ready in "
        f"{time.perf_counter() - t0:.0f} s",
        flush=True,
    )
    path, secs = publish(home, entries, args.rebuild)
    build = "reused" if secs is None else f"{secs:.1f}"
    size_mb = path.stat().st_size / 1e6
    print(f"   docorbit index: build {build} s, {size_mb:.0f} MB", flush=True)
    db_path = home.path / f"fts5_{target}.db"
    fts5_build = build_fts5(home, entries, db_path, args.rebuild)
    fts5_label = "reused" if fts5_build is None else f"{fts5_build:.1f}"
    print(f"   sqlite fts5: build {fts5_label} s", flush=True)
    db = sqlite3.connect(db_path)
    cat = Catalog(home)
    engines: dict[str, Callable[[str], object]] = {
        f"docorbit {b}": (lambda q, b=b: search(cat, q, backend=b, hybrid=False))
        for b in sorted(BACKENDS)
    }
    engines["sqlite fts5"] = lambda q: fts5_query(db, q)
    lat, passes = latency(engines, queries, args.passes, args.budget)
    cat.close()
    db.close()
    print(f"   latency: {len(queries)} queries x {passes} passes, engines interleaved", flush=True)
    rows: list[tuple[str, ...]] = []
    for b in sorted(BACKENDS):
        p50, p95 = lat[f"docorbit {b}"]
        cold = cold_docorbit(home, queries[0], b)
        rows.append(
            (f"docorbit {b}", build, f"{size_mb:.0f}", f"{p50:.2f}", f"{p95:.2f}", f"{cold:.0f}")
        )
    p50, p95 = lat["sqlite fts5"]
    cold = cold_fts5(db_path, queries[0])
    fts5_mb = db_path.stat().st_size / 1e6
    rows.append(
        ("sqlite fts5", fts5_label, f"{fts5_mb:.0f}", f"{p50:.2f}", f"{p95:.2f}", f"{cold:.0f}")
    )
    _table(HEAD, rows)
    ratio = lat[f"docorbit {DEFAULT_BACKEND}"][0] / max(lat["sqlite fts5"][0], 1e-9)
    print(
        "   (build s / index MB of docorbit = build_index of the whole index, both backends; "
        f"first answer = fresh process to printed result; {DEFAULT_BACKEND} p50 / fts5 p50 = "
        f"{ratio:.2f})",
        flush=True,
    )
    if not args.work:
        db_path.unlink()
    return [(label, *r) for r in rows]


HEAD = ("engine", "build s", "index MB", "p50 ms", "p95 ms", "first answer ms")


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        print(
            "   "
            + "  ".join(
                c.rjust(w) if i else c.ljust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            ),
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000,100000,1000000", help="corpus sizes in chunks")
    ap.add_argument("--work", default="", help="keep the corpus and indexes here (reused)")
    ap.add_argument("--rebuild", action="store_true", help="rebuild indexes found in --work")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--budget", type=float, default=40.0, help="seconds per latency run")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    args = ap.parse_args(argv)
    sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    data = _eval_dev().data_dir()
    started = time.perf_counter()
    tmp = None
    if args.work:
        root = Path(args.work).resolve()
        root.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.mkdtemp(prefix="docorbit-bench-")
        root = Path(tmp)
    summary: list[tuple[str, ...]] = []
    try:
        home = Home(root / "home", root / "home")
        base_path = root / "base_chunks.parquet"
        entries_path = root / "base_entries.json"
        if base_path.is_file() and entries_path.is_file():
            base_entries = json.loads(entries_path.read_text())
            base = pq.read_table(base_path)
            print(f"base corpus reused from {root}")
        else:
            base_entries, base, secs = base_corpus(home, data)
            pq.write_table(base, base_path)
            entries_path.write_text(json.dumps(base_entries))
            print(f"base corpus: {base.num_rows} chunks of {', '.join(BASE_LIBS)} ({secs:.0f} s)")
        queries = bench_queries(data, base, args.queries)
        print(
            f"{len(queries)} queries; {sys.version.split()[0]}, {os.cpu_count()} cores", flush=True
        )
        for target in sizes:
            summary.extend(
                run_size(home, base_entries, base_path, base.num_rows, target, queries, args)
            )
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"\n== all sizes (whole run {time.perf_counter() - started:.0f} s)")
    _table(("size", *HEAD), summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
