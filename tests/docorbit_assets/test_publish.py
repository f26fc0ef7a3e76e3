"""publish: planning the latest snapshot per source, and the atomic swap of published.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docorbit_assets.lib.publish import plan_publication, publish
from docorbit_assets.lib.snapshot import freeze, write_parquet
from docorbit_assets.lib.sources import source_table
from docorbit_serve.errors import IngestError
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig
from docorbit_serve.schemas import PER_SOURCE_TABLES, empty_table


def _cfg(name: str, version: str = "") -> SourceConfig:
    return SourceConfig(
        name=name, kind="local", location=f"docs/{name}", library=name, version=version
    )


def _stage(home: Home, cfg: SourceConfig) -> str:
    """Freeze a (tiny) snapshot of ``cfg`` and stage it as the latest, as the snapshots asset does."""
    tables = {name: empty_table(name) for name in PER_SOURCE_TABLES}
    tables["sources"] = source_table(cfg, home.project_root)
    row = freeze(home, cfg, tables)
    write_parquet(row, home.staging_file("snapshots", cfg.name))
    return row.column("id")[0].as_py()


def _index_for(home: Home, manifest: dict) -> Path:
    path = home.path / manifest["index"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"stand-in for a built index")
    return path


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return Home(tmp_path / ".docorbit", tmp_path)


def test_plan_names_the_latest_snapshot_of_every_configured_source(home: Home) -> None:
    a, b = _cfg("alpha", "1"), _cfg("beta")
    sid_a, sid_b = _stage(home, a), _stage(home, b)
    registry = Registry(home.config_path, [b, a, _cfg("never-ingested")])
    plan = plan_publication(home, registry)
    assert {k: v["snapshot"] for k, v in plan["sources"].items()} == {"alpha": sid_a, "beta": sid_b}
    assert plan["sources"]["alpha"]["version"] == "1"
    assert plan["sources"]["alpha"]["location"] == str(home.project_root / "docs" / "alpha")
    assert plan["publish_id"].startswith("u_")
    assert plan["index"] == f"index/{plan['publish_id']}.duckdb"
    assert plan_publication(home, registry)["publish_id"] == plan["publish_id"]
    sid_a2 = _stage(home, _cfg("alpha", "2"))
    assert sid_a2 != sid_a
    assert plan_publication(home, registry)["publish_id"] != plan["publish_id"]


def test_a_source_without_a_usable_latest_snapshot_keeps_the_published_one(home: Home) -> None:
    a, b = _cfg("alpha"), _cfg("beta")
    sid_a = _stage(home, a)
    _stage(home, b)
    registry = Registry(home.config_path, [a, b])
    plan = plan_publication(home, registry)
    publish(home, plan, _index_for(home, plan))
    # alpha's staged pointer is lost; beta is removed from docorbit.toml.
    home.staging_file("snapshots", "alpha").unlink()
    replan = plan_publication(home, Registry(home.config_path, [a]))
    assert {k: v["snapshot"] for k, v in replan["sources"].items()} == {"alpha": sid_a}


def test_publish_refuses_an_index_that_does_not_exist(home: Home) -> None:
    _stage(home, _cfg("alpha"))
    plan = plan_publication(home, Registry(home.config_path, [_cfg("alpha")]))
    with pytest.raises(IngestError, match="does not exist"):
        publish(home, plan)
    assert not home.published_path.exists()


def test_publish_refuses_an_empty_publication(home: Home) -> None:
    plan = plan_publication(home, Registry(home.config_path, [_cfg("alpha")]))
    assert plan["sources"] == {}
    with pytest.raises(IngestError, match="nothing to publish"):
        publish(home, plan)


def test_republishing_an_unchanged_corpus_leaves_published_json_untouched(home: Home) -> None:
    registry = Registry(home.config_path, [_cfg("alpha")])
    _stage(home, _cfg("alpha"))
    plan = plan_publication(home, registry)
    publish(home, plan, _index_for(home, plan))
    before = home.published_path.read_bytes()
    inode = home.published_path.stat().st_ino
    again = plan_publication(home, registry)
    assert again == json.loads(before)
    publish(home, again)
    assert home.published_path.read_bytes() == before
    assert home.published_path.stat().st_ino == inode
    assert json.loads(before)["sources"]["alpha"]["kind"] == "local"


def test_a_publish_planned_before_a_newer_publication_does_not_roll_it_back(home: Home) -> None:
    """Two overlapping publish runs (the daemon runs one per finished refresh_all): the one
    planned first and swapped last must not serve older snapshots than the one out already."""
    import dagster as dg

    from docorbit_assets.defs.publish import published
    from docorbit_assets.defs.resources import DocOrbitResource
    from docorbit_serve.registry import save_registry

    registry = Registry(home.config_path, [_cfg("alpha"), _cfg("beta")])
    save_registry(registry)
    resource = DocOrbitResource(home=str(home.path), project_root=str(home.project_root))

    def swap(candidate: dict) -> dg.MaterializeResult:
        _index_for(home, candidate)
        return published(
            context=dg.build_asset_context(), docorbit=resource, search_index=candidate
        )

    _stage(home, _cfg("alpha", "1"))
    _stage(home, _cfg("beta", "1"))
    swap(plan_publication(home, registry))
    _stage(home, _cfg("alpha", "2"))
    first = plan_publication(home, registry)  # run 1 plans {alpha 2, beta 1} and builds ...
    _stage(home, _cfg("beta", "2"))
    second = plan_publication(home, registry)  # ... run 2 plans {alpha 2, beta 2}
    swap(second)  # and swaps first
    served = home.published_path.read_bytes()
    late = swap(first)
    assert home.published_path.read_bytes() == served  # beta 2 stays served
    assert late.metadata["superseded"] == first["publish_id"]
    assert late.metadata["rolled_back_sources"] == "beta"
    # a snapshot that moved on after the plan (beta 3, its run not published yet) does not
    # hold back a candidate that keeps beta's served snapshot: alpha 3 is published
    _stage(home, _cfg("alpha", "3"))
    third = plan_publication(home, registry)
    _stage(home, _cfg("beta", "3"))
    swap(third)
    assert json.loads(home.published_path.read_bytes())["publish_id"] == third["publish_id"]
