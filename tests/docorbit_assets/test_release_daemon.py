"""The ``release_watch`` sensor under a running Dagster daemon (``dg dev`` in the project, as
docs/operations.md says), against a registry fixture served on 127.0.0.1: the daemon ticks the
sensor, launches the new version's run, ``publish_after_ingest`` publishes it, and search pinned
to the old version still answers from the old snapshot."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docorbit_assets.ingest import run_ingest
from docorbit_serve.catalog import Catalog
from docorbit_serve.home import Home
from docorbit_serve.registry import load_registry
from docorbit_serve.search import search
from tests.docorbit_assets.test_releases import _feeds, _registry
from tests.support.daemon import dg_dev, published_versions, wait_until
from tests.support.http import serve_routes
from tests.support.paths import FIXTURE_SITE

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.timeout(1200)]


def test_the_daemon_turns_a_new_release_into_a_published_version_beside_the_old(
    tmp_path: Path,
) -> None:
    shutil.copytree(FIXTURE_SITE / "docs", tmp_path / "docs")
    home = Home(tmp_path / ".docorbit", tmp_path)
    with serve_routes(_feeds("1.1")) as base:
        _registry(tmp_path, base, "pypi:orbitkit")
        first = run_ingest(home)
        assert first["ok"], first
        old_snapshot = first["sources"]["orbit"]["snapshot"]
        with dg_dev(tmp_path, tmp_path / "dg.log") as proc:  # schedules and sensors tick
            published = wait_until(proc, lambda: "orbitkit-1.1" in published_versions(home), 900)
    tail = (tmp_path / "dg.log").read_text(errors="replace")[-3000:]
    assert published, f"the daemon did not publish orbitkit-1.1 within 900 s:\n{tail}"
    reg = load_registry(home.config_path)
    assert {(s.name, s.version, s.track) for s in reg.sources} == {
        ("orbit", "1.0", ""),
        ("orbitkit-1.1", "1.1", "pypi:orbitkit"),
    }
    assert published_versions(home)["orbit"] == old_snapshot
    catalog = Catalog(home)
    old = search(catalog, "retry backoff", library="orbitkit", version="1.0").hits
    new = search(catalog, "retry backoff", library="orbitkit", version="1.1").hits
    assert old and {h.snapshot for h in old} == {old_snapshot}
    assert new and {h.source for h in new} == {"orbitkit-1.1"}
