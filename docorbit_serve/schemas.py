"""Table contracts (DESIGN.md §3): one name everywhere (asset = Parquet folder = DuckDB view).

Each table has exactly one Arrow schema here; the pipeline writes it, checks validate against
it, and the serving side reads it. Changing a schema is a contract change: bump
``SCHEMA_VERSION`` (it is part of every snapshot id, so old snapshots are never confused with
new ones).

Conventions: ids are strings derived from content or identity hashes (``stable_id``); times are
ISO-8601 UTC strings (``...Z``); free-form metadata is a JSON string with sorted keys. Tables that
a later stage fills may be empty, never invented.

The ``snapshot`` column is added by the snapshot stage when a table is frozen under
``tables/<table>/source=<s>/snapshot=<id>/``; staging tables do not have it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pyarrow as pa

__all__ = [
    "PER_SOURCE_TABLES",
    "SCHEMAS",
    "SCHEMA_VERSION",
    "canonical_json",
    "empty_table",
    "stable_id",
    "with_snapshot",
]

SCHEMA_VERSION = "4"
# 2: chunks.contains_code, chunks.explains_code
# 3: endpoints (full OpenAPI contract), examples (framework, symbols, endpoints, missing_code),
#    pitfalls (kind taxonomy, sentence, heading, symbols, endpoints) — docs/api.md
# 4: security_annotations carry integer places (start, end, near, line) beside the display
#    location (injection.Annotation; issue 12 item 5)

_str = pa.string()
_annotation = pa.struct(
    [
        ("type", _str),
        ("severity", _str),
        ("evidence", _str),
        ("location", _str),  # for people: text[a:b], html comment #2 (line 9); near text[o:o]
        ("start", pa.int64()),  # offsets into the page Markdown; null for HTML-only carriers
        ("end", pa.int64()),
        ("near", pa.int64()),  # where an HTML-only carrier is placed in the Markdown
        ("line", pa.int64()),  # an HTML carrier's 1-based line in the page HTML
    ]
)

SOURCES = pa.schema(
    [
        ("name", _str),
        ("kind", _str),  # local | web | llms_txt | markdown | openapi | sitemap | git
        ("location", _str),  # folder path or URL as configured
        ("library", _str),
        ("version", _str),
        ("include", pa.list_(_str)),
        ("exclude", pa.list_(_str)),
        ("config_json", _str),  # the whole source entry, canonical JSON
    ]
)

DISCOVERED = pa.schema(
    [
        ("source", _str),
        ("url", _str),
        # type: llms_txt, llms_full_txt, openapi, markdown, sitemap, github, skill, web, local
        ("type", _str),
        ("discovered_by", _str),
        ("status", _str),  # valid | invalid | unreachable
        ("content_type", _str),
        ("confidence", pa.float64()),
        ("authority", _str),  # official | community | third_party
        ("machine_readable", pa.bool_()),
        ("purposes", pa.list_(_str)),
        ("rank", pa.int32()),
        ("rationale", _str),
        ("metadata_json", _str),
    ]
)

FETCHES = pa.schema(
    [
        ("source", _str),
        ("url", _str),
        ("final_url", _str),
        ("status", pa.int32()),  # HTTP status; 0 for local files and failures before a response
        ("ok", pa.bool_()),
        ("content_type", _str),
        ("bytes", pa.int64()),
        ("content_hash", _str),
        ("etag", _str),
        ("last_modified", _str),
        ("error_code", _str),
        ("error_message", _str),
        ("fetched_at", _str),
        ("body", pa.large_binary()),  # raw payload (capped); pages are derived from it
    ]
)

PAGES = pa.schema(
    [
        ("id", _str),
        ("source", _str),
        ("library", _str),
        ("version", _str),
        ("url", _str),
        ("path", _str),  # relative to the source root (local/git) or the URL path (web)
        ("title", _str),
        ("markdown", _str),
        (
            "headings",
            pa.list_(pa.struct([("level", pa.int32()), ("text", _str), ("anchor", _str)])),
        ),
        (
            "links",
            pa.list_(pa.struct([("text", _str), ("url", _str), ("is_external", pa.bool_())])),
        ),
        ("code_examples", pa.list_(pa.struct([("id", _str), ("language", _str), ("code", _str)]))),
        ("content_hash", _str),
        ("fetched_at", _str),
        ("raw_bytes", pa.int64()),
        ("tokens", pa.int64()),
        ("security_annotations", pa.list_(_annotation)),
        ("truncated", pa.bool_()),
        ("truncation_reason", _str),
    ]
)

CHUNKS = pa.schema(
    [
        ("id", _str),
        ("page_id", _str),
        ("source", _str),
        ("library", _str),
        ("version", _str),
        ("url", _str),  # page URL + "#anchor" when the section has one
        ("path", _str),
        ("title", _str),  # the page title
        ("heading", _str),  # the section's own heading text ("" before the first heading)
        ("anchor", _str),
        ("level", pa.int32()),  # heading level 1-6; 0 for text before the first heading
        ("breadcrumb", pa.list_(_str)),  # ancestor headings, outermost first (not the own heading)
        ("text", _str),  # the section's Markdown, heading line included
        ("code_blocks", pa.list_(pa.struct([("language", _str), ("code", _str)]))),
        ("tokens", pa.int64()),
        ("content_hash", _str),
        ("line_start", pa.int32()),  # 1-based, inclusive, in the page's Markdown
        ("line_end", pa.int32()),
        ("prev_id", _str),
        ("next_id", _str),
        ("parent_id", _str),
        ("fetched_at", _str),
        ("security_annotations", pa.list_(_annotation)),
        ("contains_code", pa.bool_()),  # the chunk holds a fenced code block
        # ids of the EXAMPLES rows (``e_``) of the code this chunk's prose explains: its own code
        # blocks, or the code a following part of the same section starts with
        ("explains_code", pa.list_(_str)),
    ]
)

SYMBOLS = pa.schema(
    [
        ("id", _str),
        ("source", _str),
        ("library", _str),
        ("version", _str),
        ("chunk_id", _str),
        ("page_id", _str),
        ("name", _str),  # short name, e.g. "AsyncClient"
        ("qualname", _str),  # e.g. "httpx.AsyncClient"
        ("kind", _str),  # class, function, method, arrow_function, interface, type, attribute,
        # module, parameter, endpoint, cli_flag, config_key, unknown
        ("signature", _str),
        ("language", _str),
        ("path", _str),
        ("anchor", _str),
    ]
)

# One row per OpenAPI/Swagger operation (webhooks flagged). JSON columns are canonical JSON;
# shapes in docs/api.md. Schemas inside them have internal $refs resolved, cycles marked
# {"$cycle": "#/components/schemas/X"} and cut-offs {"$truncated": "depth"|"budget"}.
ENDPOINTS = pa.schema(
    [
        ("id", _str),  # stable_id("a_", source, spec_url, "webhook"|"path", METHOD, path)
        ("source", _str),
        ("library", _str),
        ("version", _str),
        ("method", _str),  # upper case: GET, POST, ...
        ("path", _str),  # the path template, e.g. /pets/{petId}; a webhook's name for webhooks
        ("operation_id", _str),
        ("summary", _str),
        ("description", _str),
        ("deprecated", pa.bool_()),
        ("deprecation_note", _str),  # spec text naming a replacement, "" if none
        ("webhook", pa.bool_()),  # an OpenAPI 3.1 ``webhooks`` entry (the API calls you)
        ("tags", pa.list_(_str)),
        ("parameters_json", _str),  # [{name, in, required, description, schema, deprecated}]
        ("request_body_json", _str),  # {required, description, content: {mt: {schema}}} | null
        ("responses_json", _str),  # {status: {description, content: {mt: {schema}}, headers}}
        ("security_json", _str),  # [[{scheme, type, in, name, scopes, flows, ...}], ...]
        ("servers", pa.list_(_str)),
        ("pagination", _str),  # cursor | offset | page | link_header | ""
        ("spec_url", _str),
        ("spec_version", _str),  # "3.1.0", "2.0", ...
        ("pointer", _str),  # JSON pointer of the operation, e.g. /paths/~1pets~1{petId}/get
        ("page_id", _str),  # the spec's rendered Markdown page ("" if none)
        ("chunk_id", _str),  # the operation's section in it ("" if none)
    ]
)

EXAMPLES = pa.schema(
    [
        ("id", _str),
        ("source", _str),
        ("library", _str),
        ("version", _str),
        ("chunk_id", _str),
        ("page_id", _str),
        ("language", _str),  # from the fence info string's first word ("" if none)
        ("code", _str),
        ("heading", _str),  # the section the example illustrates
        ("path", _str),
        ("anchor", _str),
        ("tokens", pa.int64()),
        ("framework", _str),  # fastapi | flask | django | express | ... | "" (from imports/calls)
        ("symbols", pa.list_(_str)),  # identifiers the code imports or calls, sorted
        ("endpoints", pa.list_(_str)),  # "METHOD /path" the code defines or calls, sorted
        ("missing_code", pa.bool_()),  # an include marker whose file was not in the source tree
    ]
)

PITFALLS = pa.schema(
    [
        ("id", _str),
        ("source", _str),
        ("library", _str),
        ("version", _str),
        ("chunk_id", _str),
        ("page_id", _str),
        # deprecated | removed | breaking_change | server_only | client_only | required_config |
        # permission | rate_limit | runtime_restriction | security
        ("kind", _str),
        ("symbol", _str),  # the first of ``symbols`` ("" if none)
        ("text", _str),  # the evidence unit (sentence, list item or admonition), capped
        ("path", _str),
        ("anchor", _str),
        ("sentence", _str),  # the sentence that says it (the evidence)
        ("heading", _str),  # the section's heading
        ("symbols", pa.list_(_str)),  # code identifiers the evidence names
        ("endpoints", pa.list_(_str)),  # "METHOD /path" the evidence names
    ]
)

LINKS = pa.schema(
    [
        ("source", _str),
        ("page_id", _str),
        ("chunk_id", _str),
        ("text", _str),
        ("url", _str),
        ("is_external", pa.bool_()),
        ("target_page_id", _str),  # "" when the target is not a page of this source
    ]
)

POSTINGS = pa.schema(
    [
        ("chunk_id", _str),
        ("field", _str),  # body | heading | breadcrumb | title | code | symbol
        ("term", _str),
        ("tf", pa.int32()),
        ("doc_len", pa.int32()),  # length of this chunk's field in terms
    ]
)

SNAPSHOTS = pa.schema(
    [
        ("id", _str),
        ("source", _str),
        ("library", _str),
        ("version", _str),
        ("kind", _str),
        ("location", _str),
        ("content_hash", _str),
        ("created_at", _str),
        ("schema_version", _str),
        ("row_counts_json", _str),
    ]
)

# What changed between a source's previous snapshot and a new one (docorbit_assets/lib/diffs.py,
# docorbit_serve.changes.diff; docs/changes.md). Not part of a snapshot's content: frozen beside
# it under tables/diffs/source=<s>/snapshot=<new id>/ once the new snapshot exists.
DIFFS = pa.schema(
    [
        ("source", _str),
        ("from_snapshot", _str),
        ("to_snapshot", _str),
        ("kind", _str),  # endpoint | page | section | pitfall | symbol
        ("change", _str),  # added | removed | modified | deprecated
        ("key", _str),  # "POST /pets/{}", a page path, path#anchor, "kind qualname", ...
        ("title", _str),
        ("url", _str),
        ("anchor", _str),
        ("pointer", _str),  # JSON pointer of an endpoint in its spec
        ("details", pa.list_(_str)),
    ]
)

SCHEMAS: dict[str, pa.Schema] = {
    "sources": SOURCES,
    "discovered": DISCOVERED,
    "fetches": FETCHES,
    "pages": PAGES,
    "chunks": CHUNKS,
    "symbols": SYMBOLS,
    "endpoints": ENDPOINTS,
    "examples": EXAMPLES,
    "pitfalls": PITFALLS,
    "links": LINKS,
    "postings": POSTINGS,
    "snapshots": SNAPSHOTS,
    "diffs": DIFFS,
}

# Tables frozen per source into each snapshot (in pipeline order).
PER_SOURCE_TABLES = (
    "sources",
    "discovered",
    "fetches",
    "pages",
    "chunks",
    "symbols",
    "endpoints",
    "examples",
    "pitfalls",
    "links",
    "postings",
)


def empty_table(name: str) -> pa.Table:
    return SCHEMAS[name].empty_table()


def with_snapshot(table: pa.Table, snapshot_id: str) -> pa.Table:
    """``table`` plus a constant ``snapshot`` column (provenance of frozen tables)."""
    col = pa.array([snapshot_id] * table.num_rows, type=pa.string())
    return table.append_column("snapshot", col)


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def stable_id(prefix: str, *parts: str) -> str:
    """A short id from identity parts: ``prefix`` + 20 hex chars of SHA-256."""
    h = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return f"{prefix}{h[:20]}"
