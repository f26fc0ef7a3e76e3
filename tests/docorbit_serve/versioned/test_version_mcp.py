"""MCP ``get_version``: the server's project decides which versions it reports."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from .conftest import WORKSPACES


def _call(home: Path, cwd: Path, env: dict[str, str], args: dict) -> object:
    return _call_tool(home, cwd, env, "get_version", args)


def test_get_version_reports_the_working_directorys_pins_and_unavailable_versions(
    two_versions, tmp_path, clean_env
):
    ws = tmp_path / "ws"
    shutil.copytree(WORKSPACES / "pydantic-unavailable", ws)
    r = _call(two_versions.home.path, ws, clean_env, {"library": "pydantic"})
    assert not r.is_error
    data = r.structured_content
    assert data["project_root"] == str(ws.resolve())
    (row,) = data["libraries"]
    assert (row["status"], row["wanted"], row["nearest"]) == (
        "version_unavailable",
        "0.32.2",
        ["1.10.26", "2.12.5"],
    )
    text = "\n".join(c.text for c in r.content if c.type == "text")
    assert "version_unavailable" in text and "[BEGIN UNTRUSTED DOC" not in text


def _call_tool(home: Path, cwd: Path, env: dict[str, str], tool: str, args: dict) -> object:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "docorbit_serve", "--home", str(home), "mcp"],
        env=env,
        cwd=str(cwd),
    )
    out: dict = {}

    async def main() -> None:
        with anyio.fail_after(120):
            async with Client(params, read_timeout_seconds=60) as client:
                out["r"] = await client.call_tool(tool, args)

    anyio.run(main)
    return out["r"]


def test_search_docs_ranks_the_pinned_version_first_and_stamps_every_hit(
    two_versions, tmp_path, clean_env
):
    for name, want in (("pydantic-v1-requirements", "1.10.26"), ("pydantic-v2-uv", "2.12.5")):
        ws = tmp_path / name
        shutil.copytree(WORKSPACES / name, ws)
        r = _call_tool(
            two_versions.home.path,
            ws,
            clean_env,
            "search_docs",
            {"query": "custom validators on a model field", "library": "pydantic", "limit": 5},
        )
        assert not r.is_error
        data = r.structured_content
        assert data["versions"]["pydantic"]["docs_version"] == want
        assert data["hits"][0]["version"] == want
        assert all(h["version_match"] for h in data["hits"])
        assert data["notices"]


def test_implementation_context_uses_the_pinned_version_or_says_it_is_unavailable(
    two_versions, tmp_path, clean_env
):
    ws = tmp_path / "v1"
    shutil.copytree(WORKSPACES / "pydantic-v1-requirements", ws)
    args = {"task": "add a validator to a model field", "library": "pydantic", "budget": 1500}
    r = _call_tool(two_versions.home.path, ws, clean_env, "get_implementation_context", args)
    assert not r.is_error
    data = r.structured_content
    assert data["items"] and {i["version"] for i in data["items"]} == {"1.10.26"}
    assert data["versions"]["pydantic"]["status"] == "available"
    gone = tmp_path / "gone"
    shutil.copytree(WORKSPACES / "pydantic-unavailable", gone)
    r = _call_tool(two_versions.home.path, gone, clean_env, "get_implementation_context", args)
    data = r.structured_content
    assert data["versions"]["pydantic"]["status"] == "version_unavailable"
    assert data["versions"]["pydantic"]["nearest"] == ["1.10.26", "2.12.5"]
    text = "\n".join(c.text for c in r.content if c.type == "text")
    assert "version_unavailable" in text or "not indexed" in text
