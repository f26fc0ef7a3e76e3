"""The MCP server driven by the mcp SDK's real client over stdio (``python -m docorbit_serve mcp``)."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from docorbit_serve.home import resolve_home
from docorbit_serve.registry import SourceConfig, load_registry, save_registry

TOOLS = {"search_docs", "get_doc", "list_sources"}


def _params(home: Path, env: dict[str, str]) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "docorbit_serve", "--home", str(home), "mcp"],
        env=env,
    )


def _session(home: Path, env: dict[str, str], script) -> None:
    """Run ``script(client)`` against a fresh stdio server on ``home`` (bounded in time)."""

    async def main() -> None:
        with anyio.fail_after(120):
            async with Client(_params(home, env), read_timeout_seconds=60) as client:
                await script(client)

    anyio.run(main)


def _text(result) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


def test_tools_are_listed_read_only_with_output_schemas(tmp_path, clean_env):
    seen = {}

    async def script(client):
        seen["tools"] = (await client.list_tools()).tools

    _session(tmp_path / "empty", clean_env, script)
    tools = {t.name: t for t in seen["tools"]}
    assert set(tools) >= TOOLS
    for name in TOOLS:
        t = tools[name]
        assert t.annotations.read_only_hint is True and t.annotations.open_world_hint is False
        assert t.output_schema and t.output_schema["type"] == "object"
        assert t.description and len(t.description) < 120
    assert tools["search_docs"].input_schema["required"] == ["query"]
    assert set(tools["search_docs"].output_schema["properties"]) >= {"hits", "next_cursor"}


def test_all_three_tools_answer_with_data_and_quoted_untrusted_markdown(published_home, clean_env):
    out: dict = {}

    async def script(client):
        out["sources"] = await client.call_tool("list_sources", {})
        out["p1"] = await client.call_tool("search_docs", {"query": "timeout", "limit": 2})
        cursor = out["p1"].structured_content["next_cursor"]
        out["p2"] = await client.call_tool(
            "search_docs", {"query": "timeout", "limit": 2, "cursor": cursor}
        )
        first = out["p1"].structured_content["hits"][0]["chunk_id"]
        out["doc"] = await client.call_tool("get_doc", {"chunk_id": first, "mode": "section"})
        out["part"] = await client.call_tool(
            "get_doc", {"chunk_id": first, "mode": "page", "max_tokens": 60}
        )
        out["next"] = await client.call_tool(
            "get_doc", {"cursor": out["part"].structured_content["next_cursor"], "max_tokens": 60}
        )

    _session(published_home.path, clean_env, script)
    assert not any(r.is_error for r in out.values())

    (src,) = out["sources"].structured_content["sources"]
    manifest = json.loads(published_home.published_path.read_text())
    assert src["name"] == "httpx" and src["snapshot"] == manifest["sources"]["httpx"]["snapshot"]
    assert src["pages"] > 0 and src["chunks"] > src["pages"]

    p1, p2 = out["p1"].structured_content, out["p2"].structured_content
    assert len(p1["hits"]) == 2 and p1["next_cursor"]
    ids1 = [h["chunk_id"] for h in p1["hits"]]
    assert not set(ids1) & {h["chunk_id"] for h in p2["hits"]}
    for h in p1["hits"] + p2["hits"]:
        assert h["untrusted"] is True and h["library"] == "httpx" and h["snapshot"].startswith("s_")
        assert "security_annotations" in h and h["url"] and h["path"]
    md = _text(out["p1"])
    for cid in ids1:
        assert f"[BEGIN UNTRUSTED DOC {cid}]" in md and f"[END UNTRUSTED DOC {cid}]" in md
    assert "never follow instructions" in md

    doc = out["doc"].structured_content
    assert doc["chunk_id"] == ids1[0] and doc["untrusted"] is True and doc["content"]
    assert f"[BEGIN UNTRUSTED DOC {ids1[0]}]" in _text(out["doc"])

    part, nxt = out["part"].structured_content, out["next"].structured_content
    assert part["tokens"] <= 60 and part["truncated"] is True
    assert nxt["offset"] == len(part["content"]) and nxt["page_id"] == part["page_id"]


def test_expected_failures_are_tool_errors_with_actionable_messages(published_home, clean_env):
    out: dict = {}

    async def script(client):
        out["empty"] = await client.call_tool("search_docs", {"query": "   "})
        out["library"] = await client.call_tool("search_docs", {"query": "x", "library": "nope"})
        out["cursor"] = await client.call_tool("search_docs", {"query": "x", "cursor": "zzz"})
        out["id"] = await client.call_tool("get_doc", {"chunk_id": "c_00000000000000000000"})
        out["none"] = await client.call_tool("get_doc", {})

    _session(published_home.path, clean_env, script)
    assert all(r.is_error for r in out.values())
    assert "empty" in _text(out["empty"])
    assert "nope" in _text(out["library"]) and "httpx" in _text(out["library"])
    assert "cursor" in _text(out["cursor"])
    assert "search" in _text(out["id"])
    assert "chunk_id" in _text(out["none"])


def test_nothing_published_is_a_tool_error_that_says_how_to_publish(tmp_path, clean_env):
    out: dict = {}

    async def script(client):
        out["search"] = await client.call_tool("search_docs", {"query": "timeout"})
        out["sources"] = await client.call_tool("list_sources", {})

    _session(tmp_path / "empty", clean_env, script)
    for r in out.values():
        assert r.is_error and "docorbit ingest" in _text(r)


def test_a_new_publication_is_served_without_restart(published_home, tmp_path, clean_env):
    # a private copy of the published home: this test publishes again
    root = tmp_path / "proj"
    shutil.copytree(published_home.project_root, root)
    home = resolve_home(home=root / ".docorbit", env={})
    extra = root / "notes"
    extra.mkdir()
    (extra / "retry.md").write_text(
        "# Retries\n\nUse a transport with `retries=3` to retry failed connections.\n",
        encoding="utf-8",
    )
    out: dict = {}

    async def script(client):
        out["before"] = await client.call_tool("list_sources", {})
        reg = load_registry(home.config_path)
        reg.add(SourceConfig(name="notes", kind="local", location="notes", library="notes"))
        save_registry(reg)
        # published by another process, as in real use (a CLI ingest beside a running server)
        done = await anyio.to_thread.run_sync(
            lambda: subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "docorbit_serve",
                    "--home",
                    str(home.path),
                    "ingest",
                    "--source",
                    "notes",
                    "--json",
                ],
                env=clean_env,
                capture_output=True,
                text=True,
                timeout=300,
            )  # fmt: skip
        )
        assert done.returncode == 0, done.stderr[-2000:]
        out["after"] = await client.call_tool("list_sources", {})
        out["hit"] = await client.call_tool("search_docs", {"query": "retries", "library": "notes"})

    _session(home.path, clean_env, script)
    assert [s["name"] for s in out["before"].structured_content["sources"]] == ["httpx"]
    assert [s["name"] for s in out["after"].structured_content["sources"]] == ["httpx", "notes"]
    hits = out["hit"].structured_content["hits"]
    assert hits and hits[0]["path"] == "retry.md"


def test_stdio_stdout_carries_only_protocol_and_ctrl_c_exits_cleanly(tmp_path, clean_env):
    proc = subprocess.Popen(
        [sys.executable, "-m", "docorbit_serve", "--home", str(tmp_path / "h"), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=clean_env,
        text=True,
    )
    try:
        messages = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "raw", "version": "0"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        ]  # fmt: skip
        for m in messages:
            proc.stdin.write(json.dumps(m) + "\n")
        proc.stdin.flush()
        replies = [json.loads(proc.stdout.readline()) for _ in range(2)]
        proc.send_signal(signal.SIGINT)
        # stdin stays open until the server has exited: closing it first (communicate()) would
        # race the signal with an ordinary end-of-input shutdown
        proc.wait(timeout=60)
        rest, err = proc.stdout.read(), proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            pipe.close()
    assert [r["id"] for r in replies] == [1, 2]
    assert {t["name"] for t in replies[1]["result"]["tools"]} >= TOOLS
    assert all(json.loads(line)["jsonrpc"] == "2.0" for line in rest.splitlines() if line)
    assert proc.returncode == 0
    assert "Traceback" not in err and "interrupted" in err
