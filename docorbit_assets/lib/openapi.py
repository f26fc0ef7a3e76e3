"""Safe loading and validation of OpenAPI / Swagger documents (discovery's OpenAPI provider).

Contract:

- ``load_document(body, *, content_type="", url="") -> Any`` parses JSON or YAML **safely** and
  raises ``SpecError(reason, message)`` with a typed ``reason`` (``SPEC_REASONS``) instead of
  any parser exception:

  - size: at most ``MAX_BYTES`` (10 MiB) of input; nesting at most ``MAX_DEPTH`` (64), checked
    on the raw text before any parser recurses (no ``RecursionError``);
  - JSON: UTF-8 (a BOM is allowed), duplicate keys refused (``duplicate_keys``), ``NaN`` /
    ``Infinity`` refused (``non_finite_number``);
  - YAML: a ``SafeLoader`` subclass; aliases are allowed (real specs use them) but bounded: at
    most ``MAX_ALIASES``, and the alias-expanded size is computed on the node graph before
    anything is constructed, so an alias bomb or a recursive alias is ``yaml_alias`` without
    being expanded; any non-standard tag (``!!python/...``, ``!!binary``) is ``yaml_tag``;
    duplicate keys are refused; timestamps stay strings;
  - the loaded tree is walked iteratively and bounded: only str / int / float / bool / None /
    list / dict; ``!!binary`` bytes, dates and other types -> ``bad_type``; ints over 64 bits and
    strings over ``MAX_STRING`` -> ``value_too_large``; at most ``MAX_NODES`` nodes; non-string
    keys (YAML ``200:``) become strings.
- ``inspect_spec(body, ...) -> SpecInfo`` adds validation: a top-level object with ``openapi``
  3.x (a string) or ``swagger: "2.0"``; an unknown version is ``unsupported_version``. Missing
  ``info`` / ``paths`` are recorded in ``notes`` (3.1 allows ``webhooks`` without ``paths``).
- ``$ref``: counted, never fetched or inlined. Internal refs (``#/...``, RFC 6901 ``~0``/``~1``
  and percent escapes) are resolved as a pointer lookup only, to record ``missing`` ones;
  external refs are recorded as ``external`` and never read. Server URLs (``servers[].url``,
  Swagger ``host``/``basePath``/``schemes``) are data: recorded with the policy's verdict when
  a ``check`` callable is given, never requested.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import yaml

from docorbit_serve.errors import InputError

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "SPEC_REASONS",
    "SpecError",
    "SpecInfo",
    "inspect_spec",
    "load_document",
]

MAX_BYTES = 10 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 2_000_000
MAX_ALIASES = 10_000
MAX_STRING = 1024 * 1024
MAX_INT_BITS = 64

SPEC_REASONS = (
    "bad_structure",
    "bad_type",
    "duplicate_keys",
    "non_finite_number",
    "not_an_object",
    "not_openapi",
    "not_utf8",
    "parse_error",
    "too_deep",
    "too_large",
    "unsupported_version",
    "value_too_large",
    "yaml_alias",
    "yaml_tag",
)


class SpecError(InputError):
    """A document that is not a usable spec: ``reason`` (``SPEC_REASONS``) and, when known, the
    JSON ``pointer`` of the fault; the stable code is ``bad_openapi`` (an ``InputError``)."""

    def __init__(self, reason: str, message: str, pointer: str = "") -> None:
        where = f" at {pointer or '/'}" if pointer or reason == "bad_structure" else ""
        super().__init__(
            message + where,
            detail={"reason": reason, "pointer": pointer},
            code="bad_openapi",
        )
        self.reason = reason
        self.pointer = pointer


@dataclass(frozen=True)
class SpecInfo:
    valid: bool
    reason: str  # "" when valid, else one of SPEC_REASONS
    message: str
    format: str = ""  # json | yaml
    version: str = ""  # "3.0.3", "2.0", ...
    title: str = ""
    paths: int = 0
    operations: int = 0
    webhooks: int = 0
    refs: dict[str, int] = field(default_factory=dict)  # internal / external / missing
    servers: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "reason": self.reason,
            "message": self.message,
            "format": self.format,
            "version": self.version,
            "title": self.title,
            "paths": self.paths,
            "operations": self.operations,
            "webhooks": self.webhooks,
            "refs": dict(sorted(self.refs.items())),
            "servers": self.servers,
            "notes": self.notes,
        }


# --------------------------------------------------------------------------------------------
# Loading


def _max_depth(text: str) -> int:
    """Bracket nesting of JSON / YAML flow text, strings skipped (a cheap pre-check)."""
    depth = deepest = 0
    in_str: str | None = None
    escape = False
    for ch in text:
        if in_str:
            if escape:
                escape = False
            elif ch == "\\" and in_str == '"':
                escape = True
            elif ch == in_str:
                in_str = None
        elif ch in "\"'":
            in_str = ch
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def _no_dupes(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise SpecError("duplicate_keys", f"duplicate key {k!r} in a JSON object")
        out[k] = v
    return out


def _no_constants(name: str) -> Any:
    raise SpecError("non_finite_number", f"{name} is not a JSON number")


_BaseLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available


class _SafeLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """Safe loader (libyaml parser when available) with bounded aliases and nesting, no
    duplicate keys, and timestamps kept as strings (``2023-01-01`` stays text). The node graph
    is checked (``_check_graph``) before anything is constructed."""

    yaml_implicit_resolvers = {
        k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
        for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                fresh = key not in seen
                seen.add(key)
            except TypeError as e:
                raise SpecError("bad_type", "unhashable YAML mapping key") from e
            if not fresh:
                raise SpecError("duplicate_keys", f"duplicate key {key!r} in a YAML mapping")
        return super().construct_mapping(node, deep=deep)


_STANDARD_TAGS = {
    "tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "map", "seq", "merge")
}


def _expanded_size(root: Any) -> int:
    """Node count of the tree once aliases are expanded, computed on the graph (no expansion).
    Raises ``SpecError("yaml_alias")`` for a recursive alias or a size over ``MAX_NODES``."""
    size: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        kids = (
            [x for kv in node.value for x in kv]
            if isinstance(node, yaml.MappingNode)
            else node.value
            if isinstance(node, yaml.SequenceNode)
            else []
        )
        if done:
            total = 1 + sum(size[id(k)] for k in kids)
            if total > MAX_NODES:
                raise SpecError("yaml_alias", f"aliases expand to more than {MAX_NODES} nodes")
            size[key] = total
            continue
        if key in size:
            continue
        if size.get(key) == -1:
            raise SpecError("yaml_alias", "recursive YAML alias")
        size[key] = -1
        stack.append((node, True))
        for k in kids:
            if size.get(id(k)) == -1:
                raise SpecError("yaml_alias", "recursive YAML alias")
            if id(k) not in size:
                stack.append((k, False))
    return size[id(root)]


def _check_graph(root: Any) -> None:
    """Tags, nesting depth and alias count of a composed YAML node graph (iterative)."""
    stack = [(root, 1)]
    seen: set[int] = set()
    aliases = 0
    while stack:
        n, depth = stack.pop()
        if id(n) in seen:
            aliases += 1  # a node reached twice is an alias
            if aliases > MAX_ALIASES:
                raise SpecError("yaml_alias", f"more than {MAX_ALIASES} YAML aliases")
            continue
        seen.add(id(n))
        if depth > MAX_DEPTH:
            raise SpecError("too_deep", f"YAML nesting deeper than {MAX_DEPTH}")
        if n.tag not in _STANDARD_TAGS:
            raise SpecError("yaml_tag", f"YAML tag {n.tag!r} is refused")
        if isinstance(n, yaml.MappingNode):
            stack.extend((x, depth + 1) for kv in n.value for x in kv)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend((x, depth + 1) for x in n.value)


def _load_yaml(text: str) -> Any:
    loader = _SafeLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        _expanded_size(root)
        _check_graph(root)
        return loader.construct_document(root)
    except SpecError:
        raise
    except yaml.YAMLError as e:
        raise SpecError("parse_error", f"not YAML: {str(e).splitlines()[0]}") from e
    except RecursionError as e:  # pragma: no cover - the depth bound comes first
        raise SpecError("too_deep", "YAML nesting too deep") from e
    finally:
        loader.dispose()


def _bounded_tree(doc: Any) -> Any:
    """Copy ``doc`` with string keys, checking types and sizes iteratively."""
    out: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(doc, out, 0)]
    nodes = 0
    while stack:
        value, parent, key = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise SpecError("too_large", f"more than {MAX_NODES} nodes")
        if isinstance(value, bool) or value is None:
            parent[key] = value
        elif isinstance(value, int):
            if value.bit_length() > MAX_INT_BITS:
                raise SpecError("value_too_large", f"integer of {value.bit_length()} bits")
            parent[key] = value
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise SpecError("non_finite_number", "NaN or infinity in the document")
            parent[key] = value
        elif isinstance(value, str):
            if len(value) > MAX_STRING:
                raise SpecError("value_too_large", f"string of {len(value)} characters")
            parent[key] = value
        elif isinstance(value, dict):
            new: dict[str, Any] = {}
            parent[key] = new
            for k, v in value.items():
                if not isinstance(k, str | int | float | bool) and k is not None:
                    raise SpecError("bad_type", f"mapping key of type {type(k).__name__}")
                sk = k if isinstance(k, str) else json.dumps(k) if k is not None else "null"
                if sk in new:
                    raise SpecError("duplicate_keys", f"keys collide as {sk!r}")
                new[sk] = None
                stack.append((v, new, sk))
        elif isinstance(value, list):
            lst: list[Any] = [None] * len(value)
            parent[key] = lst
            stack.extend((v, lst, i) for i, v in enumerate(value))
        else:
            raise SpecError("bad_type", f"value of type {type(value).__name__} (e.g. !!binary)")
    return out[0]


def load_document(body: bytes, *, content_type: str = "", url: str = "") -> tuple[Any, str]:
    """(tree, "json"|"yaml") or ``SpecError``; see the module docstring for the bounds."""
    if len(body) > MAX_BYTES:
        raise SpecError("too_large", f"{len(body)} bytes, over {MAX_BYTES}")
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SpecError("not_utf8", f"not UTF-8: {e}") from e
    if _max_depth(text) > MAX_DEPTH:
        raise SpecError("too_deep", f"nesting deeper than {MAX_DEPTH}")
    stripped = text.lstrip()
    as_json = stripped.startswith(("{", "[")) or "json" in content_type.lower()
    if as_json:
        try:
            doc = json.loads(text, object_pairs_hook=_no_dupes, parse_constant=_no_constants)
            return _bounded_tree(doc), "json"
        except SpecError:
            raise
        except RecursionError as e:  # pragma: no cover - pre-checked
            raise SpecError("too_deep", "JSON nesting too deep") from e
        except ValueError as e:
            if stripped.startswith(("{", "[")):
                raise SpecError("parse_error", f"not JSON: {e}") from e
    return _bounded_tree(_load_yaml(text)), "yaml"


# --------------------------------------------------------------------------------------------
# Validation

_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def _pointer(doc: Any, ref: str) -> bool:
    """Does the internal ref ``#/a/b`` resolve in ``doc``? (lookup only, no inlining)"""
    node = doc
    frag = unquote(ref[1:])
    if frag in ("", "/"):
        return True
    for part in frag.lstrip("/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


def _refs(doc: Any) -> dict[str, int]:
    counts = {"internal": 0, "external": 0, "missing": 0}
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                if ref.startswith("#"):
                    counts["internal"] += 1
                    if not _pointer(doc, ref):
                        counts["missing"] += 1
                else:
                    counts["external"] += 1  # recorded, never fetched or read
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return counts


def _servers(
    doc: dict[str, Any], check: Callable[[str], str | None] | None
) -> list[dict[str, str]]:
    urls: list[str] = []
    for s in doc.get("servers") or [] if isinstance(doc.get("servers"), list) else []:
        if isinstance(s, dict) and isinstance(s.get("url"), str):
            urls.append(s["url"])
    host = doc.get("host")
    if isinstance(host, str):
        raw_schemes = doc.get("schemes")
        schemes: list[Any] = raw_schemes if isinstance(raw_schemes, list) else ["https"]
        base = doc.get("basePath") if isinstance(doc.get("basePath"), str) else ""
        urls.extend(f"{s}://{host}{base}" for s in schemes if isinstance(s, str))
    out = []
    for u in urls[:20]:
        verdict = (check(u) if check else None) or "ok"
        out.append({"url": u[:500], "policy": verdict})
    return out


def inspect_spec(
    body: bytes,
    *,
    content_type: str = "",
    url: str = "",
    check: Callable[[str], str | None] | None = None,
) -> SpecInfo:
    """Parse and validate an OpenAPI/Swagger document; never raises for bad input."""
    try:
        doc, fmt = load_document(body, content_type=content_type, url=url)
    except SpecError as e:
        return SpecInfo(False, e.reason, e.message)
    if not isinstance(doc, dict):
        return SpecInfo(False, "not_an_object", "the document is not an object", fmt)
    raw = doc.get("openapi", doc.get("swagger"))
    if raw is None:
        return SpecInfo(False, "not_openapi", "no 'openapi' or 'swagger' field", fmt)
    version = raw if isinstance(raw, str) else json.dumps(raw)
    key = "openapi" if "openapi" in doc else "swagger"
    ok = (key == "openapi" and isinstance(raw, str) and raw.startswith("3.")) or (
        key == "swagger" and raw == "2.0"
    )
    if not ok:
        return SpecInfo(
            False,
            "unsupported_version",
            f"{key} version {version!r} is not supported",
            fmt,
            version,
        )
    notes: list[str] = []
    info = doc.get("info")
    title = ""
    if isinstance(info, dict) and isinstance(info.get("title"), str):
        title = info["title"]
    else:
        notes.append("missing or malformed 'info'")
    paths = doc.get("paths")
    ops = 0
    if isinstance(paths, dict):
        for item in paths.values():
            if isinstance(item, dict):
                ops += sum(1 for m in _METHODS if isinstance(item.get(m), dict))
    else:
        paths = {}
        notes.append("no 'paths'" if "paths" not in doc else "'paths' is not an object")
    raw_hooks = doc.get("webhooks")
    hooks: dict[str, Any] = raw_hooks if isinstance(raw_hooks, dict) else {}
    refs = _refs(doc)
    if refs["external"]:
        notes.append(f"{refs['external']} external $ref left unresolved (never fetched)")
    if refs["missing"]:
        notes.append(f"{refs['missing']} internal $ref do not resolve")
    return SpecInfo(
        True,
        "",
        f"{'OpenAPI' if key == 'openapi' else 'Swagger'} {version} '{title}': "
        f"{len(paths)} paths, {ops} operations",
        fmt,
        version,
        title,
        len(paths),
        ops,
        len(hooks),
        refs,
        _servers(doc, check),
        notes,
    )


# --------------------------------------------------------------------------------------------
# Loading a spec for extraction, and bounded $ref resolution

SCHEMA_DEPTH = 32  # nested objects/arrays inside one expanded schema (about 16 property levels)
EXPANSION_BUDGET = 20_000  # expanded nodes per operation (a cycle-free spec can reach 10**9)
MAX_REF_HOPS = 64  # a $ref that points at a $ref that points at ... (a chain)
MAX_ISSUES = 200

ISSUE_CODES = (
    "bad_server",  # a server URL that is not http(s) or relative: dropped
    "bad_structure",  # a part of an operation of the wrong type: that part skipped
    "missing_info",  # no 'info' object
    "no_paths",  # neither 'paths' nor 'webhooks': no operations
    "ref_budget",  # the operation's expansion budget ran out: {"$truncated": "budget"}
    "ref_cycle",  # a $ref met inside its own expansion: {"$cycle": ref}
    "ref_depth",  # nesting or a $ref chain past the caps: {"$truncated": "depth"}
    "ref_external",  # another file or URL: never read, {"$external": ref}
    "ref_missing",  # an internal $ref that does not resolve: {"$unresolved": ref}
)


@dataclass(frozen=True)
class SpecIssue:
    """A non-fatal fault, with the JSON pointer where it was met."""

    code: str  # one of ISSUE_CODES
    pointer: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "pointer": self.pointer, "message": self.message}


def escape_pointer(*parts: str) -> str:
    """RFC 6901 pointer of ``parts`` (``~`` → ``~0``, ``/`` → ``~1``)."""
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


def load_spec(body: bytes, *, content_type: str = "", url: str = "") -> tuple[dict[str, Any], str]:
    """(document, version) of an OpenAPI 3.x / Swagger 2.0 spec, or ``SpecError``."""
    doc, _fmt = load_document(body, content_type=content_type, url=url)
    if not isinstance(doc, dict):
        raise SpecError("not_an_object", "the document is not an object")
    key = "openapi" if "openapi" in doc else "swagger" if "swagger" in doc else ""
    if not key:
        raise SpecError("not_openapi", "no 'openapi' or 'swagger' field")
    raw = doc[key]
    ok = isinstance(raw, str) and (
        (key == "openapi" and raw.startswith("3.")) or (key == "swagger" and raw == "2.0")
    )
    if not ok:
        raise SpecError(
            "unsupported_version", f"{key} version {raw!r} is not supported", escape_pointer(key)
        )
    for name in ("paths", "webhooks", "components", "definitions", "parameters", "responses"):
        if name in doc and not isinstance(doc[name], dict):
            raise SpecError("bad_structure", f"'{name}' is not an object", escape_pointer(name))
    return doc, raw


_MISSING = object()


class Budget:
    """Expanded-node allowance of one operation."""

    def __init__(self, nodes: int = EXPANSION_BUDGET) -> None:
        self.left = nodes
        self.exhausted = False

    def take(self) -> bool:
        if self.left <= 0:
            self.exhausted = True
            return False
        self.left -= 1
        return True


class Resolver:
    """Internal ``$ref`` lookups and bounded schema expansion over one document.

    Iterative (no recursion), so no ``RecursionError`` whatever the spec. OpenAPI 3.1 keeps a
    ``$ref``'s sibling keys (they override the target's); 3.0 and Swagger 2 ignore them, as their
    specifications say. Issues are recorded once per (code, ref) in ``issues``.
    """

    def __init__(self, doc: dict[str, Any], version: str) -> None:
        self.doc = doc
        self.keep_siblings = version.startswith("3.1")
        self.issues: list[SpecIssue] = []
        self._seen: set[tuple[str, str]] = set()

    def issue(self, code: str, pointer: str, message: str, key: str = "") -> None:
        if (code, key or pointer) in self._seen or len(self.issues) >= MAX_ISSUES:
            return
        self._seen.add((code, key or pointer))
        self.issues.append(SpecIssue(code, pointer, message))

    def lookup(self, ref: str) -> Any:
        """The node at internal ref ``#/a/b`` or ``_MISSING``."""
        node: Any = self.doc
        frag = ref[1:]
        if frag in ("", "/"):
            return node
        for part in frag.lstrip("/").split("/"):
            part = unquote(part).replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                return _MISSING
        return node

    def follow(self, node: Any, where: str) -> tuple[Any, tuple[str, ...], dict[str, Any]]:
        """Follow ``$ref`` hops from ``node``: (target, refs followed, marker).

        ``marker`` is non-empty when following stopped (``$external``, ``$unresolved``,
        ``$cycle``, ``$truncated``); the target is then ``None``.
        """
        chain: tuple[str, ...] = ()
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if not ref.startswith("#"):
                self.issue("ref_external", where, f"external $ref {ref!r} is not read", ref)
                return None, chain, {"$external": ref}
            if ref in chain:
                self.issue("ref_cycle", where, f"circular $ref {ref!r}", ref)
                return None, chain, {"$cycle": ref}
            if len(chain) >= MAX_REF_HOPS:
                self.issue("ref_depth", where, f"$ref chain longer than {MAX_REF_HOPS}", ref)
                return None, chain, {"$truncated": "depth"}
            target = self.lookup(ref)
            if target is _MISSING:
                self.issue("ref_missing", where, f"$ref {ref!r} does not resolve", ref)
                return None, chain, {"$unresolved": ref}
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            if self.keep_siblings and siblings and isinstance(target, dict):
                target = {**target, **siblings}
            chain += (ref,)
            node = target
        return node, chain, {}

    def expand(self, node: Any, where: str, budget: Budget, chain: tuple[str, ...] = ()) -> Any:
        """A copy of schema ``node`` with internal refs inlined, within the bounds
        (module docs: ``$cycle``, ``$truncated``, ``$external``, ``$unresolved`` markers);
        ``x-`` extension keys are dropped."""
        out: list[Any] = [None]
        stack: list[tuple[Any, Any, Any, int, tuple[str, ...]]] = [(node, out, 0, 0, chain)]
        while stack:
            src, parent, key, depth, active = stack.pop()
            if not budget.take():
                parent[key] = {"$truncated": "budget"}
                self.issue("ref_budget", where, f"over {EXPANSION_BUDGET} expanded nodes")
                continue
            name = ""
            if isinstance(src, dict) and "$ref" in src:
                target, refs, marker = self.follow(src, where)
                cyc = next((r for r in refs if r in active), "")
                if cyc:
                    self.issue("ref_cycle", where, f"circular $ref {cyc!r}", cyc)
                    parent[key] = {"$cycle": cyc}
                    continue
                if marker:
                    parent[key] = marker
                    continue
                src, active = target, active + refs
                name = unquote(refs[-1].rsplit("/", 1)[-1]).replace("~1", "/").replace("~0", "~")
            if isinstance(src, dict | list) and depth >= SCHEMA_DEPTH:
                self.issue("ref_depth", where, f"schema nested deeper than {SCHEMA_DEPTH}")
                parent[key] = {"$truncated": "depth"}
            elif isinstance(src, dict):
                new: dict[str, Any] = {"$ref-name": name} if name else {}
                parent[key] = new
                for k, v in src.items():
                    if k.startswith("x-"):
                        continue
                    new[k] = v
                    if isinstance(v, dict | list):
                        stack.append((v, new, k, depth + 1, active))
            elif isinstance(src, list):
                lst: list[Any] = list(src)
                parent[key] = lst
                stack.extend(
                    (v, lst, i, depth + 1, active)
                    for i, v in enumerate(src)
                    if isinstance(v, dict | list)
                )
            else:
                parent[key] = src
        return out[0]
