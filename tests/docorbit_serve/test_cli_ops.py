"""``docorbit schedule``, ``gc`` and ``ui``, and ``dg dev`` in a project, through the real command
line."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from docorbit_serve.cli import cli
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, save_registry

DOCORBIT = str(Path(sys.executable).with_name("docorbit"))


def _project(root: Path) -> Home:
    home = Home(root / ".docorbit", root)
    sources = [
        SourceConfig(name="alpha", kind="local", location="docs", library="a", refresh="hourly"),
        SourceConfig(name="beta", kind="local", location="docs", library="b"),
    ]
    save_registry(Registry(home.config_path, sources))
    return home


def _run(*args: str) -> dict:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_schedule_prints_each_refresh_cadence_and_the_freshness_checks(tmp_path: Path) -> None:
    _project(tmp_path)
    rows = _run("--json", "-p", str(tmp_path), "schedule")["schedules"]
    assert [(r["name"], r["cron"], r["job"], r["source"]) for r in rows] == [
        ("refresh_alpha", "0 * * * *", "refresh_check", "alpha"),
        ("freshness_hourly", "0 * * * *", "freshness_checks", None),
    ]
    assert all(r["next_run"].endswith(":00:00Z") for r in rows)


def test_gc_dry_run_lists_debris_and_apply_removes_it(tmp_path: Path) -> None:
    home = _project(tmp_path)
    debris = [
        home.index_dir / ".u_0123.abcdef.tmp.duckdb",
        home.index_dir / ".u_0123.abcdef.tmp.duckdb.wal",
        home.tables / ".tmp" / "pages-x" / "part-0.parquet",
    ]
    for path in debris:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * 10)
    plan = _run("--json", "-p", str(tmp_path), "gc")
    assert not plan["applied"] and all(p.exists() for p in debris)
    assert sorted(e["path"] for e in plan["remove"]) == [
        "index/.u_0123.abcdef.tmp.duckdb",
        "index/.u_0123.abcdef.tmp.duckdb.wal",
        "tables/.tmp/pages-x",
    ]
    done = _run("--json", "-p", str(tmp_path), "gc", "--apply")
    assert done["applied"] and sorted(done["removed"]) == sorted(e["path"] for e in plan["remove"])
    assert not any(p.exists() for p in debris)
    assert _run("--json", "-p", str(tmp_path), "gc")["remove"] == []


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _graphql(port: int, query: str) -> dict:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql",
        data=json.dumps({"query": query}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=60) as resp:  # noqa: S310 - loopback
        return json.loads(resp.read())["data"]


_QUERY = """{ repositoriesOrError { ... on RepositoryConnection { nodes {
  schedules { name cronSchedule pipelineName scheduleState { status } }
  sensors { name }
  jobs { name }
  assetNodes { assetKey { path } assetChecksOrError { ... on AssetChecks { checks { name } } } }
} } } }"""


@pytest.mark.slow
def test_ui_started_as_documented_lists_schedules_sensors_jobs_and_checks_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    _project(tmp_path)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAGSTER_", "DOCORBIT_"))}
    proc = subprocess.Popen(
        [DOCORBIT, "-p", str(tmp_path), "ui", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        data = None
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                data = _graphql(port, _QUERY)
                break
            except OSError:
                time.sleep(1)
        assert data is not None, "the UI did not answer within 300 s"
        (repo,) = data["repositoriesOrError"]["nodes"]
        schedules = {s["name"]: s for s in repo["schedules"]}
        assert set(schedules) == {"refresh_alpha", "freshness_hourly"}
        assert schedules["refresh_alpha"]["cronSchedule"] == "0 * * * *"
        assert schedules["refresh_alpha"]["pipelineName"] == "refresh_check"
        assert schedules["refresh_alpha"]["scheduleState"]["status"] == "RUNNING"
        assert {"source_partitions", "publish_after_ingest", "refresh_changed"} <= {
            s["name"] for s in repo["sensors"]
        }
        jobs = {j["name"] for j in repo["jobs"]}
        assert {"ingest_alpha", "ingest_beta", "refresh_all", "refresh_check", "publish"} <= jobs
        assert {"freshness_checks", "gc"} <= jobs
        checks = {
            tuple(n["assetKey"]["path"]): {c["name"] for c in n["assetChecksOrError"]["checks"]}
            for n in repo["assetNodes"]
        }
        assert {"fresh_alpha", "fresh_beta"} <= checks[("published",)]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=60)
        finally:
            proc.kill()
    assert code == 0
    with socket.socket() as s, pytest.raises(ConnectionRefusedError):
        s.connect(("127.0.0.1", port))  # the webserver is gone


_RUNS = "{ runsOrError { ... on Runs { results { jobName status } } } }"


def _wait_for_graphql(proc: subprocess.Popen, port: int, query: str, seconds: float) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            return _graphql(port, query)
        except OSError:
            time.sleep(1)
    raise AssertionError(f"the UI did not answer within {seconds:.0f} s (exit {proc.poll()})")


def _group_gone(pgid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.5)
    return False


@pytest.mark.slow
@pytest.mark.e2e
def test_dg_dev_in_the_project_needs_no_variables_shows_cli_runs_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    _project(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\n## Retry\n\nRetry with backoff.\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAGSTER_", "DOCORBIT_"))}
    ingest = subprocess.run(
        [DOCORBIT, "--json", "ingest", "--source", "alpha"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        timeout=600,
    )
    assert ingest.returncode == 0, ingest.stderr[-2000:]
    assert "base_dir" in (tmp_path / "dagster.yaml").read_text()  # written beside docorbit.toml
    port = _free_port()
    dg_bin = str(Path(sys.executable).with_name("dg"))
    proc = subprocess.Popen(  # the command docs/operations.md gives, in the project folder
        [dg_bin, "dev", "-m", "docorbit_assets.definitions", "-h", "127.0.0.1", "-p", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        data = _wait_for_graphql(proc, port, _QUERY, 300)
        (repo,) = data["repositoriesOrError"]["nodes"]
        assert {s["name"] for s in repo["schedules"]} == {"refresh_alpha", "freshness_hourly"}
        sensors = {"source_partitions", "publish_after_ingest", "release_watch", "refresh_changed"}
        assert sensors <= {s["name"] for s in repo["sensors"]}
        jobs = {j["name"] for j in repo["jobs"]}
        assert {"ingest_alpha", "ingest_beta", "refresh_all", "refresh_check", "gc"} <= jobs
        checks = {
            tuple(n["assetKey"]["path"]): {c["name"] for c in n["assetChecksOrError"]["checks"]}
            for n in repo["assetNodes"]
        }
        assert {"fresh_alpha", "fresh_beta"} <= checks[("published",)]
        runs = _graphql(port, _RUNS)["runsOrError"]["results"]
        assert {"ingest_alpha", "publish"} <= {r["jobName"] for r in runs}  # the CLI's runs
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
            stopped = _group_gone(proc.pid, 30)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
    assert stopped, "dg dev left processes behind after SIGTERM"
    with socket.socket() as s, pytest.raises(ConnectionRefusedError):
        s.connect(("127.0.0.1", port))  # the webserver is gone
