"""MCP tool family ``api`` (registered first among the families): ``find_api``,
``find_example``, ``find_pitfall``, ``find_recipe`` over the server's publication.

Each tool validates its typed inputs (bounded strings and limits), calls one service of
``docorbit_serve.api`` with the pins of the server's workspace (``home.workspace_root``), and
returns the service's result model as ``structuredContent`` (so the output schema is the
model's) plus Markdown in which every fetched text is quoted by ``render.untrusted_block``
(``docorbit_serve.api.render``). Expected failures are tool errors ``[code] message``.
"""

# No `from __future__ import annotations`: the SDK reads the tools' annotations at runtime.

from typing import Annotated, Any, Literal

from mcp.server import MCPServer
from mcp.types import CallToolResult
from pydantic import Field

from docorbit_serve.errors import DocOrbitError
from docorbit_serve.home import Home
from docorbit_serve.mcp_common import READ_ONLY, tool_error, tool_result
from docorbit_serve.models.api import ApiResult, ExampleResult, PitfallResult, RecipeResult

__all__ = ["TOOL_NAMES", "add_tools"]

TOOL_NAMES = ("find_api", "find_example", "find_pitfall", "find_recipe")
_Text = Annotated[str, Field(min_length=1, max_length=2000)]
_Library = Annotated[
    str | None, Field(max_length=200, description="Only this library (see list_sources).")
]
_Version = Annotated[
    str | None,
    Field(max_length=100, description="Only this version label (default: the workspace's)."),
]
PitfallKind = Literal[
    "deprecated", "removed", "breaking_change", "server_only", "client_only", "required_config",
    "permission", "rate_limit", "runtime_restriction", "security",
]  # fmt: skip


def add_tools(server: MCPServer, home: Home, catalog: Any) -> None:
    from docorbit_serve.api import find_api, find_example, find_pitfall, find_recipe
    from docorbit_serve.api.render import (
        render_api,
        render_examples,
        render_pitfalls,
        render_recipe,
    )
    from docorbit_serve.api.scope import workspace_pins
    from docorbit_serve.home import workspace_root

    def pins() -> dict[str, Any]:
        return workspace_pins(catalog, workspace_root(home))

    @server.tool(name="find_api", annotations=READ_ONLY)
    def find_api_tool(
        query: Annotated[
            str | None,
            Field(
                max_length=2000,
                description="A task ('create a chat completion') or 'METHOD /path'.",
            ),
        ] = None,
        method: Annotated[
            str | None, Field(max_length=10, description="HTTP method, with path.")
        ] = None,
        path: Annotated[
            str | None,
            Field(max_length=2000, description="A path or URL; /pets/123 matches /pets/{petId}."),
        ] = None,
        library: _Library = None,
        version: _Version = None,
        limit: Annotated[int, Field(ge=1, le=50, description="Contracts to return.")] = 5,
    ) -> Annotated[CallToolResult, ApiResult]:
        """Endpoint contracts (params, body, responses, auth, provenance) for a task or path."""
        try:
            res = find_api(
                catalog, query, method=method, path=path, library=library, version=version,
                limit=limit, pins=pins(),
            )  # fmt: skip
        except DocOrbitError as e:
            raise tool_error(e) from e
        return tool_result(res, render_api(res))

    @server.tool(name="find_example", annotations=READ_ONLY)
    def find_example_tool(
        query: Annotated[_Text, Field(description="What the code should show.")],
        library: _Library = None,
        version: _Version = None,
        language: Annotated[
            str | None, Field(max_length=40, description="Only this language (python, js …).")
        ] = None,
        framework: Annotated[
            str | None, Field(max_length=40, description="Only this framework (fastapi …).")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=50, description="Examples to return.")] = 5,
    ) -> Annotated[CallToolResult, ExampleResult]:
        """Code examples from the docs, with language, framework, symbols and provenance."""
        try:
            res = find_example(
                catalog, query, library=library, version=version, language=language,
                framework=framework, limit=limit, pins=pins(),
            )  # fmt: skip
        except DocOrbitError as e:
            raise tool_error(e) from e
        return tool_result(res, render_examples(res))

    @server.tool(name="find_pitfall", annotations=READ_ONLY)
    def find_pitfall_tool(
        query: Annotated[
            str | None, Field(max_length=2000, description="What you are about to do.")
        ] = None,
        symbol: Annotated[
            str | None, Field(max_length=200, description="Only pitfalls naming this symbol.")
        ] = None,
        endpoint: Annotated[
            str | None, Field(max_length=2000, description="Only pitfalls naming METHOD /path.")
        ] = None,
        library: _Library = None,
        version: _Version = None,
        kind: Annotated[PitfallKind | None, Field(description="Only this kind of trap.")] = None,
        limit: Annotated[int, Field(ge=1, le=50, description="Pitfalls to return.")] = 10,
    ) -> Annotated[CallToolResult, PitfallResult]:
        """Documented traps (deprecated, removed, limits, security …) with their evidence."""
        try:
            res = find_pitfall(
                catalog, query, symbol=symbol, endpoint=endpoint, library=library,
                version=version, kind=kind, limit=limit, pins=pins(),
            )  # fmt: skip
        except DocOrbitError as e:
            raise tool_error(e) from e
        return tool_result(res, render_pitfalls(res))

    @server.tool(name="find_recipe", annotations=READ_ONLY)
    def find_recipe_tool(
        task: Annotated[_Text, Field(description="The task, in a sentence.")],
        library: _Library = None,
        version: _Version = None,
    ) -> Annotated[CallToolResult, RecipeResult]:
        """Steps for a task from documented evidence; uncovered tasks say missing_information."""
        try:
            res = find_recipe(catalog, task, library=library, version=version, pins=pins())
        except DocOrbitError as e:
            raise tool_error(e) from e
        return tool_result(res, render_recipe(res))
