"""Reading commands: ``search``, ``get``, ``context``, ``map`` and the ``mcp`` server.

Each command calls one ``docorbit_serve.service`` function and prints its shared model
(``--json``: ``model_dump(mode="json")``, the MCP tool's ``structuredContent``) or its Markdown.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from docorbit_serve import render, service
from docorbit_serve.cli._common import (
    _catalog,
    _emit,
    _info,
    _State,
    cli,
    json_option,
)
from docorbit_serve.context import MAX_BUDGET, MIN_BUDGET
from docorbit_serve.errors import (
    DocOrbitError,
    InputError,
    UsageError,
)
from docorbit_serve.settings import Environment

__all__: list[str] = []


def _batch_lines(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read batch file {path}: {e}", detail={"path": path}) from e
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            raise InputError(f"{path}:{n}: not JSON: {e}", detail={"line": n}) from e
        if not isinstance(obj, dict) or "id" not in obj or not isinstance(obj.get("query"), str):
            raise InputError(
                f'{path}:{n}: each line needs {{"id": ..., "query": "..."}} (optional "library", "version", "limit")',
                detail={"line": n},
            )
        limit = obj.get("limit")
        if limit is not None and (
            not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 50
        ):  # the range of --limit and of MCP search_docs
            raise InputError(
                f'{path}:{n}: "limit" must be an integer from 1 to 50, got {limit!r}',
                detail={"line": n, "limit": limit},
            )
        yield n, obj


@cli.command()
@click.argument("query", required=False)
@click.option("--library", help="Only this library.")
@click.option("--version", "version_", help="Only this version label.")
@click.option("--limit", type=click.IntRange(1, 50), default=10, show_default=True)  # MCP's range
@click.option(
    "--backend", type=click.Choice(["bm25", "fts"]), help="Search backend (default: the index's)."
)
@click.option(
    "--batch",
    metavar="FILE.jsonl",
    help='Queries, one JSON object a line ({"id","query","library"?}); "-" = stdin.',
)
@click.option("--project-aware/--no-project-aware", "project_aware", default=True,
              help="Rank for the versions the workspace pins and stamp each hit (default: on; "
              "no effect without a workspace, with --version or --batch).")  # fmt: skip
@click.option("--workspace", metavar="DIR", help="Workspace to read versions from (default: -p or the project).")  # fmt: skip
@click.option("--hybrid/--lexical", "hybrid", default=None,
              help="Fuse a dense ranking (needs [settings] hybrid = true at ingest) or search "
              "lexically only (default: hybrid when the published index has vectors).")  # fmt: skip
@json_option
@click.pass_obj
def search(
    state: _State,
    query: str | None,
    library: str | None,
    version_: str | None,
    limit: int,
    backend: str | None,
    batch: str | None,
    project_aware: bool,
    workspace: str | None,
    hybrid: bool | None,
) -> None:
    """Search the published documentation.

    With --batch the output is JSON Lines, one {"id", "hits"} line per query (a query that
    fails gets "hits": [] and an "error" object).
    """
    if (query is None) == (batch is None):
        raise UsageError("give either a QUERY or --batch FILE.jsonl")
    catalog = _catalog(state.home())
    kw: dict[str, Any] = {"library": library, "limit": limit, "backend": backend, "hybrid": hybrid}
    if batch is not None:
        _search_batch(catalog, batch, version_, kw)
        return
    assert query is not None  # one of the two is given (checked above)
    if not query.strip():
        raise InputError("the query is empty; say what you are looking for")
    root = None
    if project_aware and version_ is None:
        root = service.workspace_dir(catalog.home, workspace or state.project)
    page = service.search_docs(catalog, query, version=version_, root=root, **kw)
    text = render.render_hits(query, [render.hit_dict(h) for h in page.hits])
    notices = "".join(f"**Version:** {n}\n" for n in page.notices)
    _emit(state, page.model_dump(mode="json"), (notices + "\n" if notices else "") + text)


def _search_batch(catalog: Any, batch: str, version: str | None, kw: dict[str, Any]) -> None:
    """One JSON line per query of ``batch``: ``{"id", "hits"}``, or ``"hits": []`` + error."""
    lines = list(_batch_lines(batch))
    catalog.manifest()  # nothing published: fail once, before any output
    for _n, obj in lines:
        out: dict[str, Any] = {"id": obj["id"]}
        args = {**kw, "library": obj.get("library") or kw["library"]}
        args["limit"] = int(obj.get("limit") or kw["limit"])
        try:
            page = service.search_docs(
                catalog, obj["query"], version=obj.get("version") or version, **args
            )
            out["hits"] = [h.model_dump(mode="json") for h in page.hits]
        except DocOrbitError as e:
            out["hits"] = []
            out.update(e.to_json())
        click.echo(json.dumps(out, sort_keys=True, ensure_ascii=False))


@cli.command()
@click.argument("chunk_id", required=False)
@click.option(
    "--mode", type=click.Choice(["chunk", "section", "page"]), default="chunk", show_default=True
)
@click.option("--max-tokens", type=click.IntRange(1, 20000), default=2000, show_default=True)
@click.option("--cursor", help="Continue where the previous call stopped (its next_cursor).")
@json_option
@click.pass_obj
def get(
    state: _State, chunk_id: str | None, mode: str, max_tokens: int, cursor: str | None
) -> None:
    """Read a chunk, its section or its whole page (CHUNK_ID from search; a p_… id reads a page)."""
    if not chunk_id and not cursor:
        raise UsageError("give a CHUNK_ID (from `docorbit search`) or --cursor")
    doc = service.read_doc(
        _catalog(state.home()), chunk_id=chunk_id, mode=mode, max_tokens=max_tokens, cursor=cursor
    ).model_dump(mode="json")
    _emit(state, doc, render.render_doc(doc))


@cli.command()
@click.argument("task")
@click.option("--budget", type=click.IntRange(MIN_BUDGET, MAX_BUDGET), default=2000, show_default=True,
              help="Token budget (cl100k, headers included); never exceeded.")  # fmt: skip
@click.option("--library", help="Only this library.")
@click.option("--version", "version_", help="Only this version label.")
@click.option("--cursor", help="next_cursor of a previous context call (same TASK) to continue.")
@json_option
@click.pass_obj
def context(
    state: _State,
    task: str,
    budget: int,
    library: str | None,
    version_: str | None,
    cursor: str | None,
) -> None:
    """Pack the documentation most relevant to TASK into a token budget (docs/retrieval.md)."""
    catalog = _catalog(state.home())
    pack = service.context_pack(
        catalog,
        task,
        budget=budget,
        library=library,
        version=version_,
        cursor=cursor,
        root=service.workspace_dir(catalog.home, state.project) if library else None,
    )
    data = pack.model_dump(mode="json")
    text = render.render_context(data)
    if pack.next_cursor:
        text = text.rstrip("\n") + f"\n\nMore: --cursor {pack.next_cursor}"
    _emit(state, data, text)


@cli.command(name="map")
@click.option("--library", help="Only this library.")
@click.option("--version", "version_", help="Only this version label.")
@click.option("--source", help="Only this source name.")
@click.option("--max-pages", type=click.IntRange(1, 200), default=50, show_default=True)
@click.option("--sections-per-page", type=click.IntRange(0, 200), default=40, show_default=True)
@click.option("--cursor", help="Continue where the previous call stopped (its next_cursor).")
@json_option
@click.pass_obj
def map_(
    state: _State,
    library: str | None,
    version_: str | None,
    source: str | None,
    max_pages: int,
    sections_per_page: int,
    cursor: str | None,
) -> None:
    """Outline of the published docs: sources → pages → sections (MCP get_documentation_map)."""
    data = service.doc_map(
        _catalog(state.home()),
        library=library,
        version=version_,
        source=source,
        max_pages=max_pages,
        sections_per_page=sections_per_page,
        cursor=cursor,
    ).model_dump(mode="json")
    _emit(state, data, render.render_map(data))


@cli.command()
@click.option("--http", is_flag=True, help="Serve streamable HTTP at /mcp instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP bind address.")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="HOST[:PORT]",
              help="Also accept this Host header (required to bind beyond loopback), repeatable.")  # fmt: skip
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
              help="Also accept this browser Origin (scheme://host[:port]), repeatable.")  # fmt: skip
@click.option("--json-response", is_flag=True, help="HTTP: answer with JSON instead of SSE.")
@json_option
@click.pass_obj
def mcp(
    state: _State,
    http: bool,
    host: str,
    port: int,
    allow_hosts: tuple[str, ...],
    allow_origins: tuple[str, ...],
    json_response: bool,
) -> None:
    """Serve the published documentation to agents over MCP (stdio, or HTTP with --http)."""
    ctx = click.get_current_context()
    http_only = [
        n for n in ("host", "port", "allow_hosts", "allow_origins", "json_response")
        if ctx.get_parameter_source(n) == click.core.ParameterSource.COMMANDLINE
    ]  # fmt: skip
    if http_only and not http:
        raise UsageError(f"--{http_only[0].replace('_', '-').rstrip('s')} needs --http")
    home = state.home()
    logging.basicConfig(stream=sys.stderr, level=Environment.read().log_level)
    if http:
        from docorbit_serve.mcp_http import serve_http

        def ready(policy: Any) -> None:
            where = f"[{host}]" if ":" in host else host
            _info(f"docorbit mcp: serving {home.path} at http://{where}:{port}/mcp")
            if policy.notes:
                _info("docorbit mcp: also accepting " + ", ".join(policy.notes))

        serve_http(
            home,
            host=host,
            port=port,
            allow_hosts=allow_hosts,
            allow_origins=allow_origins,
            json_response=json_response,
            on_ready=ready,
        )
        _info("docorbit mcp: stopped")
        return
    from docorbit_serve.mcp_server import build_server

    server = build_server(home)
    _info(f"docorbit mcp: serving {home.path} on stdio")
    # Ctrl-C ends the server at once. Left to asyncio, SIGINT only cancels the main task, which
    # then waits for the thread blocked reading stdin, i.e. until the client closes it. The
    # server holds no state worth a graceful stop (publications are immutable; an ingest killed
    # midway leaves the previous publication in place), so exit right away.
    signal.signal(signal.SIGINT, _exit_interrupted)
    try:
        server.run("stdio")
    except KeyboardInterrupt:
        _info("docorbit mcp: interrupted")


def _exit_interrupted(signum: int, frame: Any) -> None:
    _info("docorbit mcp: interrupted")
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    os._exit(0)
