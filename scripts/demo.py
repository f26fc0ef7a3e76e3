"""End-to-end demo of DocOrbit on this machine, offline (``make demo``).

What it does, each step through the real CLI as a subprocess (``.venv/bin/docorbit``):

1. creates a fresh demo project folder (default ``<repo>/.docorbit-demo/``, git-ignored; a
   previous demo folder is removed first, and only if it carries the demo's marker file);
2. serves ``fixtures/site/`` (the "orbitkit" docs: an llms.txt and Markdown pages) on
   ``127.0.0.1:<free port>`` from a thread of this process;
3. ``init`` (a new project: hybrid search); ``add <repo>/docs`` (DocOrbit's own docs, a local source); ``add
   http://127.0.0.1:PORT/`` (a web source discovered through its llms.txt); ``list``;
   ``ingest``; ``search`` in both libraries;
4. prints where the data went (home, tables, published.json, index) and how to open the
   Dagster UI and start the MCP server.

Exits non-zero as soon as a step fails, after printing that step's stderr.
Usage: ``.venv/bin/python scripts/demo.py [--dir DIR] [--keep-serving]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
VENV_BIN = REPO / ".venv" / "bin"
DOCORBIT = VENV_BIN / "docorbit"
SITE = REPO / "fixtures" / "site"
MARKER = ".docorbit-demo"

QUERIES = [
    ("how do I configure exponential backoff and jitter", "orbitkit"),
    ("how is the snapshot id computed", "docorbit"),
]


class _SiteHandler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".md": "text/markdown; charset=utf-8",
        ".txt": "text/plain; charset=utf-8",
    }

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass


@contextmanager
def serve_site(folder: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_SiteHandler, directory=str(folder)))
    server.daemon_threads = True
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def say(text: str = "") -> None:
    print(text, flush=True)


def fresh_project(folder: Path) -> None:
    if folder.exists():
        if not (folder / MARKER).exists():
            raise SystemExit(f"{folder} exists and is not a demo folder (no {MARKER}); pick --dir")
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / MARKER).write_text("created by scripts/demo.py; safe to delete\n")


def run(project: Path, *args: str, as_json: bool = False, timeout: float = 900) -> Any:
    cmd = [str(DOCORBIT), "--project", str(project), *(["--json"] if as_json else []), *args]
    say(f"$ {' '.join(_show(a) for a in cmd)}")
    env = {**os.environ, "DAGSTER_DISABLE_TELEMETRY": "1"}
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        raise SystemExit(f"step timed out after {timeout:.0f}s: {' '.join(cmd)}") from e
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        sys.stderr.write(proc.stdout[-2000:])
        raise SystemExit(f"step failed (exit {proc.returncode}): {' '.join(cmd)}")
    if as_json:
        return json.loads(proc.stdout)
    out = proc.stdout.strip()
    if out:
        say("  " + "\n  ".join(out.splitlines()[:25]))
    return out


def _show(arg: str) -> str:
    return f'"{arg}"' if " " in arg else arg


def show_hits(result: dict[str, Any]) -> int:
    hits = result.get("hits") or []
    if "hybrid" in result:
        say(f"  ({'hybrid: lexical + dense' if result['hybrid'] else 'lexical'} ranking)")
    for h in hits[:3]:
        where = " > ".join([*h.get("breadcrumb", []), h.get("heading", "")]).strip(" >")
        say(f"  {h.get('score', 0):7.3f}  [{h.get('library')}] {h.get('path')}  {where}")
        say(f"           {h.get('url')}")
    return len(hits)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--dir", type=Path, default=REPO / ".docorbit-demo", help="demo project folder")
    ap.add_argument(
        "--keep-serving", action="store_true", help="keep the fixture site up until Ctrl-C"
    )
    opts = ap.parse_args()
    if not DOCORBIT.exists():
        raise SystemExit(f"{DOCORBIT} not found: run `make install` first")
    project = opts.dir.resolve()
    fresh_project(project)
    home = project / ".docorbit"

    say("== DocOrbit demo ==")
    say(f"project folder: {project}")
    with serve_site(SITE) as base:
        say(f"fixture docs site (orbitkit, llms.txt + Markdown) serving at {base}\n")
        host = base.split("//", 1)[1].rstrip("/")
        run(project, "init")  # a new project: dense vectors at ingest, hybrid search
        run(project, "add", str(REPO / "docs"), "--name", "docorbit-docs", "--library", "docorbit")
        run(
            project,
            "add",
            base,
            "--name",
            "orbitkit",
            "--library",
            "orbitkit",
            "--version",
            "1.0",
            "--allow-host",
            host,  # loopback is refused by the fetch policy unless allowed explicitly
            "--limit",
            "politeness=0",  # our own server on loopback: no need to space requests 1 s apart
        )
        run(project, "list")
        say("\n-- ingest: discover, fetch, normalize, slice, extract, snapshot, index, publish --")
        run(project, "ingest")
        for query, library in QUERIES:
            say(f"\n-- search {query!r} in {library} --")
            result = run(
                project, "search", query, "--library", library, "--limit", "3", as_json=True
            )
            if show_hits(result) == 0:
                raise SystemExit(f"search {query!r} found nothing in {library}")
        if opts.keep_serving:
            say(f"\nfixture site still serving at {base}; Ctrl-C to stop")
            with suppress(KeyboardInterrupt):
                threading.Event().wait()

    say("\n== where the data went ==")
    say(f"registry       {project / 'docorbit.toml'}")
    say(f"home           {home}")
    tables = home / "tables"
    if tables.is_dir():
        names = sorted(p.name for p in tables.iterdir() if p.is_dir() and p.name[0] != ".")
        say(f"tables         {tables}/<table>/source=<name>/snapshot=<id>/part-0.parquet")
        say(f"               {', '.join(names)}")
    published = home / "published.json"
    if published.exists():
        manifest = json.loads(published.read_text())
        say(f"published.json {published}")
        say(f"index          {home / manifest.get('index', '')}")
        if manifest.get("vectors"):
            vec = manifest["vectors"]
            say(f"vectors        {home / vec['path']}  ({vec['rows']} chunks, {vec['model']})")
        for name, src in sorted(manifest.get("sources", {}).items()):
            say(
                f"  {name:14} snapshot {src.get('snapshot')}  ({src.get('kind')}: {src.get('location')})"
            )
    say("\n== next ==")
    say("Dagster UI (the asset graph, runs, checks):")
    say(f"  {DOCORBIT} --project {project} ui --port 3000   (no environment variables needed)")
    say("  then open http://127.0.0.1:3000 (one asset group per stage, one partition per source)")
    say("MCP server for agents (stdio):")
    say(f"  {DOCORBIT} --project {project} mcp")
    say("Search from the shell:")
    say(f'  {DOCORBIT} --project {project} search "retry after header"')
    say(
        "(the orbitkit site is only served while the demo runs; re-ingesting it needs --keep-serving)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
