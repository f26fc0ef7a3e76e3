"""``docorbit mcp --http`` as a real process on loopback: the kit's Host/Origin cases, our own
hostile header values, the body cap, /health, every tool through the SDK client over streamable
HTTP (SSE and JSON responses), and a SIGKILLed server restarting on the last publication."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

from docorbit_serve.mcp_server import TOOL_NAMES
from docorbit_serve.registry import load_registry

REPO = Path(__file__).resolve().parents[2]
KIT = REPO / "fixtures" / "kit" / "badinputs" / "mcp" / "dns_rebinding_headers.jsonl"
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "kit", "version": "0"},
    },
}
MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def http_server(
    home: Path, env: dict[str, str], *extra: str
) -> Iterator[tuple[int, subprocess.Popen]]:
    """``docorbit --home HOME mcp --http --port P *extra``; yields once it listens."""
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "docorbit_serve",
            "--home",
            str(home),
            "mcp",
            "--http",
            "--port",
            str(port),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        first = proc.stderr.readline()  # printed once the socket listens (or the error, on exit)
        assert "serving" in first and f":{port}/mcp" in first, first + proc.stderr.read()
        lines: list[str] = []

        def drain() -> None:
            with proc.stderr:
                lines.extend(proc.stderr)

        threading.Thread(target=drain, daemon=True).start()
        yield port, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        proc.stdout.close()


@pytest.fixture(scope="module")
def served(published_home, tmp_path_factory):
    """One HTTP server on the session's published httpx corpus (module scope: it is read-only)."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "DOCORBIT_HOME"}
    env["HOME"] = str(tmp_path_factory.mktemp("user-home"))
    with http_server(published_home.path, env) as (port, proc):
        yield port, proc, published_home


def _post(port: int, host: str | None, origin: str | None, body: bytes | None = None, **kw):
    headers = dict(MCP_HEADERS)
    if host is not None:
        headers["Host"] = host
    if origin is not None:
        headers["Origin"] = origin
    with httpx.Client(timeout=30) as c:
        return c.post(
            f"http://127.0.0.1:{port}/mcp",
            content=body if body is not None else json.dumps(INIT).encode(),
            headers={**headers, **kw.get("headers", {})},
        )


def _kit_cases() -> list[dict]:
    return [
        json.loads(line) for line in KIT.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def test_every_kit_host_origin_case_gets_the_status_its_row_says(served):
    port, _proc, _home = served
    cases = _kit_cases()
    assert len(cases) == 12
    seen = {}
    for case in cases:
        host = case["host"].replace("{port}", str(port))
        origin = case["origin"].replace("{port}", str(port)) if case["origin"] else None
        r = _post(port, host, origin)
        seen[case["id"]] = r.status_code
        if case["expect"] == "accept":
            assert r.status_code == 200, (case, r.text)
            assert '"protocolVersion"' in r.text and '"serverInfo"' in r.text
        else:
            assert r.status_code in (403, 421), (case, r.status_code)
            assert r.json()["error"]["code"] in {"forbidden_host", "forbidden_origin"}
    assert sorted(seen) == [c["id"] for c in cases]


@pytest.mark.parametrize(
    ("host", "origin", "status"),
    [
        ("127.0.0.1:{port}@evil.example", None, 403),  # userinfo-looking suffix
        ("127.0.0.1:{port}.evil.example", None, 403),
        ("127.0.0.1:{port}0", None, 403),  # another port that starts like ours
        ("127.0.0.1", None, 403),  # no port means 80
        ("127.1:{port}", None, 403),  # short form is not the canonical loopback name
        ("localhost.:{port}", None, 403),
        ("[::1]:{port}", None, 200),
        ("[0:0:0:0:0:0:0:1]:{port}", None, 200),  # the same IPv6 address, expanded
        ("LocalHost:{port}", None, 200),
        ("LOCALHOST:{port}", "HTTP://LOCALHOST:{port}", 200),
        ("127.0.0.1:{port}", "http://localhost:{port}.evil.example", 403),
        ("127.0.0.1:{port}", "http://127.0.0.1:{port}@evil.example", 403),
        ("127.0.0.1:{port}", "http://127.0.0.1:{port}/", 403),  # an Origin has no path
        ("127.0.0.1:{port}", "https://127.0.0.1:{port}", 403),  # other scheme, other origin
        ("127.0.0.1:{port}", "http://127.0.0.1", 403),  # port 80
        ("127.0.0.1:{port}", "null", 403),
        ("127.0.0.1:{port}", "http://[::1]:{port}", 200),
    ],
)
def test_header_values_the_kit_does_not_list_are_judged_by_parsed_host_and_port(
    served, host, origin, status
):
    port, _proc, _home = served
    r = _post(
        port,
        host.replace("{port}", str(port)),
        origin.replace("{port}", str(port)) if origin else None,
    )
    assert r.status_code == status, r.text


def test_a_second_host_header_is_refused(served):
    port, _proc, _home = served
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        body = json.dumps(INIT).encode()
        s.sendall(
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nHost: evil.example\r\n"
            b"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (port, len(body), body)
        )
        reply = b""
        while chunk := s.recv(65536):
            reply += chunk
    assert reply.split(b"\r\n", 1)[0].split()[1] in (b"400", b"403")


def test_oversized_and_chunked_oversized_bodies_get_413_and_the_server_keeps_serving(served):
    port, _proc, _home = served
    big = (
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    )
    assert _post(port, f"127.0.0.1:{port}", None, big).status_code == 413

    def chunks():
        for _ in range(40):
            yield b"x" * 65536

    with httpx.Client(timeout=30) as c:
        r = c.post(f"http://127.0.0.1:{port}/mcp", content=chunks(), headers=MCP_HEADERS)
    assert r.status_code == 413
    assert _post(port, f"127.0.0.1:{port}", None).status_code == 200


def test_a_foreign_origin_never_reaches_a_tool(served, tmp_path):
    """A tool call after a valid initialize but with a foreign Origin is refused before
    ingest_doc runs (the server is stateless: no session id is issued)."""
    port, _proc, home = served
    before = home.config_path.read_bytes()
    init = _post(port, f"127.0.0.1:{port}", None)
    assert init.status_code == 200 and "mcp-session-id" not in init.headers
    (tmp_path / "doc.md").write_text("# Planted\n\ntext\n", encoding="utf-8")
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {
            "name": "ingest_doc",
            "arguments": {"location": str(tmp_path), "library": "planted"},
        },
    }
    r = _post(
        port,
        f"127.0.0.1:{port}",
        "http://evil.example",
        json.dumps(call).encode(),
        headers={"mcp-protocol-version": "2025-06-18"},
    )
    assert r.status_code == 403
    assert home.config_path.read_bytes() == before
    assert [s.name for s in load_registry(home.config_path).sources] == ["httpx"]


def test_health_names_the_publication_and_checks_the_host_too(served):
    port, _proc, home = served
    manifest = json.loads(home.published_path.read_text())
    with httpx.Client(timeout=30) as c:
        ok = c.get(f"http://127.0.0.1:{port}/health")
        bad = c.get(f"http://127.0.0.1:{port}/health", headers={"Host": "evil.example"})
    assert ok.status_code == 200
    assert ok.json() == {
        "status": "ok",
        "publish_id": manifest["publish_id"],
        "tools": len(TOOL_NAMES),
    }
    assert bad.status_code == 403


async def _exercise(client: Client) -> dict:
    out: dict = {"tools": (await client.list_tools()).tools}
    out["sources"] = await client.call_tool("list_sources", {})
    out["search"] = await client.call_tool("search_docs", {"query": "timeout", "limit": 3})
    first = out["search"].structured_content["hits"][0]["chunk_id"]
    out["get"] = await client.call_tool("get_doc", {"chunk_id": first, "mode": "section"})
    out["map"] = await client.call_tool(
        "get_documentation_map", {"max_pages": 2, "sections_per_page": 3}
    )
    out["context"] = await client.call_tool(
        "get_implementation_context", {"task": "set a timeout on requests", "budget": 600}
    )
    out["templates"] = (await client.list_resource_templates()).resource_templates
    out["resource"] = await client.read_resource(f"docorbit://chunks/{first}")
    return out


def _check_exercise(out: dict) -> None:
    assert {t.name for t in out["tools"]} == set(TOOL_NAMES)
    for key in ("sources", "search", "get", "map", "context"):
        r = out[key]
        assert not r.is_error, (key, r.content)
        assert r.structured_content and r.content[0].type == "text"
    assert out["get"].structured_content["untrusted"] is True
    assert "[BEGIN UNTRUSTED DOC" in out["get"].content[0].text
    ctx = out["context"].structured_content
    assert ctx["items"] and ctx["tokens"] <= ctx["budget"] == 600
    uris = {t.uri_template for t in out["templates"]}
    assert any(u.startswith("docorbit://pages/{id}") for u in uris)
    assert any(u.startswith("docorbit://chunks/{id}") for u in uris)
    data = json.loads(out["resource"].contents[0].text)
    assert data["untrusted"] is True and data["content"]


def test_every_read_tool_answers_through_the_sdk_client_over_streamable_http(served):
    port, _proc, _home = served
    out: dict = {}

    async def main() -> None:
        with anyio.fail_after(120):
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60) as client:
                out.update(await _exercise(client))

    anyio.run(main)
    _check_exercise(out)


def test_json_response_mode_answers_with_plain_json(published_home, clean_env):
    with http_server(published_home.path, clean_env, "--json-response") as (port, _proc):
        r = _post(port, f"127.0.0.1:{port}", None)
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
        assert r.json()["result"]["serverInfo"]["name"] == "docorbit"
        out: dict = {}

        async def main() -> None:
            with anyio.fail_after(120):
                async with Client(
                    f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60
                ) as client:
                    out.update(await _exercise(client))

        anyio.run(main)
    _check_exercise(out)


def test_binding_beyond_loopback_without_an_allow_list_is_refused(published_home, clean_env):
    r = subprocess.run(
        [sys.executable, "-m", "docorbit_serve", "--home", str(published_home.path), "mcp", "--http",
         "--host", "0.0.0.0", "--port", str(free_port())],
        capture_output=True, text=True, env=clean_env, timeout=60,
    )  # fmt: skip
    assert r.returncode == 2 and r.stdout == ""
    assert "--allow-host" in r.stderr and "beyond this machine" in r.stderr


def test_http_options_without_http_are_a_usage_error(published_home, clean_env):
    r = subprocess.run(
        [sys.executable, "-m", "docorbit_serve", "--home", str(published_home.path), "mcp", "--port", "9"],
        capture_output=True, text=True, env=clean_env, timeout=60,
    )  # fmt: skip
    assert r.returncode == 2 and "--http" in r.stderr


def test_a_sigkilled_server_restarts_on_the_last_publication_at_once(published_home, clean_env):
    manifest = json.loads(published_home.published_path.read_text())
    answers = []
    for _ in range(2):
        with http_server(published_home.path, clean_env) as (port, proc):
            with httpx.Client(timeout=30) as c:
                answers.append(c.get(f"http://127.0.0.1:{port}/health").json()["publish_id"])

            async def main() -> None:
                async with Client(
                    f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60
                ) as client:
                    r = await client.call_tool("search_docs", {"query": "proxy", "limit": 1})
                    answers.append(r.structured_content["hits"][0]["snapshot"])

            anyio.run(main)
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            assert proc.returncode == -signal.SIGKILL
    snap = manifest["sources"]["httpx"]["snapshot"]
    assert answers == [manifest["publish_id"], snap, manifest["publish_id"], snap]
    assert not list(published_home.path.rglob("*.wal"))  # read-only: nothing to replay


def test_a_taken_port_is_a_clear_error_not_exit_3(published_home, clean_env):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = subprocess.run(
            [sys.executable, "-m", "docorbit_serve", "--home", str(published_home.path), "mcp",
             "--http", "--port", str(port), "--json"],
            capture_output=True, text=True, env=clean_env, timeout=60,
        )  # fmt: skip
    assert r.returncode == 1
    err = json.loads(r.stdout)["error"]
    assert err["code"] == "serve_failed" and "--port" in err["message"]
