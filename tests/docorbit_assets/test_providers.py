"""Discovery providers over loopback fixture sites assembled from the shared real data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docorbit_assets.lib.discover import (
    best_candidate,
    discover,
    parse_llms_txt,
    purpose_ranking,
)
from docorbit_assets.lib.llms_txt import check_llms_txt
from docorbit_assets.lib.probe import check_markdown
from docorbit_assets.lib.providers import frameworks
from tests.support.http import HTTPX_SITE_URL, Route, serve_routes, serve_site, web_source
from tests.support.paths import KIT_DATA

SITE = KIT_DATA / "site" / "httpx"
LLMS = KIT_DATA / "llms"
PETSTORE = (KIT_DATA / "openapi/oai-examples/examples/v3.0/petstore.json").read_bytes()
LLMS_TXT = (LLMS / "fasthtml/nbs/llms.txt").read_bytes()
HOME = (
    b"<!DOCTYPE html><html><head><title>Soft</title></head><body><a href='/a/'>a</a></body></html>"
)


def _valid(table) -> dict[tuple[str, str], dict]:
    return {(r["type"], r["url"]): r for r in table.to_pylist() if r["status"] == "valid"}


def _meta(row) -> dict:
    return json.loads(row["metadata_json"])


@pytest.fixture(scope="module")
def full_site():
    """The built httpx MkDocs site + an llms.txt + an OpenAPI spec, sitemap mapped to loopback."""
    overlay = {"/llms.txt": LLMS_TXT, "/openapi.json": (200, "application/json", PETSTORE)}
    with serve_site(SITE, overlay=overlay, rewrite={HTTPX_SITE_URL: "{base}"}) as base:
        yield base, discover(web_source(base), Path("."))


def test_each_provider_finds_what_the_site_has_and_nothing_else(full_site):
    base, table = full_site
    valid = _valid(table)
    assert sorted(valid) == [
        ("github", "https://github.com/encode/httpx"),
        ("html", base),
        ("llms_txt", base + "llms.txt"),
        ("openapi", base + "openapi.json"),
        ("sitemap", base + "sitemap.xml"),
    ]
    assert _meta(valid[("sitemap", base + "sitemap.xml")])["pages"] == 23
    assert _meta(valid[("openapi", base + "openapi.json")])["spec"]["operations"] == 3
    web = _meta(valid[("html", base)])
    assert web["frameworks"] == ["mkdocs", "mkdocs-material"] and web["title"] == "HTTPX"
    llms = _meta(valid[("llms_txt", base + "llms.txt")])
    assert llms["title"] == "FastHTML" and llms["entries"] == 21
    invalid = {
        r["url"][len(base) :]: r["rationale"] for r in table.to_pylist() if r["status"] != "valid"
    }
    assert invalid["skill.md"] == invalid["llms-full.txt"] == invalid["swagger.json"] == "HTTP 404"
    assert all(r["rank"] == 0 for r in table.to_pylist() if r["status"] != "valid")


def test_ranking_picks_the_spec_for_api_and_an_index_for_navigation_with_rationales(full_site):
    base, table = full_site
    ranking = purpose_ranking(table)
    assert ranking["api"]["recommended"]["url"] == base + "openapi.json"
    assert ranking["navigation"]["recommended"]["type"] in ("llms_txt", "sitemap")
    assert ranking["api"]["rationale"].startswith("api: an OpenAPI document")
    assert "Swagger Petstore" in ranking["api"]["rationale"]
    assert ranking["implementation"]["recommended"]["type"] == "github"
    spec_row = next(
        r for r in table.to_pylist() if r["type"] == "openapi" and r["status"] == "valid"
    )
    assert spec_row["rationale"].startswith("recommended for api")
    assert best_candidate(table)["type"] == "llms_txt"  # ingestion goes through the index


def test_a_site_without_machine_readable_files_is_crawled_as_html():
    with serve_site(SITE) as base:  # sitemap left on www.python-httpx.org: not this site
        table = discover(web_source(base), Path("."))
    sm = next(r for r in table.to_pylist() if r["type"] == "sitemap")
    assert sm["status"] == "invalid" and _meta(sm)["skipped"] == {"out_of_scope": 23}
    assert best_candidate(table)["type"] == "html"


def test_soft_404_traps_are_invalid():
    def home(path: str, headers: dict[str, str]) -> Route:
        return Route(body=HOME, content_type="text/html")

    routes = {
        p: home
        for p in ("/", "/llms.txt", "/llms-full.txt", "/skill.md", "/sitemap.xml", "/index.md")
    }
    routes["/openapi.json"] = Route(
        body=b'{"status": "ok", "page": "not a spec"}', content_type="application/json"
    )
    routes["/swagger.json"] = Route(body=HOME, content_type="application/json")
    with serve_routes(routes) as base:
        table = discover(web_source(base), Path("."))
    rows = {(r["type"], r["url"][len(base) :]): r for r in table.to_pylist()}
    assert rows[("llms_txt", "llms.txt")]["rationale"].startswith("HTML page served with 200")
    assert rows[("openapi", "openapi.json")]["status"] == "invalid"
    assert "not_openapi" in rows[("openapi", "openapi.json")]["rationale"]
    assert rows[("openapi", "swagger.json")]["status"] == "invalid"
    assert rows[("sitemap", "sitemap.xml")]["status"] == "invalid"
    assert rows[("markdown", "index.md")]["status"] == "invalid"
    assert {k for k, r in rows.items() if r["status"] == "valid"} == {("html", "")}


def test_link_header_well_known_llms_skill_and_markdown_negotiation_are_found():
    def root(path: str, headers: dict[str, str]) -> Route:
        if headers.get("accept") == "text/markdown":
            return Route(body=b"# Home\n\nIn Markdown.\n", content_type="text/markdown")
        return Route(
            body=HOME,
            content_type="text/html",
            headers={"Link": '</docs/index.txt>; rel="llms-txt"'},
        )

    routes = {
        "/": root,
        "/docs/index.txt": LLMS_TXT,
        "/.well-known/llms.txt": LLMS_TXT,
        "/skill.md": "---\nname: demo-skill\ndescription: Does demo things\n---\n# Demo skill\n\nUse it.\n",
        "/.well-known/skills/index.json": (
            200,
            "application/json",
            '{"skills": [{"name": "demo-skill"}]}',
        ),
    }
    with serve_routes(routes) as base:
        table = discover(web_source(base), Path("."))
    valid = {
        (r["type"], r["discovered_by"]): r for r in table.to_pylist() if r["status"] == "valid"
    }
    assert ("llms_txt", "link_header") in valid and ("llms_txt", "probe:well-known") in valid
    assert _meta(valid[("skill", "probe:skill.md")])["name"] == "demo-skill"
    assert _meta(valid[("skill", "probe:well-known")])["skills"] == ["demo-skill"]
    assert valid[("markdown", "accept_markdown")]["url"] == base


def test_sitemap_named_in_robots_txt_is_probed_and_its_locs_policy_checked():
    live: dict[str, str] = {}

    def robots(path: str, headers: dict[str, str]) -> Route:
        return Route(
            body=f"User-agent: *\nAllow: /\nSitemap: {live['base']}maps/site.xml\n".encode()
        )

    def sitemap(path: str, headers: dict[str, str]) -> Route:
        locs = [live["base"] + "a/", "http://127.0.0.2/private/", "file:///etc/passwd"]
        body = "".join(f"<url><loc>{u}</loc></url>" for u in locs)
        xml = f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{body}</urlset>'
        return Route(body=xml.encode(), content_type="application/xml")

    seen: list[str] = []
    routes = {"/robots.txt": robots, "/maps/site.xml": sitemap, "/a/": (200, "text/html", HOME)}
    with serve_routes(routes, requests=seen) as base:
        live["base"] = base
        table = discover(web_source(base), Path("."))
    row = next(r for r in table.to_pylist() if r["discovered_by"] == "robots.txt")
    assert row["status"] == "valid" and row["url"] == base + "maps/site.xml"
    assert _meta(row)["skipped"] == {"loopback": 1, "scheme": 1}
    assert "/private/" not in seen


@pytest.mark.parametrize(
    "html, expected",
    [
        (b'<meta name="generator" content="Docusaurus v3.1.0">', ["docusaurus"]),
        (b'<script src="_static/documentation_options.js"></script>', ["sphinx"]),
        (b'<meta name="generator" content="VitePress v1.0.0">', ["vitepress"]),
        (b'<link rel="preconnect" href="https://mintlify.s3.amazonaws.com">', ["mintlify"]),
        (b'<meta name="generator" content="GitBook 3.2.3">', ["gitbook"]),
        (b"<html><body>plain</body></html>", []),
    ],
)
def test_framework_markers(html: bytes, expected: list[str]):
    assert frameworks(html) == expected


def _llms_files() -> list[Path]:
    return sorted(p for p in LLMS.rglob("*.txt") if p.name != "robots.txt")


@pytest.mark.parametrize("path", _llms_files(), ids=lambda p: str(p.relative_to(LLMS)))
def test_every_real_llms_file_parses(path: Path):
    text = path.read_text(encoding="utf-8-sig")
    doc = parse_llms_txt(text)
    index_status = check_llms_txt(text)[0]
    full_status = check_markdown(text, "llms-full.txt")[0]
    if path.name == "llms-full-guide.txt":  # full content without links: not an index
        assert (index_status, full_status) == ("invalid", "valid")
    else:
        assert index_status == "valid" and doc.links > 0
    assert all(e.url for e in doc.entries)
