"""A small hand-made corpus published into a temp home, shared by the search/catalog/index tests.

``publish_corpus(root, docs)`` freezes one source per library through the pipeline's real
``snapshot.freeze`` and ``index.build_index`` and writes ``published.json``; ``docs`` maps a
library to a list of (path, title, heading, breadcrumb, text) sections.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pyarrow as pa

from docorbit_assets.lib.index import build_index
from docorbit_assets.lib.postings import build_postings
from docorbit_assets.lib.snapshot import freeze
from docorbit_serve.home import Home, atomic_write_json
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import (
    PER_SOURCE_TABLES,
    SCHEMA_VERSION,
    SCHEMAS,
    empty_table,
    stable_id,
)
from docorbit_serve.tokens import count_tokens

Section = tuple[str, str, str, list[str], str]

DOCS: dict[str, list[Section]] = {
    "alpha": [
        (
            "advanced/timeouts.md",
            "Timeouts",
            "Setting a default timeout on a client",
            ["Timeouts"],
            "## Setting a default timeout on a client\n\nPass `timeout=30.0` to the Client to set "
            "a default timeout for every request.\n\n```python\nclient = alpha.Client(timeout=30.0)\n```",
        ),
        (
            "advanced/timeouts.md",
            "Timeouts",
            "Disabling timeouts",
            ["Timeouts"],
            "## Disabling timeouts\n\nUse `timeout=None` to wait forever.",
        ),
        (
            "quickstart.md",
            "QuickStart",
            "Sending Form Encoded Data",
            ["QuickStart"],
            "## Sending Form Encoded Data\n\nSome requests send form data with several values "
            "per field: `data={'tags': ['a', 'b']}`.",
        ),
        (
            "async.md",
            "Async Support",
            "Streaming responses",
            ["Async Support"],
            "## Streaming responses\n\nUse `AsyncClient.stream()` and `async for chunk in "
            "response.aiter_bytes()` to download large bodies.",
        ),
        (
            "errors.md",
            "Errors",
            "`extra_forbidden`",
            ["Errors"],
            "## `extra_forbidden`\n\nRaised as ValidationError when extra inputs are not "
            "permitted and the model config sets `extra='forbid'`.",
        ),
    ],
    "beta": [
        (
            "index.md",
            "Beta",
            "Timeouts in beta",
            [],
            "# Timeouts in beta\n\nBeta has no timeout setting at all.",
        ),
        (
            "models.md",
            "Models",
            "Generic models",
            ["Models"],
            "## Generic models\n\n`pydantic.generics.GenericModel` was replaced by `BaseModel` "
            "with `Generic[T]`.",
        ),
    ],
}


def chunk_rows(library: str, sections: list[Section], version: str = "") -> list[dict]:
    rows = []
    for path, title, heading, crumbs, text in sections:
        anchor = "-".join(heading.lower().replace("`", "").split())
        rows.append(
            {
                "id": stable_id("c_", library, path, anchor),
                "page_id": stable_id("p_", library, path),
                "source": library,
                "library": library,
                "version": version,
                "url": f"file:///docs/{library}/{path}#{anchor}",
                "path": path,
                "title": title,
                "heading": heading,
                "anchor": anchor,
                "level": 2,
                "breadcrumb": crumbs,
                "text": text,
                "code_blocks": [
                    {"language": "python", "code": c.split("\n", 1)[1]}
                    for c in text.split("```")[1::2]
                ],
                "tokens": count_tokens(text),  # as the slicer counts
                "content_hash": hashlib.sha256(text.encode()).hexdigest(),
                "line_start": 1,
                "line_end": text.count("\n") + 1,
                "prev_id": "",
                "next_id": "",
                "parent_id": "",
                "fetched_at": "2026-01-01T00:00:00Z",
                "security_annotations": [],
            }
        )
    return rows


def freeze_library(home: Home, library: str, sections: list[Section], version: str = "") -> dict:
    cfg = SourceConfig(
        name=library, kind="local", location=f"/docs/{library}", library=library, version=version
    )
    tables = {name: empty_table(name) for name in PER_SOURCE_TABLES}
    tables["chunks"] = pa.Table.from_pylist(
        chunk_rows(library, sections, version), schema=SCHEMAS["chunks"]
    )
    tables["postings"] = build_postings(tables["chunks"], tables["symbols"])
    snap = freeze(home, cfg, tables).to_pylist()[0]
    return {
        "snapshot": snap["id"],
        "library": library,
        "version": version,
        "kind": "local",
        "location": cfg.location,
        "created_at": snap["created_at"],
    }


def make_manifest(entries: dict[str, dict]) -> dict:
    pairs = [f"{s}={entries[s]['snapshot']}" for s in sorted(entries)]
    pid = stable_id("u_", SCHEMA_VERSION, *pairs)
    return {
        "publish_id": pid,
        "created_at": "2026-01-01T00:00:00Z",
        "schema_version": SCHEMA_VERSION,
        "index": f"index/{pid}.duckdb",
        "sources": entries,
    }


def publish_corpus(root: Path, docs: dict[str, list[Section]] | None = None) -> Home:
    home = Home(root / ".docorbit", root)
    entries = {lib: freeze_library(home, lib, secs) for lib, secs in (docs or DOCS).items()}
    manifest = make_manifest(entries)
    build_index(home, manifest)
    atomic_write_json(home.published_path, manifest)
    return home


def test_publish_corpus_writes_a_manifest_naming_an_existing_index(tmp_path):
    home = publish_corpus(tmp_path)
    import json

    manifest = json.loads(home.published_path.read_text())
    assert sorted(manifest["sources"]) == ["alpha", "beta"]
    assert (home.path / manifest["index"]).is_file()
