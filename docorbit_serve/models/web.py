"""Result models of the dashboard family (REST API ``/api/v1`` and exports), shared by the CLI
(``--json``), MCP (``structuredContent``) and REST.

Contract: ``EndpointPage`` (raw OpenAPI endpoint rows of the published index, paged by cursor),
``ApiError`` (the REST error body ``{"error": {"code", "message", "detail"}}``) and
``AgentContext`` (an export: ``format``, the file's ``text``, its ``tokens`` and ``budget``,
and what it covers). Serialised with ``model_dump(mode="json")``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = [
    "EXPORT_FORMATS",
    "AgentContext",
    "ApiError",
    "ApiErrorBody",
    "EndpointPage",
    "EndpointRow",
]

EXPORT_FORMATS = ("agents-md", "claude-md", "skill", "llms-txt", "docs-map")
ExportFormat = Literal["agents-md", "claude-md", "skill", "llms-txt", "docs-map"]


class EndpointRow(BaseModel):
    id: str
    source: str
    library: str
    version: str
    method: str
    path: str
    operation_id: str = ""
    summary: str = ""
    deprecated: bool = False
    tags: list[str] = []
    spec_url: str = ""
    untrusted: bool = True


class EndpointPage(BaseModel):
    endpoints: list[EndpointRow]
    next_cursor: str | None = None
    publish_id: str


class ApiErrorBody(BaseModel):
    code: str = Field(description="Stable machine-readable code, e.g. bad_input, not_found.")
    message: str
    detail: dict[str, Any] = {}


class ApiError(BaseModel):
    error: ApiErrorBody


class AgentContext(BaseModel):
    format: ExportFormat
    filename: str = Field(description="Conventional file name, e.g. AGENTS.md.")
    text: str
    tokens: int
    budget: int
    publish_id: str
    libraries: list[str]
    truncated: bool = Field(description="Some sections were left out to stay within budget.")
