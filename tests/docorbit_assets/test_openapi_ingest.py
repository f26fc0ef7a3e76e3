"""OpenAPI sources through the real pipeline (``run_ingest``: Dagster materializations, snapshot,
publish, index): ``endpoints`` lands in the published index, each row pointing at the chunk of
its operation's section in the spec's rendered page.

- kind ``openapi`` from a local file (the OpenAI cut-down in ``fixtures/openapi``);
- kind ``openapi`` from a URL whose server labels YAML ``application/octet-stream``;
- kind ``web``: a site with docs (llms.txt + a Markdown page) and ``/openapi.json`` yields both.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from docorbit_assets.ingest import run_ingest
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, save_registry
from tests.support.http import Route, serve_directory, serve_routes, web_source
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # real Dagster ingests, 25-50 s each on 2 shared cores

CUT = FIXTURES / "openapi" / "cut"
PETSTORE = FIXTURES / "openapi" / "oai-examples" / "examples" / "v3.0" / "petstore.json"


def _ingest(root: Path, *sources: SourceConfig) -> duckdb.DuckDBPyConnection:
    home = Home(root / ".docorbit", root)
    save_registry(Registry(home.config_path, list(sources)))
    report = run_ingest(home)
    assert report["ok"], json.dumps(report)[:3000]
    manifest = json.loads(home.published_path.read_text(encoding="utf-8"))
    return duckdb.connect(str(home.path / manifest["index"]), read_only=True)


def _rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict]:
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def test_a_local_spec_file_fills_endpoints_pointing_at_their_sections(tmp_path: Path) -> None:
    shutil.copy(CUT / "openai.yaml", tmp_path / "openai.yaml")
    cfg = SourceConfig(name="openai", kind="openapi", location="openai.yaml", library="openai")
    con = _ingest(tmp_path, cfg)
    rows = _rows(con, "SELECT * FROM endpoints ORDER BY path, method")
    assert len(rows) == 10
    assert sum(r["webhook"] for r in rows) == 2 and sum(r["deprecated"] for r in rows) == 2
    chunks = {r["id"]: r for r in _rows(con, "SELECT id, page_id, heading, text FROM chunks")}
    for r in rows:
        chunk = chunks[r["chunk_id"]]
        assert chunk["page_id"] == r["page_id"]
        assert chunk["heading"].endswith(f"{r['method']} {r['path']}")
    chat = next(r for r in rows if (r["method"], r["path"]) == ("POST", "/chat/completions"))
    assert chat["spec_url"].startswith("file://") and chat["spec_url"].endswith("/openai.yaml")
    assert json.loads(chat["security_json"])[0][0]["type"] == "http_bearer"
    assert "Creates a model response" in chunks[chat["chunk_id"]]["text"]
    (page,) = _rows(con, "SELECT path, title FROM pages")
    assert page == {"path": "openai.yaml", "title": "OpenAI API"}


def test_a_spec_url_served_as_octet_stream_is_ingested(tmp_path: Path) -> None:
    body = (CUT / "twilio.yaml").read_bytes()
    routes = {"/spec/twilio.yaml": Route(200, body, "application/octet-stream")}
    with serve_routes(routes) as base:
        cfg = web_source(base + "spec/twilio.yaml", "openapi", name="twilio", library="twilio")
        con = _ingest(tmp_path, cfg)
    rows = _rows(con, "SELECT method, path, pagination, chunk_id FROM endpoints")
    assert len(rows) == 4 and all(r["chunk_id"] for r in rows)
    assert {r["path"] for r in rows} == {
        "/2010-04-01/Accounts/{AccountSid}/Messages.json",
        "/2010-04-01/Accounts/{AccountSid}/Calls.json",
    }


def test_a_web_source_ingests_the_spec_its_discovery_finds_beside_the_docs(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "llms.txt").write_text("# Petstore\n\n> Pets.\n\n- [Guide](guide.md): the guide\n")
    (site / "guide.md").write_text("# Guide\n\nAdopt a pet.\n")
    shutil.copy(PETSTORE, site / "openapi.json")
    with serve_directory(site) as base:
        con = _ingest(tmp_path, web_source(base, name="pets", library="petstore"))
    pages = {r["path"] for r in _rows(con, "SELECT path FROM pages")}
    assert {"/guide.md", "/openapi.json"} <= pages
    rows = _rows(con, "SELECT method, path, spec_url FROM endpoints ORDER BY path, method")
    assert [(r["method"], r["path"]) for r in rows] == [
        ("GET", "/pets"),
        ("POST", "/pets"),
        ("GET", "/pets/{petId}"),
    ]
    assert {r["spec_url"] for r in rows} == {base + "openapi.json"}
