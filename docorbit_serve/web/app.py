"""The dashboard and REST API as one Starlette app (mounted beside ``/mcp`` and ``/health``).

Contract:
- ``build_web_app(home, catalog=None, timings=None) -> Starlette``: routes
  ``/`` (sources with health and freshness, publications, snapshots, failed fetches, plots),
  ``/search`` (hits with provenance and highlighted matches), ``/doc/{id}`` (chunk / section /
  page reader), ``/diff`` (changes between snapshots), ``/endpoints``, ``/pitfalls``,
  ``/versions`` (workspace versions and ``docs.lock``), ``/static/*`` and the REST API under
  ``/api/v1`` (``docorbit_serve.rest``). Pages are server-rendered Jinja2 with autoescaping;
  fetched documentation goes through ``web.inert``; no script is ever served.
- Every response carries ``SECURITY_HEADERS``: a Content-Security-Policy without any script
  source (``default-src 'none'; style-src 'self'; img-src 'self' data:; …``),
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` and
  ``X-Frame-Options: DENY``.
- Host/Origin checks are not done here: the app is served inside
  ``http_security.SecurityMiddleware`` (``mcp_http.build_http_app``), like ``/mcp``.
- Errors of the data layer (``DocOrbitError``) render as an error page with the stable code and
  the HTTP status of ``rest.http_status``; nothing published yet is a friendly 503 page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio.to_thread
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from docorbit_serve import render
from docorbit_serve.errors import DocOrbitError, InputError
from docorbit_serve.home import Home
from docorbit_serve.web import data, inert, plots
from docorbit_serve.web.timings import SearchTimings, benchmark_history

__all__ = ["CSP", "SECURITY_HEADERS", "build_web_app"]

CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
PAGE_SIZE = 20
_STATIC = Path(__file__).with_name("static")


class SecurityHeaders:
    """ASGI middleware adding ``SECURITY_HEADERS`` to every HTTP response."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _v in message.get("headers", [])}
                extra = [
                    (k.encode(), v.encode())
                    for k, v in SECURITY_HEADERS.items()
                    if k.encode() not in names
                ]
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, with_headers)


def _env() -> Environment:
    env = Environment(
        loader=PackageLoader("docorbit_serve.web", "templates"),
        autoescape=select_autoescape(["html"], default_for_string=True, default=True),
    )
    env.filters["inert"] = inert.to_html
    env.filters["one_line"] = render.one_line
    return env


def _int(request: Request, name: str, default: int, lo: int, hi: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise InputError(f"{name} must be an integer", detail={name: raw}) from None
    if not lo <= value <= hi:
        raise InputError(f"{name} must be between {lo} and {hi}", detail={name: value})
    return value


def _opt(request: Request, name: str) -> str | None:
    value = request.query_params.get(name, "").strip()
    return value[:200] or None


class Dashboard:
    """The dashboard's page handlers over one catalog (see module docstring)."""

    def __init__(self, home: Home, catalog: Any, timings: SearchTimings):
        self.home, self.catalog, self.timings = home, catalog, timings
        self.env = _env()

    def page(self, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(nav=name.removesuffix(".html"), **ctx)
        return HTMLResponse(html, status_code=status)

    def error(self, e: DocOrbitError) -> HTMLResponse:
        from docorbit_serve.rest import http_status

        return self.page("error.html", status=http_status(e), code=e.code, message=e.message)

    async def run(self, fn: Any, *args: Any, **kw: Any) -> HTMLResponse:
        try:
            return await anyio.to_thread.run_sync(lambda: fn(*args, **kw))
        except DocOrbitError as e:
            return self.error(e)

    # ---------------------------------------------------------------- pages (run in a thread)

    def overview(self) -> HTMLResponse:
        manifest = self.catalog.manifest()
        sources = data.source_health(self.catalog)
        history = data.snapshot_history(self.home)
        failures = data.fetch_failures(self.home, manifest)
        names = [s["name"] for s in sources]
        fresh: dict[str, list[tuple[str, float]]] = {}
        for h in history:
            fresh.setdefault(h["source"], []).append((h["created_at"], float(h["chunks"])))
        bench: dict[str, list[tuple[str, float]]] = {}
        for b in benchmark_history(self.home):
            bench.setdefault(f"{b['source']} MRR@10", []).append((b["at"], b["mrr@10"]))
        figures = {
            "sizes": plots.bars(
                "Chunks and pages per source",
                names,
                {
                    "chunks": [s["chunks"] for s in sources],
                    "pages": [s["pages"] for s in sources],
                },
            ),
            "freshness": plots.lines("Snapshots over time (chunks per snapshot)", fresh),
            "age": plots.bars(
                "Snapshot age (days)", names, {"age": [s["age_days"] or 0.0 for s in sources]}
            ),
            "latency": plots.lines("Search latency (this server)", self.timings.points(), " ms"),
            "bench": plots.lines("Retrieval benchmark history", bench),
        }
        return self.page(
            "overview.html",
            manifest=manifest,
            sources=sources,
            history=list(reversed(history))[:100],
            publications=data.publications(self.home, manifest),
            failures=failures,
            figures=figures,
        )

    def search(self, request: Request) -> HTMLResponse:
        """``service.search_docs`` (ranked for the workspace's pins, cursor paging), as the
        CLI and MCP search; each hit with its provenance and the query terms marked."""
        from docorbit_serve import service
        from docorbit_serve.search.query import understand

        q = request.query_params.get("q", "")
        library, version = _opt(request, "library"), _opt(request, "version")
        cursor = request.query_params.get("cursor", "")[:4000] or None
        ctx: dict[str, Any] = {"q": q, "library": library or "", "version": version or ""}
        if not q.strip():
            return self.page("search.html", hits=[], **ctx)
        res = service.search_docs(
            self.catalog, q, library=library, version=version, limit=PAGE_SIZE, cursor=cursor,
            root=service.workspace_dir(self.home),
        )  # fmt: skip
        self.timings.record("dashboard", res.elapsed_ms)
        hits = [h.model_dump(mode="json") for h in res.hits]
        fetched = _fetched_at(self.catalog, [h["chunk_id"] for h in hits])
        terms = {w for w in q.split() if len(w) > 1} | set(understand(q).terms)
        for h in hits:
            h["fetched_at"] = fetched.get(h["chunk_id"], "")
            h["snippet"] = inert.highlight(h["content"], sorted(terms))
        return self.page("search.html", hits=hits, res=res, more=res.next_cursor, **ctx)

    def doc(self, request: Request) -> HTMLResponse:
        from docorbit_serve.reader import get_doc

        ident = request.path_params["ident"]
        mode = request.query_params.get("mode", "section")
        if mode not in ("chunk", "section", "page"):
            raise InputError("mode is chunk, section or page", detail={"mode": mode})
        kw = {"page_id": ident} if ident.startswith("p_") else {"chunk_id": ident}
        doc = get_doc(
            self.catalog, mode=mode if "chunk_id" in kw else "page", max_tokens=20000, **kw
        )
        return self.page("doc.html", doc=doc, mode=mode)

    def table(self, table: str, request: Request) -> HTMLResponse:
        """Browse the index rows, or with ``q`` ask the API-intelligence service
        (``find_api`` / ``find_pitfall``: ranked, with provenance)."""
        library = _opt(request, "library")
        q = request.query_params.get("q", "").strip()[:2000]
        ctx: dict[str, Any] = {"library": library or "", "q": q, "found": None}
        if q:
            ctx["found"] = self._find(table, q, library).model_dump(mode="json")
            return self.page(f"{table}.html", rows=[], truncated=False, offset=0, **ctx)
        offset = _int(request, "offset", 0, 0, 1_000_000)
        rows, truncated = data.table_rows(
            self.catalog, table, library=library, limit=100, offset=offset
        )
        return self.page(f"{table}.html", rows=rows, truncated=truncated, offset=offset, **ctx)

    def _find(self, table: str, q: str, library: str | None) -> Any:
        if table == "endpoints":
            from docorbit_serve.api.endpoints import find_api

            return find_api(self.catalog, q, library=library, limit=20)
        from docorbit_serve.api.knowledge import find_pitfall

        return find_pitfall(self.catalog, q, library=library, limit=20)

    def versions(self) -> HTMLResponse:
        from docorbit_serve.home import workspace_root
        from docorbit_serve.versioned import version_report

        root = workspace_root(self.home)
        try:
            manifest = self.catalog.manifest()
        except DocOrbitError:
            manifest = {}
        report = version_report(root, manifest)
        lock = ""
        if root is not None and (root / "docs.lock").is_file():
            lock = (root / "docs.lock").read_text(encoding="utf-8", errors="replace")[:200_000]
        return self.page("versions.html", report=report, lock=lock)

    def diff(self, request: Request) -> HTMLResponse:
        from docorbit_serve.changes import diff

        target = _opt(request, "target")
        from_, to = _opt(request, "from"), _opt(request, "to")
        ctx: dict[str, Any] = {"target": target or "", "from_": from_ or "", "to": to or ""}
        result = None
        if target:
            res = diff(self.home, target, from_, to, limit=200)
            result = res.model_dump(mode="json", by_alias=True)
        return self.page("diff.html", result=result, **ctx)


def _fetched_at(catalog: Any, ids: list[str]) -> dict[str, str]:
    if not ids:
        return {}
    from docorbit_serve.search.sqlfiles import sql

    cur = catalog.cursor()
    try:
        rows = cur.execute(
            sql("dashboard_fetched_at"), {"ids": ids, "max_rows": len(ids)}
        ).fetchall()
    finally:
        cur.close()
    return {r[0]: r[1] or "" for r in rows}


def build_web_app(
    home: Home, catalog: Any = None, timings: SearchTimings | None = None
) -> Starlette:
    """Dashboard + REST API over ``home``'s publication (see module docstring)."""
    from docorbit_serve import rest
    from docorbit_serve.catalog import Catalog

    catalog = catalog if catalog is not None else Catalog(home)
    timings = timings or SearchTimings()
    dash = Dashboard(home, catalog, timings)

    async def overview(_r: Request) -> Response:
        return await dash.run(dash.overview)

    async def search(r: Request) -> Response:
        return await dash.run(dash.search, r)

    async def doc(r: Request) -> Response:
        return await dash.run(dash.doc, r)

    async def endpoints(r: Request) -> Response:
        return await dash.run(dash.table, "endpoints", r)

    async def pitfalls(r: Request) -> Response:
        return await dash.run(dash.table, "pitfalls", r)

    async def versions(_r: Request) -> Response:
        return await dash.run(dash.versions)

    async def diff(r: Request) -> Response:
        return await dash.run(dash.diff, r)

    routes = [
        Route("/", overview, methods=["GET"]),
        Route("/search", search, methods=["GET"]),
        Route("/doc/{ident}", doc, methods=["GET"]),
        Route("/diff", diff, methods=["GET"]),
        Route("/endpoints", endpoints, methods=["GET"]),
        Route("/pitfalls", pitfalls, methods=["GET"]),
        Route("/versions", versions, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=_STATIC), name="static"),
        Mount("/api/v1", app=rest.build_rest_app(home, catalog, timings)),
    ]
    return Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)])
