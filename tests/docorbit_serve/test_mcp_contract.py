"""DESIGN.md §6 names fifteen MCP tools: the server serves exactly those, each with an input and
an output schema, read-only except ingest_doc."""

from __future__ import annotations

import anyio
from mcp import Client

from docorbit_serve.home import resolve_home
from docorbit_serve.mcp_server import build_server

DESIGN_TOOLS = {
    "get_implementation_context",
    "search_docs",
    "get_doc",
    "find_api",
    "find_example",
    "find_pitfall",
    "find_recipe",
    "get_version",
    "list_sources",
    "check_api",
    "diff_docs",
    "analyze_impact",
    "get_documentation_map",
    "export_agent_context",
    "ingest_doc",
}


def test_the_server_serves_the_fifteen_tools_design_names_with_schemas(tmp_path):
    server = build_server(resolve_home(home=tmp_path / "home", env={}))
    tools = []

    async def main() -> None:
        async with Client(server) as client:
            tools.extend((await client.list_tools()).tools)

    anyio.run(main)
    assert {t.name for t in tools} == DESIGN_TOOLS
    assert len(tools) == len(DESIGN_TOOLS)
    for t in tools:
        assert t.input_schema.get("type") == "object", t.name
        assert t.output_schema and t.output_schema.get("type") == "object", t.name
        read_only = bool(t.annotations and t.annotations.read_only_hint)
        assert read_only is (t.name != "ingest_doc"), t.name
