"""Shared helpers for MCP tool families (``mcp_server`` and the ``mcp_<family>`` modules).

Contract:
- ``READ_ONLY`` / ``INGEST``: the tool annotations every family uses.
- ``tool_result(model, markdown)``: a ``CallToolResult`` carrying the model as
  ``structuredContent`` (``model_dump(mode="json")``) and concise Markdown as text.
- ``tool_error(e)``: a ``ToolError`` whose text starts with the stable code (``[bad_input] …``).
- ``encode_cursor(state)`` / ``decode_cursor(cursor)``: opaque URL-safe cursors (JSON with
  ``v == 1`` and an offset ``o >= 0``); a bad cursor is a ``[bad_input]`` tool error.
- A family module defines ``add_tools(server, home, catalog) -> None`` and ``TOOL_NAMES``;
  ``mcp_server.build_server`` calls every family listed in ``mcp_server.TOOL_FAMILIES``.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel

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
    raw = json.dumps(state, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> dict[str, Any]:
    try:
        state = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if not isinstance(state, dict) or state.get("v") != 1 or int(state["o"]) < 0:
            raise ValueError("bad cursor")
        return state
    except (ValueError, KeyError, TypeError, binascii.Error, UnicodeDecodeError) as e:
        raise ToolError(
            "[bad_input] invalid cursor: pass back next_cursor of the previous call unchanged"
        ) from e


def tool_error(e: DocOrbitError) -> ToolError:
    """A tool error whose text starts with the stable code, e.g. ``[blocked_url] refused …``."""
    return ToolError(f"[{e.code}] {e.message}")
