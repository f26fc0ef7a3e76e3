"""Exact Host / Origin checks and a request-body cap for DocOrbit's HTTP faces (ASGI middleware).

Contract:

- ``HttpPolicy.for_bind(host, port, allow_hosts=(), allow_origins=())`` is the policy of a
  server bound to ``host:port``. A loopback bind (``127.0.0.1``, ``localhost``, ``::1``) accepts
  the Host values ``127.0.0.1:PORT``, ``localhost:PORT`` and ``[::1]:PORT`` (host names compared
  case-insensitively, IPv6 literals compared as addresses) and the matching ``http://`` origins.
  Any other bind (``0.0.0.0``, a LAN address, a name) is refused with ``UsageError`` unless
  ``allow_hosts`` names at least one ``HOST[:PORT]`` clients will use; those are accepted in
  addition to the loopback names. ``allow_origins`` adds exact origins (``scheme://host[:port]``).
- ``parse_host(value)`` / ``parse_origin(value)`` parse a header into ``(host, port)`` /
  ``(scheme, host, port)`` with a strict grammar (a reg-name of letters, digits, ``-`` and ``.``;
  a dotted-quad; or a bracketed IPv6 literal; then an optional decimal port 1-65535) and return
  ``None`` for anything else: userinfo (``@``), paths, whitespace, a trailing dot, ``null``,
  ``file://``. The check compares parsed tuples for equality: never a prefix match, so
  ``127.0.0.1:PORT@evil`` and ``http://localhost:PORT.evil.example`` are foreign.
- ``SecurityMiddleware(app, policy)`` wraps an ASGI app. For every ``http`` request, before the
  app sees it: a Host that is missing, malformed or not allowed → **403**; an ``Origin`` that is
  present and not allowed (including ``null`` and opaque origins) → **403**; a body over
  ``policy.max_body`` bytes (by ``Content-Length`` or by counting a chunked body) → **413**.
  Rejections are small JSON bodies ``{"error": {"code", "message"}}``. ``lifespan`` passes through;
  a ``websocket`` that fails the Host/Origin check is closed (1008).

The python SDK's own ``TransportSecuritySettings`` matches ``host:*`` by prefix on the raw header
(SECURITY-NOTES §10); servers using this middleware turn it off and rely on this check.
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from docorbit_serve.errors import UsageError

__all__ = [
    "DEFAULT_MAX_BODY",
    "LOOPBACK_BINDS",
    "HttpPolicy",
    "SecurityMiddleware",
    "is_loopback_bind",
    "parse_host",
    "parse_origin",
]

DEFAULT_MAX_BODY = 1024 * 1024  # an MCP request is a few KB; 1 MiB leaves room and bounds cost
LOOPBACK_BINDS = ("127.0.0.1", "localhost", "::1")
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")

_REG_NAME = re.compile(
    r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$"
)
_PORT = re.compile(r"^[0-9]{1,5}$")
_SCHEME_DEFAULT_PORT = {"http": 80, "https": 443}

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _canonical_host(raw: str) -> str | None:
    """Lower-case reg-name, dotted-quad, or compressed IPv6 (no brackets); None if malformed."""
    if raw.startswith("["):
        if not raw.endswith("]"):
            return None
        try:
            return str(ipaddress.IPv6Address(raw[1:-1]))
        except ValueError:
            return None
    host = raw.lower()
    if not host or len(host) > 253 or not _REG_NAME.match(host):
        return None
    if host.replace(".", "").isdigit():  # all-numeric: must be a proper dotted quad
        try:
            return str(ipaddress.IPv4Address(host))
        except ValueError:
            return None
    return host


def _split_host_port(text: str) -> tuple[str, str | None] | None:
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        rest = text[end + 1 :]
        if rest and not rest.startswith(":"):
            return None
        return text[: end + 1], (rest[1:] if rest else None)
    if text.count(":") > 1:
        return None
    host, sep, port = text.partition(":")
    return host, (port if sep else None)


def _port(text: str | None, default: int | None) -> int | None:
    if text is None:
        return default
    if not _PORT.match(text):
        return None
    value = int(text)
    return value if 1 <= value <= 65535 else None


def parse_host(value: str | None, default_port: int = 80) -> tuple[str, int] | None:
    """A Host header as ``(canonical host, port)``; ``None`` when missing or malformed."""
    if not value or value != value.strip() or any(c in value for c in "@/\\?# \t%"):
        return None
    parts = _split_host_port(value)
    if parts is None:
        return None
    host = _canonical_host(parts[0])
    port = _port(parts[1], default_port)
    if host is None or port is None:
        return None
    return host, port


def parse_origin(value: str | None) -> tuple[str, str, int] | None:
    """An Origin header as ``(scheme, host, port)``; ``None`` for opaque/``null``/malformed."""
    if not value or value != value.strip():
        return None
    scheme, sep, rest = value.partition("://")
    scheme = scheme.lower()
    if not sep or scheme not in _SCHEME_DEFAULT_PORT or not rest:
        return None
    hp = parse_host(rest, _SCHEME_DEFAULT_PORT[scheme])
    if hp is None:
        return None
    return scheme, hp[0], hp[1]


def is_loopback_bind(host: str) -> bool:
    return host.lower() in LOOPBACK_BINDS


@dataclass(frozen=True)
class HttpPolicy:
    """What a server accepts: exact ``(host, port)`` and ``(scheme, host, port)`` tuples."""

    hosts: frozenset[tuple[str, int]]
    origins: frozenset[tuple[str, str, int]]
    max_body: int = DEFAULT_MAX_BODY
    notes: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def for_bind(
        cls,
        host: str,
        port: int,
        allow_hosts: Iterable[str] = (),
        allow_origins: Iterable[str] = (),
        max_body: int = DEFAULT_MAX_BODY,
    ) -> HttpPolicy:
        allow_hosts, allow_origins = list(allow_hosts), list(allow_origins)
        if not is_loopback_bind(host) and not allow_hosts:
            raise UsageError(
                f"binding to {host!r} exposes the server beyond this machine: name the Host "
                "values clients will use with --allow-host HOST[:PORT] (repeatable), and browser "
                "origins with --allow-origin; loopback (127.0.0.1) needs neither",
                detail={"host": host, "port": port},
            )
        hosts = {(h, port) for h in _LOOPBACK_NAMES}
        origins = {("http", h, port) for h in _LOOPBACK_NAMES}
        notes = []
        for a in allow_hosts:
            parsed = parse_host(a, default_port=port)
            if parsed is None:
                raise UsageError(f"--allow-host wants HOST[:PORT], got {a!r}", detail={"value": a})
            hosts.add(parsed)
            notes.append(f"Host {a}")
        for o in allow_origins:
            po = parse_origin(o)
            if po is None:
                raise UsageError(
                    f"--allow-origin wants scheme://host[:port], got {o!r}", detail={"value": o}
                )
            origins.add(po)
            notes.append(f"Origin {o}")
        return cls(frozenset(hosts), frozenset(origins), max_body, tuple(notes))

    def host_ok(self, value: str | None) -> bool:
        parsed = parse_host(value)
        return parsed is not None and parsed in self.hosts

    def origin_ok(self, value: str | None) -> bool:
        """An absent Origin is fine (non-browser clients); a present one must be allowed."""
        if value is None:
            return True
        parsed = parse_origin(value)
        return parsed is not None and parsed in self.origins


def _header(scope: Scope, name: bytes) -> tuple[int, str | None]:
    """(how many times the header occurs, its last value decoded as latin-1)."""
    count, value = 0, None
    for k, v in scope.get("headers") or ():
        if k.lower() == name:
            count += 1
            value = v.decode("latin-1")
    return count, value


async def _reply(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}, sort_keys=True).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SecurityMiddleware:
    """ASGI middleware: exact Host/Origin checks (403) and a body cap (413); see module doc."""

    def __init__(self, app: ASGIApp, policy: HttpPolicy):
        self.app = app
        self.policy = policy

    def _verdict(self, scope: Scope) -> tuple[str, str] | None:
        n_host, host = _header(scope, b"host")
        if n_host != 1 or not self.policy.host_ok(host):
            return "forbidden_host", "Host header not allowed (DNS-rebinding protection)"
        n_origin, origin = _header(scope, b"origin")
        if n_origin > 1 or not self.policy.origin_ok(origin):
            return "forbidden_origin", "Origin not allowed (DNS-rebinding protection)"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope.get("type")
        if kind == "lifespan":
            await self.app(scope, receive, send)
            return
        verdict = self._verdict(scope)
        if kind == "websocket":
            if verdict:
                await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return
        if kind != "http":
            return
        if verdict:
            await _reply(send, 403, *verdict)
            return
        _n, length = _header(scope, b"content-length")
        if length is not None:
            if not length.isdigit():
                await _reply(send, 400, "bad_request", "invalid Content-Length")
                return
            if int(length) > self.policy.max_body:
                await _reply(send, 413, "body_too_large", f"body over {self.policy.max_body} bytes")
                return
        await self._with_capped_body(scope, receive, send)

    async def _with_capped_body(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the whole body first (it is small), so an oversized one never reaches the app."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # client went away
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.policy.max_body:
                await _reply(send, 413, "body_too_large", f"body over {self.policy.max_body} bytes")
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
