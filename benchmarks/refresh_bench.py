"""Refresh cost: cold ingest vs refresh of an unchanged corpus vs refresh after one page changed.

The three real doc sets (fastapi, pydantic, httpx from the team's shared data) are copied into
one temporary project as local sources, then timed in-process through ``run_ingest`` (the same
call ``docorbit ingest`` / ``docorbit refresh`` make, named Dagster jobs on the project's
instance):

1. cold ``run_ingest`` (empty home);
2. ``run_ingest(refresh=True)`` with nothing changed, ``--repeat`` times (default 3) — the
   target is <= 10 % of (1), with the same snapshot ids and publish id (one ``refresh_check``
   run for all sources, no per-source run, no publish run);
3. one page of the last doc set edited, then ``refresh=True`` — only that page is normalized
   and sliced, only its changed chunks re-extracted (symbols, examples, pitfalls, postings).

Prints seconds per phase and source, the ratio to cold, the 1-minute load average before each
phase (the machine is shared), whether ids match, and per stage the units reused / total
(asset materialization metadata: pages, chunks, or pages for links). Nothing asserts a time.
Usage: ``.venv/bin/python benchmarks/refresh_bench.py [--only NAME ...] [--repeat N] [--keep]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DATA = (REPO / ".." / "shared" / "data" / "docs").resolve()
DOC_SETS = {
    "fastapi": "fastapi/docs/en/docs",
    "pydantic": "pydantic/docs",
    "httpx": "httpx/docs",
}


def _reuse(home, report: dict) -> dict[str, str]:
    from docorbit_assets.ingest import open_instance

    out = {}
    with open_instance(home) as instance:
        for name, entry in report["sources"].items():
            counts = {}
            for rec in instance.get_records_for_run(entry["run_id"]).records:
                ev = rec.event_log_entry.dagster_event
                if ev is None or ev.event_type_value != "ASSET_MATERIALIZATION":
                    continue
                mat = ev.event_specific_data.materialization
                md = {k: v.value for k, v in mat.metadata.items()}
                if "rows_reused" in md:
                    key = mat.asset_key.to_user_string()
                    counts[key] = f"{md['rows_reused']}/{md['rows_reused'] + md['rows_computed']}"
            out[name] = ", ".join(f"{k} reused {v}" for k, v in sorted(counts.items()))
    return out


def _phase(label: str, home, cold: float | None, **kw) -> tuple[dict, float]:
    from docorbit_assets.ingest import run_ingest

    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    report = run_ingest(home, **kw)
    secs = time.perf_counter() - t0
    ratio = f" ({secs / cold:.1%} of cold)" if cold else ""
    print(
        f"\n{label}: {secs:.1f} s{ratio}  ok={report['ok']}  publish {report['publish_id']}"
        f"  load {load:.2f}"
    )
    reuse = _reuse(home, report)
    for name, e in sorted(report["sources"].items()):
        what = "unchanged (refresh_check)" if e.get("unchanged") else reuse.get(name, "")
        print(f"  {name:9} {e['seconds']:7.1f} s  snapshot {e['snapshot']}  {what}")
    print(f"  publish   {report['publish']['seconds']:7.1f} s")
    return report, secs


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*", choices=sorted(DOC_SETS))
    ap.add_argument("--keep", action="store_true", help="keep the temporary project")
    ap.add_argument("--repeat", type=int, default=3, help="unchanged refreshes to time")
    args = ap.parse_args(argv)
    if not DATA.is_dir():
        print(f"shared data not found at {DATA}; skipping the refresh benchmark")
        return 0
    from docorbit_serve.home import Home
    from docorbit_serve.registry import Registry, SourceConfig, save_registry

    names = args.only or sorted(DOC_SETS)
    root = Path(tempfile.mkdtemp(prefix="docorbit-refresh-bench-"))
    try:
        sources = []
        for name in names:
            shutil.copytree(DATA / DOC_SETS[name], root / name)
            sources.append(SourceConfig(name=name, kind="local", location=name, library=name))
        home = Home(root / ".docorbit", root)
        save_registry(Registry(home.config_path, sources))
        print(f"project {root}: {', '.join(names)}")
        cold, cold_s = _phase("cold ingest", home, None)
        times = []
        for i in range(max(1, args.repeat)):
            same, secs = _phase(f"refresh, nothing changed #{i + 1}", home, cold_s, refresh=True)
            times.append(secs)
            ids = all(
                same["sources"][n]["snapshot"] == cold["sources"][n]["snapshot"] for n in names
            )
            print(
                f"  same snapshot ids: {ids}; same publish id: {same['publish_id'] == cold['publish_id']}"
            )
        med = statistics.median(times)
        print(
            f"\nrefresh, nothing changed: median {med:.2f} s of {len(times)} "
            f"(min {min(times):.2f}, max {max(times):.2f}) = {med / cold_s:.1%} of cold {cold_s:.1f} s"
        )
        target = names[-1]
        page = sorted((root / target).rglob("*.md"))[0]
        page.write_text(
            page.read_text(encoding="utf-8") + "\n\n## Bench edit\n\nOne new section.\n"
        )
        print(f"\nedited {page.relative_to(root)}")
        changed, _ = _phase("refresh, one page changed", home, cold_s, refresh=True)
        moved = [
            n for n in names if changed["sources"][n]["snapshot"] != cold["sources"][n]["snapshot"]
        ]
        print(f"  sources with a new snapshot: {moved}")
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
