"""``find_api``: a task or a ``METHOD /path`` → the endpoint contracts that answer it.

Contract::

    find_api(catalog, query=None, *, method=None, path=None, library=None, version=None,
             limit=5, pins=None) -> ApiResult

- **Exact lookup** when ``query`` reads ``METHOD /path`` (or only ``/path``, or a full URL), or
  ``method``/``path`` are given: the path is matched against every endpoint's template in SQL
  (``sql/api_endpoint_match.sql``; ``{param}`` matches one segment part, so ``/pets/123``
  finds ``/pets/{petId}``); a server URL's host and a base path of up to ``BASE_SEGMENTS``
  leading segments (``/v1``) are stripped when the full path matches nothing. The template with
  the most literal characters wins (``/pets/mine`` before ``/pets/{id}``).
- **Ranked lookup** otherwise: BM25F in DuckDB SQL (``api.rank``) over each endpoint's own
  fields — operation id split into words, summary, description, path segments, tags, parameter
  and body field names — then a task prior: the action the question asks for (create, list,
  get, update, delete, cancel; recognised from a fixed table of verbs and their synonyms) against
  the operation's action (from its operation id, else its method and path shape). Deprecated
  operations and webhooks rank a little lower unless asked for.
- The result is the **contract**: required and optional parameters with their schemas, the
  request body's required fields and top-level fields, responses (2xx and errors), auth
  alternatives resolved to schemes, servers, pagination, deprecation (+ the replacement the spec
  names), provenance (source, library, version, snapshot, spec url/version, JSON pointer,
  page/chunk of its rendered section). Fetched text is capped and ``untrusted: true``.
- Errors: neither query nor path → ``InputError``; unknown library / version → ``UnknownLibrary``
  / ``NotFound``; nothing published → ``NotPublished``. ``limit`` is 1..``MAX_LIMIT``.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from docorbit_serve.api.rank import RowIndex, cached, query_weights
from docorbit_serve.api.scope import check_scope, index_errors, stamp
from docorbit_serve.errors import InputError
from docorbit_serve.models.api import (
    ApiAuthScheme,
    ApiBody,
    ApiBodyField,
    ApiParameter,
    ApiProvenance,
    ApiResponse,
    ApiResult,
    EndpointContract,
)
from docorbit_serve.search.analyze import terms
from docorbit_serve.search.sqlfiles import sql

__all__ = [
    "ACTIONS",
    "MAX_LIMIT",
    "MAX_ROWS",
    "endpoint_rows",
    "find_api",
    "operation_action",
    "parse_endpoint_query",
    "query_action",
    "rank_endpoints",
    "scope_rows",
    "to_contract",
]

MAX_LIMIT = 50
MAX_ROWS = 100_000  # endpoint rows read per library/version scope
MAX_QUERY_CHARS = 2000
MAX_FIELDS = 60
DESCRIPTION_CHARS = 1500
TEXT_CHARS = 300
BASE_SEGMENTS = 3
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE")
FIELD_WEIGHTS = {
    "operation": 3.0,
    "summary": 2.5,
    "resource": 2.5,  # the path's last literal segment: what the operation acts on
    "path": 1.0,  # the other literal segments
    "tags": 1.0,
    "params": 0.6,
    "description": 0.8,
}
# The action a task asks for, by the verbs people type (stems through the search analyzer;
# "get" is a stop word there, so actions are read from the raw words).
ACTIONS: dict[str, tuple[str, ...]] = {
    "cancel": ("cancel", "abort", "stop", "halt", "terminate", "interrupt"),
    "delete": ("delete", "remove", "destroy", "erase", "drop", "revoke", "purge", "unregister"),
    "update": (
        "update",
        "modify",
        "change",
        "edit",
        "set",
        "rename",
        "patch",
        "replace",
        "toggle",
        "configure",
        "archive",
        "mark",
        "pause",
        "resume",
    ),  # fmt: skip
    "list": ("list", "enumerate", "browse", "all", "history", "search", "find"),
    "get": (
        "get",
        "retrieve",
        "fetch",
        "read",
        "show",
        "look",
        "info",
        "details",
        "describe",
        "download",
        "view",
        "inspect",
        "status",
        "lookup",
    ),  # fmt: skip
    "create": (
        "create",
        "add",
        "new",
        "make",
        "send",
        "post",
        "submit",
        "upload",
        "generate",
        "start",
        "register",
        "invite",
        "open",
        "schedule",
        "write",
        "insert",
        "publish",
        "launch",
        "begin",
        "issue",
        "place",
        "initiate",
        "run",
        "trigger",
        "build",
        "compute",
        "transcribe",
        "translate",
        "classify",
        "embed",
        "moderate",
    ),  # fmt: skip
}
_ACTION_OF = {w: a for a, ws in ACTIONS.items() for w in ws}
# The verb of an operation id, when it names one (createChatCompletion, ListMessage, chat_delete).
_OP_VERBS = {
    **{w: "create" for w in ("create", "add", "post", "send", "new", "upload", "submit")},
    **{w: "list" for w in ("list", "search", "query")},
    **{w: "get" for w in ("get", "retrieve", "fetch", "read", "info", "show", "download")},
    **{w: "update" for w in ("update", "modify", "patch", "set", "put", "edit", "rename")},
    **{w: "delete" for w in ("delete", "remove", "destroy", "revoke")},
    **{w: "cancel" for w in ("cancel", "abort")},
}
_QUESTION_WORDS = frozenset(("which", "what", "whats", "are", "is", "does", "do", "can"))
_QUERY_SYNONYM_WEIGHT = 0.3
_ACTION_WORD_WEIGHT = 0.5
_QUALIFIER_WEIGHT = 0.6
_PREPOSITION = re.compile(
    r"\b(?:of|for|in|on|from|to|into|with|by|within|belonging to|inside|under)\b", re.I
)  # the typed verb: the action prior already rewards it
_SAME_ACTION = 1.35
_NEAR_ACTION = 1.1
_OTHER_ACTION = 0.8
_DEPRECATED = 0.9
_UNNAMED_PARENT = 0.85
_UNASKED_WORD = 0.9
_WEBHOOK = 0.7
_SPLIT = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_ENDPOINT_QUERY = re.compile(
    r"^\s*(?:(?P<method>[A-Za-z]+)\s+)?(?P<path>(?:https?://\S+|/\S*))\s*$"
)
_REPLACEMENT = re.compile(
    r"(?:use|see|replaced by|in favou?r of|superseded by|migrate to)\s+(?:the\s+)?"
    r"(?:`?(?P<ep>(?:GET|POST|PUT|PATCH|DELETE)\s+/[^\s`]*)`?|`?(?P<path>/[\w{}./-]+)`?"
    r"|`(?P<code>[^`]{1,80})`|\[(?P<link>[^\]]{1,80})\])",
    re.IGNORECASE,
)


def _words(identifier: str) -> list[str]:
    return [w.lower() for w in _SPLIT.findall(identifier)]


def operation_action(row: Mapping[str, Any]) -> str:
    """create / list / get / update / delete / cancel for an endpoint row."""
    return _operation_action(row)[0]


def _operation_action(row: Mapping[str, Any]) -> tuple[str, bool]:
    """(action, named): named when the operation id or the path's last segment says it, else
    guessed from the method and path shape (weaker evidence: Slack POSTs everything)."""
    for w in _words(str(row.get("operation_id") or "")):
        if w in _OP_VERBS:
            return _OP_VERBS[w], True
    for seg in reversed(re.split(r"[/.]", str(row.get("path") or "").split("?", 1)[0])):
        if seg and not seg.startswith("{"):
            for w in _words(seg):
                if w in _OP_VERBS:
                    return _OP_VERBS[w], True
            break
    method = str(row.get("method") or "").upper()
    if method == "POST":
        return "create", False
    if method in ("PUT", "PATCH"):
        return "update", False
    if method == "DELETE":
        return "delete", False
    last = str(row.get("path") or "").rstrip("/").rsplit("/", 1)[-1]
    return ("get" if "{" in last else "list"), False


def query_action(query: str) -> str | None:
    """The action a task asks for: the first action verb among its words; a question that
    names none ("which models can I use") asks to list; else None."""
    words = re.findall(r"[a-z]+", query.lower())
    for w in words:
        if w in _ACTION_OF:
            return _ACTION_OF[w]
    if words and words[0] in _QUESTION_WORDS:
        return "list"
    return None


def _qualifier_terms(query: str) -> set[str]:
    """Terms after the first preposition ("list the files *of an organization*"): they
    qualify the object the task acts on, so they weigh less than the object itself."""
    m = _PREPOSITION.search(query)
    if not m:
        return set()
    head = set(terms(query[: m.start()]))
    return set(terms(query[m.end() :])) - head


def _action_word(query: str) -> str | None:
    for w in re.findall(r"[a-z]+", query.lower()):
        if w in _ACTION_OF:
            return w
    return None


def parse_endpoint_query(query: str) -> tuple[str | None, str | None]:
    """``("POST", "/chat/completions")`` for ``"POST /chat/completions"``; (None, None) for
    a task in words."""
    m = _ENDPOINT_QUERY.match(query or "")
    if not m:
        return None, None
    method = (m.group("method") or "").upper() or None
    if method is not None and method not in METHODS:
        return None, None
    return method, m.group("path")


def _clean_path(path: str) -> str:
    if path.startswith(("http://", "https://")):
        path = urlsplit(path).path
    path = path.split("?", 1)[0].split("#", 1)[0]
    return "/" + path.lstrip("/")


def _scope_key(catalog: Any, kind: str, library: str | None, version: str | None) -> tuple:
    return (kind, str(catalog.manifest().get("publish_id", "")), library, version)


def endpoint_rows(cursor: Any, library: str | None, version: str | None) -> list[dict[str, Any]]:
    cur = cursor.execute(
        sql("api_endpoints"), {"library": library, "version": version, "limit": MAX_ROWS}
    )
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def _param_names(row: Mapping[str, Any]) -> str:
    names = [str(p.get("name", "")) for p in _json_list(row.get("parameters_json"))]
    body = _body_schema(_json_obj(row.get("request_body_json")))[1]
    names += list(_properties(body)[0])
    return " ".join(names)


def _doc_fields(row: Mapping[str, Any]) -> dict[str, str]:
    path = str(row.get("path") or "").split("?", 1)[0]
    segs = [s for s in path.split("/") if s and not s.startswith("{")]
    segs = [re.sub(r"\{[^}]*\}|\.json$|\.xml$", " ", s) for s in segs]
    return {
        "operation": str(row.get("operation_id") or ""),
        "summary": str(row.get("summary") or ""),
        "resource": " ".join(re.split(r"[._-]+", segs[-1])) if segs else "",
        "path": " ".join(" ".join(re.split(r"[._-]+", s)) for s in segs[:-1]),
        "tags": " ".join(row.get("tags") or []),
        "params": _param_names(row),
        "description": str(row.get("description") or ""),
    }


def _scope(
    catalog: Any, cursor: Any, library: str | None, version: str | None
) -> tuple[RowIndex, list[dict[str, Any]]]:
    key = _scope_key(catalog, "endpoints", library, version)

    def build() -> RowIndex:
        rows = endpoint_rows(cursor, library, version)
        return RowIndex.build([_doc_fields(r) for r in rows], FIELD_WEIGHTS, rows)

    idx = cached(key, build)
    return idx, idx.rows


def scope_rows(
    catalog: Any, cursor: Any, library: str | None, version: str | None
) -> list[dict[str, Any]]:
    """Every endpoint row of the scope (cached with its ranking index)."""
    return list(_scope(catalog, cursor, library, version)[1])


# --------------------------------------------------------------------------- contract


def _json_obj(text: Any) -> dict[str, Any]:
    try:
        v = json.loads(text) if isinstance(text, str) and text else None
    except ValueError:
        return {}
    return v if isinstance(v, dict) else {}


def _json_list(text: Any) -> list[Any]:
    try:
        v = json.loads(text) if isinstance(text, str) and text else None
    except ValueError:
        return []
    return [x for x in v if isinstance(x, (dict, list))] if isinstance(v, list) else []


def _dict(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def _cap(text: Any, n: int) -> str:
    s = str(text or "")
    return s if len(s) <= n else s[: n - 1].rstrip() + "…"


def _body_schema(body: Mapping[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """(media types, the schema of the preferred media type: JSON, else form, else first)."""
    content = _dict(body.get("content"))
    types = list(content)
    pref = sorted(types, key=lambda t: (0 if "json" in t else 1 if "form" in t else 2, t))
    for t in pref:
        entry = content.get(t)
        if isinstance(entry, dict) and isinstance(entry.get("schema"), dict):
            return types, entry["schema"]
    return types, {}


def _properties(schema: Mapping[str, Any], depth: int = 0) -> tuple[dict[str, Any], list[str]]:
    """Top-level properties and required names, merging ``allOf`` parts (bounded depth)."""
    props: dict[str, Any] = {}
    required: list[str] = []
    if depth > 4 or not isinstance(schema, Mapping):
        return props, required
    for part in schema.get("allOf") or []:
        p, r = _properties(part, depth + 1)
        props.update(p)
        required += [x for x in r if x not in required]
    if isinstance(schema.get("properties"), dict):
        props.update(schema["properties"])
    required += [str(x) for x in schema.get("required") or [] if str(x) not in required]
    return props, required


def _type_of(schema: Any) -> str:
    if not isinstance(schema, Mapping):
        return ""
    if schema.get("$ref-name"):
        return str(schema["$ref-name"])
    t = schema.get("type")
    if isinstance(t, list):
        t = "|".join(str(x) for x in t)
    if t == "array":
        return f"array[{_type_of(schema.get('items')) or 'any'}]"
    if t:
        return str(t)
    for k in ("oneOf", "anyOf", "allOf"):
        if schema.get(k):
            return k
    return ""


def _body(row: Mapping[str, Any]) -> ApiBody | None:
    body = _json_obj(row.get("request_body_json"))
    if not body:
        return None
    types, schema = _body_schema(body)
    props, required = _properties(schema)
    fields = [
        ApiBodyField(
            name=name,
            type=_type_of(s),
            required=name in required,
            description=_cap(s.get("description") if isinstance(s, Mapping) else "", TEXT_CHARS),
        )
        for name, s in sorted(props.items(), key=lambda kv: (kv[0] not in required, kv[0]))
    ]
    return ApiBody(
        required=bool(body.get("required")),
        media_types=types,
        schema_name=str(schema.get("$ref-name") or ""),
        required_fields=required,
        fields=fields[:MAX_FIELDS],
        fields_truncated=len(fields) > MAX_FIELDS,
    )


def _parameters(row: Mapping[str, Any]) -> tuple[list[ApiParameter], list[ApiParameter]]:
    req: list[ApiParameter] = []
    opt: list[ApiParameter] = []
    for p in _json_list(row.get("parameters_json")):
        if not isinstance(p, dict):
            continue
        schema = _dict(p.get("schema"))
        param = ApiParameter(
            name=str(p.get("name", "")),
            location=str(p.get("in", "")),
            required=bool(p.get("required")) or p.get("in") == "path",
            description=_cap(p.get("description"), TEXT_CHARS),
            json_schema=schema if len(json.dumps(schema)) <= 2000 else {"type": _type_of(schema)},
            deprecated=bool(p.get("deprecated")),
        )
        (req if param.required else opt).append(param)
    return req, opt


def _responses(row: Mapping[str, Any]) -> list[ApiResponse]:
    out = []
    for status, r in sorted(_json_obj(row.get("responses_json")).items()):
        r = r if isinstance(r, dict) else {}
        types, schema = _body_schema(r)
        headers = _dict(r.get("headers"))
        out.append(
            ApiResponse(
                status=str(status),
                success=str(status).startswith("2"),
                description=_cap(r.get("description"), TEXT_CHARS),
                media_types=types,
                schema_name=str(schema.get("$ref-name") or _type_of(schema)),
                headers=sorted(headers),
            )
        )
    return out


def _auth(row: Mapping[str, Any]) -> list[list[ApiAuthScheme]]:
    alts = []
    for alt in _json_list(row.get("security_json")):
        schemes = []
        for s in alt if isinstance(alt, list) else []:
            if not isinstance(s, dict):
                continue
            schemes.append(
                ApiAuthScheme(
                    scheme=str(s.get("scheme", "")),
                    type=str(s.get("type", "unknown")),
                    location=str(s.get("in", "")),
                    name=str(s.get("name", "")),
                    scopes=[str(x) for x in s.get("scopes") or []],
                    bearer_format=str(s.get("bearer_format", "")),
                )
            )
        alts.append(schemes)
    return alts


def _replacement(row: Mapping[str, Any]) -> str:
    if not row.get("deprecated"):
        return ""
    for text in (row.get("deprecation_note"), row.get("summary"), row.get("description")):
        m = _REPLACEMENT.search(str(text or ""))
        if m:
            return next(g for g in m.groups() if g).strip()
    return ""


def to_contract(row: Mapping[str, Any], *, score: float = 0.0, match: str = "ranked") -> dict:
    """An endpoint row as an ``EndpointContract`` dict (see module docstring)."""
    req, opt = _parameters(row)
    auth = _auth(row)
    desc = str(row.get("description") or "")
    return EndpointContract(
        id=str(row["id"]),
        method=str(row["method"]),
        path=str(row["path"]),
        operation_id=str(row.get("operation_id") or ""),
        summary=_cap(row.get("summary"), TEXT_CHARS),
        description=_cap(desc, DESCRIPTION_CHARS),
        description_truncated=len(desc) > DESCRIPTION_CHARS,
        tags=list(row.get("tags") or []),
        webhook=bool(row.get("webhook")),
        deprecated=bool(row.get("deprecated")),
        deprecation_note=_cap(row.get("deprecation_note"), TEXT_CHARS),
        replacement=_replacement(row),
        required_parameters=req,
        optional_parameters=opt,
        request_body=_body(row),
        responses=_responses(row),
        auth=auth,
        auth_required=bool(auth) and all(alt for alt in auth),
        servers=list(row.get("servers") or []),
        pagination=str(row.get("pagination") or ""),
        provenance=ApiProvenance(
            source=str(row.get("source") or ""),
            library=str(row.get("library") or ""),
            version=str(row.get("version") or ""),
            snapshot=str(row.get("snapshot") or ""),
            spec_url=str(row.get("spec_url") or ""),
            spec_version=str(row.get("spec_version") or ""),
            pointer=str(row.get("pointer") or ""),
            page_id=str(row.get("page_id") or ""),
            chunk_id=str(row.get("chunk_id") or ""),
        ),
        match=match,  # type: ignore[arg-type]
        score=round(score, 6),
    ).model_dump(mode="json")


# --------------------------------------------------------------------------- lookups


def _match_path(
    cursor: Any, method: str | None, path: str, library: str | None, version: str | None
) -> list[str]:
    path = _clean_path(path)
    segs = [s for s in path.split("/") if s]
    for drop in range(0, min(BASE_SEGMENTS, max(len(segs) - 1, 0)) + 1):
        cand = "/" + "/".join(segs[drop:])
        rows = cursor.execute(
            sql("api_endpoint_match"),
            {"library": library, "version": version, "method": method, "path": cand,
             "limit": MAX_LIMIT * 4},
        ).fetchall()  # fmt: skip
        if rows:
            return [r[0] for r in rows]
    return []


def _resource_words(row: Mapping[str, Any]) -> list[str]:
    """Stems of the path's last literal segment, action verbs left out (``deleteScheduledMessage``
    → schedul, messag; ``users.info`` → user)."""
    segs = [s for s in str(row.get("path") or "").split("?", 1)[0].split("/") if s]
    lit = [s for s in segs if not s.startswith("{")]
    if not lit:
        return []
    words = _words(re.sub(r"\{[^}]*\}|\.json$|\.xml$", " ", lit[-1]))
    kept = [w for w in words if w not in _OP_VERBS and w not in _ACTION_OF]
    return sorted({t for w in kept for t in terms(w)})


def _parents(path: str) -> list[str]:
    """Literal segments that own a sub-resource: followed by a {param} and then by more
    literal segments (``containers`` in ``/containers/{id}/files``)."""
    segs = [s for s in path.split("?", 1)[0].split("/") if s]
    out = []
    for i, seg in enumerate(segs[:-1]):
        rest = segs[i + 1 :]
        if "{" not in seg and rest[0].startswith("{") and any("{" not in r for r in rest[1:]):
            out.append(re.sub(r"\.json$", "", seg))
    return out


def _prior(
    row: Mapping[str, Any], wanted: str | None, query_words: set[str], qterms: set[str]
) -> float:
    f = 1.0
    have, named = _operation_action(row)
    if wanted is not None:
        if have == wanted:
            g = _SAME_ACTION
        elif {have, wanted} <= {"get", "list"} or {have, wanted} == {"create", "update"}:
            g = _NEAR_ACTION
        else:
            g = _OTHER_ACTION
        f *= g if named else g**0.5
    elif have in ("delete", "cancel"):
        f *= _OTHER_ACTION  # a task that names no action is not answered by a destructive call
    unasked = [w for w in _resource_words(row) if w not in qterms]
    f *= _UNASKED_WORD ** min(len(unasked), 2)  # more specific than the task asks
    for parent in _parents(str(row.get("path") or ""))[:2]:
        if not set(terms(parent)) & qterms:
            f *= _UNNAMED_PARENT  # a sub-resource of something the task does not mention
    if row.get("deprecated") and not query_words & {"deprecated", "legacy", "old"}:
        f *= _DEPRECATED
    if row.get("webhook") and not query_words & {"webhook", "webhooks", "event", "events"}:
        f *= _WEBHOOK
    return f


def _expansion(action: str | None) -> dict[str, float]:
    """The action's own verbs as light query terms (a 'send' task finds createMessage)."""
    if action is None:
        return {}
    out: dict[str, float] = {}
    for w in (action, *ACTIONS[action][:3]):
        for t in terms(w):
            out[t] = _QUERY_SYNONYM_WEIGHT
    return out


def _check(query: str | None, path: str | None, limit: int) -> None:
    if not (query and query.strip()) and not path:
        raise InputError("give a task in words or METHOD /path, e.g. 'create a chat completion'")
    if query and len(query) > MAX_QUERY_CHARS:
        raise InputError(f"the query is longer than {MAX_QUERY_CHARS} characters")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise InputError(f"limit must be between 1 and {MAX_LIMIT}", detail={"limit": limit})


def rank_endpoints(
    catalog: Any, cursor: Any, query: str, library: str | None, version: str | None, pool: int
) -> list[tuple[dict[str, Any], float, float]]:
    """(row, score, coverage) of the endpoints best matching the task ``query``."""
    idx, rows = _scope(catalog, cursor, library, version)
    action = query_action(query)
    qw = query_weights(query, _expansion(action))
    for t in _qualifier_terms(query):
        if qw.get(t) == 1.0:
            qw[t] = _QUALIFIER_WEIGHT
    verb = _action_word(query)
    for t in terms(verb) if verb else ():
        qw[t] = _ACTION_WORD_WEIGHT
    words = set(re.findall(r"[a-z]+", query.lower()))
    ranked = idx.rank(cursor, qw, max(pool, 50))
    qterms = set(qw)
    scored = [(rows[r.doc], r.score * _prior(rows[r.doc], action, words, qterms), r.coverage)
              for r in ranked]  # fmt: skip
    scored.sort(key=lambda t: (-t[1], t[0]["path"], t[0]["method"]))
    return scored[:pool]


def find_api(
    catalog: Any,
    query: str | None = None,
    *,
    method: str | None = None,
    path: str | None = None,
    library: str | None = None,
    version: str | None = None,
    limit: int = 5,
    pins: Mapping[str, Any] | None = None,
) -> ApiResult:
    """Endpoint contracts for a task or a ``METHOD /path`` (see the module docstring)."""
    _check(query, path, limit)
    if path is None and query:
        method_q, path_q = parse_endpoint_query(query)
        if path_q is not None:
            method, path = method or method_q, path_q
    method = method.upper() if method else None
    if method is not None and method not in METHODS:
        raise InputError(f"unknown HTTP method {method!r}", detail={"method": method})
    cursor = catalog.connection().cursor()
    with contextlib.closing(cursor), index_errors():
        check_scope(cursor, library, version)
        items: list[dict[str, Any]] = []
        if path is not None:
            idx, rows = _scope(catalog, cursor, library, version)
            by_id = {r["id"]: r for r in rows}
            ids = _match_path(cursor, method, path, library, version)
            exact = _clean_path(path)
            for rank, eid in enumerate(ids):
                row = by_id.get(eid)
                if row is None:
                    continue
                kind = "exact_path" if row["path"] == exact else "template_path"
                items.append(_item(row, 1.0 / (1 + rank), kind))
        else:
            for row, score, _cov in rank_endpoints(
                catalog, cursor, str(query), library, version, limit * 3
            ):
                items.append(_item(row, score, "ranked"))
    items, versions, notices = stamp(items, pins, version)
    total = len(items)
    return ApiResult(
        query=query or f"{method or ''} {path}".strip(),
        method=method,
        path=path,
        library=library,
        version=version,
        results=[EndpointContract.model_validate(_strip(it)) for it in items[:limit]],
        total=total,
        truncated=total > limit,
        versions=versions,
        notices=notices,
    )


def _item(row: Mapping[str, Any], score: float, match: str) -> dict[str, Any]:
    d = to_contract(row, score=score, match=match)
    d["library"], d["version"] = row["library"], row["version"]
    d["key"] = (row["library"], row["method"], row["path"])
    return d


def _strip(it: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in it.items() if k not in ("library", "version", "key")}
