"""Freshness: last successful fetch, age and staleness, in list/list_sources and search hits."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyarrow as pa

from docorbit_assets.lib.snapshot import write_parquet
from docorbit_serve import service
from docorbit_serve.catalog import Catalog
from docorbit_serve.freshness import age_hours, source_freshness
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, save_registry
from docorbit_serve.schemas import SCHEMAS


def _stage_fetches(home: Home, name: str, ok: list[bool], hours_ago: float) -> None:
    rows = [
        {
            "source": name,
            "url": f"https://x.test/{i}.md",
            "ok": flag,
            "fetched_at": "2020-01-01T00:00:00Z",
        }
        for i, flag in enumerate(ok)
    ]
    path = home.staging_file("fetches", name)
    write_parquet(pa.Table.from_pylist(rows, schema=SCHEMAS["fetches"]), path)
    stamp = time.time() - hours_ago * 3600
    os.utime(path, (stamp, stamp))


def test_freshness_is_the_age_of_the_last_successful_fetch(tmp_path: Path) -> None:
    home = Home(tmp_path / ".docorbit", tmp_path)
    assert source_freshness(home, "never", 48) == {
        "fetched_at": None,
        "age_hours": None,
        "stale": True,
        "stale_after_hours": 48,
    }
    _stage_fetches(home, "old", [True, False], hours_ago=50)
    _stage_fetches(home, "new", [False, True], hours_ago=1)
    _stage_fetches(home, "failed", [False, False], hours_ago=0)
    old, new = source_freshness(home, "old", 48), source_freshness(home, "new", 48)
    assert old["stale"] and 49.9 < old["age_hours"] < 50.2
    assert not new["stale"] and 0.9 < new["age_hours"] < 1.2
    assert source_freshness(home, "old", 60)["stale"] is False
    assert source_freshness(home, "failed", 48)["fetched_at"] is None  # no document: not a fetch


def test_list_sources_reports_fetched_at_age_and_stale_per_source(tmp_path: Path) -> None:
    home = Home(tmp_path / ".docorbit", tmp_path)
    sources = [
        SourceConfig(name="a", kind="local", location="a", library="a", refresh="hourly"),
        SourceConfig(name="b", kind="local", location="b", library="b"),
    ]
    save_registry(Registry(home.config_path, sources, {"stale_after_hours": 2}))
    _stage_fetches(home, "a", [True], hours_ago=3)
    _stage_fetches(home, "b", [True], hours_ago=0.5)
    result = service.list_sources(home, Catalog(home))
    info = {s.name: s for s in result.sources}
    assert info["a"].stale and info["a"].refresh == "hourly" and info["a"].fetched_at
    assert not info["b"].stale and info["b"].age_hours is not None and info["b"].age_hours < 1
    dumped = result.model_dump(mode="json")["sources"][0]
    assert {"fetched_at", "age_hours", "stale"} <= set(dumped)


def test_age_hours_of_provenance_times() -> None:
    now = datetime(2026, 1, 2, 12, tzinfo=UTC)
    assert age_hours("2026-01-02T00:00:00Z", now) == 12.0
    assert age_hours((now - timedelta(minutes=30)).isoformat(), now) == 0.5
    assert age_hours("", now) is None and age_hours("yesterday", now) is None
