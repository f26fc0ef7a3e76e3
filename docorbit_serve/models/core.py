"""The core result models, defined once and shared by every face (DESIGN.md §6, issue 12).

Contract:
- One pydantic model per result: ``Hit`` (a search hit; also the base of ``ContextItem``),
  ``SearchPage``, ``Doc`` (a chunk, section or page read by ``get``), ``DocMap`` (the
  documentation map), ``SourceInfo``/``SourceList``, ``ContextPack``, ``VersionReport``,
  ``IngestResult`` and ``Manifest`` (``published.json``).
- The CLI's ``--json`` prints ``model.model_dump(mode="json")``, MCP tools return the same dump as
  ``structuredContent`` and the REST API serves it: the three faces cannot drift.
- Every model that carries fetched documentation says so (``untrusted`` is always ``True``) and
  carries its ``security_annotations``.
- Pure data: this module imports pydantic only (no DuckDB, no pipeline), so any layer may use it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from docorbit_serve.models.api import ContextApi

__all__ = [
    "ContextItem",
    "ContextPack",
    "Doc",
    "DocMap",
    "DocPart",
    "Hit",
    "IngestResult",
    "Manifest",
    "ManifestSource",
    "ManifestVectors",
    "MapPage",
    "MapSection",
    "MapSource",
    "Neighbour",
    "OmittedChunk",
    "SearchPage",
    "SecurityAnnotation",
    "SourceInfo",
    "SourceList",
    "VersionConflict",
    "VersionMissing",
    "VersionPin",
    "VersionReport",
]


class SecurityAnnotation(BaseModel):
    """A finding of the injection scanner on a piece of fetched text. ``location`` is for
    people; ``start``/``end`` are offsets into the page Markdown (null for a carrier only the
    page HTML holds), ``near`` where such a carrier is placed, ``line`` its line in the HTML."""

    type: str = ""
    severity: str = ""
    evidence: str = ""
    location: str = ""
    start: int | None = None
    end: int | None = None
    near: int | None = None
    line: int | None = None


class Hit(BaseModel):
    """One search hit: the best part of a section, with its provenance (always untrusted)."""

    chunk_id: str
    library: str
    version: str
    source: str
    url: str
    path: str
    title: str
    heading: str
    anchor: str
    breadcrumb: list[str]
    score: float
    tokens: int
    snapshot: str
    untrusted: bool = True
    content: str
    security_annotations: list[SecurityAnnotation] = []
    # What found the hit: the lexical ranking, the dense one (similarity above
    # search.hybrid.DENSE_FLOOR), or both.
    matched_by: Literal["lexical", "dense", "both"] = "lexical"
    # How the hit's version relates to the workspace's pin (exact, major, other, unversioned, …);
    # None when no workspace pin applied to the search.
    version_match: str | None = None
    # Provenance age: when this content was fetched (web) or last modified (local file), UTC,
    # and its age in hours at search time ("" / None when unknown).
    fetched_at: str = ""
    age_hours: float | None = None
    # ``content`` is the head of the section part, not all of it (a search hit over
    # ``service.MAX_HIT_TOKENS``, a packed excerpt): ``get_doc`` reads the rest.
    truncated: bool = False


class SearchPage(BaseModel):
    """A page of search hits (``docorbit search``, MCP ``search_docs``)."""

    query: str
    backend: str
    hybrid: bool = False
    truncated: bool = False
    elapsed_ms: float = 0.0
    hits: list[Hit]
    next_cursor: str | None = None
    # Per library the workspace pins: status (available / version_unavailable / …), the docs
    # version served, confidence and the nearest indexed versions; plus one-line notices.
    versions: dict[str, dict[str, Any]] = {}
    notices: list[str] = []
    workspace: str | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ranking(self) -> Literal["hybrid", "lexical"]:
        """Which ranking answered: lexical fused with dense (``hybrid``) or ``lexical`` alone."""
        return "hybrid" if self.hybrid else "lexical"


class Neighbour(BaseModel):
    chunk_id: str
    heading: str
    anchor: str


class DocPart(BaseModel):
    chunk_id: str
    heading: str
    anchor: str
    url: str


class Doc(BaseModel):
    """A chunk, its section or its page, in parts of ``max_tokens`` (``get`` / ``get_doc``)."""

    mode: Literal["chunk", "section", "page"]
    chunk_id: str
    page_id: str
    source: str
    library: str
    version: str
    url: str
    path: str
    title: str
    heading: str
    anchor: str
    breadcrumb: list[str]
    snapshot: str
    publish_id: str
    fetched_at: str
    content_hash: str
    untrusted: bool = True
    security_annotations: list[SecurityAnnotation] = []
    content: str
    tokens: int
    max_tokens: int
    offset: int
    total_chars: int
    truncated: bool
    next_cursor: str | None = None
    chunks: list[DocPart]
    neighbours: dict[str, Neighbour | None]


class SourceInfo(BaseModel):
    """A source: configured in ``docorbit.toml`` and/or published (``list`` / ``list_sources``)."""

    name: str
    library: str
    version: str
    kind: str
    location: str
    configured: bool = True
    published: bool = False
    snapshot: str = ""
    created_at: str = ""
    pages: int = 0
    chunks: int = 0
    include: list[str] = []
    exclude: list[str] = []
    limits: dict[str, Any] = {}
    allow_hosts: list[str] = []
    refresh: str = ""  # cadence (docorbit schedule); "" = refreshed by hand
    track: str = ""  # release feed watched by the release_watch sensor
    # Freshness (docorbit_serve.freshness): newest successful fetch, its age, stale past
    # [settings] stale_after_hours; None = never fetched.
    fetched_at: str | None = None
    age_hours: float | None = None
    stale: bool = False


class SourceList(BaseModel):
    config: str = ""
    home: str = ""
    publish_id: str | None = None
    sources: list[SourceInfo]


class MapSection(BaseModel):
    chunk_id: str
    heading: str
    anchor: str
    level: int
    tokens: int


class MapPage(BaseModel):
    page_id: str
    path: str
    title: str
    url: str
    sections_total: int
    sections: list[MapSection]


class MapSource(BaseModel):
    name: str
    library: str
    version: str
    snapshot: str
    pages_total: int
    pages: list[MapPage]


class DocMap(BaseModel):
    """Outline sources → pages → sections (``map`` / ``get_documentation_map``)."""

    publish_id: str
    untrusted: bool = True
    offset: int
    pages_total: int
    truncated: bool
    next_cursor: str | None = None
    sources: list[MapSource]


class ContextItem(Hit):
    """A packed hit: ``text`` is its block (provenance header + Markdown) as counted."""

    text: str = ""


class OmittedChunk(BaseModel):
    chunk_id: str
    heading: str = ""
    path: str = ""
    tokens: int
    score: float
    reason: Literal["budget", "redundant"] = "budget"


class ContextPack(BaseModel):
    """A token-budgeted pack for a task (``context`` / ``get_implementation_context``).

    ``tokens`` (the pack's text, headers included, with ``tokenizer``) never exceeds ``budget``.
    """

    task: str
    intent: str
    budget: int
    tokens: int
    library: str | None = None
    version: str | None = None
    tokenizer: str = ""
    untrusted: bool = True
    items: list[ContextItem]
    omitted: list[OmittedChunk]
    next_cursor: str | None = None
    truncated: bool = False
    publish_id: str = ""
    versions: dict[str, dict[str, Any]] = {}
    notices: list[str] = []
    # Endpoint contracts, pitfalls and examples packed before the sections (models/api.py).
    api: ContextApi | None = None

    @property
    def text(self) -> str:
        """The pack as one Markdown text (the API part, then the sections; blank-line joined)."""
        head = [self.api.text] if self.api is not None and self.api.text else []
        return "\n\n".join([*head, *(i.text for i in self.items)])


class VersionConflict(BaseModel):
    package_path: str
    source_file: str
    version: str | None = None


class VersionPin(BaseModel):
    library: str
    status: Literal["available", "version_unavailable", "unversioned_docs", "unpinned"]
    wanted: str | None = None
    spec: str
    ecosystem: str
    dependency: str
    package_path: str
    source_file: str
    resolved_from: str
    docs_version: str | None = None
    level: str
    confidence: float
    nearest: list[str]
    reason: str
    notice: str
    conflicts: list[VersionConflict] = []


class VersionMissing(BaseModel):
    library: str
    indexed_versions: list[str]
    reason: str


class VersionReport(BaseModel):
    """What the workspace uses and which docs are served for it (``version`` / ``get_version``)."""

    project_root: str | None = None
    publish_id: str | None = None
    indexed: dict[str, list[str]]
    libraries: list[VersionPin]
    missing: list[VersionMissing]


class IngestResult(BaseModel):
    """One source registered and ingested (MCP ``ingest_doc``)."""

    name: str
    added: bool
    kind: str
    location: str
    library: str
    version: str
    publish_id: str
    snapshot: str
    rows: dict[str, int]
    seconds: float


class ManifestSource(BaseModel):
    """One served source of ``published.json``: the snapshot it serves, and what it is."""

    model_config = ConfigDict(extra="allow")

    snapshot: str = Field(min_length=1)
    library: str = ""
    version: str = ""
    kind: str = ""
    location: str = ""
    created_at: str = ""


class ManifestVectors(BaseModel):
    """The dense vectors of a hybrid publication: a file beside the index."""

    model_config = ConfigDict(extra="allow")

    path: str = Field(min_length=1)
    model: str = ""
    rows: int = Field(default=0, ge=0)


class Manifest(BaseModel):
    """``published.json``: which snapshot of each source is served, and the index files.

    Every reader and writer checks the file through this model (``docorbit_serve.manifest``);
    keys it does not name are kept (``extra="allow"``)."""

    model_config = ConfigDict(extra="allow", strict=True)

    publish_id: str = Field(min_length=1)
    index: str = Field(min_length=1)
    schema_version: str | int = ""
    created_at: str = ""
    vectors: ManifestVectors | None = None
    sources: dict[str, ManifestSource] = {}
