"""One network door (issue 12 item 3): ``secure_fetch`` is the only module of DocOrbit that can
open an outgoing connection. Every other module reaches the network through its ``http_get`` /
``SecureFetcher``; the checks read the import statements (also those inside functions) and the
attributes used on ``httpx`` and ``socket``."""

from __future__ import annotations

import ast

from tests.support.code import package_modules

DOOR = "docorbit_assets/lib/secure_fetch.py"
# Client libraries and transports that open connections (any import of them outside the door).
CLIENTS = {
    "aiohttp", "ftplib", "h11", "h2", "http.client", "httpcore", "requests", "smtplib", "ssl",
    "trafilatura.downloads", "urllib.request", "urllib3", "websockets",
}  # fmt: skip
# Outside the door, httpx is a URL parser only; socket only resolves names (netpolicy's one
# getaddrinfo, whose answers the door dials) and never connects.
HTTPX_PARSING = {"URL", "InvalidURL"}
SOCKET_RESOLVING = {"getaddrinfo", "gaierror", "SOCK_STREAM", "AF_INET", "AF_INET6"}


def _imported(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


def _is_client(name: str) -> bool:
    return any(name == c or name.startswith(c + ".") for c in CLIENTS)


def _attributes(tree: ast.Module, module: str) -> set[str]:
    return {
        n.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == module
    }


def test_only_the_door_imports_a_client_library():
    modules = package_modules()
    assert any(_is_client(n) for n in _imported(modules[DOOR])), "the door itself uses httpcore"
    outside = {
        path: sorted(n for n in _imported(tree) if _is_client(n))
        for path, tree in modules.items()
        if path != DOOR
    }
    assert {p: n for p, n in outside.items() if n} == {}


def test_outside_the_door_httpx_only_parses_urls_and_socket_only_resolves_names():
    for path, tree in package_modules().items():
        if path == DOOR:
            continue
        imported = _imported(tree)
        from_httpx = {n.split(".", 1)[1] for n in imported if n.startswith("httpx.")}
        assert from_httpx <= HTTPX_PARSING, (path, from_httpx)
        assert _attributes(tree, "httpx") <= HTTPX_PARSING, (path, _attributes(tree, "httpx"))
        from_socket = {n.split(".", 1)[1] for n in imported if n.startswith("socket.")}
        used = _attributes(tree, "socket") | from_socket
        assert used <= SOCKET_RESOLVING, (path, used - SOCKET_RESOLVING)


def test_the_checks_catch_a_module_that_would_connect():
    sneaky = ast.parse(
        "import socket\nimport httpx\n"
        "def f():\n    from urllib.request import urlopen\n"
        "    httpx.get('http://x'); socket.create_connection(('x', 80))\n"
    )
    assert {n for n in _imported(sneaky) if _is_client(n)} == {
        "urllib.request",
        "urllib.request.urlopen",
    }
    assert _attributes(sneaky, "httpx") - HTTPX_PARSING == {"get"}
    assert _attributes(sneaky, "socket") - SOCKET_RESOLVING == {"create_connection"}


def test_the_pipeline_modules_that_fetch_import_the_door():
    modules = package_modules()
    for path in ("fetch", "probe", "releases", "crawl"):
        imported = _imported(modules[f"docorbit_assets/lib/{path}.py"])
        assert any(n.startswith("docorbit_assets.lib.secure_fetch") for n in imported), path
