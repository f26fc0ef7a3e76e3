"""The API part of an implementation-context pack (``context.pack_context``).

Contract::

    api_context(catalog, task, *, room, library=None, version=None) -> ContextApi | None

- Candidates: the endpoint contracts ``find_api`` ranks for the task, and the pitfalls and
  examples of the sections search finds for it (``sql/api_chunk_knowledge.sql``: rows of the
  top ``SECTIONS`` chunks, so the cost does not grow with the corpus).
- Only evidence that covers the task is packed: an endpoint whose own text holds at least
  ``recipe.PARTIAL`` of the task's terms; pitfalls of the sections that do; examples of the
  packed endpoints' own sections (their code samples), or of the covering sections when no
  endpoint is packed.
- Each item is one block (a provenance header line, then the text) and blocks are added in
  order — endpoints (at most ``MAX_ENDPOINTS``), pitfalls (``MAX_PITFALLS``), examples
  (``MAX_EXAMPLES``) — while ``count_tokens`` of the joined text stays within ``room``
  (never over). ``None`` when nothing qualifies or fits, or when the lookup fails (the API
  part is an addition: it never makes a context request fail).
- Every block is fetched text: ``ContextApi.untrusted`` is true.
"""

from __future__ import annotations

from typing import Any

from docorbit_serve.api.endpoints import find_api, scope_rows
from docorbit_serve.api.recipe import PARTIAL, coverage
from docorbit_serve.api.scope import index_errors
from docorbit_serve.errors import DocOrbitError
from docorbit_serve.models.api import ContextApi, EndpointContract, VerificationHint
from docorbit_serve.search.analyze import terms
from docorbit_serve.search.sqlfiles import sql
from docorbit_serve.tokens import count_tokens

__all__ = ["MAX_ENDPOINTS", "MAX_EXAMPLES", "MAX_PITFALLS", "SECTIONS", "api_context"]

MAX_ENDPOINTS = 2
MAX_PITFALLS = 3
MAX_EXAMPLES = 2
SECTIONS = 8
_SEP = "\n\n"


def _hints(
    catalog: Any, library: str | None, version: str | None, packed: list[EndpointContract]
) -> list[VerificationHint]:
    """``verify.verification_hints`` for the packed endpoints' rows, in packing order."""
    from docorbit_serve.verify import verification_hints

    if not packed:
        return []
    cur = catalog.cursor()
    try:
        with index_errors():
            rows = {r["id"]: r for r in scope_rows(catalog, cur, library, version)}
    finally:
        cur.close()
    found = [rows[c.id] for c in packed if c.id in rows]
    return [VerificationHint.model_validate(h) for h in verification_hints(found)]


def _endpoint_block(c: EndpointContract) -> str:
    p = c.provenance
    lines = [
        f"<!-- endpoint {c.method} {c.path} · {_at(p.library, p.version)} · {p.pointer} · untrusted -->",
        f"{c.method} {c.path}" + (" (deprecated)" if c.deprecated else "")
        + (f" — {c.summary.splitlines()[0][:200]}" if c.summary else ""),
    ]  # fmt: skip
    auth = [" + ".join(f"{s.type} {s.location} {s.name}".strip() for s in alt) for alt in c.auth]
    lines.append("Auth: " + (" | ".join(a or "none" for a in auth) if auth else "none"))
    if c.servers:
        lines.append(f"Server: {c.servers[0]}")
    req = [f"{x.name} ({x.location})" for x in c.required_parameters]
    if c.request_body and c.request_body.required_fields:
        req.append("body: " + ", ".join(c.request_body.required_fields))
    if req:
        lines.append("Required: " + "; ".join(req))
    if c.responses:
        lines.append("Responses: " + ", ".join(
            f"{r.status}{' ' + r.schema_name if r.schema_name else ''}" for r in c.responses[:8]
        ))  # fmt: skip
    lines.append("Verify calls: check_api (MCP) or docorbit verify PATH")
    return "\n".join(lines)


def _at(library: str, version: str | None) -> str:
    """``library@version``, or the library alone for an unversioned source."""
    return f"{library}@{version}" if version else library


def _row_block(row: dict[str, Any]) -> str:
    where = f"{_at(row['library'], row['version'])} · {row['path']}" + (
        f"#{row['anchor']}" if row.get("anchor") else ""
    )
    if row["what"] == "pitfall":
        return f"<!-- pitfall {row['label']} · {where} · untrusted -->\n{row['body'].strip()}"
    fence = "```" + str(row.get("language") or "")
    return (
        f"<!-- example {row['label']} · {where} · untrusted -->\n"
        f"{fence}\n{row['body'].rstrip()}\n```"
    )


def _chunk_rows(
    catalog: Any,
    task: str,
    library: str | None,
    version: str | None,
    own: list[str],
    headings: list[str],
) -> list:
    """Pitfall and example rows of ``own`` chunks (the packed endpoints' sections of their
    spec page, which hold their code samples) and of the sections search finds covering it."""
    from docorbit_serve.search import search

    hits = search(catalog, task, library=library, version=version, limit=SECTIONS).hits
    tt = set(terms(task))
    ids = [c for c in own if c] + [
        h.chunk_id for h in hits if coverage(tt, f"{h.title} {h.heading} {h.content}") >= PARTIAL
    ]
    if not ids and not headings:
        return []
    cur = catalog.connection().cursor()
    try:
        res = cur.execute(
            sql("api_chunk_knowledge"), {"chunk_ids": ids, "headings": headings, "limit": 200}
        )
        cols = [d[0] for d in res.description]
        rows = [dict(zip(cols, r, strict=True)) for r in res.fetchall()]
    finally:
        cur.close()
    order = {cid: i for i, cid in enumerate(ids)}
    first = {h: i for i, h in enumerate(headings)}  # the first endpoint's samples first
    return sorted(
        rows,
        key=lambda r: (
            r["what"] != "pitfall",
            first.get(r["label"], len(first)),
            order.get(r["chunk_id"], len(order)),
        ),
    )


def api_context(
    catalog: Any, task: str, *, room: int, library: str | None = None, version: str | None = None
) -> ContextApi | None:
    """Endpoint contracts, pitfalls and examples for ``task`` within ``room`` tokens."""
    if room <= 0:
        return None
    tt = set(terms(task))
    try:
        found = find_api(catalog, task, library=library, version=version, limit=MAX_ENDPOINTS)
        endpoints = [
            c for c in found.results
            if coverage(tt, f"{c.operation_id} {c.summary} {c.path} {c.description}") >= PARTIAL
        ]  # fmt: skip
        with index_errors():
            rows = _chunk_rows(
                catalog, task, library, version,
                [c.provenance.chunk_id for c in endpoints],
                [f"{c.method} {c.path}" for c in endpoints],
            )  # fmt: skip
    except DocOrbitError:
        return None
    own = {c.provenance.chunk_id for c in endpoints if c.provenance.chunk_id}
    own |= {f"{c.method} {c.path}" for c in endpoints}
    out = ContextApi()
    blocks: list[str] = []
    candidates: list[tuple[str, Any, str]] = [
        ("endpoint", c, _endpoint_block(c)) for c in endpoints
    ]
    candidates += [(r["what"], r, _row_block(r)) for r in rows if r.get("body")]
    limits = {"endpoint": MAX_ENDPOINTS, "pitfall": MAX_PITFALLS, "example": MAX_EXAMPLES}
    for kind, obj, block in candidates:
        taken: dict[str, list[Any]] = {
            "endpoint": out.endpoints,
            "pitfall": out.pitfalls,
            "example": out.examples,
        }
        if len(taken[kind]) >= limits[kind]:
            continue
        if kind == "example" and own and not {obj["chunk_id"], obj["label"]} & own:
            continue  # with a contract packed, only its own code samples illustrate it
        if count_tokens(_SEP.join([*blocks, block])) > room:
            continue
        blocks.append(block)
        if kind == "endpoint":
            out.endpoints.append(obj)
        else:
            taken[kind].append(str(obj["id"]))
    if not blocks:
        return None
    out.verification = _hints(catalog, library, version, out.endpoints)
    out.text = _SEP.join(blocks)
    out.tokens = count_tokens(out.text)
    return out
