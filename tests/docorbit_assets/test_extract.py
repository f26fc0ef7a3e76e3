"""Tests for ``docorbit_assets.lib.extract`` (examples, links, symbols, pitfalls, endpoints).

Real-data checks use the shared httpx, pydantic and fastapi doc sets (``real_doc_sets`` in
``conftest.py``); small inline pages pin the rules, including what must *not* be extracted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa

from docorbit_assets.lib.extract import (
    extract_endpoints,
    extract_examples,
    extract_links,
    extract_pitfalls,
    extract_symbols,
)
from docorbit_assets.lib.normalize import normalize, normalize_markdown
from docorbit_assets.lib.slice import slice_pages
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS
from tests.support.paths import shared_data

REPO = Path(__file__).resolve().parents[2]
SHARED_DATA = REPO / ".." / "shared" / "data"
KINDS = {
    "class",
    "function",
    "method",
    "unknown",
    "arrow_function",
    "interface",
    "type",
    "endpoint",
    "cli_flag",
    "config_key",
}
CFG = SourceConfig(name="ex", kind="web", location="https://docs.example.com/", library="ex")


def _tables(*docs: tuple[str, str]) -> tuple[pa.Table, pa.Table]:
    rows = [
        normalize_markdown(
            cfg=CFG,
            path=path,
            url=f"https://docs.example.com/{path}",
            text=text,
            fetched_at="t",
            raw_bytes=len(text),
        )
        for path, text in docs
    ]
    pages = pa.Table.from_pylist(rows, schema=SCHEMAS["pages"])
    return pages, slice_pages(pages)


def _by_path(table: pa.Table, path: str) -> list[dict]:
    return [r for r in table.to_pylist() if r["path"] == path]


# --- examples --------------------------------------------------------------------------------


def test_examples_are_the_non_empty_code_blocks_of_chunks_with_stable_sorted_ids(real_doc_sets):
    ds = real_doc_sets["httpx"]
    examples = extract_examples(ds.chunks)
    assert examples.schema.equals(SCHEMAS["examples"])
    blocks = sum(1 for c in ds.chunks.to_pylist() for b in c["code_blocks"] if b["code"].strip())
    assert examples.num_rows == blocks > 100
    ids = examples.column("id").to_pylist()
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    chunks = {c["id"]: c for c in ds.chunks.to_pylist()}
    for e in examples.to_pylist():
        chunk = chunks[e["chunk_id"]]
        assert (e["heading"], e["anchor"], e["path"]) == (
            chunk["heading"],
            chunk["anchor"],
            chunk["path"],
        )
        assert e["tokens"] > 0
    assert extract_examples(ds.chunks).equals(examples)


# --- links -----------------------------------------------------------------------------------


def test_links_point_at_pages_of_the_same_source_and_sit_in_their_chunk(real_doc_sets):
    ds = real_doc_sets["httpx"]
    links = extract_links(ds.pages, ds.chunks)
    assert links.schema.equals(SCHEMAS["links"])
    page_ids = {p["path"]: p["id"] for p in ds.pages.to_pylist()}
    from_index = _by_path_links(links, page_ids["index.md"])
    assert page_ids["quickstart.md"] in {x["target_page_id"] for x in from_index}
    chunks = {c["id"]: c for c in ds.chunks.to_pylist()}
    for link in links.to_pylist():
        assert link["chunk_id"] in chunks
        assert chunks[link["chunk_id"]]["page_id"] == link["page_id"]
        if link["is_external"]:
            assert link["target_page_id"] == ""
            assert link["url"].startswith(("http://", "https://", "mailto:"))


def _by_path_links(links: pa.Table, page_id: str) -> list[dict]:
    return [x for x in links.to_pylist() if x["page_id"] == page_id]


def test_links_resolve_directory_and_extensionless_urls_to_pages():
    pages, chunks = _tables(
        ("guide/a.md", "# A\n\n[b](b.md#x) [c dir](c/) [gone](missing.md) [ext](https://x.org)\n"),
        ("guide/b.md", "# B\n"),
        ("guide/c/index.md", "# C\n"),
    )
    ids = {p["path"]: p["id"] for p in pages.to_pylist()}
    got = {x["text"]: x["target_page_id"] for x in extract_links(pages, chunks).to_pylist()}
    assert got == {"b": ids["guide/b.md"], "c dir": ids["guide/c/index.md"], "gone": "", "ext": ""}


# --- symbols ---------------------------------------------------------------------------------


def test_symbols_come_from_mkautodoc_and_mkdocstrings_directives(real_doc_sets):
    httpx_syms = extract_symbols(real_doc_sets["httpx"].pages, real_doc_sets["httpx"].chunks)
    assert httpx_syms.schema.equals(SCHEMAS["symbols"])
    api = {s["qualname"]: s for s in httpx_syms.to_pylist() if s["path"] == "api.md"}
    assert {"httpx.Client", "httpx.AsyncClient", "httpx.request"} <= set(api)
    assert api["httpx.Client"]["name"] == "Client"
    assert api["httpx.Client"]["kind"] == "unknown"
    pyd = real_doc_sets["pydantic"]
    pyd_syms = extract_symbols(pyd.pages, pyd.chunks).to_pylist()
    api_pages = {s["path"] for s in pyd_syms if s["path"].startswith("api/")}
    assert len(api_pages) >= 30
    assert "pydantic.BaseModel" in {s["qualname"] for s in pyd_syms}


def test_symbols_never_invented_every_name_occurs_in_its_chunk(real_doc_sets):
    for ds in real_doc_sets.values():
        chunks = {c["id"]: c["text"] for c in ds.chunks.to_pylist()}
        syms = extract_symbols(ds.pages, ds.chunks)
        ids = syms.column("id").to_pylist()
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
        for s in syms.to_pylist():
            text = chunks[s["chunk_id"]]
            if s["kind"] == "endpoint":  # "GET /path" from "app.get('/path'" or "curl -X GET"
                method, path = s["qualname"].split(" ", 1)
                assert method.lower() in text.lower() and path in text, s
            else:
                assert s["qualname"].split(".")[-1] in text, s
            assert s["kind"] in KINDS


def test_symbols_from_identifier_headings_and_clean_python_definitions_only():
    text = (
        "# Reference\n\n## `Client.get()`\n\n## httpx.AsyncClient\n\n## Installation\n\n"
        "## `model_config`\n\n## Using `Field` in models\n\n## Example\n\n"
        "```python\nclass User(BaseModel):\n    name: str\n\n    def greet(self) -> str:\n"
        "        def inner():\n            pass\n        return 'hi'\n\n"
        "async def fetch(url: str,\n                timeout: float = 5.0) -> bytes:  # doc\n"
        "    ...\n```\n\n```pycon\n>>> def nope(): pass\n```\n\n"
        "```text\ndef not_python():\n```\n"
    )
    pages, chunks = _tables(("ref.md", text))
    got = sorted(
        (s["qualname"], s["kind"], s["signature"])
        for s in extract_symbols(pages, chunks).to_pylist()
    )
    assert got == [
        ("Client.get", "method", "Client.get()"),
        ("User", "class", "class User(BaseModel)"),
        ("User.greet", "method", "def greet(self) -> str"),
        ("fetch", "function", "async def fetch(url: str, timeout: float = 5.0) -> bytes"),
        ("httpx.AsyncClient", "unknown", ""),
        ("model_config", "unknown", ""),
    ]


def _symbols(text: str) -> list[tuple[str, str]]:
    pages, chunks = _tables(("s.md", text))
    return sorted((s["qualname"], s["kind"]) for s in extract_symbols(pages, chunks).to_pylist())


def test_symbols_from_javascript_and_typescript_definitions():
    text = (
        "# JS\n\n```js\nfunction logger (req, res, next) {\n  next()\n}\n"
        "const timeLog = (req, res, next) => {\n  next()\n}\n"
        "export const double = async x => x * 2\nconst notAFunction = 42\n"
        "class Store {\n  constructor (opts) {\n    if (opts) {\n    }\n  }\n"
        "  get (key) {\n    return this.map[key]\n  }\n}\n```\n\n"
        "```ts\nexport interface User {\n  id: number\n}\ntype Handler<T> = (u: T) => void\n```\n\n"
        "```python\nconst_not_js = (a) => a\n```\n"
    )
    assert _symbols(text) == [
        ("Handler", "type"),
        ("Store", "class"),
        ("Store.get", "method"),
        ("User", "interface"),
        ("double", "arrow_function"),
        ("logger", "function"),
        ("timeLog", "arrow_function"),
    ]


def test_symbols_find_rest_endpoints_in_prose_headings_http_shell_and_route_code():
    text = (
        "# API\n\n## GET /v1/users/{id}\n\nSend `POST /v1/users` to create one. "
        "A GET / POST request is not an endpoint, nor is GET alone.\n\n"
        "```http\nDELETE /v1/users/7 HTTP/1.1\n```\n\n"
        "```bash\ncurl -X PATCH https://api.example.com/v1/users/7 --data '{}'\n```\n\n"
        '```python\n@app.get("/items/{item_id}")\nasync def read_item(item_id): ...\n```\n\n'
        "```js\napp.post('/login', handler)\napp.get('title')\napp.use('/static', s)\n```\n"
    )
    endpoints = [q for q, k in _symbols(text) if k == "endpoint"]
    assert endpoints == [
        "DELETE /v1/users/7",
        "GET /items/{item_id}",
        "GET /v1/users/{id}",
        "PATCH /v1/users/7",
        "POST /login",
        "POST /v1/users",
    ]


def test_symbols_find_cli_flags_in_shell_blocks_and_code_spans_only():
    text = (
        "# CLI\n\nRun with `uvicorn main:app --reload` or `--port=8000`. In prose --not-a-flag "
        "counts for nothing, nor does an em-dash -- like this.\n\n"
        "```console\n$ fastapi run --workers 4 --root-path /api\n```\n\n"
        "```python\nparser.add_argument('--python-only')\n```\n"
    )
    flags = [q for q, k in _symbols(text) if k == "cli_flag"]
    assert flags == ["--port", "--reload", "--root-path", "--workers"]


def test_symbols_find_config_keys_in_toml_yaml_ini_and_env_blocks():
    text = (
        "# Config\n\n```toml\n# comment = no\ntop = 1\n[tool.mypy]\nplugins = ['pydantic.mypy']\n```\n\n"
        "```yaml\nserver:\n  port: 8000\n  hosts:\n    - name: a\n# skip: me\n```\n\n"
        "```ini\n[flake8]\nextend-ignore = E203\n```\n\n"
        "```env\nHTTP_PROXY=http://proxy:8080\n```\n\n"
        "```bash\nexport NO_PROXY=localhost\n```\n\n"
        "```text\nnot: a key\n```\n"
    )
    keys = [q for q, k in _symbols(text) if k == "config_key"]
    assert keys == [
        "HTTP_PROXY",
        "NO_PROXY",
        "flake8.extend-ignore",
        "server",
        "server.hosts",
        "server.hosts.name",
        "server.port",
        "tool.mypy.plugins",
        "top",
    ]


def test_symbols_of_the_new_kinds_come_from_real_express_and_fastapi_docs(
    real_doc_sets, make_fetches
):
    folder = shared_data("docs/expressjs.com").resolve()  # optional: the full kit
    cfg = SourceConfig(name="express", kind="local", location=str(folder), library="express")
    fetches = pa.concat_tables(
        [make_fetches("express", folder), make_fetches("express", folder, "*.mdx")]
    )
    pages = normalize(cfg, fetches)
    chunks = slice_pages(pages)
    text = {c["id"]: c["text"] for c in chunks.to_pylist()}
    syms = extract_symbols(pages, chunks).to_pylist()
    kinds = {s["kind"] for s in syms}
    assert {"endpoint", "arrow_function", "interface", "cli_flag", "function"} <= kinds
    for s in syms:
        assert s["chunk_id"] in text
    root = [s for s in syms if s["qualname"] == "GET /" and "app.get('/'" in text[s["chunk_id"]]]
    assert len(root) > 10
    assert any(s["qualname"] == "res.send" for s in syms)
    assert any(s["qualname"] == "app.get" for s in syms)
    timelog = next(s for s in syms if s["qualname"] == "timeLog")
    assert timelog["kind"] == "arrow_function" and "const timeLog" in text[timelog["chunk_id"]]
    flags = {s["qualname"] for s in syms if s["kind"] == "cli_flag"}
    assert {"--view", "--inspect"} <= flags
    fastapi = real_doc_sets["fastapi"]
    fsyms = extract_symbols(fastapi.pages, fastapi.chunks).to_pylist()
    ftext = {c["id"]: c["text"] for c in fastapi.chunks.to_pylist()}
    ep = [s for s in fsyms if s["qualname"] == "GET /items/{item_id}"]
    assert ep and all('@app.get("/items/{item_id}")' in ftext[s["chunk_id"]] for s in ep)
    workers = [s for s in fsyms if s["kind"] == "cli_flag" and s["qualname"] == "--workers"]
    assert workers and all("--workers" in ftext[s["chunk_id"]] for s in workers)
    assert any(s["qualname"] == "tool.fastapi.entrypoint" for s in fsyms)


# --- pitfalls --------------------------------------------------------------------------------


def test_pitfalls_find_real_deprecations_in_fastapi_release_notes(real_doc_sets):
    ds = real_doc_sets["fastapi"]
    pitfalls = extract_pitfalls(ds.chunks)
    assert pitfalls.schema.equals(SCHEMAS["pitfalls"])
    notes = _by_path(pitfalls, "release-notes.md")
    deprecations = [p for p in notes if p["kind"] in ("deprecated", "removed")]
    assert len(deprecations) >= 10
    orjson = [p for p in deprecations if "ORJSONResponse" in p["text"]]
    assert orjson and orjson[0]["symbol"] == "ORJSONResponse"
    # "deprecation warning" noise is not a deprecation of anything
    assert not [p for p in notes if "deprecation warnings in internal script" in p["text"]]
    ids = pitfalls.column("id").to_pylist()
    assert ids == sorted(ids) and len(set(ids)) == len(ids)


def test_pitfalls_find_the_httpx_data_argument_deprecation(real_doc_sets):
    ds = real_doc_sets["httpx"]
    pitfalls = extract_pitfalls(ds.chunks).to_pylist()
    compat = [p for p in pitfalls if p["path"] == "compatibility.md"]
    assert [(p["kind"], p["symbol"]) for p in compat] == [("deprecated", "data")]
    # "added, changed, deprecated or removed features" in the contributing guide is not one
    assert not [p for p in pitfalls if p["path"] == "contributing.md"]


def test_pitfalls_are_conservative_on_small_inputs():
    text = (
        "# Page\n\n"
        "Pass `deprecated=True` to mark the operation.\n\n"
        "The `parse_obj` method is deprecated; use `model_validate` instead.\n\n"
        "* Removed in version 2: the `copy_on_model_validation` setting.\n"
        "* Fixed a typo.\n\n"
        "This is a breaking change for plugins.\n\n"
        "The item is removed from the list when you pop it.\n\n"
        "!!! warning\n    Never share the client between event loops.\n\n"
        "!!! note\n    Just a note.\n\n"
        "/// danger | Careful\n\nSecrets end up in logs.\n\n///\n\n"
        "> [!CAUTION]\n> Tokens expire after an hour.\n\n"
        "```python\n# this API is deprecated\n```\n"
    )
    pages, chunks = _tables(("p.md", text))
    got = [(p["kind"], p["symbol"], p["text"]) for p in extract_pitfalls(chunks).to_pylist()]
    # a warning admonition is a pitfall only when it states one of the kinds
    assert sorted(got) == sorted(
        [
            (
                "deprecated",
                "parse_obj",
                "The `parse_obj` method is deprecated; use `model_validate` instead.",
            ),
            (
                "removed",
                "copy_on_model_validation",
                "Removed in version 2: the `copy_on_model_validation` setting.",
            ),
            ("breaking_change", "", "This is a breaking change for plugins."),
            ("runtime_restriction", "", "Never share the client between event loops."),
        ]
    )


def test_pitfalls_come_from_admonitions_of_every_dialect_that_state_a_kind():
    src = REPO / "fixtures" / "golden" / "slice" / "admonition_dialects.md"
    pages, chunks = _tables(("dialects.md", src.read_text(encoding="utf-8")))
    got = {(p["anchor"], p["kind"], p["text"]) for p in extract_pitfalls(chunks).to_pylist()}
    assert got == {
        (
            "mkdocs",
            "deprecated",
            "Deprecated in 2.0 `Client.send_all()` is deprecated, use `Client.send()` instead.",
        ),
        ("mkdocs", "runtime_restriction", "Never share a client between event loops."),
        ("sphinx", "deprecated", "1.4 Use `open()` instead."),
        ("sphinx", "removed", "3.0 The `legacy` flag."),
    }


def test_pitfalls_read_the_admonitions_html_pages_are_converted_to():
    html = (REPO / "fixtures" / "golden" / "html" / "sphinx.md").read_text(encoding="utf-8")
    pages, chunks = _tables(("sphinx.md", html))
    kinds = {(p["kind"], p["text"]) for p in extract_pitfalls(chunks).to_pylist()}
    assert ("deprecated", "Deprecated since version 1.4: Use `open()`.") in kinds


# --- endpoints -------------------------------------------------------------------------------


def _fetch_row(url: str, body: bytes, content_type: str) -> dict:
    return {
        "source": CFG.name,
        "url": url,
        "final_url": url,
        "status": 200,
        "ok": True,
        "content_type": content_type,
        "bytes": len(body),
        "content_hash": "",
        "etag": "",
        "last_modified": "",
        "error_code": "",
        "error_message": "",
        "fetched_at": "t",
        "body": body,
    }


def test_endpoints_come_from_spec_bodies_and_point_at_their_sections_chunks():
    spec = (REPO / "fixtures/openapi/oai-examples/examples/v3.0/petstore.yaml").read_bytes()
    fetches = pa.Table.from_pylist(
        [
            _fetch_row("https://docs.example.com/guide.md", b"# Guide\n\nGET /pets lists.\n", ""),
            # python -m http.server serves .yaml as octet-stream: read by content, not type
            _fetch_row("https://docs.example.com/openapi.yaml", spec, "application/octet-stream"),
        ],
        schema=SCHEMAS["fetches"],
    )
    endpoints = extract_endpoints(CFG, fetches)
    assert endpoints.schema.equals(SCHEMAS["endpoints"])
    rows = endpoints.to_pylist()
    assert sorted((r["method"], r["path"]) for r in rows) == [
        ("GET", "/pets"),
        ("GET", "/pets/{petId}"),
        ("POST", "/pets"),
    ]
    assert {r["spec_url"] for r in rows} == {"https://docs.example.com/openapi.yaml"}
    pages = normalize(CFG, fetches)
    chunks = slice_pages(pages)
    spec_page = next(p for p in pages.to_pylist() if p["path"] == "/openapi.yaml")
    by_id = {c["id"]: c for c in chunks.to_pylist()}
    for r in rows:
        assert r["page_id"] == spec_page["id"]
        chunk = by_id[r["chunk_id"]]
        assert chunk["heading"] == f"{r['method']} {r['path']}"
        if r["summary"]:
            assert r["summary"] in chunk["text"]
    listing = next(r for r in rows if (r["method"], r["path"]) == ("GET", "/pets"))
    assert [p["name"] for p in json.loads(listing["parameters_json"])] == ["limit"]
    assert listing["spec_version"] == "3.0.0" and listing["pointer"] == "/paths/~1pets/get"


def test_no_endpoints_from_markdown_about_openapi_or_from_a_broken_spec():
    md = b'# OpenAPI\n\n```json\n{"openapi": "3.1.0", "paths": {"/x": {"get": {}}}}\n```\n'
    fetches = pa.Table.from_pylist(
        [
            _fetch_row("https://docs.example.com/openapi.md", md, "text/markdown"),
            _fetch_row(
                "https://docs.example.com/bad.json", b'{"openapi": "3.0.0", "paths": [1]}', ""
            ),
        ],
        schema=SCHEMAS["fetches"],
    )
    assert extract_endpoints(CFG, fetches).num_rows == 0
    assert [p["path"] for p in normalize(CFG, fetches).to_pylist()] == ["/openapi.md"]
