"""Reading endpoint rows (the ``endpoints`` table, OpenAPI operations) for diffs and verification.

Contract:
- ``endpoint_key(method, path)``: ``"POST /pets/{}"`` — method upper-cased, path parameter names
  blanked, trailing slash dropped, so a renamed path variable is the same operation.
- ``pointer(row)``: the row's JSON pointer when the table has one, else
  ``#/paths/<escaped path>/<method>`` (RFC 6901).
- ``parameters(row) -> dict[(in, name), dict]``, ``body_schema(row)``, ``required_body(row)``,
  ``body_properties(row)``, ``response_schemas(row) -> dict[status, schema]``,
  ``security(row)``: tolerant readers of the JSON columns (a missing, empty or malformed column
  reads as "not stated", never as an error).
- ``compare(old, new) -> list[str]``: the contract changes between two rows of one operation,
  each a short sentence (parameters added/removed/now required, request body and response
  schemas, response codes, auth); prose (descriptions, examples) is not a change.
"""

from __future__ import annotations

import json
import re
from typing import Any

from docorbit_serve.changes.normalize import schema_form

__all__ = [
    "body_properties",
    "body_schema",
    "compare",
    "endpoint_key",
    "json_col",
    "parameters",
    "pointer",
    "required_body",
    "response_schemas",
    "security",
]

_PARAM = re.compile(r"\{[^}/]*\}")


def endpoint_key(method: str, path: str) -> str:
    p = _PARAM.sub("{}", path.strip())
    if len(p) > 1:
        p = p.rstrip("/")
    return f"{method.upper()} {p}"


def json_col(row: dict[str, Any], col: str) -> Any:
    raw = row.get(col)
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return None


def pointer(row: dict[str, Any]) -> str:
    given = row.get("pointer")
    if isinstance(given, str) and given:
        return given
    esc = str(row.get("path", "")).replace("~", "~0").replace("/", "~1")
    return f"#/paths/{esc}/{str(row.get('method', '')).lower()}"


def parameters(row: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    raw = json_col(row, "parameters_json")
    if isinstance(raw, dict):  # {"query": [...]} or {name: {...}} shapes
        items: list[Any] = []
        for k, v in raw.items():
            if isinstance(v, list):
                items.extend({**p, "in": p.get("in", k)} for p in v if isinstance(p, dict))
            elif isinstance(v, dict):
                items.append({"name": k, **v})
        raw = items
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for p in raw if isinstance(raw, list) else []:
        if isinstance(p, dict) and isinstance(p.get("name"), str):
            out[(str(p.get("in", "query")), p["name"])] = p
    return out


def _content_schema(obj: Any) -> Any:
    if not isinstance(obj, dict):
        return None
    content = obj.get("content")
    if isinstance(content, dict) and content:
        for mime in sorted(content, key=lambda m: (0 if "json" in m else 1, m)):
            media = content[mime]
            if isinstance(media, dict) and "schema" in media:
                return media["schema"]
        return None
    return obj.get("schema")  # Swagger 2.0 body parameter / response


def body_schema(row: dict[str, Any]) -> Any:
    return _content_schema(json_col(row, "request_body_json"))


def _object_schema(schema: Any) -> dict[str, Any] | None:
    """The object schema's ``properties``/``required`` (merging ``allOf``); None if unknown."""
    if not isinstance(schema, dict) or "$ref" in schema:
        return None
    if isinstance(schema.get("allOf"), list):
        props: dict[str, Any] = {}
        req: list[str] = []
        for part in schema["allOf"]:
            sub = _object_schema(part)
            if sub is None:
                return None
            props.update(sub["properties"])
            req += sub["required"]
        return {"properties": props, "required": req, "open": True}
    if "properties" not in schema and schema.get("type") != "object":
        return None
    raw = schema.get("properties")
    props = raw if isinstance(raw, dict) else {}
    req = [r for r in schema.get("required", []) or [] if isinstance(r, str)]
    extra = schema.get("additionalProperties", False)
    return {"properties": props, "required": req, "open": extra not in (False, None)}


def required_body(row: dict[str, Any]) -> list[str] | None:
    obj = _object_schema(body_schema(row))
    return None if obj is None else sorted(obj["required"])


def body_properties(row: dict[str, Any]) -> dict[str, Any] | None:
    """``{"properties", "required", "open"}`` of the request body, None when not readable."""
    return _object_schema(body_schema(row))


def response_schemas(row: dict[str, Any]) -> dict[str, Any]:
    raw = json_col(row, "responses_json")
    if not isinstance(raw, dict):
        return {}
    return {str(k): _content_schema(v) for k, v in raw.items() if isinstance(v, dict)}


def security(row: dict[str, Any]) -> Any:
    return json_col(row, "security_json")


def _canon(obj: Any) -> str:
    return json.dumps(schema_form(obj), sort_keys=True, separators=(",", ":"))


def _param_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    a, b = parameters(old), parameters(new)
    out: list[str] = []
    for key in sorted(a.keys() | b.keys()):
        where, name = key
        label = f"{where} parameter `{name}`"
        if key not in a:
            req = " (required)" if b[key].get("required") else ""
            out.append(f"{label} added{req}")
        elif key not in b:
            out.append(f"{label} removed")
        else:
            ra, rb = bool(a[key].get("required")), bool(b[key].get("required"))
            if ra != rb:
                out.append(f"{label} is now {'required' if rb else 'optional'}")
            if _canon(a[key].get("schema")) != _canon(b[key].get("schema")):
                out.append(f"{label} schema changed")
    return out


def _body_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out: list[str] = []
    pa_, pb = body_properties(old), body_properties(new)
    if pa_ is not None and pb is not None:
        for f in sorted(pb["properties"].keys() - pa_["properties"].keys()):
            req = " (required)" if f in pb["required"] else ""
            out.append(f"request body field `{f}` added{req}")
        for f in sorted(pa_["properties"].keys() - pb["properties"].keys()):
            out.append(f"request body field `{f}` removed")
        for f in sorted(set(pb["required"]) - set(pa_["required"])):
            if f in pa_["properties"]:
                out.append(f"request body field `{f}` is now required")
        for f in sorted(set(pa_["required"]) - set(pb["required"])):
            if f in pb["properties"]:
                out.append(f"request body field `{f}` is now optional")
        out += [
            f"request body field `{f}` schema changed"
            for f in sorted(pa_["properties"].keys() & pb["properties"].keys())
            if _canon(pa_["properties"][f]) != _canon(pb["properties"][f])
        ]
    if not out and _canon(json_col(old, "request_body_json")) != _canon(
        json_col(new, "request_body_json")
    ):
        out.append("request body schema changed")
    return out


def _response_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    a, b = response_schemas(old), response_schemas(new)
    out = [f"response {c} added" for c in sorted(b.keys() - a.keys())]
    out += [f"response {c} removed" for c in sorted(a.keys() - b.keys())]
    for c in sorted(a.keys() & b.keys()):
        if _canon(a[c]) == _canon(b[c]):
            continue
        oa, ob = _object_schema(a[c]), _object_schema(b[c])
        if oa is None or ob is None:
            out.append(f"response {c} schema changed")
            continue
        named = [
            f"response {c} field `{f}` added"
            for f in sorted(ob["properties"].keys() - oa["properties"].keys())
        ]
        named += [
            f"response {c} field `{f}` removed"
            for f in sorted(oa["properties"].keys() - ob["properties"].keys())
        ]
        named += [
            f"response {c} field `{f}` schema changed"
            for f in sorted(oa["properties"].keys() & ob["properties"].keys())
            if _canon(oa["properties"][f]) != _canon(ob["properties"][f])
        ]
        out += named or [f"response {c} schema changed"]
    return out


def compare(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out = _param_changes(old, new) + _body_changes(old, new) + _response_changes(old, new)
    if _canon(security(old)) != _canon(security(new)):
        out.append("authentication requirements changed")
    if bool(old.get("deprecated")) and not bool(new.get("deprecated")):
        out.append("no longer deprecated")
    return out
