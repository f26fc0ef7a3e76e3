"""A third-party client: the MCP Inspector CLI (pinned in package.json) lists and calls every tool,
over stdio and over streamable HTTP. ``npm install --no-save`` installs it from the committed
lock file when ``node_modules`` is missing (``npm ci`` refuses this lock: vite declares an
optional Windows-only dependency the lock cannot hold, and npm 11 reports it as out of sync)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from docorbit_serve.mcp_server import TOOL_NAMES
from tests.docorbit_serve.test_mcp_http import http_server

REPO = Path(__file__).resolve().parents[2]
INSPECTOR = REPO / "node_modules" / ".bin" / "mcp-inspector"


@pytest.fixture(scope="module")
def inspector() -> Path:
    if not INSPECTOR.exists():
        npm = shutil.which("npm")
        assert npm, "npm is needed for the MCP Inspector test (Node 20+)"
        r = subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts"],
            cwd=REPO, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert r.returncode == 0, r.stderr
    assert INSPECTOR.exists()
    return INSPECTOR


def _run(inspector: Path, target: list[str], *args: str, env: dict[str, str]) -> dict:
    r = subprocess.run(
        [str(inspector), "--cli", *target, *args],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert r.returncode == 0, (args, r.stdout[-2000:], r.stderr[-2000:])
    return json.loads(r.stdout)


def test_inspector_lists_tools_and_ingests_then_searches_over_stdio(
    inspector, published_home, tmp_path, clean_env
):
    # a private copy: ingest_doc publishes again
    root = tmp_path / "proj"
    shutil.copytree(published_home.project_root, root)
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "retry.md").write_text("# Retries\n\nUse `retries=3` on the transport.\n", "utf-8")
    target = [sys.executable, "-m", "docorbit_serve", "--home", str(root / ".docorbit"), "mcp"]

    def call(tool: str, **args: object) -> dict:
        flags = [x for k, v in args.items() for x in ("--tool-arg", f"{k}={v}")]
        out = _run(
            inspector, target, "--method", "tools/call", "--tool-name", tool, *flags, env=clean_env
        )
        assert not out.get("isError"), out
        return out["structuredContent"]

    listed = _run(inspector, target, "--method", "tools/list", env=clean_env)
    assert [t["name"] for t in listed["tools"]] == list(TOOL_NAMES)
    added = call("ingest_doc", location=str(notes), library="notes")
    assert added["added"] is True and added["rows"]["pages"] == 1
    assert call("search_docs", query="retries", library="notes")["hits"][0]["path"] == "retry.md"


def test_inspector_lists_and_calls_every_read_tool_over_streamable_http(
    inspector, published_home, clean_env
):
    with http_server(published_home.path, clean_env) as (port, _proc):
        target = [f"http://127.0.0.1:{port}/mcp", "--transport", "http"]
        listed = _run(inspector, target, "--method", "tools/list", env=clean_env)
        assert [t["name"] for t in listed["tools"]] == list(TOOL_NAMES)

        def call(tool: str, **args: object) -> dict:
            flags = [x for k, v in args.items() for x in ("--tool-arg", f"{k}={v}")]
            out = _run(
                inspector,
                target,
                "--method",
                "tools/call",
                "--tool-name",
                tool,
                *flags,
                env=clean_env,
            )
            assert not out.get("isError"), out
            return out["structuredContent"]

        hits = call("search_docs", query="proxy", limit=2)["hits"]
        assert len(hits) == 2 and hits[0]["untrusted"] is True
        assert call("get_doc", chunk_id=hits[0]["chunk_id"])["untrusted"] is True
        assert [s["name"] for s in call("list_sources")["sources"]] == ["httpx"]
        assert call("get_documentation_map", max_pages=2)["pages_total"] > 2
        assert call("get_implementation_context", task="use a proxy", budget=400)["tokens"] <= 400
        templates = _run(inspector, target, "--method", "resources/templates/list", env=clean_env)
        assert len(templates["resourceTemplates"]) == 2
