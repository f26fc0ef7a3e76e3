"""Named jobs, schedules, sensors, owners and freshness checks of the Definitions object."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
import pytest

from docorbit_assets.definitions import OWNERS, build_definitions
from docorbit_assets.defs.refresh import changed_sources, refresh_changed
from docorbit_assets.defs.schedules import schedule_table
from docorbit_assets.ingest import open_instance, run_ingest
from docorbit_serve.errors import ConfigError
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, load_registry, save_registry
from tests.support.paths import FIXTURE_SITE


def _home(root: Path, *sources: SourceConfig) -> Home:
    home = Home(root / ".docorbit", root)
    save_registry(Registry(home.config_path, list(sources)))
    return home


def _local(name: str, **kw: str) -> SourceConfig:
    return SourceConfig(name=name, kind="local", location="docs", library=name, **kw)


def test_registry_refresh_cadences_become_schedules_of_named_jobs(tmp_path: Path) -> None:
    home = _home(
        tmp_path,
        _local("alpha", refresh="daily"),
        _local("b-c.io", refresh="*/30 * * * *"),
        _local("delta"),
    )
    defs = build_definitions(home)
    dg.Definitions.validate_loadable(defs)
    jobs = {j.name for j in defs.resolve_all_job_defs()} - {"__ASSET_JOB"}
    assert jobs == {
        "ingest_alpha",
        "ingest_b_c_io",
        "ingest_delta",
        "refresh_all",
        "refresh_check",
        "publish",
        "freshness_checks",
        "gc",
    }
    repo = defs.get_repository_def()
    schedules = {s.name: s for s in repo.schedule_defs}
    assert {n: (s.cron_schedule, s.job_name) for n, s in schedules.items()} == {
        "refresh_alpha": ("0 4 * * *", "refresh_check"),
        "refresh_b_c_io": ("*/30 * * * *", "refresh_check"),
        "freshness_hourly": ("0 * * * *", "freshness_checks"),
    }
    with dg.build_schedule_context() as ctx:
        request = schedules["refresh_b_c_io"](ctx)
    # the cheap check for that source alone; refresh_changed runs refresh_all if it changed
    assert request.run_config == {"ops": {"check_sources": {"config": {"sources": ["b-c.io"]}}}}
    assert request.tags["docorbit/mode"] == "refresh"
    assert request.tags["docorbit/source"] == "b-c.io"
    sensors = {s.name for s in repo.sensor_defs}
    assert {"source_partitions", "publish_after_ingest", "refresh_changed"} <= sensors
    assert [r["name"] for r in schedule_table(load_registry(home.config_path))] == [
        "refresh_alpha",
        "refresh_b_c_io",
        "freshness_hourly",
    ]


def test_every_asset_has_an_owner_and_a_description_and_each_source_a_freshness_check(
    tmp_path: Path,
) -> None:
    home = _home(tmp_path, _local("alpha"), _local("beta"))
    graph = build_definitions(home).resolve_asset_graph()
    for key in graph.get_all_asset_keys():
        spec = graph.get(key)
        assert spec.owners == OWNERS, key
        assert (spec.description or "").strip(), key
    fresh = {k.name for k in graph.asset_check_keys if k.asset_key == dg.AssetKey("published")}
    assert {"fresh_alpha", "fresh_beta"} <= fresh


def test_a_bad_refresh_value_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        _local("alpha", refresh="every tuesday")
    with pytest.raises(ConfigError):
        _local("alpha", refresh="0 4 * *")


def test_operational_keys_do_not_change_a_sources_identity() -> None:
    assert (
        _local("alpha").identity() == _local("alpha", refresh="hourly", track="pypi:x").identity()
    )


@pytest.mark.slow
def test_cli_runs_are_recorded_under_named_jobs_and_freshness_checks_run(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE_SITE / "docs", tmp_path / "docs")
    home = _home(tmp_path, _local("site-docs"))
    assert run_ingest(home)["ok"]
    assert run_ingest(home, refresh=True)["ok"]
    with open_instance(home) as instance:
        runs = instance.get_runs()
        names = [r.job_name for r in reversed(runs)]
        # nothing changed: one refresh_check run finds it so; no refresh_all, no publish run
        assert names == ["ingest_site_docs", "publish", "refresh_check"]
        (obs,) = [
            e.asset_observation
            for e in instance.fetch_observations(dg.AssetKey("fetches"), limit=10).records
        ]
        assert obs.partition == "site-docs" and obs.metadata["unchanged"].value is True
        assert changed_sources(instance, runs[0].run_id) == []
        assert all(r.status == dg.DagsterRunStatus.SUCCESS for r in runs)
        check = instance.event_log_storage.get_latest_asset_check_execution_by_key(
            [dg.AssetCheckKey(dg.AssetKey("published"), "fresh_site_docs")]
        )
    (execution,) = check.values()
    assert execution.status.value == "SUCCEEDED"


def _sensor_on(instance: dg.DagsterInstance, result: dg.ExecuteInProcessResult):
    run = instance.get_run_by_id(result.run_id)
    event = next(e for e in result.all_events if e.event_type_value == "PIPELINE_SUCCESS")
    ctx = dg.build_run_status_sensor_context(
        sensor_name="refresh_changed",
        dagster_event=event,
        dagster_instance=instance,
        dagster_run=run,
    )
    return refresh_changed(ctx)


def test_a_refresh_check_from_the_ui_requests_refresh_all_for_each_changed_source(
    tmp_path: Path,
) -> None:
    home = _home(tmp_path, _local("alpha"), _local("beta"))
    defs = build_definitions(home)
    config = {"ops": {"check_sources": {"config": {"sources": ["alpha", "beta"]}}}}
    with open_instance(home) as instance:
        job = defs.resolve_job_def("refresh_check")
        ui = job.execute_in_process(instance=instance, run_config=config)
        # never ingested: no reference snapshot, so both need their refresh_all run
        assert changed_sources(instance, ui.run_id) == ["alpha", "beta"]
        requests = _sensor_on(instance, ui)
        assert [(r.partition_key, r.tags["docorbit/mode"]) for r in requests] == [
            ("alpha", "refresh"),
            ("beta", "refresh"),
        ]
        cli = job.execute_in_process(
            instance=instance, run_config=config, tags={"docorbit/entry": "run_ingest"}
        )
        assert isinstance(_sensor_on(instance, cli), dg.SkipReason)  # run_ingest refreshes itself
