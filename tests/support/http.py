"""Loopback HTTP servers for tests (stdlib ``http.server`` in a thread, 127.0.0.1 only).

- ``serve_directory(path)`` serves a folder; yields the base URL ``http://127.0.0.1:<port>/``.
  ``.md`` is served as ``text/markdown``, ``.txt`` as ``text/plain`` (both UTF-8).
- ``serve_routes(routes)`` serves fixed responses by exact path (query string ignored); yields
  the base URL. A route is a ``Route`` or shorthand: ``bytes``/``str`` (200, text/plain) or a
  tuple ``(status, content_type, body)``, or a callable ``(path, headers) -> Route`` for dynamic
  answers (headers with lower-cased names). Unknown paths get 404. Pass ``requests=[]`` to
  collect the request paths the server saw, in order.

Both bind a free port, serve from a daemon thread, and shut down within a bounded time when the
``with`` block ends (the server thread is joined with a timeout; a stuck handler cannot hang the
test run). Request logging is silenced.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = [
    "FAST_LIMITS",
    "HTTPX_SITE_URL",
    "Route",
    "RouteSpec",
    "allowance",
    "serve_directory",
    "serve_routes",
    "serve_site",
    "web_source",
]

# Loopback tests: no politeness delay, no retry backoff (the policy is tested elsewhere).
FAST_LIMITS = {"politeness": 0, "retries": 0}


def allowance(url: str) -> str:
    """The exact ``HOST:PORT`` allowance for a loopback test server URL."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port}"


def web_source(url: str, kind: str = "web", *, name: str = "demo", **kw: Any) -> Any:
    """A web ``SourceConfig`` allowed to reach the loopback server of ``url``, fast limits."""
    from docorbit_serve.registry import SourceConfig

    limits = {**FAST_LIMITS, **kw.pop("limits", {})}
    return SourceConfig(
        name=name,
        kind=kind,
        location=url,
        library=kw.pop("library", name),
        allow_hosts=(allowance(url), *kw.pop("allow_hosts", ())),
        limits=limits,
        **kw,
    )


_SHUTDOWN_TIMEOUT = 5.0


@dataclass(frozen=True)
class Route:
    status: int = 200
    body: bytes = b""
    content_type: str = "text/plain; charset=utf-8"
    headers: Mapping[str, str] = field(default_factory=dict)


class _DirHandler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".md": "text/markdown; charset=utf-8",
        ".markdown": "text/markdown; charset=utf-8",
        ".txt": "text/plain; charset=utf-8",
        ".json": "application/json",
        ".yaml": "application/yaml",
        ".html": "text/html; charset=utf-8",
    }

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass


RouteSpec = (
    Route | bytes | str | tuple[int, str, bytes | str] | Callable[[str, dict[str, str]], Route]
)


def _as_route(value: Route | bytes | str | tuple[int, str, bytes | str]) -> Route:
    if isinstance(value, Route):
        return value
    if isinstance(value, str):
        return Route(body=value.encode("utf-8"))
    if isinstance(value, bytes):
        return Route(body=value)
    status, content_type, body = value
    return Route(
        status=status,
        content_type=content_type,
        body=body.encode("utf-8") if isinstance(body, str) else body,
    )


def _routes_handler(routes: Mapping[str, RouteSpec], seen: list[str] | None) -> type:
    class Handler(SimpleHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - stdlib naming
            path = self.path.split("?", 1)[0]
            if seen is not None:
                seen.append(path)
            spec = routes.get(path, Route(status=404, body=b"not found"))
            if callable(spec):
                spec = spec(path, {k.lower(): v for k, v in self.headers.items()})
            route = _as_route(spec)
            self.send_response(route.status)
            self.send_header("Content-Type", route.content_type)
            self.send_header("Content-Length", str(len(route.body)))
            for k, v in route.headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(route.body)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    return Handler


@contextmanager
def _serve(handler: Any) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=_SHUTDOWN_TIMEOUT)


@contextmanager
def serve_directory(
    path: Path | str, *, responses: list[tuple[str, int]] | None = None
) -> Iterator[str]:
    """Serve ``path`` on 127.0.0.1:<free port>; yields ``http://127.0.0.1:<port>/``. The
    stdlib file server answers ``If-Modified-Since`` with 304 (it sends ``Last-Modified``, no
    ETag); ``responses`` collects ``(path, status)`` of every answer."""
    root = Path(path).resolve()
    if not root.is_dir():
        raise FileNotFoundError(f"not a folder: {root}")

    class Handler(_DirHandler):
        def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
            if responses is not None:
                responses.append((self.path.split("?", 1)[0], int(code)))

    with _serve(partial(Handler, directory=str(root))) as base:
        yield base


@contextmanager
def serve_routes(
    routes: Mapping[str, RouteSpec],
    *,
    requests: list[str] | None = None,
) -> Iterator[str]:
    """Serve fixed responses by path; yields ``http://127.0.0.1:<port>/``."""
    with _serve(_routes_handler(dict(routes), requests)) as base:
        yield base


HTTPX_SITE_URL = "https://www.python-httpx.org/"


@contextmanager
def serve_site(
    path: Path | str,
    *,
    overlay: Mapping[str, RouteSpec] | None = None,
    rewrite: Mapping[str, str] | None = None,
    requests: list[str] | None = None,
) -> Iterator[str]:
    """Serve a built site folder with extra routes on top (``overlay``, by exact path; they win
    over files), replacing each ``rewrite`` key by the value in text bodies (``{base}`` in a
    value becomes the server's base URL, e.g. ``{HTTPX_SITE_URL: "{base}"}`` maps the httpx
    sitemap onto the loopback server). ``.gz`` files are served as they are."""
    root = Path(path).resolve()
    extra = dict(overlay or {})
    swaps = dict(rewrite or {})

    class Handler(_DirHandler):
        def do_GET(self) -> None:  # noqa: N802 - stdlib naming
            route_path = self.path.split("?", 1)[0]
            if requests is not None:
                requests.append(route_path)
            base = f"http://127.0.0.1:{self.server.server_address[1]}/"
            spec = extra.get(route_path)
            if spec is None:
                file = root / route_path.lstrip("/")
                if swaps and file.is_file() and file.suffix in (".xml", ".txt", ".html"):
                    text = file.read_text(encoding="utf-8")
                    for old, new in swaps.items():
                        text = text.replace(old, new.replace("{base}", base))
                    spec = Route(body=text.encode(), content_type=self.guess_type(str(file)))
                else:
                    return super().do_GET()
            if callable(spec):
                spec = spec(route_path, {k.lower(): v for k, v in self.headers.items()})
            route = _as_route(spec)
            self.send_response(route.status)
            self.send_header("Content-Type", route.content_type)
            self.send_header("Content-Length", str(len(route.body)))
            for k, v in route.headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(route.body)

    with _serve(partial(Handler, directory=str(root))) as base:
        yield base
