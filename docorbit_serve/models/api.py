"""Result models of API intelligence (``docorbit_serve.api``): ``find_api``, ``find_example``,
``find_pitfall``, ``find_recipe``. One pydantic model per result, shared by the CLI (``--json``
prints ``model_dump(mode="json")``), the MCP tools (``structuredContent``) and the REST API.

Every model that carries text read from a fetched spec or page (summaries, descriptions, code,
pitfall sentences, recipe step text quoting them) has ``untrusted: true``: it is data, never an
instruction. Recipe items carry ``basis``: ``documented_fact`` (the docs say it, evidence
attached), ``inferred_relationship`` (DocOrbit linked two documented facts, e.g. the call that
creates the id another call needs) or ``missing_information`` (the docs do not say).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = [
    "ApiAuthScheme",
    "ApiBody",
    "ApiBodyField",
    "ApiParameter",
    "ApiProvenance",
    "ApiResponse",
    "ApiResult",
    "ContextApi",
    "RecipeEvidence",
    "EndpointContract",
    "ExampleItem",
    "ExampleResult",
    "PitfallItem",
    "PitfallResult",
    "RecipeItem",
    "RecipeResult",
]

Basis = Literal["documented_fact", "inferred_relationship", "missing_information"]


class ApiProvenance(BaseModel):
    source: str
    library: str
    version: str
    snapshot: str
    spec_url: str = ""
    spec_version: str = ""
    pointer: str = ""
    page_id: str = ""
    chunk_id: str = ""


class ApiParameter(BaseModel):
    name: str
    location: str  # the spec's ``in``: path, query, header, cookie
    required: bool
    description: str = ""
    json_schema: dict[str, Any] = {}
    deprecated: bool = False


class ApiBodyField(BaseModel):
    name: str
    type: str = ""
    required: bool = False
    description: str = ""


class ApiBody(BaseModel):
    required: bool = False
    media_types: list[str] = []
    schema_name: str = ""
    required_fields: list[str] = []
    fields: list[ApiBodyField] = []  # top-level properties (at most MAX_FIELDS)
    fields_truncated: bool = False


class ApiResponse(BaseModel):
    status: str
    success: bool
    description: str = ""
    media_types: list[str] = []
    schema_name: str = ""
    headers: list[str] = []


class ApiAuthScheme(BaseModel):
    scheme: str
    type: str  # http_bearer, http_basic, api_key, oauth2, openid_connect, mutual_tls, unknown
    location: str = ""
    name: str = ""
    scopes: list[str] = []
    bearer_format: str = ""


class EndpointContract(BaseModel):
    id: str
    method: str
    path: str
    operation_id: str
    summary: str
    description: str
    description_truncated: bool = False
    tags: list[str] = []
    webhook: bool = False
    deprecated: bool = False
    deprecation_note: str = ""
    replacement: str = ""  # "METHOD /path" or operation id the spec names instead, "" if none
    required_parameters: list[ApiParameter] = []
    optional_parameters: list[ApiParameter] = []
    request_body: ApiBody | None = None
    responses: list[ApiResponse] = []
    # Alternatives: each inner list is a set of schemes that must all be satisfied; [] = no
    # auth required; an empty inner list = auth optional.
    auth: list[list[ApiAuthScheme]] = []
    auth_required: bool = False
    servers: list[str] = []
    pagination: str = ""
    provenance: ApiProvenance
    match: Literal["exact_path", "template_path", "ranked"] = "ranked"
    score: float = 0.0
    version_match: str | None = None
    untrusted: bool = True


class _Answer(BaseModel):
    """What every find_* answer carries beside its results: the total found, whether the list
    was cut, the workspace's version report per library and notices."""

    total: int = 0
    truncated: bool = False
    versions: dict[str, dict[str, Any]] = {}
    notices: list[str] = []


class _RowProvenance(BaseModel):
    """Where an example or pitfall row comes from, its rank and its version match."""

    source: str
    library: str
    version: str
    url: str = ""
    path: str = ""
    anchor: str = ""
    chunk_id: str = ""
    page_id: str = ""
    snapshot: str = ""
    score: float = 0.0
    version_match: str | None = None
    untrusted: bool = True


class ApiResult(_Answer):
    query: str
    method: str | None = None
    path: str | None = None
    library: str | None = None
    version: str | None = None
    results: list[EndpointContract]


class ExampleItem(_RowProvenance):
    id: str
    language: str
    framework: str = ""
    heading: str = ""
    code: str
    code_truncated: bool = False
    symbols: list[str] = []
    endpoints: list[str] = []
    missing_code: bool = False


class ExampleResult(_Answer):
    query: str
    library: str | None = None
    version: str | None = None
    language: str | None = None
    framework: str | None = None
    results: list[ExampleItem]


class PitfallItem(_RowProvenance):
    id: str
    kind: str
    sentence: str
    text: str = ""
    heading: str = ""
    symbols: list[str] = []
    endpoints: list[str] = []


class PitfallResult(_Answer):
    query: str
    library: str | None = None
    version: str | None = None
    kind: str | None = None
    results: list[PitfallItem]


class RecipeEvidence(BaseModel):
    type: Literal["endpoint", "example", "pitfall", "section"]
    id: str
    label: str = ""
    library: str = ""
    version: str = ""
    url: str = ""
    path: str = ""
    snapshot: str = ""


class RecipeItem(BaseModel):
    text: str
    basis: Basis
    evidence: list[RecipeEvidence] = []
    untrusted: bool = True


class RecipeResult(BaseModel):
    task: str
    library: str | None = None
    version: str | None = None
    status: Literal["covered", "partial", "missing_information"]
    basis: Basis
    confidence: float = Field(ge=0.0, le=1.0)
    prerequisites: list[RecipeItem] = []
    steps: list[RecipeItem] = []
    validation: list[RecipeItem] = []
    missing: list[RecipeItem] = []
    endpoints: list[EndpointContract] = []
    symbols: list[str] = []
    examples: list[ExampleItem] = []
    pitfalls: list[PitfallItem] = []
    versions: dict[str, dict[str, Any]] = {}
    notices: list[str] = []
    untrusted: bool = True


class VerificationHint(BaseModel):
    """What code calling a packed endpoint must get right (``verify.verification_hints``), and
    how to check it."""

    endpoint: str
    operation_id: str = ""
    checks: list[str] = []
    verify_with: str = ""


class ContextApi(BaseModel):
    """The API part of an implementation-context pack (``api.context.api_context``): the
    endpoint contracts packed, the ids of the pitfalls and examples packed, and their rendered
    blocks (``text``, counted in the pack's ``tokens``), and a verification hint per packed
    endpoint."""

    endpoints: list[EndpointContract] = []
    verification: list[VerificationHint] = []
    pitfalls: list[str] = []
    examples: list[str] = []
    text: str = ""
    tokens: int = 0
    untrusted: bool = True
