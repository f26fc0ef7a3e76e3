import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from docorbit_assets.lib.discover import (
    best_candidate,
    discover,
    glob_match,
    is_html,
    local_markdown_files,
    parse_llms_txt,
)
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS
from tests.support.http import Route, serve_directory, serve_routes, web_source
from tests.support.paths import FIXTURE_SITE, KIT_DATA

LLMS = KIT_DATA / "llms"

INDEX = b"# demo\n\n> A demo library.\n\n## Docs\n\n- [Guide](/guide.md): the guide\n"
FULL = b"# demo\n\n## Guide\n\nEverything in one file.\n"
HTML = b"<!DOCTYPE html>\n<html><head><title>Home</title></head><body>hi</body></html>"


def _web(url: str, kind: str = "web") -> SourceConfig:
    return web_source(url, kind)


def _rows(table, ctype: str | None = None):
    """Rows by URL path (without the leading slash), optionally of one candidate type."""
    return {
        urlsplit(r["url"]).path.lstrip("/"): r
        for r in table.to_pylist()
        if ctype is None or r["type"] == ctype
    }


def test_local_folder_with_markdown_is_one_valid_rank_one_row(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Hi\n")
    table = discover(SourceConfig(name="d", kind="local", location="docs", library="d"), tmp_path)
    assert table.schema.equals(SCHEMAS["discovered"])
    (row,) = table.to_pylist()
    assert (row["type"], row["status"], row["rank"]) == ("local", "valid", 1)
    assert row["url"] == "file://" + str((tmp_path / "docs").resolve())
    meta = json.loads(row["metadata_json"])
    assert meta["files"] == 1 and meta["recommended_for"] == [
        "navigation",
        "conceptual",
        "api",
        "examples",
    ]


def test_missing_local_folder_is_an_invalid_row_not_an_exception(tmp_path: Path):
    table = discover(SourceConfig(name="d", kind="local", location="nope", library="d"), tmp_path)
    (row,) = table.to_pylist()
    assert (row["status"], row["rank"]) == ("invalid", 0)
    assert "does not exist" in row["rationale"]
    assert best_candidate(table) is None


def test_local_folder_without_markdown_is_invalid(tmp_path: Path):
    (tmp_path / "notes.txt").write_text("plain text")
    table = discover(SourceConfig(name="d", kind="local", location=".", library="d"), tmp_path)
    (row,) = table.to_pylist()
    assert row["status"] == "invalid"
    assert "no Markdown" in row["rationale"]


def test_local_markdown_files_skip_hidden_folders_and_other_suffixes(tmp_path: Path):
    for rel in ["b.md", "a/c.mdx", "a/d.markdown", ".git/x.md", "a/.cache/y.md", ".z.md", "e.txt"]:
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("# x\n")
    assert local_markdown_files(tmp_path) == ["a/c.mdx", "a/d.markdown", "b.md"]
    assert local_markdown_files(tmp_path, include=["a/**"], exclude=["*.mdx"]) == ["a/d.markdown"]


def test_glob_double_star_spans_folders_and_bare_patterns_match_names():
    assert glob_match("guide/deep/x.md", "guide/**/*.md")
    assert glob_match("guide/x.md", "guide/**/*.md")
    assert not glob_match("other/x.md", "guide/**/*.md")
    assert glob_match("any/where/release-notes.md", "release-notes.md")
    assert not glob_match("a/b.md", "a/*/b.md")


def test_web_source_finds_the_fixture_sites_llms_txt_and_parses_it():
    with serve_directory(FIXTURE_SITE) as base:
        table = discover(_web(base), Path("."))
    rows = _rows(table)
    assert rows["llms.txt"]["status"] == "valid" and rows["llms.txt"]["rank"] == 1
    assert rows["llms.txt"]["authority"] == "official"
    assert rows["llms.txt"]["purposes"][0] == "navigation"  # its strongest purpose first
    meta = json.loads(rows["llms.txt"]["metadata_json"])
    assert meta["title"] == "orbitkit"
    assert meta["sections"] == ["Docs", "Optional"]
    assert meta["entries"] == 6
    assert rows["llms-full.txt"]["status"] == "invalid"
    assert rows["llms-full.txt"]["rationale"] == "HTTP 404"
    assert best_candidate(table)["url"] == base + "llms.txt"


def test_llms_full_txt_outranks_llms_txt():
    routes = {"/llms.txt": INDEX, "/llms-full.txt": FULL}
    with serve_routes(routes) as base:
        table = discover(_web(base), Path("."))
    rows = _rows(table)
    assert rows["llms-full.txt"]["rank"] == 1
    assert rows["llms.txt"]["rank"] == 2
    assert [r for r in table.column("rank").to_pylist() if r] == [1, 2]


def test_html_page_served_with_200_at_llms_txt_is_invalid():
    routes = {"/llms.txt": Route(body=HTML, content_type="text/plain")}
    with serve_routes(routes) as base:
        table = discover(_web(base), Path("."))
    row = _rows(table)["llms.txt"]
    assert (row["status"], row["rank"]) == ("invalid", 0)
    assert row["rationale"].startswith("HTML page served with 200")
    assert best_candidate(table) is None


def test_llms_txt_without_links_is_invalid():
    with serve_routes({"/llms.txt": b"# demo\n\nNo links here.\n"}) as base:
        row = _rows(discover(_web(base), Path(".")))["llms.txt"]
    assert row["status"] == "invalid"
    assert row["rationale"] == "llms.txt has no Markdown links"


def test_markdown_url_is_probed_itself_and_ranked_below_llms_txt():
    routes = {"/docs/guide.md": (200, "text/markdown", FULL), "/docs/llms.txt": INDEX}
    with serve_routes(routes) as base:
        table = discover(_web(base + "docs/guide.md"), Path("."))
    rows = {r["url"]: r for r in table.to_pylist() if r["type"] != "html"}
    guide = rows[base + "docs/guide.md"]
    assert guide["type"] == "markdown" and guide["rank"] == 2
    assert rows[base + "docs/llms.txt"]["rank"] == 1
    assert rows[base + "llms.txt"]["rank"] == 0
    # the folder and the host root are both probed
    assert {r["url"] for r in table.to_pylist()} >= {
        base + "docs/guide.md",
        base + "docs/llms.txt",
        base + "docs/llms-full.txt",
        base + "llms.txt",
        base + "llms-full.txt",
    }


def test_server_errors_and_refused_connections_are_unreachable():
    with serve_routes({"/llms.txt": (503, "text/plain", "busy")}) as base:
        row = _rows(discover(_web(base + "llms.txt", "llms_txt"), Path(".")))["llms.txt"]
    assert (row["status"], row["rationale"]) == ("unreachable", "HTTP 503")
    # the server is gone now: the same port refuses connections
    row = _rows(discover(_web(base + "llms.txt", "llms_txt"), Path(".")))["llms.txt"]
    assert row["status"] == "unreachable"
    assert json.loads(row["metadata_json"]) == {"error_code": "connect_error"}


def test_every_source_kind_has_a_discovery_provider():
    """A kind docorbit.toml accepts is one discovery handles (``git`` was accepted and then
    failed every ingest with 'no discovery provider handles kind git')."""
    from docorbit_assets.lib.providers import PROVIDERS
    from docorbit_serve.registry import KINDS

    handled = set().union(*(p.kinds for p in PROVIDERS))
    assert set(KINDS) <= handled


def test_a_remote_git_url_is_one_invalid_row_saying_to_clone_it():
    table = discover(_web("http://127.0.0.1:9/repo.git", "git"), Path("."))
    (row,) = table.to_pylist()
    assert row["status"] == "invalid" and row["type"] == "git"
    assert "clone" in row["rationale"]
    assert json.loads(row["metadata_json"]) == {"error_code": "remote_git"}


def test_real_llms_txt_served_over_loopback_is_valid_with_its_sections():
    with serve_directory(LLMS / "answerdotai-llms-txt" / "nbs") as base:
        table = discover(_web(base), Path("."))
    best = best_candidate(table)
    assert best is not None and best["type"] == "llms_txt"
    meta = json.loads(best["metadata_json"])
    assert meta["title"] == "llms.txt"
    assert meta["sections"] == ["Docs"]
    assert meta["entries"] == 3
    assert meta["summary"].startswith("A proposal that those interested")


@pytest.mark.parametrize(
    ("rel", "title", "min_entries"),
    [
        ("fasthtml/nbs/llms.txt", "FastHTML", 10),
        ("deno-docs/static/llms.txt", "Deno", 10),
        ("copilotkit/docs/public/llms.txt", "http://docs.copilotkit.ai llms.txt", 20),
        ("langgraph/2025-07-30/docs/docs/llms.txt", "Guides", 100),
    ],
)
def test_real_llms_txt_files_parse_title_and_entries(rel: str, title: str, min_entries: int):
    doc = parse_llms_txt((LLMS / rel).read_text(encoding="utf-8"))
    assert doc.title == title
    assert len(doc.entries) >= min_entries
    assert all(e.url for e in doc.entries)


def test_is_html_looks_past_the_content_type():
    assert is_html(HTML, "text/plain")
    assert is_html(b"anything", "text/html; charset=utf-8")
    assert not is_html(INDEX, "text/plain")


def test_url_without_trailing_slash_is_also_probed_as_a_folder():
    routes = {"/guide/llms.txt": INDEX}
    with serve_routes(routes) as base:
        table = discover(_web(base + "guide"), Path("."))
        again = discover(_web(base + "guide"), Path("."))
    assert best_candidate(table)["url"] == base + "guide/llms.txt"
    assert table.equals(again)
