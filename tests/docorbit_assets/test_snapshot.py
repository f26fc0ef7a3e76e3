"""snapshot.freeze: schema validation, content-derived ids, immutable atomic folders."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pytest

from docorbit_assets.lib import discover, fetch, normalize, slice, sources
from docorbit_assets.lib.snapshot import PARQUET_FILE, conform, freeze, snapshot_id
from docorbit_serve.errors import IngestError
from docorbit_serve.home import Home
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import PER_SOURCE_TABLES, empty_table
from tests.support.paths import KIT_DATA

HTTPX_DOCS = KIT_DATA / "docs" / "httpx" / "docs"


def _home(tmp_path: Path) -> Home:
    return Home(tmp_path / ".docorbit", tmp_path)


def _tables(cfg: SourceConfig, root: Path) -> dict[str, pa.Table]:
    """Real tables of the first stages; the later ones empty (freeze does not care)."""
    found = discover.discover(cfg, root)
    fetched = fetch.fetch_source(cfg, found, root)
    pages = normalize.normalize(cfg, fetched)
    tables = {name: empty_table(name) for name in PER_SOURCE_TABLES}
    tables.update(
        sources=sources.source_table(cfg, root),
        discovered=found,
        fetches=fetched,
        pages=pages,
        chunks=slice.slice_pages(pages),
    )
    return tables


@pytest.fixture
def docs(tmp_path: Path) -> tuple[SourceConfig, Path]:
    folder = tmp_path / "docs"
    shutil.copytree(HTTPX_DOCS, folder)
    cfg = SourceConfig(name="httpx", kind="local", location="docs", library="httpx")
    return cfg, tmp_path


def _files(home: Home) -> dict[str, bytes]:
    return {
        p.relative_to(home.tables).as_posix(): p.read_bytes()
        for p in sorted(home.tables.rglob("*.parquet"))
    }


def test_freeze_twice_leaves_every_file_byte_identical_and_first_created_at(docs) -> None:
    cfg, root = docs
    home = _home(root)
    first = freeze(home, cfg, _tables(cfg, root)).to_pylist()[0]
    before = _files(home)
    second = freeze(home, cfg, _tables(cfg, root)).to_pylist()[0]
    assert second == first
    assert _files(home) == before
    assert sorted(before) == sorted(
        f"{t}/source=httpx/snapshot={first['id']}/{PARQUET_FILE}"
        for t in (*PER_SOURCE_TABLES, "snapshots")
    )
    assert json.loads(first["row_counts_json"])["pages"] == 23


def test_snapshot_id_ignores_fetched_at_but_follows_content(docs) -> None:
    cfg, root = docs
    tables = _tables(cfg, root)
    sid = snapshot_id(cfg, tables)
    retimed = dict(tables)
    for name in ("fetches", "pages", "chunks"):
        t = tables[name]
        i = t.column_names.index("fetched_at")
        retimed[name] = t.set_column(i, "fetched_at", pa.array(["2001-01-01T00:00:00Z"] * len(t)))
    assert snapshot_id(cfg, retimed) == sid
    (root / "docs" / "index.md").write_text("# Changed\n\nNew text.\n", encoding="utf-8")
    assert snapshot_id(cfg, _tables(cfg, root)) != sid


def test_snapshot_id_follows_the_source_configuration(docs) -> None:
    cfg, root = docs
    tables = _tables(cfg, root)
    other = SourceConfig(name="httpx", kind="local", location="docs", library="httpx", version="1")
    assert snapshot_id(other, tables) != snapshot_id(cfg, tables)


def test_freeze_writes_the_snapshot_column_into_frozen_tables(docs) -> None:
    cfg, root = docs
    home = _home(root)
    sid = freeze(home, cfg, _tables(cfg, root)).column("id")[0].as_py()
    chunks = pa.parquet.read_table(home.table_dir("chunks", "httpx", sid) / PARQUET_FILE)
    assert chunks.column_names[-1] == "snapshot"
    assert set(chunks.column("snapshot").to_pylist()) == {sid}
    assert not list((home.tables / ".tmp").iterdir())


def test_conform_casts_compatible_types_and_orders_columns() -> None:
    table = pa.table(
        {
            "tf": pa.array([3], pa.int64()),
            "chunk_id": ["c_1"],
            "field": ["body"],
            "term": ["client"],
            "doc_len": pa.array([9], pa.int64()),
        }
    )
    out = conform("postings", table)
    assert out.schema.names == ["chunk_id", "field", "term", "tf", "doc_len"]
    assert out.schema.field("tf").type == pa.int32()


def test_freeze_rejects_a_table_that_does_not_match_its_schema(docs) -> None:
    cfg, root = docs
    home = _home(root)
    tables = _tables(cfg, root)
    tables["chunks"] = tables["chunks"].drop_columns(["anchor"])
    with pytest.raises(IngestError, match="missing \\['anchor'\\]"):
        freeze(home, cfg, tables)
    tables = _tables(cfg, root)
    tables["pages"] = tables["pages"].set_column(
        tables["pages"].column_names.index("tokens"),
        "tokens",
        pa.array(["many"] * tables["pages"].num_rows),
    )
    with pytest.raises(IngestError, match="do not cast"):
        freeze(home, cfg, tables)
    assert not home.tables.exists() or not list(home.tables.glob("*/source=httpx"))


def test_freeze_completes_a_snapshot_that_a_killed_run_left_half_written(docs) -> None:
    cfg, root = docs
    home = _home(root)
    tables = _tables(cfg, root)
    sid = freeze(home, cfg, tables).column("id")[0].as_py()
    pages_file = home.table_dir("pages", "httpx", sid) / PARQUET_FILE
    pages_bytes = pages_file.read_bytes()
    # What a run killed after two folders looks like: no snapshots marker, one table missing.
    shutil.rmtree(home.table_dir("snapshots", "httpx", sid))
    shutil.rmtree(home.table_dir("links", "httpx", sid))
    again = freeze(home, cfg, tables).to_pylist()[0]
    assert again["id"] == sid
    assert pages_file.read_bytes() == pages_bytes
    assert (home.table_dir("links", "httpx", sid) / PARQUET_FILE).is_file()
    assert (home.table_dir("snapshots", "httpx", sid) / PARQUET_FILE).is_file()
