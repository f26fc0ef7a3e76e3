"""Tests for ``docorbit_assets.lib.examples`` and ``extract.extract_examples``: language from the
fence, framework from imports/calls, symbols and endpoints used, include markers resolved from
the source tree or flagged ``missing_code``."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from docorbit_assets.lib.examples import (
    client_endpoints,
    code_symbols,
    detect_framework,
    example_language,
    resolve_include,
)
from docorbit_assets.lib.extract import extract_examples, include_root
from docorbit_assets.lib.normalize import normalize_markdown
from docorbit_assets.lib.slice import slice_pages
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS
from tests.support.paths import FIXTURES

TREE = FIXTURES / "examples" / "fastapi-tree"
DOCS = TREE / "docs" / "en" / "docs"
CFG = SourceConfig(name="ex", kind="local", location=str(DOCS), library="fastapi")


def _chunks(path: str, text: str) -> pa.Table:
    row = normalize_markdown(
        cfg=CFG, path=path, url=f"file://{DOCS}/{path}", text=text, fetched_at="t", raw_bytes=1
    )
    return slice_pages(pa.Table.from_pylist([row], schema=SCHEMAS["pages"]))


@pytest.mark.parametrize(
    ("info", "language"),
    [
        ("python", "python"),
        ('Python hl_lines="5"', "python"),
        ('hl_lines="5"', ""),
        ('{ .py title="main.py" }', "py"),
        ('{ .dockerfile .annotate hl_lines="10  13" }', "dockerfile"),
        ("{.python}", "python"),
        ("console", "console"),
        ("", ""),
    ],
)
def test_language_is_the_fence_word_never_an_attribute(info, language):
    assert example_language(info) == language


@pytest.mark.parametrize(
    ("language", "code", "framework"),
    [
        ("python", "from fastapi import FastAPI\napp = FastAPI()", "fastapi"),
        ("python", "async def f(q: str = Depends(common)): ...", "fastapi"),
        ("python", "from flask import Flask\napp = Flask(__name__)", "flask"),
        ("python", "from django.http import HttpResponse", "django"),
        ("python", '@app.get("/")\ndef root(): ...', ""),  # Flask has @app.get too
        ("js", "const express = require('express')\nconst app = express()", "express"),
        ("ts", "import Fastify from 'fastify'", "fastify"),
        ("ts", "import { Hono } from 'hono'\nconst app = new Hono()", "hono"),
        ("tsx", "import Link from 'next/link'\nimport { useState } from 'react'", "next"),
        ("jsx", "import { useState } from 'react'", "react"),
        ("java", '@RestController\nclass C { @GetMapping("/a") String a() {} }', "spring"),
        ("go", 'import "github.com/gin-gonic/gin"\nr := gin.Default()', "gin"),
        ("python", "import requests\nrequests.get('https://x/y')", ""),
        ("js", "from fastapi import FastAPI", ""),  # Python evidence in a JS block: no
    ],
)
def test_framework_comes_only_from_imports_and_distinctive_calls(language, code, framework):
    assert detect_framework(language, code) == framework


def test_symbols_are_imports_and_calls_not_keywords_or_strings():
    code = (
        "from fastapi import FastAPI, Query\nimport httpx\n\napp = FastAPI()\n"
        "r = httpx.get('https://example.com')\nprint(len('x(y)'))\n"
    )
    assert code_symbols("python", code) == [
        "FastAPI",
        "fastapi.FastAPI",
        "fastapi.Query",
        "httpx",
        "httpx.get",
    ]


def test_client_calls_with_literal_urls_are_endpoints():
    code = (
        'requests.post("https://api.example.com/v1/items?x=1", json={})\n'
        "client.get('/users/me')\n"
        'fetch("/api/pets", { method: "DELETE" })\n'
        "fetch(url)\n"
    )
    assert client_endpoints(code) == ["DELETE /api/pets", "GET /users/me", "POST /v1/items"]


def test_include_markers_are_resolved_from_the_tree_or_flagged_missing():
    text = (DOCS / "tutorial" / "first-steps.md").read_text(encoding="utf-8")
    chunks = _chunks("tutorial/first-steps.md", text)
    rows = extract_examples(chunks, DOCS).to_pylist()
    included = [r for r in rows if "docs_src" in r["code"] or "FastAPI()" in r["code"]]
    resolved = [r for r in included if not r["missing_code"]]
    missing = [r for r in included if r["missing_code"]]
    assert len(resolved) == 6  # six markers name tutorial001_py310.py, which the tree has
    assert all(r["code"].startswith("from fastapi import FastAPI") for r in resolved)
    assert all(r["framework"] == "fastapi" and r["language"] == "python" for r in resolved)
    assert all(r["endpoints"] == ["GET /"] for r in resolved)
    assert "fastapi.FastAPI" in resolved[0]["symbols"]
    assert [r["code"] for r in missing] == [
        "{* ../../docs_src/first_steps/tutorial003_py310.py hl[7] *}"
    ]
    assert missing[0]["framework"] == "" and missing[0]["symbols"] == []
    assert len({r["id"] for r in rows}) == len(rows)
    # without the tree every marker is flagged, none is invented
    bare = extract_examples(chunks).to_pylist()
    assert sum(r["missing_code"] for r in bare) == 7


def test_an_include_cannot_read_outside_the_tree(tmp_path: Path):
    secret = tmp_path / "secret.py"
    secret.write_text("TOKEN = 1\n")
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    assert resolve_include("../secret.py", root / "docs", root) is None
    assert resolve_include("/etc/passwd", root / "docs", root) is None
    assert resolve_include("../../../../../../etc/hostname.py", root / "docs", root) is None
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("x = 1\n")
    assert resolve_include("../src/a.py", root / "docs", root) == "x = 1\n"
    assert include_root(root / "docs") == (root / "docs").resolve()  # no project marker


def test_example_rows_carry_language_framework_symbols_and_endpoints():
    text = (
        "# Guide\n\n## Create an item\n\n"
        '```Python hl_lines="3"\nfrom fastapi import FastAPI\napp = FastAPI()\n'
        '@app.post("/items/")\nasync def create_item(item: Item):\n    return item\n```\n\n'
        "```console\n$ curl -X DELETE https://api.example.com/items/1\n```\n\n```\n\n```\n"
    )
    rows = extract_examples(_chunks("guide.md", text)).to_pylist()
    rows.sort(key=lambda r: r["language"])
    assert [(r["language"], r["framework"], r["endpoints"], r["heading"]) for r in rows] == [
        ("console", "", ["DELETE /items/1"], "Create an item"),
        ("python", "fastapi", ["POST /items/"], "Create an item"),
    ]
    assert "create_item" in rows[1]["symbols"] and rows[1]["missing_code"] is False


def test_curl_commands_are_endpoints_by_flag():
    code = (
        "curl https://api.openai.com/v1/chat/completions \\\n"
        '  -H "Content-Type: application/json" \\\n'
        '  -d \'{"model": "x"}\'\n'
        "curl https://api.openai.com/v1/models\n"
        'curl -X DELETE "https://api.openai.com/v1/models/ft-1"\n'
    )
    assert client_endpoints(code) == [
        "DELETE /v1/models/ft-1",
        "GET /v1/models",
        "POST /v1/chat/completions",
    ]


def test_a_specs_code_samples_become_examples_of_its_operations_sections():
    from docorbit_assets.lib.normalize import normalize

    body = (FIXTURES / "openapi" / "cut" / "openai.yaml").read_bytes()
    url = "https://docs.example.com/openapi.yaml"
    cfg = SourceConfig(name="o", kind="openapi", location=url, library="openai")
    fetches = pa.Table.from_pylist(
        [{"source": "o", "url": url, "final_url": url, "ok": True, "body": body}],
        schema=SCHEMAS["fetches"],
    )
    rows = extract_examples(slice_pages(normalize(cfg, fetches))).to_pylist()
    chat = [r for r in rows if r["heading"] == "POST /chat/completions"]
    assert {r["language"] for r in chat} >= {"bash", "python", "javascript"}
    curl = next(r for r in chat if r["language"] == "bash")
    assert curl["endpoints"] == ["POST /v1/chat/completions"]
    py = next(r for r in chat if r["language"] == "python")
    assert "client.chat.completions.create" in py["symbols"]
