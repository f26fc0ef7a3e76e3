"""Network test support: socket tripwire, stand-in DNS, loopback servers (127.0.0.1 only).

- ``tripwire(allowed)``: every ``socket.connect``/``connect_ex`` is recorded in ``.attempts``;
  any target outside ``allowed`` ({(ip, port)}) is refused without touching the network.
- ``fake_dns(table)``: ``socket.getaddrinfo`` answers numeric hosts itself and names from
  ``table`` (host -> [ips] or {"sequence": [[...], [...]]}); unknown names fail. Calls per name
  are counted in ``.calls``.
- ``hostile_server(...)``: the bad-input kit's server as a subprocess; stopped on exit.
- ``serve_directory(root)`` / ``serve_routes(routes)``: stdlib HTTP servers in a thread.
"""

from __future__ import annotations

import contextlib
import functools
import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

KIT_DATA = Path(__file__).resolve().parents[2] / "fixtures" / "kit"  # tests.support.paths
KIT = KIT_DATA / "badinputs"

__all__ = [
    "KIT",
    "KIT_DATA",
    "FakeDNS",
    "Tripwire",
    "fake_dns",
    "hostile_server",
    "serve_directory",
    "serve_routes",
    "tripwire",
]


@dataclass
class Tripwire:
    allowed: set[tuple[str, int]] = field(default_factory=set)
    attempts: list[tuple[str, int]] = field(default_factory=list)

    def refused(self) -> list[tuple[str, int]]:
        return [a for a in self.attempts if a not in self.allowed]


@contextlib.contextmanager
def tripwire(allowed: set[tuple[str, int]] | None = None) -> Iterator[Tripwire]:
    wire = Tripwire(set(allowed or ()))
    real = socket.socket.connect
    saved = {
        k: socket.socket.__dict__[k]
        for k in ("connect", "connect_ex")
        if k in socket.socket.__dict__
    }
    lock = threading.Lock()

    def connect(self: socket.socket, address: Any) -> None:
        target = (str(address[0]), int(address[1]))
        with lock:
            wire.attempts.append(target)
        if target not in wire.allowed:
            raise ConnectionRefusedError(f"tripwire: connect to {address!r} refused")
        return real(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        connect(self, address)
        return 0

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    try:
        yield wire
    finally:
        for name in ("connect", "connect_ex"):
            if name in saved:
                setattr(socket.socket, name, saved[name])
            else:  # back to the inherited C implementation
                delattr(socket.socket, name)


@dataclass
class FakeDNS:
    table: dict[str, Any]
    calls: dict[str, int] = field(default_factory=dict)


@contextlib.contextmanager
def fake_dns(table: Mapping[str, Any] | None = None) -> Iterator[FakeDNS]:
    dns = FakeDNS(dict(table or {}))
    real = socket.getaddrinfo

    def gai(host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0, flags: int = 0):  # noqa: A002
        h = host.decode() if isinstance(host, bytes) else str(host)
        try:  # numeric forms never touch DNS
            return real(h, port, family, type, proto, flags | socket.AI_NUMERICHOST)
        except socket.gaierror:
            pass
        key = h if h in dns.table else h.lower().rstrip(".")
        dns.calls[key] = dns.calls.get(key, 0) + 1
        ans = dns.table.get(key)
        if isinstance(ans, dict):
            seq = ans["sequence"]
            ans = seq[min(dns.calls[key] - 1, len(seq) - 1)]
        if not ans:
            raise socket.gaierror(socket.EAI_NONAME, "fake resolver: unknown name " + h)
        return [
            real(a, port, 0, type or socket.SOCK_STREAM, proto, socket.AI_NUMERICHOST)[0]
            for a in ans
        ]

    socket.getaddrinfo = gai  # type: ignore[assignment]
    try:
        yield dns
    finally:
        socket.getaddrinfo = real


@contextlib.contextmanager
def hostile_server(seconds: float = 60.0, bomb_mib: int = 64) -> Iterator[dict[str, Any]]:
    """Run ``make_badinputs.py serve``; yields {"base", "port", "canary_port"}."""
    cmd = [
        sys.executable,
        str(KIT / "make_badinputs.py"),
        "serve",
        "--seconds",
        str(seconds),
        "--bomb-mib",
        str(bomb_mib),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("hostile server did not start")
        yield json.loads(line)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        if proc.stdout is not None:
            proc.stdout.close()


@contextlib.contextmanager
def _serve(handler: type[BaseHTTPRequestHandler] | Any) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class _QuietFiles(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@contextlib.contextmanager
def serve_directory(root: Path) -> Iterator[str]:
    """Serve a folder (e.g. a built MkDocs site) on 127.0.0.1; yields the base URL."""
    with _serve(functools.partial(_QuietFiles, directory=str(root))) as base:
        yield base


@contextlib.contextmanager
def serve_routes(routes: Mapping[str, Any]) -> Iterator[str]:
    """Serve fixed responses: path -> (status, [(header, value)], body bytes) or a callable
    ``(handler) -> (status, headers, body)`` for stateful routes. Unknown paths answer 404."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

        def do_GET(self) -> None:  # noqa: N802
            spec = routes.get(self.path.split("?", 1)[0])
            status, headers, body = spec(self) if callable(spec) else (spec or (404, [], b""))
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            if not any(k.lower() == "content-length" for k, _ in headers):
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with _serve(Handler) as base:
        yield base
