"""Python code -> API calls, with the standard library's ``ast`` (issue 15 point 2).

Contract: ``python_calls(source, file="") -> list[ApiCall]`` (sorted by line, column); a file
that does not parse gives ``[]``. Recognised:
- HTTP clients: ``requests`` / ``httpx`` / ``urllib3`` module functions (``get`` … ``request``), their sessions
  and clients (``requests.Session()``, ``httpx.Client(base_url=…)``, ``AsyncClient``,
  ``urllib3.PoolManager()``, also in
  ``with``), ``aiohttp.ClientSession`` (``async with``), ``urllib.request.urlopen`` and
  ``Request(…, data=…, method=…)``. Method, URL (``base_url`` joined), ``params``/query string,
  ``json``/``data``/``files`` keys and ``headers`` keys come from literals, module constants,
  f-strings, ``+``, ``%`` and ``str.format``; an unknown part becomes ``{name}`` and the URL is
  ``template``; anything else is ``dynamic`` (listed in ``dynamic``, never guessed).
- SDK calls: a chain of attributes ending in a call on an object built from a third-party class
  (``client = OpenAI(); client.chat.completions.create(model=…)``) or on a third-party module
  (``openai.ChatCompletion.create``): ``sdk_chain`` and keyword arguments as body fields. The
  endpoint it maps to is decided by ``docorbit_serve.verify`` from the served docs.
- Response fields read: subscripts / ``.get("x")`` on the response's ``.json()`` (or a variable
  holding it), and attributes read from an SDK call's result.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from typing import Any

from docorbit_serve.codecalls.urls import split_url
from docorbit_serve.models.change import ApiCall

__all__ = ["python_calls"]

HTTP_MODULES = {"requests", "httpx", "aiohttp", "urllib3"}
VERBS = {"get", "post", "put", "patch", "delete", "head", "options"}
_SESSION_CLASSES = {"Session", "Client", "AsyncClient", "ClientSession", "PoolManager"}
_STDLIB = set(sys.stdlib_module_names)
_PY_BUILTIN_CLASSES = {"Exception", "ValueError", "TypeError", "KeyError", "RuntimeError"}
_NOT_FIELDS = {
    "status_code",
    "status",
    "text",
    "content",
    "headers",
    "ok",
    "json",
    "raise_for_status",
    "url",
    "reason",
    "cookies",
    "elapsed",
    "encoding",
    "read",
    "close",
}


@dataclass
class _Session:
    module: str
    base: str | None = None
    headers: list[str] = field(default_factory=list)  # default headers sent by every call


@dataclass
class _Scope:
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted origin
    consts: dict[str, ast.expr] = field(default_factory=dict)
    sessions: dict[str, _Session] = field(default_factory=dict)
    sdk_objects: dict[str, str] = field(default_factory=dict)  # var -> class origin
    dicts: dict[str, ast.expr] = field(default_factory=dict)
    classes: set[str] = field(default_factory=set)  # classes defined in the file


def _name(node: ast.AST) -> str | None:
    """Dotted name of ``a.b.c`` (``self.client`` too); None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _name(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _origin(scope: _Scope, dotted: str) -> str:
    head, _, tail = dotted.partition(".")
    mod = scope.imports.get(head)
    if mod is None:
        return dotted
    return f"{mod}.{tail}" if tail else mod


def _collect(tree: ast.Module) -> _Scope:
    scope = _Scope()
    assigned: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                scope.imports[(a.asname or a.name).split(".")[0]] = (
                    a.name if a.asname else a.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                scope.imports[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                n = _name(t)
                if n:
                    assigned.setdefault(n, []).append(node.value)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                n = _name(item.optional_vars) if item.optional_vars else None
                if n:
                    assigned.setdefault(n, []).append(item.context_expr)
        elif isinstance(node, ast.ClassDef):
            scope.classes.add(node.name)
    for n, values in assigned.items():
        if len(values) != 1:
            continue  # assigned more than once: its value is not static
        v = values[0]
        if isinstance(v, (ast.Constant, ast.JoinedStr, ast.BinOp)):
            scope.consts[n] = v
        elif isinstance(v, ast.Dict):
            scope.dicts[n] = v
        elif isinstance(v, ast.Call):
            _bind_call(scope, n, v)
    _session_headers(scope, tree)
    return scope


def _bind_call(scope: _Scope, var: str, call: ast.Call) -> None:
    fn = _name(call.func)
    if not fn:
        return
    origin = _origin(scope, fn)
    root = origin.split(".")[0]
    last = origin.rsplit(".", 1)[-1]
    if root in HTTP_MODULES and last in _SESSION_CLASSES:
        base = _kw(call, "base_url")
        heads, _ = _dict_keys(scope, _kw(call, "headers"))
        scope.sessions[var] = _Session(
            root, _const_str(scope, base) if base is not None else None, [h.lower() for h in heads]
        )
    elif (
        root not in _STDLIB
        and root not in HTTP_MODULES
        and last[:1].isupper()
        # imported from a package, or a snippet's bare `OpenAI()` (not a class of this file)
        and (fn.split(".")[0] in scope.imports or ("." not in fn and fn not in scope.classes))
        and fn not in _PY_BUILTIN_CLASSES
    ):
        scope.sdk_objects[var] = origin


def _session_headers(scope: _Scope, tree: ast.Module) -> None:
    """``s.headers.update({...})`` and ``s.headers["X"] = …`` add default headers."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "update"
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "headers"
            and node.args
        ):
            sess = scope.sessions.get(_name(node.func.value.value) or "")
            if sess is not None:
                keys, _ = _dict_keys(scope, node.args[0])
                sess.headers += [k.lower() for k in keys]
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            t = node.targets[0]
            if isinstance(t.value, ast.Attribute) and t.value.attr == "headers":
                sess = scope.sessions.get(_name(t.value.value) or "")
                if sess is not None and isinstance(t.slice, ast.Constant):
                    sess.headers.append(str(t.slice.value).lower())


def _kw(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _const_str(scope: _Scope, node: ast.expr) -> str | None:
    text, _ = _template(scope, node, 0)
    return text


def _placeholder(node: ast.expr) -> str:
    n = _name(node)
    if n:
        return "{" + n.rsplit(".", 1)[-1] + "}"
    try:
        return "{" + ast.unparse(node)[:40] + "}"
    except (ValueError, TypeError):  # pragma: no cover - unparse of a valid tree
        return "{expr}"


def _template(scope: _Scope, node: ast.expr | None, depth: int) -> tuple[str | None, bool]:
    """(text, exact): the string value with ``{name}`` for unknown parts; None if not a string."""
    if node is None or depth > 8:
        return None, False
    if isinstance(node, ast.Constant):
        return (node.value, True) if isinstance(node.value, str) else (None, False)
    if isinstance(node, ast.Name) and node.id in scope.consts:
        return _template(scope, scope.consts[node.id], depth + 1)
    if isinstance(node, ast.JoinedStr):
        out, exact = [], True
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(str(v.value))
                continue
            inner = v.value if isinstance(v, ast.FormattedValue) else v
            text, ok = _template(scope, inner, depth + 1)  # type: ignore[arg-type]
            if text is not None and ok:
                out.append(text)
            else:
                out.append(_placeholder(inner))  # type: ignore[arg-type]
                exact = False
        return "".join(out), exact
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, ea = _template(scope, node.left, depth + 1)
        b, eb = _template(scope, node.right, depth + 1)
        a = a if a is not None else _placeholder(node.left)
        b = b if b is not None else _placeholder(node.right)
        return a + b, ea and eb
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        fmt, _ = _template(scope, node.left, depth + 1)
        if fmt is not None:
            return fmt.replace("%s", "{arg}").replace("%d", "{arg}"), False
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    ):
        fmt, _ = _template(scope, node.func.value, depth + 1)
        if fmt is not None:
            return fmt, False
    return None, False


def _dict_keys(scope: _Scope, node: ast.expr | None) -> tuple[list[str], bool]:
    """Keys of a dict literal (or a variable holding one); (keys, readable)."""
    if node is None:
        return [], True
    if isinstance(node, ast.Name) and node.id in scope.dicts:
        node = scope.dicts[node.id]
    if isinstance(node, ast.Dict):
        keys = [
            str(k.value)
            for k in node.keys
            if isinstance(k, ast.Constant) and isinstance(k.value, str)
        ]
        return sorted(set(keys)), all(isinstance(k, ast.Constant) for k in node.keys)
    if isinstance(node, ast.Call) and _name(node.func) == "dict":
        return sorted(k.arg for k in node.keywords if k.arg), all(k.arg for k in node.keywords)
    if isinstance(node, (ast.List, ast.Tuple)):  # list of (key, value) pairs
        pairs = [
            str(e.elts[0].value)
            for e in node.elts
            if isinstance(e, ast.Tuple) and e.elts and isinstance(e.elts[0], ast.Constant)
        ]
        return sorted(set(pairs)), True
    return [], False


def _snippet(lines: list[str], node: ast.AST) -> str:
    line = lines[node.lineno - 1] if 0 < node.lineno <= len(lines) else ""  # type: ignore[attr-defined]
    return line.strip()[:240]


def _http_call(scope: _Scope, call: ast.Call, lines: list[str], file: str) -> ApiCall | None:
    fn = _name(call.func)
    if not fn:
        return None
    head, _, verb = fn.rpartition(".")
    origin = _origin(scope, fn)
    session = scope.sessions.get(head) if head else None
    module = origin.split(".")[0]
    extra_headers: list[str] = []
    if session is not None and verb in VERBS | {"request", "stream"}:
        client, base = session.module, session.base
        extra_headers = session.headers
    elif (
        module in HTTP_MODULES and origin.count(".") == 1 and verb in VERBS | {"request", "stream"}
    ):
        client, base = module, None
    elif origin in ("urllib.request.urlopen", "urllib.request.Request"):
        return _urllib_call(scope, call, lines, file, origin)
    else:
        return None
    args = list(call.args)
    dynamic: list[str] = []
    method: str | None = verb.upper() if verb in VERBS else None
    if verb in ("request", "stream"):
        m_node = args.pop(0) if args else _kw(call, "method")
        m, exact = _template(scope, m_node, 0)
        method = m.upper() if m and exact else None
        if method is None:
            dynamic.append("method")
    url_node = args[0] if args else _kw(call, "url")
    return _finish(
        scope, call, lines, file, client, method, base, url_node, dynamic,
        query=_kw(call, "params")
        or (_kw(call, "fields") if method in ("GET", "HEAD", "DELETE") else None),
        # urllib3: fields= is the query of a GET and the form of a POST
        bodies=[_kw(call, "json"), _kw(call, "data"), _kw(call, "files")]
        + ([_kw(call, "fields")] if method not in (None, "GET", "HEAD", "DELETE") else []),
        headers=_kw(call, "headers"),
        default_headers=extra_headers,
    )  # fmt: skip


def _urllib_call(
    scope: _Scope, call: ast.Call, lines: list[str], file: str, origin: str
) -> ApiCall | None:
    first = call.args[0] if call.args else _kw(call, "url")
    if origin.endswith("urlopen"):
        if isinstance(first, ast.Call) and _origin(scope, _name(first.func) or "").endswith(
            "Request"
        ):
            return None  # the Request(...) inside is reported itself
        if isinstance(first, ast.Name) and first.id not in scope.consts:
            return None  # urlopen(req): the Request constructor is the call site
    data = _kw(call, "data") or (call.args[1] if len(call.args) > 1 else None)
    m_node = _kw(call, "method")
    method, exact = _template(scope, m_node, 0) if m_node is not None else (None, True)
    dynamic = [] if exact else ["method"]
    method = (method or ("POST" if data is not None else "GET")).upper() if exact else None
    return _finish(
        scope, call, lines, file, "urllib", method, None, first, dynamic,
        query=None, bodies=[], headers=_kw(call, "headers"), opaque_body=data is not None,
    )  # fmt: skip


def _finish(
    scope: _Scope,
    call: ast.Call,
    lines: list[str],
    file: str,
    client: str,
    method: str | None,
    base: str | None,
    url_node: ast.expr | None,
    dynamic: list[str],
    *,
    query: ast.expr | None,
    bodies: list[ast.expr | None],
    headers: ast.expr | None,
    opaque_body: bool = False,
    default_headers: list[str] | None = None,
) -> ApiCall:
    text, _ = _template(scope, url_node, 0)
    if text is None and url_node is not None:
        dynamic.append("url")
    url = text
    if url is not None and base and not url.lower().startswith(("http://", "https://")):
        url = base.rstrip("/") + "/" + url.lstrip("/")
    host, path, qfields, kind = split_url(url)
    if kind == "dynamic" and "url" not in dynamic:
        dynamic.append("url")
    qkeys, ok = _dict_keys(scope, query)
    if not ok:
        dynamic.append("params")
    body: list[str] = []
    for b in bodies:
        keys, ok = _dict_keys(scope, b)
        body += keys
        if not ok:
            dynamic.append("body")
    if opaque_body:
        dynamic.append("body")
    hkeys, ok = _dict_keys(scope, headers)
    hkeys = hkeys + list(default_headers or [])
    if _kw(call, "auth") is not None:  # requests/httpx/aiohttp auth= sets Authorization
        hkeys.append("authorization")
    if not ok:
        dynamic.append("headers")
    return ApiCall(
        file=file,
        line=call.lineno,
        column=call.col_offset,
        language="python",
        client=client,
        snippet=_snippet(lines, call),
        method=method,
        url=url,
        path=path,
        host=host,
        url_kind=kind,  # type: ignore[arg-type]
        query_fields=sorted(set(qfields) | set(qkeys)),
        body_fields=sorted(set(body)),
        headers=sorted({h.lower() for h in hkeys}),
        dynamic=sorted(set(dynamic)),
    )


def _sdk_call(scope: _Scope, call: ast.Call, lines: list[str], file: str) -> ApiCall | None:
    fn = _name(call.func)
    if not fn or "." not in fn:
        return None
    parts = fn.split(".")
    root, chain = None, []
    for i in range(len(parts) - 1, 0, -1):
        head = ".".join(parts[:i])
        if head in scope.sdk_objects:
            root, chain = scope.sdk_objects[head], parts[i:]
            break
    else:
        origin = _origin(scope, fn)
        mod = origin.split(".")[0]
        if parts[0] in scope.imports and mod not in _STDLIB | HTTP_MODULES and len(parts) >= 3:
            root, chain = mod, parts[1:]
    if root is None or len(chain) < 2:
        return None
    body = sorted(k.arg for k in call.keywords if k.arg)
    dynamic = ["body"] if any(k.arg is None for k in call.keywords) else []
    return ApiCall(
        file=file,
        line=call.lineno,
        column=call.col_offset,
        language="python",
        client="sdk",
        snippet=_snippet(lines, call),
        sdk_chain=chain,
        positional_args=sum(not isinstance(a, ast.Starred) for a in call.args),
        body_fields=body,
        dynamic=dynamic,
    )


# --------------------------------------------------------------------------- response fields


def _call_of(node: ast.expr | None) -> ast.Call | None:
    while isinstance(node, ast.Await):
        node = node.value
    return node if isinstance(node, ast.Call) else None


class _Bindings:
    """Variable -> value by line: a use reads the latest binding at or before its line."""

    def __init__(self) -> None:
        self.by_name: dict[str, list[tuple[int, str, int]]] = {}  # name -> (line, kind, call id)

    def add(self, name: str, line: int, kind: str, call: int) -> None:
        self.by_name.setdefault(name, []).append((line, kind, call))
        self.by_name[name].sort()

    def get(self, name: str, line: int, kind: str) -> int | None:
        found = [b for b in self.by_name.get(name, []) if b[0] <= line]
        if found and found[-1][1] == kind:
            return found[-1][2]
        return None


def _is_json_of(node: ast.expr, b: _Bindings, line: int) -> int | None:
    """The call id whose parsed JSON ``node`` is (``r.json()``, ``await r.json()``, a var)."""
    if isinstance(node, ast.Await):
        node = node.value
    if isinstance(node, ast.Name):
        return b.get(node.id, line, "json")
    c = _call_of(node)
    if c and isinstance(c.func, ast.Attribute) and c.func.attr == "json":
        base = c.func.value
        if isinstance(base, ast.Name):
            return b.get(base.id, line, "resp")
        inner = _call_of(base)
        if inner is not None:
            return id(inner)
    return None


def _bind(tree: ast.Module, calls: dict[int, ApiCall]) -> _Bindings:
    b = _Bindings()
    pairs: list[tuple[ast.expr, ast.expr, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            pairs.append((node.targets[0], node.value, node.lineno))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            pairs += [
                (i.optional_vars, i.context_expr, node.lineno)
                for i in node.items
                if i.optional_vars
            ]
    for target, value, line in sorted(pairs, key=lambda p: p[2]):
        if not isinstance(target, ast.Name):
            continue
        c = _call_of(value)
        if c is not None and id(c) in calls:
            b.add(target.id, line, "sdk" if calls[id(c)].client == "sdk" else "resp", id(c))
            continue
        j = _is_json_of(value, b, line)
        b.add(target.id, line, "json" if j is not None else "other", j or 0)
    return b


def _response_fields(tree: ast.Module, calls: dict[int, ApiCall]) -> None:
    b = _bind(tree, calls)
    for node in ast.walk(tree):
        key: int | None = None
        fld: Any = None
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            key, fld = _is_json_of(node.value, b, line), node.slice.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            key, fld = _is_json_of(node.func.value, b, line), node.args[0].value
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.attr not in _NOT_FIELDS
        ):
            key, fld = b.get(node.value.id, line, "sdk"), node.attr
        if key is not None and isinstance(fld, str) and fld and key in calls:
            got = calls[key].response_fields
            if fld not in got:
                got.append(fld)
                got.sort()


def python_calls(source: str, file: str = "") -> list[ApiCall]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    scope = _collect(tree)
    lines = source.splitlines()
    calls: dict[int, ApiCall] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            got = _http_call(scope, node, lines, file) or _sdk_call(scope, node, lines, file)
            if got is not None:
                calls[id(node)] = got
    _response_fields(tree, calls)
    return sorted(calls.values(), key=lambda c: (c.line, c.column))
