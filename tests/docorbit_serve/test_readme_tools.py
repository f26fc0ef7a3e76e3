"""The README's "## MCP tools" table matches the server's tools/list, and each row's CLI
equivalent names commands the CLI really has."""

from __future__ import annotations

import re
from pathlib import Path

import anyio
from mcp import Client

from docorbit_serve.cli import cli
from docorbit_serve.home import resolve_home
from docorbit_serve.mcp_server import build_server

README = Path(__file__).resolve().parents[2] / "README.md"


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else len(text)]


def _table_rows() -> list[list[str]]:
    rows = []
    for line in _section("MCP tools").splitlines():
        if line.startswith("| `"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def _tools_list(home_path: Path) -> list[str]:
    server = build_server(resolve_home(home=home_path, env={}))
    names: list[str] = []

    async def main() -> None:
        async with Client(server) as client:
            names.extend(t.name for t in (await client.list_tools()).tools)

    anyio.run(main)
    return names


def test_the_readme_tool_table_lists_exactly_the_served_tools_in_order(tmp_path):
    table = [row[0].strip("`") for row in _table_rows()]
    assert table == _tools_list(tmp_path / "home")


def test_every_tool_row_has_a_description_and_a_cli_command_that_exists():
    rows = _table_rows()
    assert rows
    for name, what, cli_cell in rows:
        assert len(what) > 10, name
        commands = re.findall(r"`docorbit ([a-z]+)", cli_cell)
        assert commands, (name, cli_cell)
        for cmd in commands:
            assert cmd in cli.commands, (name, cmd)
    assert "map" in cli.commands and "--json" in [
        o for p in cli.commands["map"].params for o in getattr(p, "opts", [])
    ]
