"""A search hit's content is bounded (``service.MAX_HIT_TOKENS``): a section part holding a huge
fence (the slicer never cuts code) is served as its head, marked ``truncated``, and get_doc
still reads all of it — the same on the CLI and over MCP."""

from __future__ import annotations

import json

import anyio
from click.testing import CliRunner
from mcp import Client

from docorbit_serve.catalog import Catalog
from docorbit_serve.cli import cli
from docorbit_serve.mcp_server import build_server
from docorbit_serve.service import MAX_HIT_TOKENS, read_doc
from docorbit_serve.tokens import count_tokens
from tests.docorbit_serve.test_search_corpus import DOCS, publish_corpus

_CODE = "\n".join(f"    register_handler('route_{k}', handler_{k})" for k in range(600))
BIG = (
    "reference/handlers.md",
    "Handlers",
    "Generated handler table",
    ["Handlers"],
    f"## Generated handler table\n\nEvery handler the gateway registers.\n\n```python\n{_CODE}\n```",
)


def _home(tmp_path):
    return publish_corpus(tmp_path, {**DOCS, "alpha": [*DOCS["alpha"], BIG]})


def test_a_hit_over_the_bound_is_its_head_marked_truncated_and_get_doc_reads_it_whole(tmp_path):
    home = _home(tmp_path)
    res = CliRunner().invoke(cli, ["--home", str(home.path), "--json", "search",
                                   "generated handler table client timeout", "--library", "alpha"])  # fmt: skip
    assert res.exit_code == 0, res.output
    hits = json.loads(res.stdout)["hits"]
    big = next(h for h in hits if h["heading"] == "Generated handler table")
    assert big["truncated"] is True and big["tokens"] > MAX_HIT_TOKENS
    assert count_tokens(big["content"]) <= MAX_HIT_TOKENS
    assert big["content"].startswith("## Generated handler table")
    small = [h for h in hits if h is not big]
    assert small and all(h["truncated"] is False for h in small)
    cat = Catalog(home)
    whole = read_doc(cat, chunk_id=big["chunk_id"], mode="chunk", max_tokens=20_000)
    cat.close()
    assert "handler_599" in whole.content and "handler_599" not in big["content"]
    text = CliRunner().invoke(cli, ["--home", str(home.path), "search", "generated handler table",
                                    "--library", "alpha"]).stdout  # fmt: skip
    assert "truncated: the rest with get_doc" in text


def test_search_docs_over_mcp_bounds_the_hit_the_same_way(tmp_path):
    home = _home(tmp_path)

    async def go():
        async with Client(build_server(home)) as client:
            return await client.call_tool(
                "search_docs", {"query": "generated handler table gateway", "library": "alpha"}
            )

    result = anyio.run(go)
    hits = result.structured_content["hits"]
    big = next(h for h in hits if h["heading"] == "Generated handler table")
    assert big["truncated"] is True and count_tokens(big["content"]) <= MAX_HIT_TOKENS
