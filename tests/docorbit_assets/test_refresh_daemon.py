"""A source's ``refresh`` schedule under a running Dagster daemon (``dg dev`` in the project, as
docs/operations.md says): the daemon ticks ``refresh_<source>``, which runs ``refresh_check`` for
that source; the ``refresh_changed`` sensor requests ``refresh_all`` only for the source whose
page changed; ``publish_after_ingest`` publishes it. The unchanged source keeps its snapshot and
gets no ``refresh_all`` run."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest

from docorbit_assets.ingest import open_instance, run_ingest
from docorbit_serve.catalog import Catalog
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, save_registry
from docorbit_serve.search import search
from tests.docorbit_assets.test_release_daemon import _free_port, _published_versions
from tests.support.paths import FIXTURE_SITE

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.timeout(1200)]

EVERY_MINUTE = "* * * * *"  # the daemon's first tick comes within a minute of its start


def _wait_republished(proc: subprocess.Popen, home: Home, source: str, old: str, seconds: float):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if _published_versions(home).get(source, old) != old:
            return True
        time.sleep(2)
    return False


def _stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


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
    before = _published_versions(home)
    page = tmp_path / "docs" / "install.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n## Airgap\n\nZebrafinch mode.\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAGSTER_", "DOCORBIT_"))}
    dg_bin = str(Path(sys.executable).with_name("dg"))
    port = _free_port()
    with (tmp_path / "dg.log").open("wb") as log:
        proc = subprocess.Popen(  # webserver + daemon: schedules and sensors tick
            [dg_bin, "dev", "-m", "docorbit_assets.definitions", "-h", "127.0.0.1"]
            + ["-p", str(port)],
            cwd=tmp_path,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            republished = _wait_republished(proc, home, "site", before["site"], 900)
        finally:
            _stop(proc)
    tail = (tmp_path / "dg.log").read_text(errors="replace")[-3000:]
    assert republished, f"the daemon did not republish 'site' within 900 s:\n{tail}"
    after = _published_versions(home)
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
