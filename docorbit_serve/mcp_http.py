"""The MCP server over streamable HTTP (``docorbit mcp --http``): app factory and runner.

Contract:

- ``build_http_app(home, *, host, port, allow_hosts=(), allow_origins=(), json_response=False,
  max_body=DEFAULT_MAX_BODY) -> ASGI app``: the server of ``mcp_server.build_server(home)``
  as the SDK's streamable-HTTP Starlette app (endpoint ``/mcp``; SSE responses by default,
  plain JSON responses with ``json_response=True``), plus ``GET /health`` →
  ``{"status": "ok", "publish_id": … | null, "tools": n}``, wrapped in
  ``http_security.SecurityMiddleware``: exact Host/Origin checks (403 before any tool runs) and a
  request-body cap (413). The SDK's own prefix-matching DNS-rebinding check is turned off
  because ours replaces it. A non-loopback ``host`` without ``allow_hosts`` raises
  ``UsageError`` (``HttpPolicy.for_bind``).
- Stateless HTTP (``stateless_http=True``): every POST to ``/mcp`` is served by a fresh
  transport that ends with the request; the server holds no session per client. The SDK's
  stateful mode kept up to 10,000 sessions for 30 idle minutes each, so one local process
  opening sessions in a loop made the server answer 503 to every other client and grew it by
  ~370 MB. No DocOrbit tool needs session state (cursors are self-contained tokens; progress
  of ``ingest_doc`` travels on the request's own SSE stream), so stateless costs nothing and
  bounds memory by the requests in flight. ``initialize`` still answers; no ``Mcp-Session-Id``
  is issued and a GET stream is refused (405).
- ``serve_http(home, *, host, port, …, on_ready=None)`` runs that app under uvicorn until
  interrupted. ``on_ready(policy)`` is called once the socket listens (the CLI prints where it
  serves and what it accepts). Logs go to stderr; stdout stays empty. When uvicorn cannot
  start (port taken, address not local) it raises ``DocOrbitError`` (code ``serve_failed``,
  exit 1) instead of uvicorn's ``sys.exit(3)``, which would read as "not found".
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from docorbit_serve.errors import DocOrbitError
from docorbit_serve.home import Home
from docorbit_serve.http_security import DEFAULT_MAX_BODY, HttpPolicy, SecurityMiddleware

__all__ = ["build_http_app", "serve_http"]

log = logging.getLogger(__name__)


def build_http_app(
    home: Home,
    *,
    host: str,
    port: int,
    allow_hosts: Iterable[str] = (),
    allow_origins: Iterable[str] = (),
    json_response: bool = False,
    max_body: int = DEFAULT_MAX_BODY,
) -> tuple[Any, HttpPolicy]:
    """(the ASGI app, its Host/Origin policy); see the module docstring."""
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.requests import Request
    from starlette.responses import JSONResponse

    from docorbit_serve.catalog import Catalog
    from docorbit_serve.mcp_server import TOOL_NAMES, build_server

    policy = HttpPolicy.for_bind(host, port, allow_hosts, allow_origins, max_body=max_body)
    server = build_server(home)
    catalog = Catalog(home)

    @server.custom_route("/health", methods=["GET"])
    async def health(_request: Request) -> JSONResponse:
        try:
            publish_id: str | None = str(catalog.manifest()["publish_id"])
        except DocOrbitError:
            publish_id = None
        return JSONResponse({"status": "ok", "publish_id": publish_id, "tools": len(TOOL_NAMES)})

    app = server.streamable_http_app(
        json_response=json_response,
        stateless_http=True,  # no per-client sessions to exhaust (module docstring)
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        max_request_body_size=max_body,
        host=host,
    )
    # The dashboard and REST API (docorbit_serve.web, /api/v1) beside /mcp and /health, after
    # them in routing order and behind the same Host/Origin checks (docs/dashboard.md).
    from starlette.routing import Mount

    from docorbit_serve.web.app import build_web_app

    app.router.routes.append(Mount("", app=build_web_app(home, catalog)))
    return SecurityMiddleware(app, policy), policy


def serve_http(
    home: Home,
    *,
    host: str,
    port: int,
    allow_hosts: Iterable[str] = (),
    allow_origins: Iterable[str] = (),
    json_response: bool = False,
    log_level: str = "warning",
    on_ready: Callable[[HttpPolicy], None] | None = None,
) -> None:
    """Serve ``build_http_app(...)`` with uvicorn on ``host:port`` until interrupted."""
    import uvicorn

    app, policy = build_http_app(
        home,
        host=host,
        port=port,
        allow_hosts=allow_hosts,
        allow_origins=allow_origins,
        json_response=json_response,
    )

    class _Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started and on_ready is not None:
                on_ready(policy)

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,
        lifespan="on",
        server_header=False,
        timeout_graceful_shutdown=2,
    )
    try:
        _Server(config).run()
    except SystemExit as e:  # uvicorn exits 3 when it cannot start (e.g. the port is taken)
        if e.code in (0, None):
            return
        raise DocOrbitError(
            f"cannot serve on {host}:{port} (in use, or not an address of this machine); "
            "pick another --port or --host",
            detail={"host": host, "port": port},
            code="serve_failed",
        ) from None
