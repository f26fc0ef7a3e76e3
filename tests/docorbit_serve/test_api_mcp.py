"""The API-intelligence MCP tools (``mcp_api``) through the SDK client, in process, on the
fixture specs ingested by the real pipeline: served first among the families, typed inputs
with bounds, structured outputs that validate against their output schemas, untrusted text
quoted in the Markdown."""

from __future__ import annotations

import anyio
import jsonschema
import pytest
from mcp import Client

from docorbit_serve.mcp_api import TOOL_NAMES as API_TOOLS
from docorbit_serve.mcp_server import TOOL_NAMES, build_server
from tests.support.apihome import api_home

pytestmark = pytest.mark.slow  # needs the real ingest of tests/support/apihome.py

CALLS = (
    ("find_api", {"query": "create a chat completion", "library": "openai"}),
    ("find_api", {"method": "GET", "path": "/pets/7", "library": "petstore"}),
    ("find_example", {"query": "send a message", "library": "slack", "language": "python"}),
    ("find_pitfall", {"query": "deprecated parameter", "library": "openai"}),
    ("find_recipe", {"task": "cancel a fine-tuning job", "library": "openai"}),
    ("find_recipe", {"task": "book a flight to Paris", "library": "twilio"}),
)


@pytest.fixture(scope="session")
def home(tmp_path_factory):
    return api_home(tmp_path_factory)


def _run(home, script) -> dict:
    out: dict = {}

    async def main() -> None:
        with anyio.fail_after(120):
            async with Client(build_server(home)) as client:
                await script(client, out)

    anyio.run(main)
    return out


def test_api_tools_are_served_after_get_version_in_order():
    i = TOOL_NAMES.index("get_version")
    assert TOOL_NAMES[i + 1 : i + 1 + len(API_TOOLS)] == API_TOOLS


def test_api_tools_answer_and_their_outputs_validate_against_their_schemas(home):
    async def script(client, out):
        out["tools"] = {t.name: t for t in (await client.list_tools()).tools}
        out["results"] = [(name, await client.call_tool(name, args)) for name, args in CALLS]

    out = _run(home, script)
    tools = out["tools"]
    for name in API_TOOLS:
        t = tools[name]
        assert t.output_schema and t.output_schema["type"] == "object"
        assert t.annotations.read_only_hint is True
    assert tools["find_recipe"].input_schema["required"] == ["task"]
    limit = tools["find_api"].input_schema["properties"]["limit"]
    assert limit["minimum"] == 1 and limit["maximum"] == 50
    for name, r in out["results"]:
        assert not r.is_error, (name, r.content)
        jsonschema.validate(r.structured_content, tools[name].output_schema)
    (_, api), (_, by_path) = out["results"][0], out["results"][1]
    first = api.structured_content["results"][0]
    assert (first["method"], first["path"]) == ("POST", "/chat/completions")
    assert first["untrusted"] is True
    text = api.content[0].text
    assert "[BEGIN UNTRUSTED DOC" in text and "POST /chat/completions" in text
    assert by_path.structured_content["results"][0]["path"] == "/pets/{id}"
    covered, absent = (
        out["results"][4][1].structured_content,
        out["results"][5][1].structured_content,
    )
    assert covered["status"] == "covered" and covered["steps"]
    assert absent["status"] == "missing_information" and absent["confidence"] == 0
    assert absent["steps"] == []


def test_api_tools_turn_bad_input_into_tool_errors(home):
    async def script(client, out):
        out["unknown"] = await client.call_tool("find_api", {"query": "x", "library": "nope"})
        out["empty"] = await client.call_tool("find_api", {})
        out["kind"] = await client.call_tool("find_pitfall", {"query": "x", "kind": "nope"})
        out["limit"] = await client.call_tool("find_example", {"query": "x", "limit": 500})

    out = _run(home, script)
    assert out["unknown"].is_error and "[unknown_library]" in out["unknown"].content[0].text
    assert out["empty"].is_error and "[bad_input]" in out["empty"].content[0].text
    assert out["kind"].is_error and out["limit"].is_error


def test_get_implementation_context_carries_the_api_part_quoted(home):
    async def script(client, out):
        out["tools"] = {t.name: t for t in (await client.list_tools()).tools}
        out["r"] = await client.call_tool(
            "get_implementation_context",
            {"task": "cancel a fine-tuning job", "library": "openai", "budget": 1500},
        )

    out = _run(home, script)
    r = out["r"]
    assert not r.is_error, r.content
    jsonschema.validate(
        r.structured_content, out["tools"]["get_implementation_context"].output_schema
    )
    data = r.structured_content
    assert data["tokens"] <= 1500
    assert data["api"]["endpoints"][0]["path"] == "/fine_tuning/jobs/{fine_tuning_job_id}/cancel"
    assert "[BEGIN UNTRUSTED DOC api]" in r.content[0].text
