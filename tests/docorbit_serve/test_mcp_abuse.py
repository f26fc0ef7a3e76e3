"""The MCP HTTP server under protocol abuse: a flood of initializes from one local process,
bad resource offsets, unknown tool arguments, out-of-range values, an advertised capability with
nothing behind it. Real server processes on loopback, the SDK client for the legitimate one."""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

from .test_mcp_http import INIT, MCP_HEADERS, http_server

FLOOD = 10_000


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _flood(port: int, n: int) -> list[int]:
    """``n`` initialize requests from one process (8 keep-alive connections); their statuses."""
    body = json.dumps(INIT).encode()

    def batch(count: int) -> list[int]:
        with httpx.Client(timeout=60) as c:
            return [
                c.post(
                    f"http://127.0.0.1:{port}/mcp", content=body, headers=MCP_HEADERS
                ).status_code
                for _ in range(count)
            ]

    with ThreadPoolExecutor(8) as pool:
        return [s for part in pool.map(batch, [n // 8] * 8) for s in part]


async def _sdk_search(port: int) -> dict:
    with anyio.fail_after(120):
        async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60) as client:
            r = await client.call_tool("search_docs", {"query": "timeout", "limit": 2})
            return {"error": r.is_error, "hits": (r.structured_content or {}).get("hits", [])}


@pytest.fixture(scope="module")
def served_env(tmp_path_factory):
    env = {k: v for k, v in os.environ.items() if k != "DOCORBIT_HOME"}
    env["HOME"] = str(tmp_path_factory.mktemp("user-home"))
    return env


def test_ten_thousand_initializes_from_one_client_leave_the_server_answering_a_new_client(
    published_home, served_env
):
    with http_server(published_home.path, served_env) as (port, proc):
        warm = anyio.run(_sdk_search, port)
        assert not warm["error"] and warm["hits"]
        before = _rss_kb(proc.pid)
        statuses = _flood(port, FLOOD)
        after = _rss_kb(proc.pid)
        print(f"flood of {len(statuses)} initializes: RSS {before // 1024} -> {after // 1024} MB")
        # Every initialize was answered (none refused with 503), and nothing is kept per client.
        assert statuses.count(200) == len(statuses) == FLOOD
        init = httpx.post(
            f"http://127.0.0.1:{port}/mcp", content=json.dumps(INIT), headers=MCP_HEADERS
        )
        assert "mcp-session-id" not in init.headers  # stateless: no session to hold
        # The stateful server grew by ~370 MB over 10,000 sessions; stateless holds none.
        assert after - before < 64 * 1024
        fresh = anyio.run(_sdk_search, port)
        assert not fresh["error"] and fresh["hits"] == warm["hits"]
