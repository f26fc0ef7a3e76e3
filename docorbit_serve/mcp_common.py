"""Shared helpers for MCP tool families (``mcp_server`` and the ``mcp_<family>`` modules).

Contract:
- ``READ_ONLY`` / ``INGEST``: the tool annotations every family uses.
- ``tool_result(model, markdown)``: a ``CallToolResult`` carrying the model as
  ``structuredContent`` (``model_dump(mode="json")``) and concise Markdown as text.
- ``tool_error(e)``: a ``ToolError`` whose text starts with the stable code (``[bad_input] …``).
- ``encode_cursor(state)`` / ``decode_cursor(cursor)``: the one cursor codec
  (``docorbit_serve.cursors``: JSON with ``v == 1`` and an offset ``o >= 0``); a bad cursor is a
  ``[bad_input]`` tool error.
- A family module defines ``add_tools(server, home, catalog) -> None`` and ``TOOL_NAMES``;
  ``mcp_server.build_server`` calls every family listed in ``mcp_server.TOOL_FAMILIES``.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel

from docorbit_serve import cursors
from docorbit_serve.errors import DocOrbitError

__all__ = ["INGEST", "READ_ONLY", "decode_cursor", "encode_cursor", "tool_error", "tool_result"]

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
INGEST = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=True
)


def tool_result(model: BaseModel, markdown: str) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=markdown)],
        structured_content=model.model_dump(mode="json"),
    )


def encode_cursor(state: dict[str, Any]) -> str:
    """``docorbit_serve.cursors.encode_cursor`` (the one codec)."""
    return cursors.encode_cursor(state)


def decode_cursor(cursor: str) -> dict[str, Any]:
    """``docorbit_serve.cursors.decode_cursor`` (needs an offset ``o``); a ``ToolError``."""
    try:
        return cursors.decode_cursor(
            cursor,
            "invalid cursor: pass back next_cursor of the previous call unchanged",
            fields=("o",),
        )
    except DocOrbitError as e:
        raise tool_error(e) from e


def tool_error(e: DocOrbitError) -> ToolError:
    """A tool error whose text starts with the stable code, e.g. ``[blocked_url] refused …``."""
    return ToolError(f"[{e.code}] {e.message}")
