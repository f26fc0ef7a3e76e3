"""A published corpus and a live server for the dashboard, REST and export tests.

- ``dashboard_home(tmp_path_factory)``: one home per test session (cached here), built by the
  real pipeline from ``fixtures/dashboard``: sources ``orbit-1.0`` and ``orbit-2.0`` (library
  ``orbit``; 1.0 holds ``hostile.md``), ``fastapi`` and ``pydantic`` (pages copied from the kit), ``petstore`` (an OpenAPI
  source),
  with the project folder's ``requirements.txt`` pinning fastapi 0.116.1 and pydantic 2.12.5.
  Tests must not change it.
- ``live_server(home)``: ``mcp_http.build_http_app`` (MCP + /health + dashboard + REST, behind
  the Host/Origin middleware) under uvicorn on 127.0.0.1:<free port> in a thread; yields
  ``(base_url, port)``; stops within a bounded time.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "dashboard"
_CACHE: dict[str, Any] = {}


def dashboard_home(tmp_path_factory: Any) -> Any:
    if "home" in _CACHE:
        return _CACHE["home"]
    from docorbit_assets.ingest import run_ingest
    from docorbit_serve.home import resolve_home
    from docorbit_serve.registry import Registry, SourceConfig, save_registry

    root = tmp_path_factory.mktemp("dashboard") / "project"
    src = lambda name, lib, ver, loc: SourceConfig(  # noqa: E731
        name=name, kind="local", location=str(FIXTURE / loc), library=lib, version=ver
    )
    sources = [
        src("orbit-1.0", "orbit", "1.0", "orbit-1.0"),
        src("orbit-2.0", "orbit", "2.0", "orbit-2.0"),
        src("fastapi", "fastapi", "0.116", "kit/fastapi"),
        src("pydantic", "pydantic", "2.12", "kit/pydantic"),
        SourceConfig(
            name="petstore",
            kind="openapi",
            location=str(FIXTURE / "kit" / "petstore" / "petstore.yaml"),
            library="petstore",
            version="1.0.0",
        ),
    ]
    root.mkdir(parents=True)
    home = resolve_home(home=root / ".docorbit", env={})
    home.path.mkdir(parents=True)
    save_registry(Registry(home.config_path, sources))
    shutil.copy(FIXTURE / "workspace" / "requirements.txt", root / "requirements.txt")
    report = run_ingest(home)
    assert report["ok"], report
    _CACHE["home"] = home
    return home


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def live_server(home: Any) -> Iterator[tuple[str, int]]:
    import uvicorn

    from docorbit_serve.mcp_http import build_http_app

    port = _free_port()
    app, _policy = build_http_app(home, host="127.0.0.1", port=port)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("dashboard server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", port
    finally:
        server.should_exit = True
        thread.join(timeout=10)
