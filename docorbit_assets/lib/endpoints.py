"""endpoints: OpenAPI 3.0 / 3.1 and Swagger 2.0 operations → ``endpoints`` rows.

Contract (column meanings and JSON shapes: ``docs/api.md``):

- ``parse_spec(body, *, content_type="", spec_url="") -> ParsedSpec`` reads JSON or YAML alike
  (whatever the content type says; ``openapi.load_spec``, bounded) and returns one
  ``Operation`` per (path, method) of ``paths`` — path items in document order, methods in
  ``METHODS`` order — then one per OpenAPI 3.1 ``webhooks`` entry (``webhook = True``). A
  document that is not a usable spec raises ``openapi.SpecError`` (an ``InputError``, code
  ``bad_openapi``) whose ``reason`` is typed and whose ``pointer`` names the fault. Faults
  inside one operation (a part of the wrong type, a ``$ref`` that is missing, circular,
  external, too deep or over the budget) are ``SpecIssue``s in ``issues``: the rest is kept.
- Schemas are expanded by ``openapi.Resolver`` under one ``Budget`` per operation.
- Parameters: path-level merged with operation-level (the operation wins on ``name`` + ``in``);
  Swagger 2 ``body`` / ``formData`` become the request body per ``consumes`` (default
  ``application/json``); responses get one content entry per ``produces``; ``host`` /
  ``basePath`` / ``schemes`` become servers. Servers are data, never requested; only http(s)
  and relative URLs are kept.
- Security: the operation's ``security`` if present, else the document's; each requirement
  resolved against ``components.securitySchemes`` / ``securityDefinitions``.
- Pagination from evidence only (query parameter names, a ``Link`` response header).
- ``endpoint_rows(parsed, *, source, library, version, spec_url, chunk_ids, page_id)`` →
  ``ENDPOINTS`` rows (``id = stable_id("a_", source, spec_url, "webhook"|"path", METHOD,
  path)``). ``chunk_ids`` maps an operation's ``anchor`` to the chunk of its section.
- ``render_markdown(parsed) -> (markdown, anchors)``: the spec as one Markdown page, one ``##``
  section per operation (heading ``METHOD /path`` with an explicit ``{ #op-... }`` anchor,
  summary, description, parameters table, request body fields, responses, auth, the spec's own
  code samples — ``x-codeSamples`` / ``x-code-samples`` / OpenAI's ``x-oaiMeta.examples``, at
  most ``MAX_SAMPLES`` — as fenced blocks, so they become ``examples`` rows —, servers,
  pagination), so search finds operations by their description; ``anchors`` lists each
  operation's anchor in order (made unique). Spec text is data: lines that would start a
  heading are escaped and unbalanced code fences closed, so a description cannot cut the page.
- ``looks_like_spec(body, url, content_type)``: a cheap sniff (JSON object or YAML with a
  top-level ``openapi``/``swagger`` key in its first 4 KiB, else — specs written with sorted
  keys — a JSON object naming a ``"openapi": "3.…"``/``"swagger": "2.0"`` version anywhere,
  or a YAML ``openapi:``/``swagger:`` key at the document's top-level indentation; never a Markdown or HTML file).
- At most ``MAX_OPERATIONS`` operations per spec (a ``bad_structure`` issue says when more
  were dropped).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from docorbit_assets.lib.openapi import (
    MAX_BYTES,
    Budget,
    Resolver,
    SpecIssue,
    escape_pointer,
    load_spec,
)
from docorbit_serve.schemas import canonical_json, stable_id

__all__ = [
    "MAX_OPERATIONS",
    "METHODS",
    "Operation",
    "ParsedSpec",
    "endpoint_rows",
    "looks_like_spec",
    "parse_spec",
    "render_markdown",
    "MAX_SAMPLES",
]

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
MAX_OPERATIONS = 20_000
_MAX_NOTE = 500


@dataclass
class Operation:
    method: str  # upper case
    path: str
    pointer: str
    webhook: bool = False
    operation_id: str = ""
    summary: str = ""
    description: str = ""
    deprecated: bool = False
    deprecation_note: str = ""
    tags: list[str] = field(default_factory=list)
    parameters: list[dict[str, Any]] = field(default_factory=list)
    request_body: dict[str, Any] | None = None
    responses: dict[str, Any] = field(default_factory=dict)
    security: list[list[dict[str, Any]]] = field(default_factory=list)
    servers: list[str] = field(default_factory=list)
    pagination: str = ""
    code_samples: list[tuple[str, str]] = field(default_factory=list)  # (language, code)

    @property
    def heading(self) -> str:
        """The heading of the operation's section in the spec's Markdown page."""
        return (
            f"Webhook {self.method} {self.path}" if self.webhook else f"{self.method} {self.path}"
        )

    @property
    def anchor(self) -> str:
        """The section's explicit anchor (``{ #...}``) before de-duplication."""
        return "op-" + (re.sub(r"[^a-z0-9]+", "-", self.heading.lower()).strip("-") or "x")


@dataclass
class ParsedSpec:
    version: str  # the document's openapi / swagger value
    paths: int  # entries of ``paths`` (some may hold no operation)
    title: str
    description: str
    operations: list[Operation]
    issues: list[SpecIssue]
    servers: list[str]


# --- entry points ----------------------------------------------------------------------------


def parse_spec(body: bytes, *, content_type: str = "", spec_url: str = "") -> ParsedSpec:
    """Every operation and webhook of a spec (see the module docstring); ``SpecError`` if none
    can be read."""
    doc, version = load_spec(body, content_type=content_type, url=spec_url)
    res = Resolver(doc, version)
    swagger = version == "2.0"
    doc_servers = _swagger_servers(doc, doc.get("schemes"), res) if swagger else None
    if doc_servers is None:
        doc_servers = _servers(doc.get("servers"), res, "/servers")
    ops: list[Operation] = []
    for section, webhook in (("paths", False), ("webhooks", True)):
        items = doc.get(section) or {}
        for path, item in items.items():
            where = escape_pointer(section, path)
            item, _, marker = res.follow(item, where)
            if marker or not isinstance(item, dict):
                if not marker:
                    res.issue("bad_structure", where, "path item is not an object")
                continue
            for method in METHODS:
                if method not in item:
                    continue
                if len(ops) >= MAX_OPERATIONS:
                    res.issue("bad_structure", where, f"more than {MAX_OPERATIONS} operations")
                    break
                op = _operation(res, doc, item, path, method, where, webhook, doc_servers)
                if op is not None:
                    ops.append(op)
    info: dict[str, Any] = doc["info"] if isinstance(doc.get("info"), dict) else {}
    if "info" not in doc:
        res.issue("missing_info", "/info", "no 'info' object (title and version unknown)")
    if not isinstance(doc.get("paths"), dict) and not isinstance(doc.get("webhooks"), dict):
        res.issue("no_paths", "/paths", "no 'paths' (and no 'webhooks'): no operations")
    return ParsedSpec(
        version=version,
        paths=len(doc.get("paths") or {}),
        title=_text(info.get("title")),
        description=_text(info.get("description")),
        operations=ops,
        issues=res.issues,
        servers=doc_servers,
    )


def endpoint_rows(
    parsed: ParsedSpec,
    *,
    source: str,
    library: str,
    version: str,
    spec_url: str,
    page_id: str = "",
    chunk_ids: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """``ENDPOINTS`` rows of one parsed spec (not sorted; the caller sorts by id)."""
    chunk_ids = chunk_ids or {}
    rows = []
    for op, anchor in zip(parsed.operations, _unique_anchors(parsed), strict=True):
        chunk_id = chunk_ids.get(anchor, "")
        rows.append(
            {
                "id": stable_id(
                    "a_", source, spec_url, "webhook" if op.webhook else "path", op.method, op.path
                ),
                "source": source,
                "library": library,
                "version": version,
                "method": op.method,
                "path": op.path,
                "operation_id": op.operation_id,
                "summary": op.summary,
                "description": op.description,
                "deprecated": op.deprecated,
                "deprecation_note": op.deprecation_note,
                "webhook": op.webhook,
                "tags": op.tags,
                "parameters_json": canonical_json(op.parameters),
                "request_body_json": canonical_json(op.request_body),
                "responses_json": canonical_json(op.responses),
                "security_json": canonical_json(op.security),
                "servers": op.servers,
                "pagination": op.pagination,
                "spec_url": spec_url,
                "spec_version": parsed.version,
                "pointer": op.pointer,
                "page_id": page_id if chunk_id else "",
                "chunk_id": chunk_id,
            }
        )
    return rows


# --- one operation ---------------------------------------------------------------------------


def _operation(
    res: Resolver,
    doc: dict[str, Any],
    item: dict[str, Any],
    path: str,
    method: str,
    item_ptr: str,
    webhook: bool,
    doc_servers: list[str],
) -> Operation | None:
    where = item_ptr + escape_pointer(method)
    raw = item[method]
    if not isinstance(raw, dict):
        res.issue("bad_structure", where, "operation is not an object")
        return None
    budget = Budget()
    swagger = doc.get("swagger") == "2.0"
    op = Operation(method=method.upper(), path=str(path), pointer=where, webhook=webhook)
    op.operation_id = _text(raw.get("operationId"))
    op.summary = _text(raw.get("summary"))
    op.description = _text(raw.get("description"))
    op.deprecated = raw.get("deprecated") is True or raw.get("x-deprecated") is True
    op.deprecation_note = _deprecation_note(op) if op.deprecated else ""
    tags = raw.get("tags")
    op.tags = [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []
    params = _merged_parameters(res, item, raw, item_ptr, where)
    if swagger:
        _swagger_parameters(res, doc, raw, params, op, where, budget)
        op.responses = _swagger_responses(res, doc, raw, where, budget)
        servers = _swagger_servers(doc, raw.get("schemes", doc.get("schemes")), res)
        op.servers = servers if servers is not None else doc_servers
    else:
        op.parameters = [_parameter(res, p, ptr, budget) for p, ptr in params]
        op.request_body = _request_body(res, raw, where, budget)
        op.responses = _responses(res, raw, where, budget)
        own = raw.get("servers") or item.get("servers")
        op.servers = _servers(own, res, where + "/servers") if own else doc_servers
    op.security = _security(res, doc, raw, where)
    op.pagination = _pagination(op)
    op.code_samples = _code_samples(raw)
    return op


def _merged_parameters(
    res: Resolver, item: dict[str, Any], raw: dict[str, Any], item_ptr: str, where: str
) -> list[tuple[dict[str, Any], str]]:
    """Path-level then operation-level parameters, dereferenced; the operation's win."""
    merged: dict[tuple[str, str], tuple[dict[str, Any], str]] = {}
    for owner, ptr in ((item, item_ptr), (raw, where)):
        plist = owner.get("parameters")
        if plist is None:
            continue
        if not isinstance(plist, list):
            res.issue("bad_structure", ptr + "/parameters", "parameters is not a list")
            continue
        for i, p in enumerate(plist):
            pptr = f"{ptr}/parameters/{i}"
            target, _, marker = res.follow(p, pptr)
            if marker or not isinstance(target, dict):
                if not marker:
                    res.issue("bad_structure", pptr, "parameter is not an object")
                continue
            key = (_text(target.get("name")), _text(target.get("in")))
            merged[key] = (target, pptr)
    return list(merged.values())


def _parameter(res: Resolver, p: dict[str, Any], ptr: str, budget: Budget) -> dict[str, Any]:
    where = p.get("in")
    schema: Any = None
    if "schema" in p:
        schema = res.expand(p["schema"], ptr + "/schema", budget)
    elif isinstance(p.get("content"), dict):  # 3.x: a parameter described by a media type
        for media in p["content"].values():
            if isinstance(media, dict) and "schema" in media:
                schema = res.expand(media["schema"], ptr + "/content", budget)
                break
    else:  # Swagger 2 non-body parameter: the type keys sit on the parameter itself
        keys = {k: v for k, v in p.items() if k not in _PARAM_META and not k.startswith("x-")}
        schema = res.expand(keys, ptr, budget) if keys else None
    return {
        "name": _text(p.get("name")),
        "in": _text(where),
        "required": where == "path" or p.get("required") is True,
        "description": _text(p.get("description")),
        "schema": schema,
        "deprecated": p.get("deprecated") is True,
    }


_PARAM_META = ("name", "in", "required", "description", "deprecated", "allowEmptyValue")


def _request_body(
    res: Resolver, raw: dict[str, Any], where: str, budget: Budget
) -> dict[str, Any] | None:
    if "requestBody" not in raw:
        return None
    ptr = where + "/requestBody"
    body, _, marker = res.follow(raw["requestBody"], ptr)
    if marker:
        return {"required": False, "description": "", "content": {}, **marker}
    if not isinstance(body, dict):
        res.issue("bad_structure", ptr, "requestBody is not an object")
        return None
    return {
        "required": body.get("required") is True,
        "description": _text(body.get("description")),
        "content": _content(res, body.get("content"), ptr + "/content", budget),
    }


def _content(res: Resolver, content: Any, ptr: str, budget: Budget) -> dict[str, Any]:
    if content is None:
        return {}
    if not isinstance(content, dict):
        res.issue("bad_structure", ptr, "content is not an object")
        return {}
    out: dict[str, Any] = {}
    for mt, media in content.items():
        mptr = ptr + escape_pointer(mt)
        schema = None
        if isinstance(media, dict) and "schema" in media:
            schema = res.expand(media["schema"], mptr + "/schema", budget)
        out[mt] = {"schema": schema}
    return out


def _responses(res: Resolver, raw: dict[str, Any], where: str, budget: Budget) -> dict[str, Any]:
    responses = raw.get("responses")
    if responses is None:
        return {}
    ptr = where + "/responses"
    if not isinstance(responses, dict):
        res.issue("bad_structure", ptr, "responses is not an object")
        return {}
    out: dict[str, Any] = {}
    for status, resp in responses.items():
        rptr = ptr + escape_pointer(status)
        target, _, marker = res.follow(resp, rptr)
        if marker or not isinstance(target, dict):
            if not marker:
                res.issue("bad_structure", rptr, "response is not an object")
            out[status] = {"description": "", "content": {}, "headers": {}, **marker}
            continue
        out[status] = {
            "description": _text(target.get("description")),
            "content": _content(res, target.get("content"), rptr + "/content", budget),
            "headers": _headers(res, target.get("headers"), rptr + "/headers", budget),
        }
    return out


def _headers(res: Resolver, headers: Any, ptr: str, budget: Budget) -> dict[str, Any]:
    if not isinstance(headers, dict):
        return {}
    out: dict[str, Any] = {}
    for name, h in headers.items():
        hptr = ptr + escape_pointer(name)
        target, _, marker = res.follow(h, hptr)
        if marker or not isinstance(target, dict):
            out[name] = {"description": "", "schema": None, **marker}
            continue
        if "schema" in target:
            schema = res.expand(target["schema"], hptr + "/schema", budget)
        else:  # Swagger 2: type keys on the header itself
            keys = {k: v for k, v in target.items() if k != "description"}
            schema = res.expand(keys, hptr, budget) if keys else None
        out[name] = {"description": _text(target.get("description")), "schema": schema}
    return out


# --- Swagger 2 -------------------------------------------------------------------------------


def _media_types(doc: dict[str, Any], raw: dict[str, Any], key: str) -> list[str]:
    value = raw.get(key, doc.get(key))
    types = [t for t in value if isinstance(t, str)] if isinstance(value, list) else []
    return types or ["application/json"]


def _swagger_parameters(
    res: Resolver,
    doc: dict[str, Any],
    raw: dict[str, Any],
    params: list[tuple[dict[str, Any], str]],
    op: Operation,
    where: str,
    budget: Budget,
) -> None:
    form: list[tuple[dict[str, Any], str]] = []
    for p, ptr in params:
        if p.get("in") == "body":
            schema = res.expand(p.get("schema"), ptr + "/schema", budget)
            op.request_body = {
                "required": p.get("required") is True,
                "description": _text(p.get("description")),
                "content": {mt: {"schema": schema} for mt in _media_types(doc, raw, "consumes")},
            }
        elif p.get("in") == "formData":
            form.append((p, ptr))
        else:
            op.parameters.append(_parameter(res, p, ptr, budget))
    if form:
        props: dict[str, Any] = {}
        required = []
        for p, ptr in form:
            props[_text(p.get("name"))] = _parameter(res, p, ptr, budget)["schema"] or {}
            if p.get("required") is True:
                required.append(_text(p.get("name")))
        consumes = _media_types(doc, raw, "consumes")
        is_file = any(p.get("type") == "file" for p, _ in form)
        mt = (
            "multipart/form-data"
            if is_file or "multipart/form-data" in consumes
            else "application/x-www-form-urlencoded"
        )
        schema = {"type": "object", "properties": props, "required": required}
        op.request_body = {
            "required": bool(required),
            "description": "",
            "content": {mt: {"schema": schema}},
        }


def _swagger_responses(
    res: Resolver, doc: dict[str, Any], raw: dict[str, Any], where: str, budget: Budget
) -> dict[str, Any]:
    responses = raw.get("responses")
    ptr = where + "/responses"
    if not isinstance(responses, dict):
        if responses is not None:
            res.issue("bad_structure", ptr, "responses is not an object")
        return {}
    produces = _media_types(doc, raw, "produces")
    out: dict[str, Any] = {}
    for status, resp in responses.items():
        rptr = ptr + escape_pointer(status)
        target, _, marker = res.follow(resp, rptr)
        if marker or not isinstance(target, dict):
            out[status] = {"description": "", "content": {}, "headers": {}, **marker}
            continue
        content = {}
        if "schema" in target:
            schema = res.expand(target["schema"], rptr + "/schema", budget)
            content = {mt: {"schema": schema} for mt in produces}
        out[status] = {
            "description": _text(target.get("description")),
            "content": content,
            "headers": _headers(res, target.get("headers"), rptr + "/headers", budget),
        }
    return out


def _swagger_servers(doc: dict[str, Any], schemes: Any, res: Resolver) -> list[str] | None:
    host = doc.get("host")
    base: str = doc["basePath"] if isinstance(doc.get("basePath"), str) else ""
    if not isinstance(host, str) or not host:
        return [base] if base.startswith("/") else None
    names = [s for s in schemes if isinstance(s, str)] if isinstance(schemes, list) else []
    out = []
    for s in names or ["https"]:
        if s.lower() in ("http", "https", "ws", "wss"):
            out.append(f"{s.lower()}://{host}{base}")
        else:
            res.issue("bad_server", "/schemes", f"scheme {s!r} is not http(s); dropped")
    return out


# --- servers, security, pagination -----------------------------------------------------------

_SERVER_OK = re.compile(r"^(?:https?://|wss?://|/|\{[^}]+\}://|[\w.-]+\.[a-z]{2,}(?::\d+)?/)", re.I)


def _servers(value: Any, res: Resolver, ptr: str) -> list[str]:
    if not isinstance(value, list):
        return []
    out = []
    for i, s in enumerate(value):
        url = s.get("url") if isinstance(s, dict) else None
        if not isinstance(url, str):
            continue
        if _SERVER_OK.match(url) and not url.startswith("//"):
            out.append(url[:500])
        else:
            res.issue("bad_server", f"{ptr}/{i}/url", f"server URL {url[:80]!r} dropped")
    return out


_FLOW_NAMES = {"application": "clientCredentials", "accessCode": "authorizationCode"}


def _security(
    res: Resolver, doc: dict[str, Any], raw: dict[str, Any], where: str
) -> list[list[dict[str, Any]]]:
    reqs = raw["security"] if "security" in raw else doc.get("security")
    if not isinstance(reqs, list):
        return []
    comps = doc.get("components")
    schemes: Any = (
        doc.get("securityDefinitions")
        if doc.get("swagger") == "2.0"
        else comps.get("securitySchemes")
        if isinstance(comps, dict)
        else None
    )
    schemes = schemes if isinstance(schemes, dict) else {}
    out = []
    for req in reqs:
        if not isinstance(req, dict):
            continue
        alt = []
        for name, scopes in sorted(req.items()):
            scheme, _, _ = res.follow(schemes.get(name), where + "/security")
            alt.append(_scheme(name, scheme, scopes))
        out.append(alt)
    return out


def _scheme(name: str, s: Any, scopes: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "scheme": name,
        "type": "unknown",
        "in": "",
        "name": "",
        "scopes": [x for x in scopes if isinstance(x, str)] if isinstance(scopes, list) else [],
        "flows": {},
        "description": "",
    }
    if not isinstance(s, dict):
        return out
    kind = _text(s.get("type"))
    out["description"] = _text(s.get("description"))
    if kind == "http":
        sch = _text(s.get("scheme")).lower()
        out.update(type=f"http_{sch or 'unknown'}", **{"in": "header", "name": "Authorization"})
        if s.get("bearerFormat"):
            out["bearer_format"] = _text(s.get("bearerFormat"))
    elif kind == "basic":
        out.update(type="http_basic", **{"in": "header", "name": "Authorization"})
    elif kind == "apiKey":
        out.update(type="api_key", **{"in": _text(s.get("in")), "name": _text(s.get("name"))})
    elif kind == "oauth2":
        out["type"] = "oauth2"
        out["flows"] = _flows(s)
    elif kind == "openIdConnect":
        out["type"] = "openid_connect"
        out["openid_connect_url"] = _text(s.get("openIdConnectUrl"))
    elif kind == "mutualTLS":
        out["type"] = "mutual_tls"
    return out


def _flows(s: dict[str, Any]) -> dict[str, Any]:
    if isinstance(s.get("flows"), dict):  # OpenAPI 3
        flows = {k: v for k, v in s["flows"].items() if isinstance(v, dict)}
    elif isinstance(s.get("flow"), str):  # Swagger 2
        flows = {_FLOW_NAMES.get(s["flow"], s["flow"]): s}
    else:
        flows = {}
    out = {}
    for name, f in flows.items():
        scopes: dict[str, Any] = f["scopes"] if isinstance(f.get("scopes"), dict) else {}
        out[name] = {
            "authorizationUrl": _text(f.get("authorizationUrl")),
            "tokenUrl": _text(f.get("tokenUrl")),
            "refreshUrl": _text(f.get("refreshUrl")),
            "scopes": {str(k): _text(v) for k, v in scopes.items()},
        }
    return out


_CURSOR = {
    "cursor",
    "after",
    "before",
    "starting_after",
    "ending_before",
    "page_token",
    "pagetoken",
    "next_token",
    "nexttoken",
    "continuation_token",
    "next",
    "next_cursor",
    "page_after",
}
_PAGE_SIZE = {"per_page", "page_size", "pagesize", "limit", "count"}


def _pagination(op: Operation) -> str:
    query = {p["name"].lower() for p in op.parameters if p["in"] == "query"}
    if query & _CURSOR:
        return "cursor"
    headers = {h.lower() for r in op.responses.values() for h in (r.get("headers") or {})}
    if "link" in headers:
        return "link_header"
    if "offset" in query:
        return "offset"
    if query & {"page", "page_number", "pagenumber"}:
        return "page"
    return ""


# --- code samples (vendor extensions) -------------------------------------------------------

MAX_SAMPLES = 6
_MAX_SAMPLE = 4000
_SAMPLE_LANGS = {"node.js": "javascript", "node": "javascript", "curl": "bash", "shell": "bash"}


def _sample_lang(name: Any) -> str:
    lang = _text(name).strip().lower()
    lang = _SAMPLE_LANGS.get(lang, lang)
    return lang if re.fullmatch(r"[\w+#.-]{1,20}", lang) else ""


def _code_samples(raw: dict[str, Any]) -> list[tuple[str, str]]:
    """Request examples a spec carries per operation: ``x-codeSamples`` / ``x-code-samples``
    (``[{lang, source}]``) and OpenAI's ``x-oaiMeta.examples`` (``{lang: code}`` or
    ``[{request: {lang: code}}]``); at most ``MAX_SAMPLES``, each capped."""
    found: list[tuple[str, str]] = []
    for key in ("x-codeSamples", "x-code-samples"):
        for sample in raw.get(key) or [] if isinstance(raw.get(key), list) else []:
            if isinstance(sample, dict) and isinstance(sample.get("source"), str):
                found.append((_sample_lang(sample.get("lang")), sample["source"]))
    meta = raw.get("x-oaiMeta")
    examples = meta.get("examples") if isinstance(meta, dict) else None
    items = examples if isinstance(examples, list) else [examples] if examples else []
    for item in items:
        if not isinstance(item, dict):
            continue
        request: dict[str, Any] = item["request"] if isinstance(item.get("request"), dict) else item
        for lang, code in request.items():
            if isinstance(code, str) and lang not in ("response", "title"):
                found.append((_sample_lang(lang), code))
    seen: set[tuple[str, str]] = set()
    out: list[tuple[str, str]] = []
    for lang, code in found:
        code = code.strip("\n")
        if code and (lang, code) not in seen and len(out) < MAX_SAMPLES:
            seen.add((lang, code))
            out.append((lang, code if len(code) <= _MAX_SAMPLE else code[:_MAX_SAMPLE] + "\n…"))
    return out


# --- text ------------------------------------------------------------------------------------

_NOTE = re.compile(
    r"deprecat|instead|replaced\s+by|in\s+favou?r\s+of|superseded|use\s+`|migrate|legacy", re.I
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\[*])")


def _deprecation_note(op: Operation) -> str:
    for text in (op.description, op.summary):
        for sentence in _SENTENCE.split(" ".join(text.split())):
            if _NOTE.search(sentence):
                s = sentence.strip()
                return s if len(s) <= _MAX_NOTE else s[: _MAX_NOTE - 1] + "…"
    return ""


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


# --- sniffing --------------------------------------------------------------------------------

_SNIFF_JSON = re.compile(r'^\s*\{.*?"(?:openapi|swagger)"\s*:', re.S)
_SNIFF_YAML = re.compile(r"^[\"']?(?:openapi|swagger)[\"']?\s*:", re.M)
# A JSON spec written with sorted keys names its version deep in the file (Twilio: line 7,163;
# Slack: line 27,439): past the head, only a version-valued key counts.
_SNIFF_JSON_OBJECT = re.compile(rb"^\s*\{")
_SNIFF_JSON_VERSION = re.compile(rb'"(?:openapi"\s*:\s*"3\.|swagger"\s*:\s*"2\.0")')
_YAML_KEY_LINE = re.compile(rb"^([ ]*)[\"']?[A-Za-z_][\w.-]*[\"']?[ \t]*:")
_NOT_SPEC_SUFFIXES = (".md", ".mdx", ".markdown", ".html", ".htm", ".txt", ".rst")


def looks_like_spec(body: bytes, url: str = "", content_type: str = "") -> bool:
    """Is ``body`` worth parsing as a spec? (see the module docstring)"""
    path = url.split("?", 1)[0].split("#", 1)[0].lower()
    if path.endswith(_NOT_SPEC_SUFFIXES) or "html" in content_type.lower():
        return False
    head = body[:4096].decode("utf-8", "replace").lstrip("\ufeff")
    if _SNIFF_JSON.match(head) or _SNIFF_YAML.search(head):
        return True
    rest = body[:MAX_BYTES].lstrip(b"\xef\xbb\xbf")
    if _SNIFF_JSON_OBJECT.match(rest):
        return _SNIFF_JSON_VERSION.search(rest) is not None
    indent = _yaml_top_indent(rest[:4096])
    if indent is None:
        return False
    key = rb"^" + re.escape(indent) + rb"[\"']?(?:openapi|swagger)[\"']?[ \t]*:"
    return re.search(key, rest, re.M) is not None


def _yaml_top_indent(head: bytes) -> bytes | None:
    """The indentation of a YAML document's top-level keys: that of its first key line (some
    specs indent the whole document under ``---``); None when no key line starts it."""
    for line in head.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(b"#") or stripped in (b"---", b"%YAML 1.2"):
            continue
        m = _YAML_KEY_LINE.match(line)
        return m.group(1) if m else None
    return None


# --- Markdown rendering ----------------------------------------------------------------------

_MAX_FIELDS = 40
_MAX_DESC = 4000
_HEADING_LINE = re.compile(r"^( {0,3})(#{1,6}(?:\s|$)|=+\s*$|-+\s*$)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def _unique_anchors(parsed: ParsedSpec) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for op in parsed.operations:
        base = op.anchor
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.append(base if n == 0 else f"{base}-{n + 1}")
    return out


def render_markdown(parsed: ParsedSpec) -> tuple[str, list[str]]:
    """The spec as a Markdown page and the operations' anchors (see the module docstring)."""
    anchors = _unique_anchors(parsed)
    title = parsed.title or "API"
    lines = [f"# {_inline(title)} — API reference", ""]
    if parsed.description:
        lines += [_block(parsed.description), ""]
    lines += [f"OpenAPI {parsed.version}; {len(parsed.operations)} operations.", ""]
    if parsed.servers:
        lines += ["Servers: " + ", ".join(f"`{s}`" for s in parsed.servers), ""]
    for op, anchor in zip(parsed.operations, anchors, strict=True):
        lines += _operation_md(op, anchor)
    return "\n".join(lines).rstrip() + "\n", anchors


def _operation_md(op: Operation, anchor: str) -> list[str]:
    out = [f"## {_inline(op.heading)} {{ #{anchor} }}", ""]
    if op.summary:
        out += [_inline(op.summary), ""]
    facts = []
    if op.webhook:
        facts.append("webhook: the API sends this request to your server")
    if op.operation_id:
        facts.append(f"operationId `{_inline(op.operation_id)}`")
    if op.tags:
        facts.append("tags: " + ", ".join(_inline(t) for t in op.tags))
    if facts:
        out += ["; ".join(facts), ""]
    if op.deprecated:
        out += [f"**Deprecated.** {_inline(op.deprecation_note)}".rstrip(), ""]
    if op.description:
        out += [_block(op.description), ""]
    if op.parameters:
        out += ["**Parameters**", "", "| name | in | type | required | description |"]
        out.append("|---|---|---|---|---|")
        for p in op.parameters[:_MAX_FIELDS]:
            out.append(
                f"| `{_cell(p['name'])}` | {p['in']} | {_cell(_type(p['schema']))} | "
                f"{'yes' if p['required'] else 'no'} | {_cell(p['description'])} |"
            )
        out.append("")
    if op.request_body:
        out += _body_md(op.request_body)
    if op.responses:
        out += ["**Responses**", ""]
        for status, r in op.responses.items():
            media = ", ".join(f"`{m}`" for m in r.get("content") or {})
            line = f"- `{status}` {_inline(r.get('description', ''))}".rstrip()
            out.append(line + (f" ({media})" if media else ""))
            for mt in list(r.get("content") or {})[:1]:
                fields = _fields(r["content"][mt].get("schema"))
                if fields:
                    names = ", ".join(f"`{n}`" for n, _, _, _ in fields[:_MAX_FIELDS])
                    out.append(f"  fields: {names}")
        out.append("")
    out += _auth_md(op)
    if op.code_samples:
        out += ["**Examples**", ""]
        for lang, code in op.code_samples:
            fence = "~~~" if "```" in code else "```"
            fence += "~" * max(0, max((len(r) for r in re.findall(r"~{3,}", code)), default=0) - 2)
            out += [f"{fence}{lang}", code, fence, ""]
    if op.servers:
        out += ["Servers: " + ", ".join(f"`{s}`" for s in op.servers), ""]
    if op.pagination:
        out += [f"Pagination: {op.pagination}", ""]
    return out


def _body_md(body: dict[str, Any]) -> list[str]:
    media = list(body.get("content") or {})
    req = "required" if body.get("required") else "optional"
    out = [f"**Request body** ({req}; {', '.join(f'`{m}`' for m in media) or 'no media type'})"]
    out.append("")
    if body.get("description"):
        out += [_block(body["description"]), ""]
    fields = _fields(body["content"][media[0]].get("schema")) if media else []
    if fields:
        out += ["| field | type | required | description |", "|---|---|---|---|"]
        for name, typ, required, desc in fields[:_MAX_FIELDS]:
            out.append(
                f"| `{_cell(name)}` | {_cell(typ)} | {'yes' if required else 'no'} | "
                f"{_cell(desc)} |"
            )
        out.append("")
    return out


def _auth_md(op: Operation) -> list[str]:
    if not op.security:
        return ["Auth: none declared", ""]
    alts = []
    for alt in op.security:
        parts = []
        for s in alt:
            where = f" in {s['in']} `{s['name']}`" if s.get("name") else ""
            scopes = f" (scopes: {', '.join(s['scopes'])})" if s.get("scopes") else ""
            parts.append(f"{s['type']}{where}{scopes} [{s['scheme']}]")
        alts.append(" and ".join(parts) if parts else "none")
    return ["Auth: " + " or ".join(alts), ""]


def _fields(schema: Any) -> list[tuple[str, str, bool, str]]:
    """Top-level (name, type, required, description) of an object schema (allOf merged)."""
    if not isinstance(schema, dict):
        return []
    parts = [schema, *[p for p in schema.get("allOf") or [] if isinstance(p, dict)]]
    out: dict[str, tuple[str, str, bool, str]] = {}
    for part in parts:
        req: list[Any] = part["required"] if isinstance(part.get("required"), list) else []
        props: dict[str, Any] = (
            part["properties"] if isinstance(part.get("properties"), dict) else {}
        )
        for name, sub in props.items():
            desc = sub.get("description", "") if isinstance(sub, dict) else ""
            out[name] = (name, _type(sub), name in req, desc if isinstance(desc, str) else "")
    return list(out.values())


def _type(schema: Any, depth: int = 0) -> str:
    if not isinstance(schema, dict) or depth > 3:
        return ""
    for marker in ("$cycle", "$truncated", "$external", "$unresolved"):
        if marker in schema:
            return f"{marker[1:]}: {schema[marker]}"
    name = schema.get("$ref-name", "")
    typ = schema.get("type", "")
    if isinstance(typ, list):
        typ = " | ".join(str(t) for t in typ)
    if typ == "array":
        inner = _type(schema.get("items"), depth + 1)
        return f"array of {inner}" if inner else "array"
    for key in ("oneOf", "anyOf"):
        if isinstance(schema.get(key), list):
            alts = [_type(s, depth + 1) or "object" for s in schema[key][:4]]
            return name or " | ".join(alts)
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        values = ", ".join(str(v) for v in schema["enum"][:6])
        return f"{typ or 'enum'} (one of {values})"
    return name or str(typ)


def _inline(text: str) -> str:
    return " ".join(str(text).split())


def _cell(text: str) -> str:
    return _inline(text).replace("|", "\\|")[:300]


def _block(text: str) -> str:
    """Spec prose as a Markdown block that cannot start a heading or leave a fence open."""
    if len(text) > _MAX_DESC:
        text = text[: _MAX_DESC - 1] + "…"
    lines = []
    fence_open = ""
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        m = _FENCE.match(line)
        if m:
            mark = m.group(1)
            if not fence_open:
                fence_open = mark[0] * len(mark)
            elif mark.startswith(fence_open):
                fence_open = ""
        elif not fence_open and _HEADING_LINE.match(line):
            line = _HEADING_LINE.sub(lambda x: x.group(1) + "\\" + x.group(2), line, count=1)
        lines.append(line)
    if fence_open:
        lines.append(fence_open)
    return "\n".join(lines).strip("\n")
