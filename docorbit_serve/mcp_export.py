"""MCP tool family ``export``: ``export_agent_context`` returns the text ``docorbit export``
writes (AGENTS.md, CLAUDE.md, SKILL.md, llms.txt, docs-map.md), built by
``docorbit_serve.export.export_context`` over the server's publication and workspace."""

# No `from __future__ import annotations`: the SDK reads the tool's annotations at runtime.

from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.types import CallToolResult
from pydantic import Field

from docorbit_serve.errors import DocOrbitError
from docorbit_serve.export import DEFAULT_BASE_URL, MAX_BUDGET, MIN_BUDGET, export_context
from docorbit_serve.home import Home
from docorbit_serve.mcp_common import READ_ONLY, tool_error, tool_result
from docorbit_serve.models.web import AgentContext, ExportFormat

__all__ = ["TOOL_NAMES", "add_tools"]

TOOL_NAMES = ("export_agent_context",)


def add_tools(server: MCPServer, home: Home, catalog: Any) -> None:
    @server.tool(name="export_agent_context", annotations=READ_ONLY)
    def export_agent_context(
        format: Annotated[  # noqa: A002 - the contract's parameter name
            ExportFormat, Field(description="agents-md, claude-md, skill, llms-txt or docs-map.")
        ] = "agents-md",
        library: Annotated[str | None, Field(description="Only this library.")] = None,
        budget: Annotated[
            int, Field(ge=MIN_BUDGET, le=MAX_BUDGET, description="Token budget of the file.")
        ] = 4000,
    ) -> Annotated[CallToolResult, AgentContext]:
        """A repository file (AGENTS.md …): pinned versions, doc locations, entry points, pitfalls."""
        from docorbit_serve.home import workspace_root

        try:
            ctx = export_context(
                home, catalog, format, library=library, budget=budget,
                base_url=DEFAULT_BASE_URL, root=workspace_root(home),
            )  # fmt: skip
        except DocOrbitError as e:
            raise tool_error(e) from e
        return tool_result(ctx, ctx.text)
