"""Dashboard command: ``docorbit dashboard`` serves the dashboard, the REST API (``/api/v1``),
MCP (``/mcp``) and ``/health`` on one loopback HTTP server (``mcp_http.serve_http``)."""

from __future__ import annotations

import logging
import sys
from typing import Any

import click

from docorbit_serve.cli._common import _info, _State, cli, json_option
from docorbit_serve.settings import Environment

__all__: list[str] = []


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Bind address.")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="HOST[:PORT]",
              help="Also accept this Host header (required to bind beyond loopback), repeatable.")  # fmt: skip
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
              help="Also accept this browser Origin (scheme://host[:port]), repeatable.")  # fmt: skip
@json_option
@click.pass_obj
def dashboard(
    state: _State,
    host: str,
    port: int,
    allow_hosts: tuple[str, ...],
    allow_origins: tuple[str, ...],
) -> None:
    """Serve the dashboard and REST API (with /mcp and /health) until Ctrl-C."""
    from docorbit_serve.mcp_http import serve_http

    home = state.home()
    logging.basicConfig(stream=sys.stderr, level=Environment.read().log_level)

    def ready(policy: Any) -> None:
        where = f"[{host}]" if ":" in host else host
        _info(f"docorbit dashboard: {home.path} at http://{where}:{port}/ (REST /api/v1, MCP /mcp)")
        if policy.notes:
            _info("docorbit dashboard: also accepting " + ", ".join(policy.notes))

    serve_http(
        home, host=host, port=port, allow_hosts=allow_hosts, allow_origins=allow_origins,
        on_ready=ready,
    )  # fmt: skip
    _info("docorbit dashboard: stopped")
