"""Release detection against registry and feed fixtures served on 127.0.0.1 (never the internet)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import dagster as dg
import pytest

from docorbit_assets.definitions import build_definitions
from docorbit_assets.defs.releases import release_watch
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.ingest import open_instance, run_ingest
from docorbit_assets.lib.releases import check_release, latest_release
from docorbit_serve.catalog import Catalog
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, load_registry, save_registry
from docorbit_serve.search import search
from tests.support.http import FAST_LIMITS, Route, allowance, serve_routes
from tests.support.paths import FIXTURE_SITE

JSON = "application/json"


def _feeds(version: str) -> dict:
    return {
        "/pypi/orbitkit/json": (200, JSON, json.dumps({"info": {"version": version}})),
        "/npm/orbitkit": (200, JSON, json.dumps({"dist-tags": {"latest": version}})),
        "/github/repos/acme/orbitkit/releases/latest": (
            200,
            JSON,
            json.dumps({"tag_name": f"v{version}"}),
        ),
        "/github/repos/acme/bare/releases/latest": Route(status=404),
        "/github/repos/acme/bare/tags": (
            200,
            JSON,
            json.dumps([{"name": f"v{version}"}, {"name": "v0.1"}]),
        ),
    }


def _registry(root: Path, base: str, track: str, **settings) -> Registry:
    feeds = {"pypi": base + "pypi", "npm": base + "npm", "github": base + "github"}
    src = SourceConfig(
        name="orbit", kind="local", location="docs", library="orbitkit", version="1.0",
        track=track, refresh="daily", allow_hosts=(allowance(base),), limits=FAST_LIMITS,
    )  # fmt: skip
    reg = Registry(root / "docorbit.toml", [src], {"release_feeds": feeds, **settings})
    save_registry(reg)
    return load_registry(reg.path)


@pytest.mark.parametrize(
    "track", ["pypi:orbitkit", "npm:orbitkit", "github:acme/orbitkit", "github:acme/bare"]
)
def test_each_registry_feed_reports_its_latest_version(tmp_path: Path, track: str) -> None:
    with serve_routes(_feeds("1.1.0")) as base:
        reg = _registry(tmp_path, base, track)
        assert latest_release(reg, reg.get("orbit")) == ("version", "1.1.0")
        action = check_release(reg, reg.get("orbit"), None)
    assert action.kind == "new_version" and action.new_source is not None
    assert (action.new_source.name, action.new_source.version) == ("orbitkit-1.1.0", "1.1.0")


def test_a_tracked_document_change_asks_for_a_refresh_and_a_refused_feed_does_nothing(
    tmp_path: Path,
) -> None:
    doc = {"body": b"# orbitkit\n\n- [a](a.md)\n"}
    routes = {"/llms.txt": lambda _p, _h: Route(body=doc["body"])}
    with serve_routes(routes) as base:
        reg = _registry(tmp_path, base, f"url:{base}llms.txt")
        first = check_release(reg, reg.get("orbit"), None)
        same = check_release(reg, reg.get("orbit"), first.token)
        doc["body"] += b"- [b](b.md)\n"
        changed = check_release(reg, reg.get("orbit"), first.token)
    assert first.kind == "none" and same.kind == "none" and changed.kind == "refresh"
    with serve_routes(_feeds("2.0")) as base:
        reg = _registry(tmp_path, base, "pypi:orbitkit")
        refused = SourceConfig(name="x", kind="local", location="d", library="x", track="pypi:x")
        action = check_release(reg, refused, None)  # loopback host not allowed for this source
    assert action.kind == "none" and "blocked_url" in action.reason


@pytest.mark.slow
def test_the_sensor_turns_a_new_release_into_a_version_snapshot_beside_the_old(
    tmp_path: Path,
) -> None:
    shutil.copytree(FIXTURE_SITE / "docs", tmp_path / "docs")
    home = Home(tmp_path / ".docorbit", tmp_path)
    with serve_routes(_feeds("1.1")) as base:
        _registry(tmp_path, base, "pypi:orbitkit")
        first = run_ingest(home)
        assert first["ok"], first
        old_snapshot = first["sources"]["orbit"]["snapshot"]
        resource = DocOrbitResource(home=str(home.path), project_root=str(tmp_path))
        with open_instance(home) as instance:
            ctx = dg.build_sensor_context(instance=instance, resources={"docorbit": resource})
            result = release_watch(ctx)
            (request,) = result.run_requests
            assert request.partition_key == "orbitkit-1.1"
            for req in result.dynamic_partitions_requests:
                instance.add_dynamic_partitions("source", list(req.partition_keys))
            defs = build_definitions(home)  # as the code location reloads after the edit
            run = defs.resolve_job_def("refresh_all").execute_in_process(
                partition_key=request.partition_key, instance=instance, tags=request.tags
            )
            assert run.success
            assert defs.resolve_job_def("publish").execute_in_process(instance=instance).success
            again = release_watch(
                dg.build_sensor_context(
                    instance=instance, resources={"docorbit": resource}, cursor=result.cursor
                )
            )
    assert not again.run_requests  # the same release triggers once
    reg = load_registry(home.config_path)
    assert {(s.name, s.version, s.track) for s in reg.sources} == {
        ("orbit", "1.0", ""),
        ("orbitkit-1.1", "1.1", "pypi:orbitkit"),
    }
    manifest = json.loads(home.published_path.read_text(encoding="utf-8"))
    assert manifest["sources"]["orbit"]["snapshot"] == old_snapshot
    catalog = Catalog(home)
    old = search(catalog, "retry backoff", library="orbitkit", version="1.0").hits
    new = search(catalog, "retry backoff", library="orbitkit", version="1.1").hits
    assert old and {h.snapshot for h in old} == {old_snapshot}
    assert new and {h.source for h in new} == {"orbitkit-1.1"}
