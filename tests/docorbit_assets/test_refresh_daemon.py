"""A source's ``refresh`` schedule under a running Dagster daemon (``dg dev`` in the project, as
docs/operations.md says): the daemon ticks ``refresh_<source>``, which runs ``refresh_check`` for
that source; the ``refresh_changed`` sensor requests ``refresh_all`` only for the source whose
page changed; ``publish_after_ingest`` publishes it. The unchanged source keeps its snapshot and
gets no ``refresh_all`` run."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
import pytest

from docorbit_assets.ingest import open_instance, run_ingest
from docorbit_serve.catalog import Catalog
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, save_registry
from docorbit_serve.search import search
from tests.support.daemon import dg_dev, published_versions, wait_until
from tests.support.paths import FIXTURE_SITE

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.timeout(1200)]

EVERY_MINUTE = "* * * * *"  # the daemon's first tick comes within a minute of its start


def test_the_refresh_schedule_checks_then_refreshes_and_publishes_only_the_changed_source(
    tmp_path: Path,
) -> None:
    shutil.copytree(FIXTURE_SITE / "docs", tmp_path / "docs")
    shutil.copytree(FIXTURE_SITE / "docs", tmp_path / "other")
    home = Home(tmp_path / ".docorbit", tmp_path)
    sources = [
        SourceConfig(name=n, kind="local", location=loc, library=n, refresh=EVERY_MINUTE)
        for n, loc in (("site", "docs"), ("other", "other"))
    ]
    save_registry(Registry(home.config_path, sources))
    cold = run_ingest(home)
    assert cold["ok"], cold
    before = published_versions(home)
    page = tmp_path / "docs" / "install.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n## Airgap\n\nZebrafinch mode.\n")
    with dg_dev(tmp_path, tmp_path / "dg.log") as proc:  # schedules and sensors tick
        republished = wait_until(
            proc,
            lambda: published_versions(home).get("site", before["site"]) != before["site"],
            900,
        )
    tail = (tmp_path / "dg.log").read_text(errors="replace")[-3000:]
    assert republished, f"the daemon did not republish 'site' within 900 s:\n{tail}"
    after = published_versions(home)
    assert after["other"] == before["other"]  # unchanged: same snapshot, no run of its own
    with open_instance(home) as instance:
        runs = [r for r in instance.get_runs() if r.tags.get("docorbit/entry") != "run_ingest"]
    by_job: dict[str, list[dg.DagsterRun]] = {}
    for run in runs:
        by_job.setdefault(run.job_name, []).append(run)
    checks = {r.tags.get("dagster/schedule_name") for r in by_job["refresh_check"]}
    # both schedules ran the cheap check, not a full run; only the edited source went on
    assert {"refresh_site", "refresh_other"} <= checks, checks
    assert "ingest_site" not in by_job and "ingest_other" not in by_job
    refreshed = by_job["refresh_all"]
    assert {r.tags.get("dagster/partition") for r in refreshed} == {"site"}
    assert {r.tags.get("dagster/sensor_name") for r in refreshed} == {"refresh_changed"}
    ok = dg.DagsterRunStatus.SUCCESS
    assert any(r.status == ok for r in refreshed)
    publishes = by_job["publish"]
    assert any(
        r.status == ok and r.tags.get("dagster/sensor_name") == "publish_after_ingest"
        for r in publishes
    )
    hits = search(Catalog(home), "zebrafinch airgap", library="site").hits
    assert hits and hits[0].snapshot == after["site"] and hits[0].path == "install.md"
