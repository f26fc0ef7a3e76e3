"""The whole asset graph, materialized in-process on an ephemeral instance over real docs."""

# No `from __future__ import annotations`: Dagster reads the fault asset's annotations.

import json
import shutil
from pathlib import Path

import dagster as dg
import pyarrow as pa
import pytest

from docorbit_assets.defs import ALL_ASSETS, ALL_CHECKS
from docorbit_assets.defs.io_manager import build_resources
from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib import normalize
from docorbit_assets.lib.snapshot import read_parquet, write_parquet
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, save_registry
from tests.support.paths import KIT_DATA

HTTPX_DOCS = (KIT_DATA / "docs" / "httpx" / "docs").resolve()


def _project(root: Path) -> Home:
    home = Home(root / ".docorbit", root)
    cfg = SourceConfig(
        name="httpx", kind="local", location=str(HTTPX_DOCS), library="httpx", version="0.28"
    )
    save_registry(Registry(home.config_path, [cfg]))
    return home


def _materialize(
    home: Home, assets: list, instance: dg.DagsterInstance
) -> dg.ExecuteInProcessResult:
    instance.add_dynamic_partitions("source", ["httpx"])
    return dg.materialize(
        assets,
        partition_key="httpx",
        instance=instance,
        resources=build_resources(home),
        raise_on_error=False,
    )


@pytest.fixture(scope="module")
def published_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose httpx source is ingested and published (copy it before changing it)."""
    root = tmp_path_factory.mktemp("published")
    with dg.DagsterInstance.ephemeral() as instance:
        assert _materialize(_project(root), ALL_ASSETS + ALL_CHECKS, instance).success
    return root


def _copy(template: Path, dest: Path) -> Home:
    shutil.copytree(template, dest)
    return Home(dest / ".docorbit", dest)


def _parquet_files(home: Home) -> dict[str, bytes]:
    return {
        p.relative_to(home.tables).as_posix(): p.read_bytes()
        for p in sorted(home.tables.glob("*/source=*/snapshot=*/*.parquet"))
    }


def _materialized(result: dg.ExecuteInProcessResult) -> set[str]:
    return {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}


def test_pipeline_materializes_httpx_docs_deterministically(tmp_path: Path) -> None:
    home_a, home_b = _project(tmp_path / "a"), _project(tmp_path / "b")
    with dg.DagsterInstance.ephemeral() as instance:
        first = _materialize(home_a, ALL_ASSETS + ALL_CHECKS, instance)
        assert first.success
        assert _materialized(first) == {a.key.to_user_string() for a in ALL_ASSETS}
        assert all(e.passed for e in first.get_asset_check_evaluations())
        published = json.loads(home_a.published_path.read_text())
        files = _parquet_files(home_a)
        second = _materialize(home_a, ALL_ASSETS + ALL_CHECKS, instance)
        assert second.success
        assert json.loads(home_a.published_path.read_text()) == published
        assert _parquet_files(home_a) == files
        other = _materialize(home_b, ALL_ASSETS + ALL_CHECKS, instance)
        assert other.success
    sid = published["sources"]["httpx"]["snapshot"]
    assert json.loads(home_b.published_path.read_text())["sources"]["httpx"]["snapshot"] == sid
    # Another home, same input: every frozen table is byte-identical; only the snapshots row
    # differs (its created_at is when that home froze it).
    files_b = _parquet_files(home_b)
    assert sorted(files_b) == sorted(files)
    differing = sorted(k for k in files if files[k] != files_b[k])
    assert differing in ([], [f"snapshots/source=httpx/snapshot={sid}/part-0.parquet"])
    snap = pa.parquet.read_table(home_a.table_dir("snapshots", "httpx", sid) / "part-0.parquet")
    counts = json.loads(snap.column("row_counts_json")[0].as_py())
    assert counts["pages"] == 23 and counts["chunks"] > 23 and counts["postings"] > 0
    assert (home_a.path / published["index"]).is_file()


@dg.asset(name="pages", partitions_def=SOURCE_PARTITIONS, group_name="normalize")
def pages_with_a_duplicate(
    context: dg.AssetExecutionContext, docorbit: DocOrbitResource, fetches: pa.Table
) -> pa.Table:
    """Fault injection: the real pages plus a second copy of the first one."""
    pages = normalize.normalize(docorbit.source(context.partition_key), fetches)
    return pa.concat_tables([pages, pages.slice(0, 1)])


def test_failing_blocking_check_stops_the_snapshot_and_publish(
    tmp_path: Path, published_template: Path
) -> None:
    home = _copy(published_template, tmp_path / "project")
    # The docs changed since the published snapshot (an unchanged source runs nothing after
    # fetches: incremental refresh), so the faulty pages asset really runs.
    docs = tmp_path / "docs"
    shutil.copytree(HTTPX_DOCS, docs)
    (docs / "index.md").write_text((docs / "index.md").read_text() + "\nA new line.\n")
    cfg = SourceConfig(
        name="httpx", kind="local", location=str(docs), library="httpx", version="0.28"
    )
    save_registry(Registry(home.config_path, [cfg]))
    faulty = [a for a in ALL_ASSETS if a.key != dg.AssetKey("pages")] + [pages_with_a_duplicate]
    with dg.DagsterInstance.ephemeral() as instance:
        published = home.published_path.read_bytes()
        latest = home.staging_file("snapshots", "httpx").read_bytes()
        result = _materialize(home, faulty + ALL_CHECKS, instance)
    assert not result.success
    failed = [
        (e.check_name, e.passed) for e in result.get_asset_check_evaluations() if not e.passed
    ]
    assert failed == [("pages_are_valid", False)]
    assert _materialized(result) == {"sources", "discovered", "fetches", "pages", "endpoints"}
    assert home.published_path.read_bytes() == published
    assert home.staging_file("snapshots", "httpx").read_bytes() == latest


def test_chunks_check_fails_on_duplicate_chunk_ids(
    tmp_path: Path, published_template: Path
) -> None:
    home = _copy(published_template, tmp_path / "project")
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("source", ["httpx"])
        # A staged pages table holding one page twice (a corrupted file): its chunks repeat.
        staged = home.staging_file("pages", "httpx")
        pages = read_parquet(staged)
        write_parquet(pa.concat_tables([pages, pages.slice(0, 1)]), staged)
        result = dg.materialize(
            ALL_ASSETS + ALL_CHECKS,
            selection=dg.AssetSelection.assets("chunks"),
            partition_key="httpx",
            instance=instance,
            resources=build_resources(home),
            raise_on_error=False,
        )
    evaluations = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert not evaluations["chunks_are_valid"].passed
    assert "duplicate ids" in str(evaluations["chunks_are_valid"].metadata["problems"].value)
    assert evaluations["rows_belong_to_source"].passed
