"""Per-chunk and per-page reuse (``lib/refresh.py``) gives exactly what a full extraction gives.

Real httpx docs from ``fixtures/kit``: the "previous snapshot" is the full extraction of the
docs as they are, frozen under a home; then one page is edited (and, in the second test, one
page added) and each incremental table must equal the full extraction of the edited docs, having
extracted only the changed chunks (pages for ``links``). No Dagster: the library functions the
assets call.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from docorbit_assets.lib.extract import (
    extract_examples,
    extract_links,
    extract_pitfalls,
    extract_symbols,
)
from docorbit_assets.lib.normalize import normalize
from docorbit_assets.lib.postings import build_postings
from docorbit_assets.lib.refresh import Previous, include_hinted, reuse_by_chunk, reuse_links
from docorbit_assets.lib.slice import slice_pages
from docorbit_assets.lib.snapshot import conform
from docorbit_serve.home import Home
from docorbit_serve.registry import SourceConfig
from tests.docorbit_assets.conftest import KIT, fetches_from_folder

FOLDER = (KIT / "docs" / "httpx" / "docs").resolve()
EDIT = (
    "\n\n## Retries (edited)\n\n`Client.retry()` is deprecated and will be removed; see "
    "[the guide](advanced/transports.md).\n\n```python\nimport httpx\n\n"
    "def fetch(url):\n    return httpx.get(url)\n```\n"
)


def _full(chunks_pages: tuple[pa.Table, pa.Table]) -> dict[str, pa.Table]:
    pages, chunks = chunks_pages
    symbols = extract_symbols(pages, chunks)
    return {
        "symbols": symbols,
        "examples": extract_examples(chunks, FOLDER),
        "pitfalls": extract_pitfalls(chunks),
        "postings": build_postings(chunks, symbols),
        "links": extract_links(pages, chunks),
    }


def _freeze(tmp_path: Path, pages: pa.Table, chunks: pa.Table) -> Previous:
    home = Home(tmp_path / ".docorbit", tmp_path)
    tables = {"pages": pages, "chunks": chunks, **_full((pages, chunks))}
    for name, table in tables.items():
        folder = home.table_dir(name, "httpx", "s_old")
        folder.mkdir(parents=True)
        pq.write_table(table, folder / "part-0.parquet")
    return Previous(home, "httpx", "s_old")


def _docs(fetches: pa.Table, cfg: SourceConfig) -> tuple[pa.Table, pa.Table]:
    pages = normalize(cfg, fetches)
    return pages, slice_pages(pages)


def _edited(fetches: pa.Table, index: int) -> pa.Table:
    rows = fetches.to_pylist()
    rows[index]["body"] = rows[index]["body"] + EDIT.encode()
    rows[index]["bytes"] = len(rows[index]["body"])
    return pa.Table.from_pylist(rows, schema=fetches.schema)


def _incremental(
    pages: pa.Table, chunks: pa.Table, prev: Previous
) -> dict[str, tuple[pa.Table, dict[str, int]]]:
    computes: dict[str, Callable[[pa.Table], pa.Table]] = {
        "symbols": lambda todo: extract_symbols(pages, todo),
        "examples": lambda todo: extract_examples(todo, FOLDER),
        "pitfalls": extract_pitfalls,
    }
    out = {
        name: reuse_by_chunk(
            name, chunks, prev, fn, include_hinted(chunks) if name == "examples" else ()
        )
        for name, fn in computes.items()
    }
    symbols = out["symbols"][0]
    out["postings"] = reuse_by_chunk(
        "postings", chunks, prev, lambda todo: build_postings(todo, symbols)
    )
    out["links"] = reuse_links(
        pages, chunks, prev, lambda todo, sub: extract_links(todo, sub, pages)
    )
    return out


@pytest.fixture(scope="module")
def docs() -> tuple[SourceConfig, pa.Table]:
    if not FOLDER.is_dir():
        pytest.skip(f"fixtures/kit httpx docs absent at {FOLDER}")
    cfg = SourceConfig(name="httpx", kind="local", location=str(FOLDER), library="httpx")
    return cfg, fetches_from_folder("httpx", FOLDER)


def test_one_edited_page_extracts_its_changed_chunks_only_and_equals_a_full_extraction(
    tmp_path: Path, docs: tuple[SourceConfig, pa.Table]
) -> None:
    cfg, fetches = docs
    old_pages, old_chunks = _docs(fetches, cfg)
    prev = _freeze(tmp_path, old_pages, old_chunks)
    target = next(i for i, r in enumerate(fetches.to_pylist()) if r["url"].endswith("/api.md"))
    pages, chunks = _docs(_edited(fetches, target), cfg)
    before = {r["id"]: r for r in old_chunks.to_pylist()}
    changed = [c for c in chunks.to_pylist() if before.get(c["id"]) != c]
    assert 0 < len(changed) < chunks.num_rows
    full = _full((pages, chunks))
    for name, (table, stats) in _incremental(pages, chunks, prev).items():
        assert table.equals(conform(name, full[name])), name
        if name == "links":
            assert stats == {"reused": pages.num_rows - 1, "computed": 1}
        elif name != "examples":  # examples also redo chunks with include markers
            assert stats == {"reused": chunks.num_rows - len(changed), "computed": len(changed)}
    assert full["pitfalls"].num_rows > _full((old_pages, old_chunks))["pitfalls"].num_rows


def test_an_added_page_redoes_links_everywhere_and_still_equals_a_full_extraction(
    tmp_path: Path, docs: tuple[SourceConfig, pa.Table]
) -> None:
    cfg, fetches = docs
    prev = _freeze(tmp_path, *_docs(fetches, cfg))
    rows = fetches.to_pylist()
    extra = {**rows[0], "url": rows[0]["url"].rsplit("/", 1)[0] + "/retries.md"}
    extra["final_url"] = extra["url"]
    extra["body"] = b"# Retries" + EDIT.encode()
    pages, chunks = _docs(pa.Table.from_pylist([*rows, extra], schema=fetches.schema), cfg)
    full = _full((pages, chunks))
    result = _incremental(pages, chunks, prev)
    for name, (table, _) in result.items():
        assert table.equals(conform(name, full[name])), name
    assert result["links"][1] == {"reused": 0, "computed": pages.num_rows}  # targets may move
    assert result["symbols"][1]["computed"] < chunks.num_rows  # the new page's chunks only
