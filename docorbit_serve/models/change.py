"""Result models of change intelligence (diff, code calls, verification, impact), shared by the
CLI (``--json``), the MCP tools (``structuredContent``) and the REST API.

Contract: every model serialises with ``model_dump(mode="json")``; lists are sorted by the
service that builds them, so the same input gives byte-identical JSON.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = [
    "ApiCall",
    "CallReport",
    "DiffItem",
    "DiffResult",
    "DiffSide",
    "Finding",
    "ImpactHit",
    "ImpactResult",
    "VerifyResult",
]

DiffKind = Literal["endpoint", "page", "section", "pitfall", "symbol"]
Change = Literal["added", "removed", "modified", "deprecated"]
Status = Literal["verified", "warning", "mismatch", "insufficient_evidence"]
Certainty = Literal["high", "medium", "heuristic"]


class DiffSide(BaseModel):
    snapshot: str
    source: str
    library: str
    version: str
    created_at: str = ""
    published: bool = False


class DiffItem(BaseModel):
    kind: DiffKind
    change: Change
    key: str = Field(description="Identity compared: 'POST /pets/{}', a page path, path#anchor, …")
    title: str = ""
    url: str = ""
    anchor: str = ""
    pointer: str = Field(default="", description="JSON pointer into the spec (endpoints).")
    from_snapshot: str
    to_snapshot: str
    details: list[str] = []


class DiffResult(BaseModel):
    target: str
    mode: Literal["source", "library"]
    from_: DiffSide = Field(alias="from")
    to: DiffSide
    summary: dict[str, dict[str, int]]
    total: int
    items: list[DiffItem]
    next_cursor: str | None = None

    model_config = {"populate_by_name": True, "serialize_by_alias": True}


class ApiCall(BaseModel):
    file: str = ""
    line: int
    column: int = 0
    language: str
    client: str = Field(description="requests, httpx, aiohttp, urllib, fetch, axios, curl, sdk")
    snippet: str
    method: str | None = None
    url: str | None = Field(
        default=None, description="Literal URL or template ({name} for variables)."
    )
    path: str | None = Field(
        default=None, description="URL path or template without host and query."
    )
    host: str | None = None
    url_kind: Literal["literal", "template", "dynamic", "none"] = "none"
    sdk_chain: list[str] = []
    positional_args: int = Field(
        default=0, description="SDK calls: arguments that are not keyword/option objects (ids)."
    )
    query_fields: list[str] = []
    body_fields: list[str] = []
    headers: list[str] = []
    response_fields: list[str] = []
    dynamic: list[str] = Field(default=[], description="Parts that could not be read statically.")


class Finding(BaseModel):
    rule: str
    status: Status
    message: str
    evidence: dict[str, Any] = {}
    fix: str | None = None


class CallReport(BaseModel):
    call: ApiCall
    status: Status
    endpoint: str | None = Field(
        default=None, description="'METHOD /path' of the matched endpoint."
    )
    library: str | None = None
    version: str | None = None
    findings: list[Finding]


class VerifyResult(BaseModel):
    status: Status | Literal["no_calls"]
    counts: dict[str, int]
    calls: list[CallReport]
    versions: dict[str, str] = Field(default={}, description="library -> version verified against.")
    notices: list[str] = []


class ImpactHit(BaseModel):
    file: str
    line: int
    snippet: str
    kind: DiffKind
    change: Change
    key: str
    details: list[str] = []
    certainty: Certainty


class ImpactResult(BaseModel):
    diff: DiffResult
    root: str
    hits: list[ImpactHit]
    files_scanned: int
    truncated: bool = False
