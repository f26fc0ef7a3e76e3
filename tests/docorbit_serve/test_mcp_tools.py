"""The tools added to the MCP server, over stdio with the SDK client: documentation map,
implementation context, resources, ingest_doc (progress, refused URLs, constant tool list)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from docorbit_serve.home import resolve_home
from docorbit_serve.mcp_server import TOOL_NAMES
from docorbit_serve.registry import load_registry

REPO = Path(__file__).resolve().parents[2]
KIT = (REPO / "fixtures" / "kit" / "badinputs").resolve()  # copied from the kit


def _session(home: Path, env: dict[str, str], script) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "docorbit_serve", "--home", str(home), "mcp"], env=env
    )

    async def main() -> None:
        with anyio.fail_after(300):
            async with Client(params, read_timeout_seconds=240) as client:
                await script(client)

    anyio.run(main)


def test_tool_annotations_say_which_tools_read_and_which_reach_out(tmp_path, clean_env):
    seen: dict = {}

    async def script(client):
        seen["tools"] = {t.name: t for t in (await client.list_tools()).tools}

    _session(tmp_path / "empty", clean_env, script)
    tools = seen["tools"]
    assert list(tools) == list(TOOL_NAMES)
    for name, t in tools.items():
        assert t.output_schema and t.output_schema["type"] == "object"
        assert t.description and len(t.description) < 100
        if name == "ingest_doc":
            assert t.annotations.read_only_hint is False and t.annotations.open_world_hint is True
        else:
            assert t.annotations.read_only_hint is True and t.annotations.open_world_hint is False
    assert tools["get_implementation_context"].input_schema["required"] == ["task"]
    assert sorted(tools["ingest_doc"].input_schema["required"]) == ["library", "location"]
    assert "ctx" not in tools["ingest_doc"].input_schema["properties"]


def test_documentation_map_pages_through_every_page_once(published_home, clean_env):
    out: dict = {"pages": []}

    async def script(client):
        cursor = None
        while True:
            args = {
                "max_pages": 7,
                "sections_per_page": 2,
                **({"cursor": cursor} if cursor else {}),
            }
            r = await client.call_tool("get_documentation_map", args)
            assert not r.is_error, r.content
            out.setdefault("first", r)
            data = r.structured_content
            out["pages"] += [p for s in data["sources"] for p in s["pages"]]
            cursor = data["next_cursor"]
            if not cursor:
                break
        out["unknown"] = await client.call_tool("get_documentation_map", {"library": "nope"})

    _session(published_home.path, clean_env, script)
    first = out["first"].structured_content
    assert first["untrusted"] is True and first["truncated"] is True
    ids = [p["page_id"] for p in out["pages"]]
    assert len(ids) == len(set(ids)) == first["pages_total"] > 7
    assert all(
        len(p["sections"]) <= 2 <= p["sections_total"] or p["sections_total"] < 2
        for p in out["pages"]
    )
    text = out["first"].content[0].text
    assert "[BEGIN UNTRUSTED DOC map]" in text and "More pages" in text
    assert out["unknown"].is_error and "httpx" in out["unknown"].content[0].text


def test_implementation_context_stays_within_budget_and_continues_without_repeats(
    published_home, clean_env
):
    out: dict = {}

    async def script(client):
        args = {
            "task": "configure proxies and timeouts for a client",
            "budget": 500,
            "library": "httpx",
        }
        out["a"] = await client.call_tool("get_implementation_context", args)
        cur = out["a"].structured_content["next_cursor"]
        out["b"] = await client.call_tool("get_implementation_context", {**args, "cursor": cur})
        out["empty"] = await client.call_tool("get_implementation_context", {"task": "  "})

    _session(published_home.path, clean_env, script)
    a, b = out["a"].structured_content, out["b"].structured_content
    for pack in (a, b):
        assert pack["tokens"] <= pack["budget"] == 500
        assert pack["tokenizer"] and pack["publish_id"].startswith("u_")
        assert all(i["untrusted"] is True for i in pack["items"])
    assert a["items"] and a["intent"] == "configuration"
    assert not {i["chunk_id"] for i in a["items"]} & {i["chunk_id"] for i in b["items"]}
    assert "[BEGIN UNTRUSTED DOC" in out["a"].content[0].text
    assert out["empty"].is_error and "task" in out["empty"].content[0].text


def test_resources_are_templates_with_bounded_paginated_reads(published_home, clean_env):
    out: dict = {}

    async def script(client):
        out["static"] = (await client.list_resources()).resources
        out["templates"] = (await client.list_resource_templates()).resource_templates
        out["sources"] = await client.read_resource("docorbit://sources")
        m = await client.call_tool(
            "get_documentation_map", {"max_pages": 50, "sections_per_page": 0}
        )
        pages = [p for s in m.structured_content["sources"] for p in s["pages"]]
        parts, uri = [], f"docorbit://pages/{pages[0]['page_id']}"
        while uri:
            data = json.loads((await client.read_resource(uri)).contents[0].text)
            parts.append(data)
            uri = data["next_uri"]
        out["parts"] = parts
        try:
            await client.read_resource("docorbit://chunks/c_00000000000000000000")
        except MCPError as e:
            out["missing"] = str(e)

    _session(published_home.path, clean_env, script)
    assert [str(r.uri) for r in out["static"]] == ["docorbit://sources"]
    assert {t.uri_template for t in out["templates"]} == {
        "docorbit://pages/{id}{?offset}",
        "docorbit://chunks/{id}{?offset}",
    }
    sources = json.loads(out["sources"].contents[0].text)["sources"]
    assert [s["name"] for s in sources] == ["httpx"]
    parts = out["parts"]
    assert all(len(p["content"].encode()) <= 64 * 1024 and p["untrusted"] is True for p in parts)
    assert sum(len(p["content"].encode()) for p in parts) == parts[0]["total_bytes"]
    assert "no chunk" in out["missing"]


def test_resource_reads_longer_than_the_limit_continue_exactly(published_home):
    from docorbit_serve.catalog import Catalog
    from docorbit_serve.reader import documentation_map, read_page_resource

    cat = Catalog(published_home)
    try:
        page = documentation_map(cat, max_pages=1)["sources"][0]["pages"][0]
        whole = read_page_resource(cat, page["page_id"])
        parts, offset = [], 0
        while offset is not None:
            part = read_page_resource(cat, page["page_id"], offset=offset, limit=333)
            parts.append(part["content"])
            offset = part["next_offset"]
    finally:
        cat.close()
    assert len(parts) > 3 and all(len(p.encode()) <= 333 for p in parts)
    assert "".join(parts) == whole["content"] and whole["truncated"] is False


def _carrier_project(tmp_path: Path, home_factory) -> tuple[Path, list[Path]]:
    """The kit's injection carriers as local Markdown sources: the markdown_html cases as they
    are, and prompt_injection as one page per injection plus each carrier file's raw text
    (local sources read Markdown only; raw HTML inside Markdown stays as it is)."""
    root = tmp_path / "proj"
    home = home_factory(root)
    md = root / "markdown_html"
    md.mkdir()
    for f in sorted((KIT / "markdown_html").glob("*.md")):
        shutil.copyfile(f, md / f.name)
    pi = root / "prompt_injection"
    pi.mkdir()
    for line in (
        (KIT / "prompt_injection" / "injections.jsonl").read_text(encoding="utf-8").splitlines()
    ):
        case = json.loads(line)
        (pi / f"{case['id']}.md").write_text(
            f"# {case['technique']}\n\n{case['text']}\n", encoding="utf-8"
        )
    for f in sorted((KIT / "prompt_injection" / "carriers").iterdir()):
        body = f.read_text(encoding="utf-8", errors="replace")
        (pi / f"carrier_{f.name}.md").write_text(f"# {f.name}\n\n{body}\n", encoding="utf-8")
    return home.path, [pi, md]


def test_ingest_doc_reports_progress_and_the_tool_list_stays_byte_identical(
    tmp_path, clean_env, home_factory
):
    """Ingest the kit's injection carriers through ingest_doc; tools/list must not change."""
    home_path, carriers = _carrier_project(tmp_path, home_factory)
    out: dict = {"progress": []}

    async def progress(p, total, message):
        out["progress"].append((p, total, message))

    async def script(client):
        before = await client.session.list_tools()
        out["before"] = json.dumps(before.model_dump(mode="json"), sort_keys=True)
        out["ingest"] = [
            await client.call_tool(
                "ingest_doc",
                {"location": str(c), "library": lib},
                progress_callback=progress,
            )
            for c, lib in zip(carriers, ("carriers", "markdown"), strict=True)
        ]
        after = await client.session.list_tools()
        out["after"] = json.dumps(after.model_dump(mode="json"), sort_keys=True)
        out["search"] = await client.call_tool(
            "search_docs", {"query": "ignore previous instructions", "limit": 5}
        )

    _session(home_path, clean_env, script)
    for r in out["ingest"]:
        assert not r.is_error, r.content
        assert r.structured_content["added"] is True and r.structured_content["rows"]["pages"] > 0
    assert out["after"] == out["before"]
    assert out["progress"] and out["progress"][-1][0] == out["progress"][-1][1]
    hits = out["search"].structured_content["hits"]
    assert hits and all(h["untrusted"] is True for h in hits)
    assert any(h["security_annotations"] for h in hits)
    text = out["search"].content[0].text
    for h in hits:
        assert f"[BEGIN UNTRUSTED DOC {h['chunk_id']}]" in text
    names = [
        s.name for s in load_registry(resolve_home(home=home_path, env={}).config_path).sources
    ]
    assert names == ["carriers", "markdown"]


def test_ingest_doc_refuses_a_blocked_url_before_touching_the_registry(
    tmp_path, clean_env, home_factory
):
    home = home_factory(tmp_path / "proj")
    before = home.config_path.read_bytes()
    out: dict = {}

    async def script(client):
        out["meta"] = await client.call_tool(
            "ingest_doc", {"location": "http://169.254.169.254/latest/meta-data/", "library": "x"}
        )
        out["loop"] = await client.call_tool(
            "ingest_doc", {"location": "http://127.0.0.1:8080/docs", "library": "x"}
        )
        out["scheme"] = await client.call_tool(
            "ingest_doc", {"location": "file:///etc/passwd", "library": "x"}
        )
        out["missing"] = await client.call_tool(
            "ingest_doc", {"location": str(tmp_path / "nope"), "library": "x"}
        )

    _session(home.path, clean_env, script)
    for key in ("meta", "loop", "scheme"):
        assert out[key].is_error and "[blocked_url] refused" in out[key].content[0].text
    assert out["missing"].is_error and "[bad_input]" in out["missing"].content[0].text
    assert home.config_path.read_bytes() == before
    assert not home.published_path.exists()


def test_ingest_doc_into_a_new_project_is_hybrid_and_reports_the_embedding_phase(
    tmp_path, clean_env
):
    """No docorbit.toml yet: the project ingest_doc creates is hybrid, and the minute of
    embedding is progress the client sees, every value above the last (MCP requires it)."""
    from tests.docorbit_serve.conftest import HTTPX_DOCS

    home = tmp_path / "proj" / ".docorbit"
    out: dict = {"progress": []}

    async def progress(p, total, message):
        out["progress"].append((p, total, message))

    async def script(client):
        out["ingest"] = await client.call_tool(
            "ingest_doc",
            {"location": str(HTTPX_DOCS), "library": "httpx"},
            progress_callback=progress,
        )
        out["search"] = await client.call_tool(
            "search_docs", {"query": "set a timeout on a client", "limit": 3}
        )

    _session(home, clean_env, script)
    assert not out["ingest"].is_error, out["ingest"].content
    assert load_registry(resolve_home(home=home, env={}).config_path).hybrid is True
    values = [p for p, _, _ in out["progress"]]
    assert values == sorted(values) and len(set(values)) == len(values), out["progress"]
    assert values[-1] == out["progress"][-1][1]
    embedding = [m for _, _, m in out["progress"] if m.startswith("embedding chunks")]
    assert embedding and embedding[-1].endswith("196/196"), out["progress"]
    assert out["search"].structured_content["ranking"] == "hybrid"
