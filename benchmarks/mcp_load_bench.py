"""MCP load benchmark (loopback only, bounded in time).

What it does:

1. Builds a private project in a temporary folder with a copy of the httpx docs
   (``../shared/data/docs/httpx/docs``) and publishes it with ``docorbit ingest`` (publication A).
2. Starts ``docorbit mcp --http`` on 127.0.0.1 and a ``docorbit mcp`` stdio server, both on that
   home, and records the HTTP server's RSS.
3. Runs ``--clients`` (32) concurrent streamable-HTTP SDK clients plus one stdio SDK client for
   ``--duration`` seconds (60), each looping ``search_docs`` then ``get_doc`` on the first hit.
4. Unless ``--no-swap``: when the load starts it edits one page of the copy and runs ``docorbit
   ingest`` in a subprocess (it takes 15-40 s), so publication B is swapped in mid-run while the
   clients keep calling; the run lasts at least until B is published.
5. Checks, after the run, that every answer came from one whole publication: the hits of a
   search all carry the same snapshot (A's or B's), and each ``get_doc`` carries a
   (publish_id, snapshot) pair of A or of B.

Prints calls, errors (must be 0), whole-snapshot violations (must be 0), p50/p99 latency per
tool, calls answered from A and from B, and the server RSS at start and end. ``--json`` prints
the same as one JSON object. Usage::

    .venv/bin/python benchmarks/mcp_load_bench.py [--duration 60] [--clients 32] [--no-swap]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[1]
DOCS = (REPO / ".." / "shared" / "data" / "docs" / "httpx" / "docs").resolve()
QUERIES = [
    "timeout", "proxy", "authentication", "streaming responses", "http2", "async client",
    "retries transport", "cookies", "event hooks", "ssl certificates", "multipart upload",
    "redirects", "connection pool limits", "base_url", "wsgi transport", "logging",
]  # fmt: skip
CLI = [sys.executable, "-m", "docorbit_serve"]


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _ingest(home: Path, env: dict[str, str]) -> dict:
    r = subprocess.run(
        [*CLI, "--home", str(home), "ingest", "--json"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    if r.returncode != 0:
        raise SystemExit(f"ingest failed: {r.stdout[-2000:]} {r.stderr[-2000:]}")
    return json.loads(home.joinpath("published.json").read_text())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _http_server(home: Path, env: dict[str, str]):
    port = _free_port()
    proc = subprocess.Popen(
        [*CLI, "--home", str(home), "mcp", "--http", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True,
    )  # fmt: skip
    try:
        line = proc.stderr.readline()
        if "serving" not in line:
            raise SystemExit(f"server did not start: {line}{proc.stderr.read()}")
        threading.Thread(target=lambda: proc.stderr.read(), daemon=True).start()
        yield port, proc
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Stats:
    def __init__(self, pubs: dict[str, str]):
        self.lat: dict[str, list[float]] = {"search_docs": [], "get_doc": []}
        self.errors: list[str] = []
        self.searches: list[tuple[str, frozenset[str]]] = []  # (query, snapshots of its hits)
        self.docs: list[tuple[str, str]] = []  # (publish_id, snapshot) of each get_doc
        self.pubs = pubs  # publish_id -> snapshot, checked after the run

    def verify(self) -> tuple[list[str], dict[str, int]]:
        """Whole-snapshot violations, and answers per publication (by the search's snapshot)."""
        snaps = set(self.pubs.values())
        bad = [
            f"search {q}: snapshots {sorted(s)}"
            for q, s in self.searches
            if len(s) > 1 or not s <= snaps
        ]
        bad += [f"get_doc: {p} with {s}" for p, s in self.docs if self.pubs.get(p) != s]
        by_pub: dict[str, int] = {}
        for _q, s in self.searches:
            pid = next((p for p, x in self.pubs.items() if {x} == s), "?")
            by_pub[pid] = by_pub.get(pid, 0) + 1
        return bad, by_pub


async def _worker(client: Client, stats: Stats, deadline: float, seed: int, stdio: bool) -> int:
    calls, i = 0, seed
    while time.monotonic() < deadline:
        q = QUERIES[i % len(QUERIES)]
        i += 1
        try:
            t0 = time.perf_counter()
            r = await client.call_tool("search_docs", {"query": q, "limit": 5})
            stats.lat["search_docs"].append(time.perf_counter() - t0)
            calls += 1
            if r.is_error:
                stats.errors.append(f"search_docs {q}: {r.content[0].text[:200]}")
                continue
            hits = r.structured_content["hits"]
            stats.searches.append((q, frozenset(h["snapshot"] for h in hits)))
            if not hits:
                continue
            t0 = time.perf_counter()
            d = await client.call_tool("get_doc", {"chunk_id": hits[0]["chunk_id"]})
            stats.lat["get_doc"].append(time.perf_counter() - t0)
            calls += 1
            if d.is_error:
                # a chunk id of A may be gone in B only if its heading moved; count it as an error
                stats.errors.append(f"get_doc: {d.content[0].text[:200]}")
                continue
            doc = d.structured_content
            stats.docs.append((doc["publish_id"], doc["snapshot"]))
        except Exception as e:  # noqa: BLE001 - every failure counts as an error
            stats.errors.append(f"{'stdio' if stdio else 'http'} {type(e).__name__}: {e}")
    return calls


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


async def _run(
    args: argparse.Namespace, home: Path, project: Path, env: dict[str, str], pub_a: dict
) -> dict:
    stats = Stats({pub_a["publish_id"]: pub_a["sources"]["httpx"]["snapshot"]})
    with _http_server(home, env) as (port, proc):
        rss_start = _rss_kib(proc.pid)
        url = f"http://127.0.0.1:{port}/mcp"
        stdio = StdioServerParameters(
            command=CLI[0], args=[*CLI[1:], "--home", str(home), "mcp"], env=env
        )
        async with contextlib.AsyncExitStack() as stack:
            clients = [
                await stack.enter_async_context(Client(url, read_timeout_seconds=60))
                for _ in range(args.clients)
            ]
            stdio_client = await stack.enter_async_context(Client(stdio, read_timeout_seconds=60))
            t0 = time.monotonic()
            deadline = t0 + args.duration
            swap_info: dict = {}

            async def swapper() -> None:
                # the ingest takes a while: start it at once so B lands mid-run
                page = project / "docs" / "quickstart.md"
                page.write_text(
                    page.read_text(encoding="utf-8")
                    + "\n\n## Load test addendum\n\nAdded while clients were running.\n",
                    encoding="utf-8",
                )
                t = time.monotonic()
                pub_b = await asyncio.to_thread(_ingest, home, env)
                stats.pubs[pub_b["publish_id"]] = pub_b["sources"]["httpx"]["snapshot"]
                swap_info.update(
                    publish_id=pub_b["publish_id"],
                    published_at_s=round(time.monotonic() - t0, 1),
                    ingest_s=round(time.monotonic() - t, 1),
                )

            tasks = [
                asyncio.create_task(_worker(c, stats, deadline, n, False))
                for n, c in enumerate(clients)
            ]
            tasks.append(asyncio.create_task(_worker(stdio_client, stats, deadline, 7, True)))
            swap = asyncio.create_task(swapper()) if args.swap else None
            counts = await asyncio.gather(*tasks)
            if swap is not None:
                await swap
            elapsed = time.monotonic() - t0
        rss_end = _rss_kib(proc.pid)
    all_lat = stats.lat["search_docs"] + stats.lat["get_doc"]
    violations, by_pub = stats.verify()
    return {
        "clients_http": args.clients,
        "clients_stdio": 1,
        "duration_s": round(elapsed, 1),
        "calls": sum(counts),
        "calls_per_s": round(sum(counts) / elapsed, 1),
        "errors": len(stats.errors),
        "error_samples": stats.errors[:5],
        "whole_snapshot_violations": len(violations),
        "violation_samples": violations[:5],
        "answers_by_publication": by_pub,
        "swap": swap_info or None,
        "latency_ms": {
            name: {"n": len(v), "p50": round(_pct(v, 0.5), 1), "p99": round(_pct(v, 0.99), 1)}
            for name, v in {**stats.lat, "all": all_lat}.items()
        },
        "server_rss_mib": {"start": round(rss_start / 1024, 1), "end": round(rss_end / 1024, 1)},
        "mean_ms": round(statistics.fmean(all_lat) * 1000, 1) if all_lat else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of load (default 60)")
    ap.add_argument("--clients", type=int, default=32, help="concurrent HTTP clients (default 32)")
    ap.add_argument("--no-swap", dest="swap", action="store_false", help="no publication swap")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    if not DOCS.is_dir():
        raise SystemExit(f"shared test data missing: {DOCS}")
    env = {k: v for k, v in os.environ.items() if k != "DOCORBIT_HOME"}
    env["DOCORBIT_LOG_LEVEL"] = "ERROR"
    with tempfile.TemporaryDirectory(prefix="mcp-load-") as tmp:
        project = Path(tmp) / "proj"
        shutil.copytree(DOCS, project / "docs")
        home = project / ".docorbit"
        subprocess.run(
            [*CLI, "--home", str(home), "init"], check=True, capture_output=True, env=env
        )
        subprocess.run(
            [*CLI, "--home", str(home), "add", str(project / "docs"), "--library", "httpx", "--name", "httpx"],
            check=True, capture_output=True, env=env,
        )  # fmt: skip
        pub_a = _ingest(home, env)
        result = asyncio.run(_run(args, home, project, env, pub_a))
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        lat = result["latency_ms"]
        print(
            f"MCP load: {result['clients_http']} HTTP clients + 1 stdio client, "
            f"{result['duration_s']} s, {result['calls']} calls ({result['calls_per_s']}/s)\n"
            f"errors: {result['errors']}   whole-snapshot violations: {result['whole_snapshot_violations']}\n"
            + "".join(
                f"{name:12s} n={v['n']:6d}  p50 {v['p50']:7.1f} ms  p99 {v['p99']:7.1f} ms\n"
                for name, v in lat.items()
            )
            + f"answers by publication: {result['answers_by_publication']}\n"
            f"swap: {result['swap']}\n"
            f"server RSS: {result['server_rss_mib']['start']} MiB at start, "
            f"{result['server_rss_mib']['end']} MiB at end"
        )
        for s in result["error_samples"] + result["violation_samples"]:
            print("  ", s)
    return 0 if result["errors"] == 0 and result["whole_snapshot_violations"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
