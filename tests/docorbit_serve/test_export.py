"""Exports (docorbit export / MCP export_agent_context) over a corpus published by the real
pipeline from fixtures/dashboard, whose project pins fastapi 0.116.1 and pydantic 2.12.5."""

from __future__ import annotations

import json

import anyio
import pytest
from click.testing import CliRunner
from mcp import Client

from docorbit_serve.models.web import EXPORT_FORMATS
from docorbit_serve.tokens import count_tokens
from tests.support.dashboard import dashboard_home


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return dashboard_home(tmp_path_factory)


def _export(home, *args):
    from docorbit_serve.cli import cli

    r = CliRunner().invoke(cli, ["--home", str(home.path), "export", *args])
    assert r.exit_code == 0, (r.stdout, r.stderr)
    return r


def test_agents_md_for_a_fastapi_pydantic_workspace_names_pins_and_links_served_docs(
    home, tmp_path
):
    out = tmp_path / "AGENTS.md"
    _export(home, "agents-md", "--out", str(out), "--workspace", str(home.project_root))
    text = out.read_text(encoding="utf-8")
    assert "| fastapi | 0.116.1 | requirements.txt | 0.116 | available |" in text
    assert "| pydantic | 2.12.5 | requirements.txt | 2.12 | available |" in text
    for unused in ("| orbit |", "library=orbit", "petstore"):  # the workspace does not use them
        assert unused not in text
    assert "http://127.0.0.1:8765/api/v1/search?library=fastapi" in text
    assert "http://127.0.0.1:8765/search?library=pydantic" in text
    entry = text.split("## Entry points", 1)[1]
    assert "docorbit://pages/p_" in entry and "Query Parameters" in entry


def test_a_library_export_quotes_its_pitfalls_as_untrusted_data_with_provenance(home):
    text = _export(home, "claude-md", "--library", "orbit").stdout
    assert "| orbit | – | – | 1.0, 2.0 | not used by the workspace |" in text
    pits = text.split("## Key pitfalls", 1)[1]
    assert "[BEGIN UNTRUSTED DOC c_" in pits and "[END UNTRUSTED DOC c_" in pits
    assert "> `Client.retry()` is deprecated" in pits and "guide.md#retries" in pits


def test_an_unknown_library_is_a_typed_error(home):
    from docorbit_serve.cli import cli

    r = CliRunner().invoke(
        cli, ["--home", str(home.path), "export", "agents-md", "--library", "nope", "--json"]
    )
    assert r.exit_code == 3 and json.loads(r.stdout)["error"]["code"] == "unknown_library"


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_exports_are_byte_identical_on_rerun_and_within_budget(home, tmp_path, fmt):
    a, b = tmp_path / "a", tmp_path / "b"
    for path in (a, b):
        _export(
            home, fmt, "--out", str(path), "--budget", "600", "--workspace", str(home.project_root)
        )
    assert a.read_bytes() == b.read_bytes()
    assert count_tokens(a.read_text(encoding="utf-8")) <= 600


def test_a_small_budget_drops_blocks_and_says_so(home):
    r = _export(home, "agents-md", "--json", "--budget", "300")
    data = json.loads(r.stdout)
    assert data["tokens"] <= 300 and data["truncated"] is True
    assert "## Libraries and pinned versions" in data["text"]


def test_export_agent_context_answers_through_the_sdk_client_with_the_cli_text(home):
    from docorbit_serve.mcp_server import TOOL_NAMES, build_server

    cli_text = _export(home, "llms-txt", "--budget", "2000").stdout
    seen: dict = {}

    async def main() -> None:
        with anyio.fail_after(120):
            async with Client(build_server(home)) as client:
                seen["tools"] = [t.name for t in (await client.list_tools()).tools]
                res = await client.call_tool(
                    "export_agent_context", {"format": "llms-txt", "budget": 2000}
                )
                seen["data"] = res.structured_content

    anyio.run(main)
    assert "export_agent_context" in seen["tools"]
    assert seen["tools"] == list(TOOL_NAMES)  # every tool named in TOOL_NAMES is served
    assert seen["data"]["format"] == "llms-txt"
    assert seen["data"]["text"].rstrip("\n") == cli_text.rstrip("\n")


def test_entry_points_name_each_section_once():
    """A long section is sliced into parts that share its heading; the entry list names it once."""
    from docorbit_serve.export import section_names

    rows = [{"heading": h} for h in ["Guide", "Setup", "Limits", "Limits", "Setup", "Errors"]]
    assert section_names(rows, "Guide") == ["Setup", "Limits", "Errors"]
    assert section_names(rows, "Guide", most=2) == ["Setup", "Limits"]
