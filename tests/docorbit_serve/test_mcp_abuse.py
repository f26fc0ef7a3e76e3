"""The MCP HTTP server under protocol abuse: a flood of initializes from one local process,
bad resource offsets, unknown tool arguments, out-of-range values, an advertised capability with
nothing behind it. Real server processes on loopback, the SDK client for the legitimate one."""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from .test_mcp_http import INIT, MCP_HEADERS, http_server

FLOOD = 10_000
# Every test here serves the session's real ingest of the httpx docs (published_home).
pytestmark = pytest.mark.slow


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


@pytest.mark.e2e
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
        assert not fresh["error"] and _timeless(fresh["hits"]) == _timeless(warm["hits"])


def _timeless(hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Hits without their age (``age_hours`` moves with the clock between two searches)."""
    return [{k: v for k, v in h.items() if k != "age_hours"} for h in hits]


# --- protocol abuse through the SDK client, in memory ------------------------------------------


def _in_memory(home, body) -> Any:
    """Run ``await body(client)`` against ``build_server(home)`` through the SDK client."""
    from docorbit_serve.mcp_server import build_server

    server = build_server(home)
    out: dict[str, Any] = {}

    async def main() -> None:
        with anyio.fail_after(120):
            async with Client(server) as client:
                out["v"] = await body(client)

    anyio.run(main)
    return out["v"]


@pytest.fixture(scope="module")
def first_chunk(published_home) -> str:
    async def body(c):
        r = await c.call_tool("search_docs", {"query": "timeout", "limit": 1})
        return r.structured_content["hits"][0]["chunk_id"]

    return _in_memory(published_home, body)


BAD_OFFSETS = ["-5", "abc", "1e3", "99999999999999999999999", "100000000", "%20"]


@pytest.mark.parametrize("kind", ["chunks", "pages"])
def test_a_resource_read_with_a_bad_offset_is_invalid_params(published_home, first_chunk, kind):
    from mcp.shared.exceptions import MCPError

    async def body(c):
        ident = first_chunk
        if kind == "pages":
            doc = await c.call_tool("get_doc", {"chunk_id": first_chunk})
            ident = doc.structured_content["page_id"]
        codes = {}
        for off in BAD_OFFSETS:
            try:
                await c.read_resource(f"docorbit://{kind}/{ident}?offset={off}")
                codes[off] = "ok"
            except MCPError as e:
                codes[off] = e.error.code
        good = await c.read_resource(f"docorbit://{kind}/{ident}?offset=0")
        return codes, json.loads(good.contents[0].text)

    codes, good = _in_memory(published_home, body)
    assert codes == dict.fromkeys(BAD_OFFSETS, -32602)  # invalid params, never -32603
    assert good["untrusted"] is True


def test_unknown_tool_arguments_are_refused_before_the_tool_runs(published_home):
    from docorbit_serve.mcp_server import TOOL_NAMES

    before = published_home.config_path.read_bytes()

    async def body(c):
        out = {}
        for name in TOOL_NAMES:
            r = await c.call_tool(name, {"zz_not_an_argument": 1})
            out[name] = (r.is_error, r.content[0].text if r.content else "")
        return out

    out = _in_memory(published_home, body)
    for name, (is_error, text) in out.items():
        assert is_error and text.startswith("[bad_input]"), (name, text)
        assert "'zz_not_an_argument'" in text and "\n" not in text
    assert published_home.config_path.read_bytes() == before  # ingest_doc never ran


@pytest.mark.parametrize(
    "tool, args, field",
    [
        ("search_docs", {"query": "timeout", "limit": 0}, "limit"),
        ("search_docs", {"query": "timeout", "limit": "ten"}, "limit"),
        ("search_docs", {}, "query"),
        ("search_docs", {"query": 5}, "query"),
        ("get_doc", {"chunk_id": "c_x", "max_tokens": 10**9}, "max_tokens"),
        ("get_doc", {"chunk_id": "c_x", "mode": "everything"}, "mode"),
        ("get_implementation_context", {"task": "x", "budget": 1}, "budget"),
        ("get_documentation_map", {"max_pages": -1}, "max_pages"),
    ],
)
def test_a_refused_value_reads_as_one_clean_sentence(published_home, tool, args, field):
    async def body(c):
        r = await c.call_tool(tool, args)
        return r.is_error, r.content[0].text

    is_error, text = _in_memory(published_home, body)
    assert is_error and text.startswith(f"[bad_input] {tool}: {field} ")
    assert "\n" not in text and "pydantic" not in text and "type=" not in text


def test_a_query_beyond_the_cap_is_bad_input_over_mcp_and_changes_nothing(published_home):
    before = published_home.published_path.read_bytes()

    async def body(c):
        bad = await c.call_tool("search_docs", {"query": "a" * 10_000})
        good = await c.call_tool("search_docs", {"query": "timeout", "limit": 3})
        return bad, good

    bad, good = _in_memory(published_home, body)
    assert bad.is_error and "[bad_input] the query is 10,000 characters" in bad.content[0].text
    assert not good.is_error and good.structured_content["hits"]
    assert published_home.published_path.read_bytes() == before


def test_the_advertised_prompts_capability_has_real_prompts(published_home):
    from docorbit_serve.mcp_guard import PROMPT_NAMES
    from docorbit_serve.mcp_server import TOOL_NAMES

    async def body(c):
        listed = await c.list_prompts()
        impl = await c.get_prompt("implement_with_docs", {"task": "retry on 503"})
        up = await c.get_prompt(
            "upgrade_library", {"library": "pydantic", "from_version": "1", "to_version": "2"}
        )
        return [p.name for p in listed.prompts], impl, up

    names, impl, up = _in_memory(published_home, body)
    assert tuple(names) == PROMPT_NAMES
    for prompt in (impl, up):
        text = prompt.messages[0].content.text
        assert "UNTRUSTED" in text
        assert {t for t in TOOL_NAMES if t in text} >= {"search_docs", "get_doc", "get_version"}
    assert "retry on 503" in impl.messages[0].content.text
    assert "pydantic from 1 to 2" in up.messages[0].content.text


def test_cli_and_mcp_accept_the_same_range_for_every_shared_parameter(published_home):
    import click

    from docorbit_serve.cli import cli

    pairs = {
        "search": "search_docs", "get": "get_doc", "context": "get_implementation_context",
        "map": "get_documentation_map", "export": "export_agent_context", "api": "find_api",
        "examples": "find_example", "pitfalls": "find_pitfall", "recipes": "find_recipe",
        "diff": "diff_docs", "impact": "analyze_impact", "verify": "check_api",
    }  # fmt: skip

    async def body(c):
        return {t.name: t.input_schema for t in (await c.list_tools()).tools}

    schemas = _in_memory(published_home, body)
    compared = 0
    for command, tool in pairs.items():
        if command not in cli.commands or tool not in schemas:
            continue
        props = schemas[tool].get("properties", {})
        for p in cli.commands[command].params:
            if p.name in props and props[p.name].get("type") == "integer":
                assert isinstance(p.type, click.IntRange), (command, p.name)
                cli_range = (p.type.min, p.type.max)
                mcp_range = (props[p.name].get("minimum"), props[p.name].get("maximum"))
                assert cli_range == mcp_range, (command, tool, p.name, cli_range, mcp_range)
                compared += 1
    assert compared >= 8


def test_ingest_doc_takes_the_lock_before_it_writes_docorbit_toml(tmp_path):
    from docorbit_serve.ingest_lock import ingest_lock

    from .conftest import make_home

    home = make_home(tmp_path / "proj")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\ntext\n", encoding="utf-8")
    before = home.config_path.read_bytes()

    async def body(c):
        return await c.call_tool("ingest_doc", {"location": str(tmp_path / "docs"), "library": "a"})

    with ingest_lock(home):  # another ingest is running (this thread holds the lock)
        r = _in_memory(home, body)
    assert r.is_error and "another ingest is running" in r.content[0].text
    assert home.config_path.read_bytes() == before
