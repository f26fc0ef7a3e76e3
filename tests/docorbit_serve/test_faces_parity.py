"""The CLI's ``--json`` and MCP's ``structuredContent`` are the same shared model (issue 12).

For the same call of search, get, context, map, list and version, the CLI (in-process, click's
runner) and the MCP server (in-process, the SDK client) must print the same JSON; only the
wall-clock readings (``elapsed_ms``, ``age_hours``) are left out of the comparison. The JSON must also
validate against the model in ``docorbit_serve.models.core`` with nothing left over.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp import Client

from docorbit_serve.cli import cli
from docorbit_serve.mcp_server import build_server
from docorbit_serve.models import core

pytestmark = pytest.mark.slow  # needs the session's published corpus (a real ingest)

QUERY = "set a timeout on requests"


def _cli(home: Any, *args: str) -> dict[str, Any]:
    r = CliRunner().invoke(cli, ["--home", str(home.path), *args, "--json"])
    assert r.exit_code == 0, (r.stdout, r.stderr)
    return json.loads(r.stdout)


def _mcp(home: Any, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    async def main() -> None:
        with anyio.fail_after(120):
            async with Client(build_server(home)) as client:
                for name, args in calls:
                    res = await client.call_tool(name, args)
                    assert not res.is_error, res.content
                    out.append(res.structured_content)

    anyio.run(main)
    return out


CLOCK = ("elapsed_ms", "age_hours")  # wall-clock readings: they differ between two calls


def _steady(x: Any) -> Any:
    """``x`` without the clock readings, at any depth."""
    if isinstance(x, dict):
        return {k: _steady(v) for k, v in x.items() if k not in CLOCK}
    if isinstance(x, list):
        return [_steady(v) for v in x]
    return x


def _same(a: dict[str, Any], b: dict[str, Any], model: type) -> None:
    assert _steady(a) == _steady(b)
    dumped = model.model_validate(a).model_dump(mode="json")
    assert _steady(dumped) == _steady(a)  # nothing outside the model, nothing missing


def test_cli_json_and_mcp_structured_content_are_the_same_models(published_home, clean_env):
    home = published_home
    search = _cli(home, "search", QUERY, "--limit", "3")
    hit = search["hits"][0]["chunk_id"]
    cli_out = {
        "search": search,
        "get": _cli(home, "get", hit, "--mode", "section", "--max-tokens", "300"),
        "context": _cli(home, "context", QUERY, "--budget", "600"),
        "map": _cli(home, "map", "--max-pages", "3", "--sections-per-page", "2"),
        "list": _cli(home, "list"),
        "version": _cli(home, "version"),
    }
    calls = [
        ("search_docs", {"query": QUERY, "limit": 3}),
        ("get_doc", {"chunk_id": hit, "mode": "section", "max_tokens": 300}),
        ("get_implementation_context", {"task": QUERY, "budget": 600}),
        ("get_documentation_map", {"max_pages": 3, "sections_per_page": 2}),
        ("list_sources", {}),
        ("get_version", {}),
    ]
    mcp_out = dict(zip(cli_out, _mcp(home, calls), strict=True))
    models = {
        "search": core.SearchPage,
        "get": core.Doc,
        "context": core.ContextPack,
        "map": core.DocMap,
        "list": core.SourceList,
        "version": core.VersionReport,
    }
    for key, model in models.items():
        _same(cli_out[key], mcp_out[key], model)
    assert 1 <= len(search["hits"]) <= 3 and search["next_cursor"]
    assert cli_out["context"]["tokens"] <= 600 and cli_out["context"]["items"]
    assert [s["name"] for s in cli_out["list"]["sources"]] == ["httpx"]
    assert cli_out["list"]["sources"][0]["published"] is True
    assert cli_out["version"]["indexed"] == {"httpx": ["0.28"]}


def test_version_report_of_a_workspace_is_the_service_model(published_home, tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "requirements.txt").write_text("httpx==0.28.1\n", encoding="utf-8")
    cli_rep = _cli(published_home, "version", "--workspace", str(ws))
    from docorbit_serve import service

    direct = service.version_report(published_home, ws).model_dump(mode="json")
    assert cli_rep == direct
    assert [p["library"] for p in cli_rep["libraries"]] == ["httpx"]
    assert cli_rep["libraries"][0]["docs_version"] == "0.28"
    _same(cli_rep, direct, core.VersionReport)
