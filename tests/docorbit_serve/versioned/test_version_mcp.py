"""MCP ``get_version``: the server's project decides which versions it reports."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from .conftest import WORKSPACES


def _call(home: Path, cwd: Path, env: dict[str, str], args: dict) -> object:
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
                out["r"] = await client.call_tool("get_version", args)

    anyio.run(main)
    return out["r"]


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
