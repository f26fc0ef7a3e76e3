"""Bounded reads of the published snapshot: ``get_doc`` and ``list_sources``.

Contract:

``get_doc(catalog, *, chunk_id=None, page_id=None, mode="chunk", max_tokens=2000, cursor=None)``
returns one dict (the same for the CLI's ``--json`` and the MCP tool):

- ``mode="chunk"``: the chunk's own text;
- ``mode="section"``: the chunk's whole section: all parts of it (a long section is sliced into
  parts sharing one anchor) and its subsections (the chunks that follow it on the page with a
  deeper heading level), with ``neighbours`` naming the chunk before the section, the one after
  it, and the parent section;
- ``mode="page"`` (or any call with ``page_id``; a ``chunk_id`` starting with ``p_`` is taken as
  a page id): the whole page assembled from its chunks in reading order.

The text is at most ``max_tokens`` cl100k tokens (``docorbit_serve.tokens``), cut at a line
break when one is near. When text remains, ``truncated`` is true and ``next_cursor`` is an opaque
string: pass it back as ``cursor`` (ids may be left out) to get the next part. A cursor names the
document and a hash of its text, so a cursor from before a re-publication that changed the text
is refused with ``InputError`` rather than returning a misaligned part. Unknown ids raise
``NotFound`` with what to do next; nothing published raises ``NotPublished`` (from the catalog).

Every result is documentation fetched from elsewhere: ``untrusted`` is always true, and
``security_annotations`` and provenance (source, library, version, url, path, snapshot,
fetched_at, content_hash) travel with it.

``list_sources(catalog)`` lists the published sources (name, library, version, kind, location,
snapshot, created_at, pages, chunks), sorted by name.

``documentation_map(catalog, *, library=None, version=None, source=None, max_pages=50,
sections_per_page=40, cursor=None)`` is the outline sources → pages → sections: pages in
(source, path) order, at most ``max_pages`` per call (``next_cursor`` continues; a cursor from
another publication or other filters is refused), at most ``sections_per_page`` headings per page
(``sections_total`` tells how many there are). Headings and titles are fetched text, so the map
is ``untrusted`` too. An unknown library raises ``UnknownLibrary`` listing the known ones.

``read_page_resource(catalog, page_id, *, offset=0, limit=RESOURCE_READ_LIMIT)`` and
``read_chunk_resource(...)`` serve the MCP resources ``docorbit://pages/{id}`` and
``docorbit://chunks/{id}``: the page's Markdown (or the chunk's text) from byte ``offset``, at most
``limit`` UTF-8 bytes cut at a character boundary, with provenance, ``untrusted: true``,
``total_bytes``, ``truncated`` and ``next_offset``.

Every read takes the ``publish_id`` from the index file it reads (``index_meta``), on the same
cursor as the data, so a result never mixes two publications.

SQL lives in ``sql/reader_*.sql`` with named parameters only.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from docorbit_serve.cursors import decode_cursor, encode_cursor
from docorbit_serve.errors import InputError, NotFound, UnknownLibrary
from docorbit_serve.tokens import count_tokens, truncate_to_tokens

__all__ = [
    "MAP_MAX_PAGES",
    "MAX_TOKENS_LIMIT",
    "MODES",
    "RESOURCE_READ_LIMIT",
    "documentation_map",
    "get_doc",
    "list_sources",
    "read_chunk_resource",
    "read_page_resource",
]

MODES = ("chunk", "section", "page")
MAX_TOKENS_LIMIT = 20000
_MAX_PAGE_CHUNKS = 5000
_SEP = "\n\n"


@cache
def _sql(name: str) -> str:
    """Text of ``sql/<name>.sql`` (the wheel ships the folder as ``docorbit_serve/_sql``)."""
    packaged = resources.files("docorbit_serve") / "_sql" / f"{name}.sql"
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parents[1] / "sql" / f"{name}.sql").read_text(encoding="utf-8")


def _rows(cur: Any, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    cur.execute(_sql(name), params)
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


_encode_cursor = encode_cursor


def _decode_cursor(cursor: str) -> dict[str, Any]:
    return decode_cursor(
        cursor,
        "invalid cursor: pass back the next_cursor of the previous get_doc result unchanged, "
        "or call get_doc without cursor",
        fields=("o", "id"),
    )


def _publish_id(cur: Any) -> str:
    """The publication of the index this cursor reads (same file as the data, never mixed)."""
    rows = _rows(cur, "reader_index_publish_id", {})
    return str(rows[0]["value"]) if rows else ""


def _text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _window(text: str, offset: int, max_tokens: int) -> str:
    """The longest prefix of ``text[offset:]`` within ``max_tokens``, preferring a line break."""
    rest = text[offset : offset + max_tokens * 16]
    if count_tokens(rest) <= max_tokens and offset + len(rest) >= len(text):
        return rest
    part = truncate_to_tokens(rest, max_tokens)
    while part and not rest.startswith(part):  # a cut inside a multi-byte token decodes to U+FFFD
        part = part[:-1]
    cut = part.rfind("\n")
    if cut >= len(part) // 2:
        part = part[: cut + 1]
    while part and count_tokens(part) > max_tokens:
        part = part[: max(1, len(part) - 16)] if len(part) > 16 else part[:-1]
    if not part and rest:  # always make progress, even with a tiny budget
        part = rest[0]
    return part


def _neighbour(row: dict[str, Any] | None) -> dict[str, Any] | None:
    if not row:
        return None
    return {
        "chunk_id": row.get("id", ""),
        "heading": row.get("heading", "") or "",
        "anchor": row.get("anchor", "") or "",
    }


_TEXT_KEYS = frozenset(("type", "severity", "evidence", "location"))
"""The text fields of an annotation row; its integer places (start, end, near, line) stay
integers or null."""


def _annotations(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for r in rows:
        for a in r.get("security_annotations") or ():
            a = {k: ("" if v is None and k in _TEXT_KEYS else v) for k, v in dict(a).items()}
            seen.setdefault(json.dumps(a, sort_keys=True), a)
    return [seen[k] for k in sorted(seen)]


def _check_args(mode: str, max_tokens: int) -> None:
    if mode not in MODES:
        raise InputError(
            f"unknown mode {mode!r}; use one of {', '.join(MODES)}", detail={"mode": mode}
        )
    if not 1 <= int(max_tokens) <= MAX_TOKENS_LIMIT:
        raise InputError(
            f"max_tokens must be between 1 and {MAX_TOKENS_LIMIT}",
            detail={"max_tokens": max_tokens},
        )


def _find_chunk(cur: Any, chunk_id: str) -> dict[str, Any]:
    rows = _rows(cur, "reader_chunk", {"chunk_id": chunk_id})
    if not rows:
        raise NotFound(
            f"no chunk {chunk_id!r} in the published snapshot; take chunk ids from a fresh "
            "search_docs / `docorbit search` result (ids change only when a heading moves)",
            detail={"chunk_id": chunk_id},
        )
    return rows[0]


def _page_chunks(cur: Any, page_id: str) -> list[dict[str, Any]]:
    return _rows(cur, "reader_page_chunks", {"page_id": page_id, "max_rows": _MAX_PAGE_CHUNKS})


def _select(
    cur: Any, mode: str, root_id: str
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """(the chunk or page the call names, the chunks to assemble, neighbours)."""
    if mode == "page":
        if not root_id.startswith("p_"):  # a chunk id: read the page it belongs to
            root_id = str(_find_chunk(cur, root_id).get("page_id", ""))
        pages = _rows(cur, "reader_page", {"page_id": root_id})
        if not pages:
            raise NotFound(
                f"no page {root_id!r} in the published snapshot; take page ids from a get_doc "
                "result (page_id) or use a chunk id with mode='page'",
                detail={"page_id": root_id},
            )
        page = pages[0]
        return page, _page_chunks(cur, root_id), {}
    chunk = _find_chunk(cur, root_id)
    siblings = _page_chunks(cur, chunk.get("page_id", ""))
    by_id = {r["id"]: r for r in siblings}
    start = next((i for i, r in enumerate(siblings) if r["id"] == root_id), None)
    if start is None:  # page cap reached; serve the chunk alone
        siblings, start = [chunk], 0
    end = start + 1
    if mode == "section":
        level = int(chunk.get("level") or 0)

        def same_section(r: dict[str, Any]) -> bool:  # parts of a split section
            return r.get("anchor") == chunk.get("anchor") and int(r.get("level") or 0) == level

        while start > 0 and same_section(siblings[start - 1]):
            start -= 1
        while end < len(siblings) and (
            same_section(siblings[end])
            or (level > 0 and int(siblings[end].get("level") or 0) > level)
        ):
            end += 1
    parts = siblings[start:end]
    neighbours = {
        "prev": _neighbour(by_id.get(parts[0].get("prev_id") or "")),
        "next": _neighbour(by_id.get(parts[-1].get("next_id") or "")),
        "parent": _neighbour(by_id.get(chunk.get("parent_id") or "")),
    }
    if mode == "section":
        # the chunk after the section is the first one past its subsections
        neighbours["next"] = _neighbour(siblings[end] if end < len(siblings) else None)
    return chunk, parts, neighbours


def get_doc(
    catalog: Any,
    *,
    chunk_id: str | None = None,
    page_id: str | None = None,
    mode: str = "chunk",
    max_tokens: int = 2000,
    cursor: str | None = None,
) -> dict[str, Any]:
    """One chunk, section or page of the published snapshot, at most ``max_tokens`` long."""
    if chunk_id and chunk_id.startswith("p_") and not page_id:
        chunk_id, page_id = None, chunk_id
    if page_id:
        mode = "page"
    _check_args(mode, max_tokens)
    state = _decode_cursor(cursor) if cursor else None
    root_id = page_id or chunk_id
    if state is not None:
        if root_id and root_id != state["id"]:
            raise InputError(
                "this cursor continues another document; drop the id or the cursor",
                detail={"id": root_id, "cursor_id": state["id"]},
            )
        root_id, mode = str(state["id"]), str(state.get("m", mode))
        _check_args(mode, max_tokens)
    if not root_id:
        raise InputError("pass a chunk_id (from a search result), a page_id, or a cursor")

    manifest = catalog.manifest()
    cur = catalog.cursor()
    try:
        root, parts, neighbours = _select(cur, mode, root_id)
        publish_id = _publish_id(cur) or manifest.get("publish_id", "")
    finally:
        cur.close()

    text = _SEP.join(str(p.get("text") or "") for p in parts)
    offset = int(state["o"]) if state else 0
    if state is not None and (state.get("h") != _text_hash(text) or offset > len(text)):
        raise InputError(
            "the document changed since this cursor was issued (a new snapshot was published); "
            "call get_doc again without cursor",
            detail={"id": root_id},
        )
    content = _window(text, offset, int(max_tokens))
    end = offset + len(content)
    more = end < len(text)
    next_cursor = (
        _encode_cursor({"v": 1, "id": root_id, "m": mode, "o": end, "h": _text_hash(text)})
        if more
        else None
    )

    # the chunks the returned window overlaps, in order
    shown, pos = [], 0
    for p in parts:
        n = len(str(p.get("text") or ""))
        if pos < end and pos + n > offset:
            shown.append(p)
        pos += n + len(_SEP)
    shown = shown or parts[:1]

    source = str(root.get("source", ""))
    src_meta = (manifest.get("sources") or {}).get(source, {})
    first = parts[0] if parts else root
    is_page = mode == "page"
    return {
        "mode": mode,
        "chunk_id": "" if is_page else root.get("id", ""),
        "page_id": root.get("id", "") if is_page else root.get("page_id", ""),
        "source": source,
        "library": root.get("library", ""),
        "version": root.get("version", "") or "",
        "url": root.get("url", ""),
        "path": root.get("path", ""),
        "title": root.get("title", ""),
        "heading": "" if is_page else (root.get("heading", "") or ""),
        "anchor": "" if is_page else (root.get("anchor", "") or ""),
        "breadcrumb": [] if is_page else list(root.get("breadcrumb") or []),
        "snapshot": root.get("snapshot") or src_meta.get("snapshot", ""),
        "publish_id": publish_id,
        "fetched_at": root.get("fetched_at") or first.get("fetched_at", "") or "",
        "content_hash": root.get("content_hash", "") or "",
        "untrusted": True,
        "security_annotations": _annotations([root, *shown]),
        "content": content,
        "tokens": count_tokens(content),
        "max_tokens": int(max_tokens),
        "offset": offset,
        "total_chars": len(text),
        "truncated": more,
        "next_cursor": next_cursor,
        "chunks": [
            {
                "chunk_id": p.get("id", ""),
                "heading": p.get("heading", "") or "",
                "anchor": p.get("anchor", "") or "",
                "url": p.get("url", ""),
            }
            for p in shown
        ],
        "neighbours": neighbours,
    }


def list_sources(catalog: Any) -> list[dict[str, Any]]:
    """The published sources with their snapshot and page/chunk counts, sorted by name."""
    manifest = catalog.manifest()
    cur = catalog.cursor()
    try:
        counts = _rows(cur, "reader_source_counts", {"max_rows": 100000})
    finally:
        cur.close()
    n: dict[tuple[str, str], int] = {(r["tbl"], r["source"]): int(r["n"]) for r in counts}
    out = []
    for name, s in sorted((manifest.get("sources") or {}).items()):
        out.append(
            {
                "name": name,
                "library": s.get("library", ""),
                "version": s.get("version", "") or "",
                "kind": s.get("kind", ""),
                "location": s.get("location", ""),
                "snapshot": s.get("snapshot", ""),
                "created_at": s.get("created_at", ""),
                "pages": n.get(("pages", name), 0),
                "chunks": n.get(("chunks", name), 0),
            }
        )
    return out


# --------------------------------------------------------------------------- documentation map

MAP_MAX_PAGES = 200
_MAP_MAX_SECTIONS = 200


def _check_library(cur: Any, library: str | None, version: str | None) -> None:
    if library is None and version is None:
        return
    known = {
        str(lib): [str(v) for v in vers]
        for lib, vers in cur.execute(_sql("search_libraries")).fetchall()
    }
    if library is not None and library not in known:
        raise UnknownLibrary(
            f"library {library!r} is not in the published index; known libraries: "
            + (", ".join(sorted(known)) or "(none)")
            + " (see list_sources)",
            detail={"library": library, "known": sorted(known)},
        )
    versions = (
        known[library] if library is not None else sorted({v for vs in known.values() for v in vs})
    )
    if version is not None and version not in versions:
        raise NotFound(
            f"version {version!r} is not published"
            + (f" for {library!r}" if library else "")
            + "; known versions: "
            + (", ".join(repr(v) for v in versions) or "(none)"),
            detail={"library": library, "version": version, "known": versions},
        )


def documentation_map(
    catalog: Any,
    *,
    library: str | None = None,
    version: str | None = None,
    source: str | None = None,
    max_pages: int = 50,
    sections_per_page: int = 40,
    cursor: str | None = None,
) -> dict[str, Any]:
    """Sources → pages → sections outline of the published docs, bounded and paginated."""
    if not 1 <= int(max_pages) <= MAP_MAX_PAGES:
        raise InputError(
            f"max_pages must be between 1 and {MAP_MAX_PAGES}", detail={"max_pages": max_pages}
        )
    if not 0 <= int(sections_per_page) <= _MAP_MAX_SECTIONS:
        raise InputError(
            f"sections_per_page must be between 0 and {_MAP_MAX_SECTIONS}",
            detail={"sections_per_page": sections_per_page},
        )
    filters = [library, version, source]
    manifest = catalog.manifest()
    cur = catalog.cursor()
    try:
        publish_id = _publish_id(cur) or str(manifest.get("publish_id", ""))
        offset = 0
        if cursor:
            state = _decode_cursor(cursor)
            if state.get("id") != "map" or state.get("f") != filters:
                raise InputError(
                    "this cursor belongs to another map request; repeat that request or drop the cursor",
                    detail={"cursor": cursor[:200]},
                )
            if state.get("u") != publish_id:
                raise InputError(
                    "a new snapshot was published since this cursor was issued; call again without cursor",
                    detail={"cursor": cursor[:200]},
                )
            offset = int(state["o"])
        _check_library(cur, library, version)
        if source is not None and source not in (manifest.get("sources") or {}):
            raise NotFound(
                f"no published source {source!r}; known: "
                + ", ".join(sorted(manifest.get("sources") or {})),
                detail={"source": source},
            )
        pages = _rows(
            cur,
            "reader_map_pages",
            {
                "library": library,
                "version": version,
                "source": source,
                "max_rows": int(max_pages),
                "offset": offset,
            },
        )
        sections = (
            _rows(
                cur,
                "reader_map_sections",
                {"page_ids": [p["id"] for p in pages], "max_rows": len(pages) * _MAX_PAGE_CHUNKS},
            )
            if pages
            else []
        )
        counts = _rows(cur, "reader_source_counts", {"max_rows": 100000})
    finally:
        cur.close()
    total = int(pages[0]["total"]) if pages else 0
    by_page: dict[str, list[dict[str, Any]]] = {}
    for r in sections:
        outline = by_page.setdefault(str(r["page_id"]), [])
        if (
            outline
            and outline[-1]["anchor"] == (r.get("anchor") or "")
            and outline[-1]["level"] == int(r.get("level") or 0)
        ):
            outline[-1]["tokens"] += int(r.get("tokens") or 0)  # a long section split into parts
            continue
        outline.append(
            {
                "chunk_id": str(r["id"]),
                "heading": str(r.get("heading") or ""),
                "anchor": str(r.get("anchor") or ""),
                "level": int(r.get("level") or 0),
                "tokens": int(r.get("tokens") or 0),
            }
        )
    n_pages = {str(r["source"]): int(r["n"]) for r in counts if r["tbl"] == "pages"}
    src_out: dict[str, dict[str, Any]] = {}
    for p in pages:
        name = str(p["source"])
        meta = (manifest.get("sources") or {}).get(name, {})
        entry = src_out.setdefault(
            name,
            {
                "name": name,
                "library": str(p.get("library") or ""),
                "version": str(p.get("version") or ""),
                "snapshot": str(meta.get("snapshot", "")),
                "pages_total": n_pages.get(name, 0),
                "pages": [],
            },
        )
        outline = by_page.get(str(p["id"]), [])
        entry["pages"].append(
            {
                "page_id": str(p["id"]),
                "path": str(p.get("path") or ""),
                "title": str(p.get("title") or ""),
                "url": str(p.get("url") or ""),
                "sections_total": len(outline),
                "sections": outline[: int(sections_per_page)],
            }
        )
    end = offset + len(pages)
    more = end < total
    return {
        "publish_id": publish_id,
        "untrusted": True,
        "offset": offset,
        "pages_total": total,
        "truncated": more,
        "next_cursor": _encode_cursor(
            {"v": 1, "id": "map", "o": end, "f": filters, "u": publish_id}
        )
        if more
        else None,
        "sources": [src_out[k] for k in sorted(src_out)],
    }


# --------------------------------------------------------------------------- resources

RESOURCE_READ_LIMIT = 64 * 1024


def _byte_window(text: str, offset: int, limit: int) -> tuple[str, int, int]:
    """(text of at most ``limit`` UTF-8 bytes from byte ``offset``, next offset, total bytes)."""
    data = text.encode("utf-8")
    if offset < 0 or offset > len(data):
        raise InputError(
            f"offset {offset} is outside the document (0..{len(data)})", detail={"offset": offset}
        )
    while offset < len(data) and (data[offset] & 0xC0) == 0x80:  # never start inside a character
        offset += 1
    end = min(len(data), offset + max(1, int(limit)))
    while end < len(data) and (data[end] & 0xC0) == 0x80:  # never end inside a character
        end -= 1
    return data[offset:end].decode("utf-8"), end, len(data)


def _resource(
    kind: str, row: dict[str, Any], text: str, offset: int, limit: int, publish_id: str
) -> dict[str, Any]:
    content, end, total = _byte_window(text, offset, limit)
    rid = str(row.get("id", ""))
    more = end < total
    return {
        "uri": f"docorbit://{kind}/{rid}" + (f"?offset={offset}" if offset else ""),
        "id": rid,
        "kind": kind[:-1],
        "source": str(row.get("source") or ""),
        "library": str(row.get("library") or ""),
        "version": str(row.get("version") or ""),
        "url": str(row.get("url") or ""),
        "path": str(row.get("path") or ""),
        "title": str(row.get("title") or ""),
        "heading": str(row.get("heading") or ""),
        "snapshot": str(row.get("snapshot") or ""),
        "publish_id": publish_id,
        "fetched_at": str(row.get("fetched_at") or ""),
        "content_hash": str(row.get("content_hash") or ""),
        "untrusted": True,
        "security_annotations": _annotations([row]),
        "offset": offset,
        "total_bytes": total,
        "truncated": more,
        "next_offset": end if more else None,
        "next_uri": f"docorbit://{kind}/{rid}?offset={end}" if more else None,
        "content": content,
    }


def read_page_resource(
    catalog: Any, page_id: str, *, offset: int = 0, limit: int = RESOURCE_READ_LIMIT
) -> dict[str, Any]:
    """The page's Markdown from byte ``offset`` (at most ``limit`` bytes), with provenance."""
    cur = catalog.cursor()
    try:
        rows = _rows(cur, "reader_page_markdown", {"page_id": page_id})
        publish_id = _publish_id(cur)
    finally:
        cur.close()
    if not rows:
        raise NotFound(
            f"no page {page_id!r} in the published snapshot; take page ids from get_documentation_map",
            detail={"page_id": page_id},
        )
    return _resource(
        "pages", rows[0], str(rows[0].get("markdown") or ""), int(offset), limit, publish_id
    )


def read_chunk_resource(
    catalog: Any, chunk_id: str, *, offset: int = 0, limit: int = RESOURCE_READ_LIMIT
) -> dict[str, Any]:
    """The chunk's text from byte ``offset`` (at most ``limit`` bytes), with provenance."""
    cur = catalog.cursor()
    try:
        row = _find_chunk(cur, chunk_id)
        publish_id = _publish_id(cur)
    finally:
        cur.close()
    return _resource("chunks", row, str(row.get("text") or ""), int(offset), limit, publish_id)
