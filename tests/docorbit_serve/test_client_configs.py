"""The copy-paste client configurations in the README ("## Connect an agent") start a working
server: each JSON block (Claude Code, Cursor, VS Code) and the ``claude mcp add`` line is parsed,
its placeholders replaced by this install and a published project, and the command run through
the SDK client: initialize + tools/list. The HTTP block is checked against ``mcp --http``."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from docorbit_serve.mcp_server import TOOL_NAMES
from tests.docorbit_serve.test_mcp_http import http_server

README = Path(__file__).resolve().parents[2] / "README.md"
BIN = "/abs/path/to/.venv/bin/docorbit"
PROJECT = "/abs/path/to/project"


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## Connect an agent\n")
    return text[start : text.index("\n## ", start + 1)]


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", _section(), flags=re.S)


def _stdio_configs() -> list[tuple[str, dict]]:
    out = []
    for block in _blocks("json"):
        data = json.loads(block)
        servers = data.get("mcpServers") or data.get("servers")
        for name, cfg in servers.items():
            if cfg.get("type", "stdio") == "stdio":
                out.append((name, cfg))
    return out


def _initialize_and_list(
    command: str, args: list[str], env: dict[str, str]
) -> tuple[str, list[str]]:
    out: dict = {}

    async def main() -> None:
        with anyio.fail_after(120):
            params = StdioServerParameters(command=command, args=args, env=env)
            async with Client(params, read_timeout_seconds=60) as client:
                out["server"] = client.server_info.name if client.server_info else ""
                out["tools"] = [t.name for t in (await client.list_tools()).tools]

    anyio.run(main)
    return out["server"], out["tools"]


def test_the_readme_has_claude_code_cursor_and_vs_code_configurations():
    section = _section()
    for client in ("Claude Code", "Cursor", "VS Code"):
        assert client in section
    assert len(_stdio_configs()) == 3
    assert len(_blocks("bash")) == 1


def test_each_json_configuration_starts_the_server_on_the_published_project(
    published_home, docorbit_bin, clean_env
):
    for _name, cfg in _stdio_configs():
        assert cfg["command"] == BIN and PROJECT in cfg["args"]
        args = [str(published_home.project_root) if a == PROJECT else a for a in cfg["args"]]
        server, tools = _initialize_and_list(str(docorbit_bin), args, clean_env)
        assert server == "docorbit" and tools == list(TOOL_NAMES)


def test_the_claude_mcp_add_line_runs_the_server(published_home, docorbit_bin, clean_env):
    (line,) = [ln for ln in _blocks("bash")[0].splitlines() if ln.startswith("claude mcp add")]
    command, *args = shlex.split(line.split(" -- ", 1)[1])
    assert command == BIN
    args = [str(published_home.project_root) if a == PROJECT else a for a in args]
    _server, tools = _initialize_and_list(str(docorbit_bin), args, clean_env)
    assert tools == list(TOOL_NAMES)


def test_the_http_configuration_points_at_what_mcp_http_serves(published_home, clean_env):
    (cfg,) = [
        c
        for b in _blocks("json")
        for c in (json.loads(b).get("servers") or {}).values()
        if c.get("type") == "http"
    ]
    assert cfg["url"] == "http://127.0.0.1:8765/mcp"  # the documented default port
    assert "mcp --http --port 8765" in _section()
    with http_server(published_home.path, clean_env) as (port, _proc):
        url = cfg["url"].replace(":8765/", f":{port}/")
        out: dict = {}

        async def main() -> None:
            with anyio.fail_after(120):
                async with Client(url, read_timeout_seconds=60) as client:
                    out["tools"] = [t.name for t in (await client.list_tools()).tools]

        anyio.run(main)
    assert out["tools"] == list(TOOL_NAMES)
