"""Ingest time of three real doc sets through the real CLI (``docorbit ingest``).

For each doc set (fastapi, pydantic, httpx from the team's shared data) a fresh temporary
project is created (``init`` + ``add <folder>``) and ``docorbit ingest`` is timed as a
subprocess, end to end: CLI start, Dagster in-process materialization of every stage, snapshot,
index build and publish. Chunks are counted from the published snapshot's ``chunks`` Parquet.
Finally all three are ingested together in one project.

Prints, per source: files, pages, chunks, seconds, chunks/s. Figures vary with the machine;
nothing here asserts a time. Usage:
``.venv/bin/python benchmarks/ingest_bench.py [--only NAME ...] [--keep]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

REPO = Path(__file__).resolve().parents[1]
DATA = (REPO / ".." / "shared" / "data" / "docs").resolve()
DOCORBIT = REPO / ".venv" / "bin" / "docorbit"
SETS = {
    "fastapi": DATA / "fastapi" / "docs" / "en" / "docs",
    "pydantic": DATA / "pydantic" / "docs",
    "httpx": DATA / "httpx" / "docs",
}


def cli(project: Path, *args: str) -> float:
    cmd = [str(DOCORBIT), "--project", str(project), *args]
    env = {**os.environ, "DAGSTER_DISABLE_TELEMETRY": "1"}
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    secs = time.perf_counter() - start
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f"failed (exit {proc.returncode}): {' '.join(cmd)}")
    return secs


def rows(home: Path, table: str, source: str) -> int:
    manifest = json.loads((home / "published.json").read_text())
    snap = manifest["sources"][source]["snapshot"]
    part = home / "tables" / table / f"source={source}" / f"snapshot={snap}" / "part-0.parquet"
    return pq.ParquetFile(part).metadata.num_rows


def md_files(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*") if p.suffix in (".md", ".mdx", ".markdown"))


def new_project(root: Path, names: list[str]) -> Path:
    project = Path(tempfile.mkdtemp(prefix="ingest-", dir=root))
    cli(project, "init")
    for name in names:
        cli(project, "add", str(SETS[name]), "--name", name, "--library", name)
    return project


def main() -> int:
    ap = argparse.ArgumentParser(description="ingest benchmark")
    ap.add_argument("--only", nargs="*", choices=sorted(SETS), default=sorted(SETS))
    ap.add_argument("--keep", action="store_true", help="keep the temporary projects")
    opts = ap.parse_args()
    missing = [n for n in opts.only if not SETS[n].is_dir()]
    if missing:
        raise SystemExit(f"shared data missing for {missing} under {DATA}")
    if not DOCORBIT.exists():
        raise SystemExit(f"{DOCORBIT} not found: run `make install`")

    root = Path(tempfile.mkdtemp(prefix="docorbit-bench-"))
    try:
        start = time.perf_counter()
        subprocess.run([str(DOCORBIT), "--version"], capture_output=True, check=True)
        print(f"CLI start (docorbit --version): {time.perf_counter() - start:.2f} s")
        print(
            f"{'source':10} {'files':>6} {'pages':>6} {'chunks':>7} {'seconds':>8} {'chunks/s':>9}"
        )
        total_chunks = 0
        for name in opts.only:
            project = new_project(root, [name])
            secs = cli(project, "ingest")
            home = project / ".docorbit"
            pages, chunks = rows(home, "pages", name), rows(home, "chunks", name)
            total_chunks += chunks
            print(
                f"{name:10} {md_files(SETS[name]):6d} {pages:6d} {chunks:7d} {secs:8.2f} "
                f"{chunks / secs:9.1f}",
                flush=True,
            )
        if len(opts.only) > 1:
            project = new_project(root, opts.only)
            secs = cli(project, "ingest")
            print(
                f"{'all':10} {'':6} {'':6} {total_chunks:7d} {secs:8.2f} {total_chunks / secs:9.1f}"
            )
        print("(each row: fresh project, `docorbit ingest` wall time incl. CLI and Dagster start)")
    finally:
        if opts.keep:
            print(f"projects kept under {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
