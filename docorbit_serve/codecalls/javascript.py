"""JavaScript / TypeScript code -> API calls, parsed with tree-sitter (grammars from registry
wheels, nothing downloaded) (issue 15 point 2).

Contract: ``js_calls(source, file="", *, dialect="js"|"ts"|"tsx") -> list[ApiCall]`` (sorted by
line, column). Recognised:
- ``fetch(url, {method, headers, body})`` (also ``window.fetch``/``globalThis.fetch``); body keys
  from ``JSON.stringify({...})``, ``new URLSearchParams({...})`` or an object variable;
- ``ky`` / ``got`` / ``node-fetch`` / ``undici`` (imported): ``ky.post(url, {json, searchParams,
  headers})``, ``got(url, {method, …})``;
- axios: ``axios.get|delete|head|options(url, config)``, ``axios.post|put|patch(url, data,
  config)``, ``axios(config)``, ``axios(url, config)``, ``axios.request(config)``, and instances
  from ``axios.create({baseURL})``; ``params`` and ``headers`` keys from the config;
- SDK calls: a chain of properties ending in a call on an object built with ``new X(...)`` from
  an imported package (``client.chat.completions.create({...})``): ``sdk_chain`` and the first
  argument's keys as body fields;
- URLs from string literals, template strings and ``+`` with ``const`` names resolved; unknown
  parts become ``{name}`` (``template``) or the URL is ``dynamic``, never guessed;
- response fields: ``(await res.json()).x``, ``data.x``/``data["x"]`` on a variable holding it,
  axios ``res.data.x`` / ``const {data} = await axios…``, and properties read from an SDK result.
Source that does not parse still yields the calls tree-sitter recovered.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from tree_sitter import Language, Node, Parser

from docorbit_serve.codecalls.urls import split_url
from docorbit_serve.models.change import ApiCall

__all__ = ["js_calls"]

_VERBS = {"get", "post", "put", "patch", "delete", "head", "options"}
_DATA_VERBS = {"post", "put", "patch"}
_NODE_BUILTINS = {"fs", "path", "url", "http", "https", "crypto", "events", "stream", "util", "os"}
_OPTION_CLIENTS = {"ky", "got", "node-fetch", "cross-fetch", "undici"}
_JS_GLOBALS = {"Map", "Set", "WeakMap", "WeakSet", "URL", "URLSearchParams", "Date", "Error",
               "Promise", "Headers", "Request", "Response", "FormData", "AbortController",
               "RegExp", "Array", "Object", "Blob", "File", "TextEncoder", "TextDecoder",
               "Proxy", "Intl", "Worker", "WebSocket", "EventSource", "XMLHttpRequest"}  # fmt: skip
_NOT_FIELDS = {"json", "text", "status", "ok", "headers", "then", "catch", "statusText"}


@cache
def _parser(dialect: str) -> Parser:
    if dialect in ("ts", "tsx"):
        import tree_sitter_typescript as ts

        lang = ts.language_tsx() if dialect == "tsx" else ts.language_typescript()
    else:
        import tree_sitter_javascript as js

        lang = js.language()
    return Parser(Language(lang))


def _walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def _unwrap(node: Node | None) -> Node | None:
    while node is not None and node.type in (
        "await_expression",
        "parenthesized_expression",
        "as_expression",
        "non_null_expression",
        "satisfies_expression",
    ):
        inner = [c for c in node.named_children if c.type not in ("type_annotation",)]
        node = inner[0] if inner else None
    return node


def _member_name(node: Node | None) -> str | None:
    node = _unwrap(node)
    if node is None:
        return None
    if node.type in ("identifier", "this"):
        return _text(node)
    if node.type == "member_expression":
        base = _member_name(node.child_by_field_name("object"))
        prop = node.child_by_field_name("property")
        return f"{base}.{_text(prop)}" if base and prop is not None else None
    return None


def _string_value(node: Node) -> str | None:
    if node.type == "string":
        return "".join(
            _text(c)
            for c in node.named_children
            if c.type in ("string_fragment", "escape_sequence")
        )
    return None


class _File:
    def __init__(self, source: str, file: str, dialect: str) -> None:
        self.src = source
        self.file = file
        self.lines = source.splitlines()
        self.language = "typescript" if dialect in ("ts", "tsx") else "javascript"
        self.root = _parser(dialect).parse(source.encode("utf-8")).root_node
        self.imports: dict[str, str] = {}
        self.consts: dict[str, Node] = {}
        self.objects: dict[str, Node] = {}
        self.axios: dict[str, str | None] = {}  # axios and its instances -> baseURL
        self.sdk: dict[str, str] = {}
        self.axios_headers: dict[str, list[str]] = {}
        self.classes = {
            _text(n.child_by_field_name("name"))
            for n in _walk(self.root)
            if n.type in ("class_declaration", "class")
        }
        self._collect()

    # ----------------------------------------------------------------- declarations

    def _collect(self) -> None:
        assigned: dict[str, list[Node]] = {}
        for n in _walk(self.root):
            if n.type == "import_statement":
                self._import(n)
            elif n.type == "variable_declarator":
                ident, value = n.child_by_field_name("name"), n.child_by_field_name("value")
                if ident is not None and ident.type == "identifier" and value is not None:
                    assigned.setdefault(_text(ident), []).append(value)
            elif n.type == "assignment_expression":
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                nm = _member_name(left)
                if nm and right is not None:
                    assigned.setdefault(nm, []).append(right)
        for name, values in assigned.items():
            if len(values) != 1:
                continue
            v = _unwrap(values[0])
            if v is None:
                continue
            if v.type in ("string", "template_string", "binary_expression"):
                self.consts[name] = v
            elif v.type == "object":
                self.objects[name] = v
            elif v.type == "call_expression":
                self._bind_call(name, v)
            elif v.type == "new_expression":
                ctor = _member_name(v.child_by_field_name("constructor"))
                head = (ctor or "").split(".")[0]
                mod = self.imports.get(head, "")
                if ctor and mod and not mod.startswith(".") and mod not in _NODE_BUILTINS:
                    self.sdk[name] = f"{mod}:{ctor}"
                elif ctor and not mod and head not in _JS_GLOBALS and head not in self.classes:
                    self.sdk[name] = f"?:{ctor}"  # a snippet's `new OpenAI()` without its import

    def _import(self, n: Node) -> None:
        src = n.child_by_field_name("source")
        mod = _string_value(src) if src is not None else None
        if not mod:
            return
        for c in _walk(n):
            if (
                c.type == "identifier"
                and c.parent is not None
                and c.parent.type
                in (
                    "import_clause",
                    "namespace_import",
                    "import_specifier",
                )
            ):
                self.imports[_text(c)] = mod

    def _bind_call(self, name: str, call: Node) -> None:
        fn = _member_name(call.child_by_field_name("function"))
        args = self._args(call)
        if fn == "require" and args and args[0].type == "string":
            self.imports[name] = _string_value(args[0]) or ""
        elif fn and fn.endswith(".create") and self._is_axios(fn[: -len(".create")]):
            cfg = _unwrap(args[0]) if args else None
            base = self._object_value(cfg, "baseURL") if cfg is not None else None
            self.axios[name] = self.string(base)[0] if base is not None else None
            heads, _ = self.keys(self._object_value(cfg, "headers"))
            self.axios_headers[name] = [h.lower() for h in heads]
        else:
            self._bind_factory(name, call, fn)

    def _bind_factory(self, name: str, call: Node, fn: str | None) -> None:
        """SDK clients made by a factory: ``Stripe(key)`` (imported), ``require("stripe")(key)``."""
        inner = _unwrap(call.child_by_field_name("function"))
        if inner is not None and inner.type == "call_expression":
            req = _member_name(inner.child_by_field_name("function"))
            args = self._args(inner)
            if req == "require" and args and args[0].type == "string":
                mod = _string_value(args[0]) or ""
                if mod and not mod.startswith(".") and mod not in _NODE_BUILTINS | {"axios"}:
                    self.sdk[name] = f"{mod}:()"
            return
        head = (fn or "").split(".")[0]
        mod = self.imports.get(head, "")
        package = bool(mod) and not mod.startswith(".") and mod not in _NODE_BUILTINS
        if fn == head and package and mod not in _OPTION_CLIENTS | {"axios"} and head[:1].isupper():
            self.sdk[name] = f"{mod}:{fn}()"

    def _is_axios(self, name: str) -> bool:
        # an import or require of axios, an instance, or the global of a snippet/browser page
        return (
            name in self.axios
            or self.imports.get(name) == "axios"
            or (name == "axios" and name not in self.imports)
        )

    # ----------------------------------------------------------------- values

    def _args(self, call: Node) -> list[Node]:
        a = call.child_by_field_name("arguments")
        return [c for c in a.named_children if c.type != "comment"] if a is not None else []

    def string(self, node: Node | None, depth: int = 0) -> tuple[str | None, bool]:
        node = _unwrap(node)
        if node is None or depth > 8:
            return None, False
        if node.type == "string":
            return _string_value(node), True
        if node.type == "identifier" and _text(node) in self.consts:
            return self.string(self.consts[_text(node)], depth + 1)
        if node.type == "template_string":
            out, exact = [], True
            for c in node.named_children:
                if c.type == "string_fragment":
                    out.append(_text(c))
                elif c.type == "template_substitution":
                    inner = c.named_children[0] if c.named_children else None
                    val, ok = self.string(inner, depth + 1)
                    if val is not None and ok:
                        out.append(val)
                    else:
                        nm = _member_name(inner)
                        out.append("{" + (nm.rsplit(".", 1)[-1] if nm else "expr") + "}")
                        exact = False
                elif c.type == "escape_sequence":
                    out.append(_text(c)[1:])
            return "".join(out), exact
        if node.type == "binary_expression" and _text(node.child_by_field_name("operator")) == "+":
            parts = []
            exact = True
            for side in (node.child_by_field_name("left"), node.child_by_field_name("right")):
                val, ok = self.string(side, depth + 1)
                if val is None:
                    nm = _member_name(side)
                    val, ok = "{" + (nm.rsplit(".", 1)[-1] if nm else "expr") + "}", False
                parts.append(val)
                exact = exact and ok
            return "".join(parts), exact
        return None, False

    def _object_value(self, obj: Node | None, key: str) -> Node | None:
        obj = self._object(obj)
        if obj is None:
            return None
        for p in obj.named_children:
            if p.type == "pair" and self._key(p.child_by_field_name("key")) == key:
                return p.child_by_field_name("value")
            if p.type == "shorthand_property_identifier" and _text(p) == key:
                ident = p
                return self.consts.get(_text(ident)) or self.objects.get(_text(ident)) or ident
        return None

    def _object(self, node: Node | None) -> Node | None:
        node = _unwrap(node)
        if node is not None and node.type == "identifier":
            node = self.objects.get(_text(node))
        return node if node is not None and node.type == "object" else None

    def _key(self, node: Node | None) -> str | None:
        if node is None:
            return None
        if node.type in ("property_identifier", "identifier"):
            return _text(node)
        return _string_value(node)

    def keys(self, node: Node | None) -> tuple[list[str], bool]:
        node = _unwrap(node)
        if node is None:
            return [], True
        if node.type == "call_expression":  # JSON.stringify({...}), new URLSearchParams({...})
            fn = _member_name(node.child_by_field_name("function"))
            if fn == "JSON.stringify":
                args = self._args(node)
                return self.keys(args[0]) if args else ([], False)
        if node.type == "new_expression":
            ctor = _member_name(node.child_by_field_name("constructor"))
            args = self._args(node)
            if ctor in ("URLSearchParams", "Headers") and args:
                return self.keys(args[0])
            return [], False
        obj = self._object(node)
        if obj is None:
            return [], False
        out, ok = [], True
        for p in obj.named_children:
            if p.type == "pair":
                k = self._key(p.child_by_field_name("key"))
                if k is None:
                    ok = False
                else:
                    out.append(k)
            elif p.type == "shorthand_property_identifier":
                out.append(_text(p))
            elif p.type == "spread_element":
                ok = False
        return sorted(set(out)), ok

    # ----------------------------------------------------------------- calls

    def snippet(self, node: Node) -> str:
        row = node.start_point[0]
        return self.lines[row].strip()[:240] if row < len(self.lines) else ""

    def call(self, node: Node) -> ApiCall | None:
        fn = _member_name(node.child_by_field_name("function"))
        if not fn:
            return None
        args = self._args(node)
        if fn in ("fetch", "window.fetch", "globalThis.fetch", "self.fetch"):
            return self._fetch(node, args)
        head, _, verb = fn.rpartition(".")
        if self._is_axios(fn) or (head and self._is_axios(head) and verb in _VERBS | {"request"}):
            return self._axios(node, fn, head, verb, args)
        if self.imports.get(fn) in _OPTION_CLIENTS or (
            head and self.imports.get(head) in _OPTION_CLIENTS and verb in _VERBS
        ):
            return self._options_client(node, fn, verb if head else "", args)
        return self._sdk(node, fn, args)

    def _options_client(self, node: Node, fn: str, verb: str, args: list[Node]) -> ApiCall:
        """ky / got / node-fetch style: ``ky.post(url, {json, searchParams, headers})``."""
        opts = args[1] if len(args) > 1 else None
        m = self._object_value(opts, "method")
        method: str | None
        if verb:
            method, exact = verb.upper(), True
        else:
            method, exact = self.string(m) if m is not None else ("GET", True)
        body = self._object_value(opts, "json") or self._object_value(opts, "body")
        body = body if body is not None else self._object_value(opts, "form")
        return self._make(
            node, self.imports.get(fn.split(".")[0], "fetch"),
            (method or "").upper() if exact and method else None, None,
            args[0] if args else None, [] if exact and method else ["method"],
            self._object_value(opts, "searchParams"), body, self._object_value(opts, "headers"),
        )  # fmt: skip

    def _fetch(self, node: Node, args: list[Node]) -> ApiCall:
        opts = args[1] if len(args) > 1 else None
        m = self._object_value(opts, "method")
        method, exact = self.string(m) if m is not None else ("GET", True)
        dyn = [] if exact and method else ["method"]
        body = self._object_value(opts, "body")
        return self._make(
            node, "fetch", (method or "").upper() if exact and method else None, None,
            args[0] if args else None, dyn, None, body, self._object_value(opts, "headers"),
        )  # fmt: skip

    def _axios(self, node: Node, fn: str, head: str, verb: str, args: list[Node]) -> ApiCall:
        inst = fn if self._is_axios(fn) else head
        base = self.axios.get(inst)
        dyn: list[str] = []
        url_node: Node | None
        cfg: Node | None
        data: Node | None
        if self._is_axios(fn) or verb == "request":  # axios(config) / axios(url, config)
            if args and _unwrap(args[0]) is not None and _unwrap(args[0]).type != "object":  # type: ignore[union-attr]
                url_node, cfg = args[0], (args[1] if len(args) > 1 else None)
            else:
                cfg = args[0] if args else None
                url_node = self._object_value(cfg, "url")
            m = self._object_value(cfg, "method")
            method, exact = self.string(m) if m is not None else ("GET", True)
            if not (exact and method):
                dyn.append("method")
            data = self._object_value(cfg, "data")
            mth = (method or "").upper() if exact and method else None
        else:
            url_node = args[0] if args else None
            data = args[1] if verb in _DATA_VERBS and len(args) > 1 else None
            cfg = (
                args[2 if verb in _DATA_VERBS else 1]
                if len(args) > (2 if verb in _DATA_VERBS else 1)
                else None
            )
            mth = verb.upper()
        call = self._make(
            node, "axios", mth, base, url_node, dyn,
            self._object_value(cfg, "params"), data, self._object_value(cfg, "headers"),
        )  # fmt: skip
        extra = list(self.axios_headers.get(inst, []))
        if self._object_value(cfg, "auth") is not None:  # axios basic auth
            extra.append("authorization")
        if extra:
            call.headers = sorted(set(call.headers) | set(extra))
        return call

    def _make(
        self,
        node: Node,
        client: str,
        method: str | None,
        base: str | None,
        url_node: Node | None,
        dyn: list[str],
        params: Node | None,
        body: Node | None,
        headers: Node | None,
    ) -> ApiCall:
        url, _ = self.string(url_node)
        if url is not None and base and "://" not in url:
            url = base.rstrip("/") + "/" + url.lstrip("/")
        host, path, qfields, kind = split_url(url)
        if kind == "dynamic":
            dyn.append("url")
        q, ok = self.keys(params)
        if not ok:
            dyn.append("params")
        b, ok = self.keys(body)
        if not ok:
            dyn.append("body")
        h, ok = self.keys(headers)
        if not ok:
            dyn.append("headers")
        return ApiCall(
            file=self.file,
            line=node.start_point[0] + 1,
            column=node.start_point[1],
            language=self.language,
            client=client,
            snippet=self.snippet(node),
            method=method,
            url=url,
            path=path,
            host=host,
            url_kind=kind,  # type: ignore[arg-type]
            query_fields=sorted(set(qfields) | set(q)),
            body_fields=b,
            headers=sorted({x.lower() for x in h}),
            dynamic=sorted(set(dyn)),
        )

    def _sdk(self, node: Node, fn: str, args: list[Node]) -> ApiCall | None:
        parts = fn.split(".")
        for i in range(len(parts) - 1, 0, -1):
            if ".".join(parts[:i]) in self.sdk:
                chain = parts[i:]
                break
        else:
            return None
        if len(chain) < 2:
            return None
        objs = [a for a in args if (u := _unwrap(a)) is not None and u.type == "object"]
        ids = [a for a in args if a not in objs]
        keys, ok = self.keys(objs[0]) if objs else ([], not args or bool(ids))
        return ApiCall(
            file=self.file,
            line=node.start_point[0] + 1,
            column=node.start_point[1],
            language=self.language,
            client="sdk",
            snippet=self.snippet(node),
            sdk_chain=chain,
            positional_args=len(ids),
            body_fields=keys,
            dynamic=[] if ok else ["body"],
        )


# --------------------------------------------------------------------------- response fields


def _declared(n: Node) -> tuple[Node | None, Node | None]:
    return n.child_by_field_name("name"), _unwrap(n.child_by_field_name("value"))


def _response_fields(f: _File, calls: dict[tuple[int, int], ApiCall]) -> None:
    """Bind variables to calls / parsed bodies by line, then read member accesses on them."""
    binds: dict[str, list[tuple[int, str, tuple[int, int]]]] = {}

    def get(name: str, line: int, kind: str) -> tuple[int, int] | None:
        found = [b for b in binds.get(name, []) if b[0] <= line]
        return found[-1][2] if found and found[-1][1] == kind else None

    def body_of(node: Node | None, line: int) -> tuple[int, int] | None:
        node = _unwrap(node)
        if node is None:
            return None
        if node.type == "identifier":
            return get(_text(node), line, "json")
        if node.type == "call_expression":
            fn = node.child_by_field_name("function")
            if fn is not None and fn.type == "member_expression":
                prop = _text(fn.child_by_field_name("property"))
                obj = _unwrap(fn.child_by_field_name("object"))
                if prop == "json" and obj is not None:
                    if obj.type == "identifier":
                        return get(_text(obj), line, "resp")
                    if _key(obj) in calls:
                        return _key(obj)
        if (
            node.type == "member_expression"
            and _text(node.child_by_field_name("property")) == "data"
        ):
            obj = _unwrap(node.child_by_field_name("object"))
            if obj is not None and obj.type == "identifier":
                return get(_text(obj), line, "resp")
            if obj is not None and _key(obj) in calls:
                return _key(obj)
        return None

    def _key(n: Node) -> tuple[int, int]:
        return (n.start_byte, n.end_byte)

    decls = sorted(
        (n for n in _walk(f.root) if n.type == "variable_declarator"), key=lambda n: n.start_byte
    )
    for d in decls:
        name, value = _declared(d)
        line = d.start_point[0]
        if name is None or value is None:
            continue
        if value.type == "call_expression" and _key(value) in calls:
            c = calls[_key(value)]
            kind = "sdk" if c.client == "sdk" else "resp"
            if name.type == "identifier":
                binds.setdefault(_text(name), []).append((line, kind, _key(value)))
            elif name.type == "object_pattern" and c.client == "axios":
                for p in name.named_children:
                    if _text(p) == "data":
                        binds.setdefault("data", []).append((line, "json", _key(value)))
            continue
        target = body_of(value, line)
        if target is not None and name.type == "identifier":
            binds.setdefault(_text(name), []).append((line, "json", target))
    for n in _walk(f.root):
        if n.type not in ("member_expression", "subscript_expression"):
            continue
        line = n.start_point[0]
        obj = n.child_by_field_name("object")
        fld: str | None
        if n.type == "member_expression":
            fld = _text(n.child_by_field_name("property"))
        else:
            idx = n.child_by_field_name("index")
            fld = _string_value(idx) if idx is not None else None
        if not fld or fld in _NOT_FIELDS:
            continue
        key = body_of(obj, line)
        u = _unwrap(obj)
        if key is None and u is not None and u.type == "identifier":
            key = get(_text(u), line, "sdk")
        if (
            key is not None
            and key in calls
            and not (fld == "data" and calls[key].client == "axios")
        ):
            got = calls[key].response_fields
            if fld not in got:
                got.append(fld)
                got.sort()


def js_calls(source: str, file: str = "", *, dialect: str = "js") -> list[ApiCall]:
    f = _File(source, file, dialect)
    calls: dict[tuple[int, int], ApiCall] = {}
    for n in _walk(f.root):
        if n.type == "call_expression":
            got = f.call(n)
            if got is not None:
                calls[(n.start_byte, n.end_byte)] = got
    _response_fields(f, calls)
    return sorted(calls.values(), key=lambda c: (c.line, c.column))
