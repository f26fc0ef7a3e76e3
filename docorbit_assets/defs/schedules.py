"""Schedules and the automation between jobs.

- ``refresh_<slug>`` — one schedule per source with ``refresh = "hourly" | "daily" | "weekly" |
  "<cron>"`` in ``docorbit.toml``: runs ``refresh_check`` for that source alone (config
  ``sources = [<source>]``: conditional GETs / file hashes against its latest snapshot, one op).
  The ``refresh_changed`` sensor (``defs/refresh.py``) then requests ``refresh_all`` for the
  source's partition only if the check found it changed, and ``publish_after_ingest``
  publishes that run; an unchanged source costs the one check run, nothing else (as
  ``docorbit refresh``). Running by default (the daemon of ``docorbit ui`` / ``dagster dev``
  ticks it); UTC.
- ``freshness_hourly`` — the ``freshness_checks`` job every hour (running by default).
- ``publish_after_ingest`` — a run-status sensor: a successful ``ingest_*`` / ``refresh_all`` /
  release run started from the UI, a schedule or a sensor requests ``publish``. Runs started by
  ``run_ingest`` (tag ``docorbit/entry=run_ingest``) publish themselves and are skipped.

``schedule_table(registry)`` (``lib/schedule.py``) is what ``docorbit schedule`` prints: the
same list ``source_schedules`` turns into Dagster schedules.
"""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

from typing import Any

import dagster as dg

from docorbit_assets.defs.jobs import MODE_TAG, PUBLISH_JOB
from docorbit_assets.lib.schedule import FRESHNESS_CRON, schedule_table
from docorbit_serve.registry import Registry

__all__ = [
    "FRESHNESS_CRON",
    "publish_sensor",
    "schedule_table",
    "started_by_run_ingest",
    "source_schedules",
]

ENTRY_TAG = "docorbit/entry"
SOURCE_TAG = "docorbit/source"


def _source_schedule(row: dict[str, Any], job: Any) -> dg.ScheduleDefinition:
    source = row["source"]

    @dg.schedule(
        name=row["name"],
        cron_schedule=row["cron"],
        job=job,
        execution_timezone="UTC",
        default_status=dg.DefaultScheduleStatus.RUNNING,
        description=f"Refresh source {source!r} ({row['refresh']}): refresh_check for it; "
        "if it changed, refresh_changed runs refresh_all and publish_after_ingest publishes.",
    )
    def _refresh(context: dg.ScheduleEvaluationContext) -> dg.RunRequest:
        return dg.RunRequest(
            run_key=None,
            run_config={"ops": {"check_sources": {"config": {"sources": [source]}}}},
            tags={MODE_TAG: "refresh", SOURCE_TAG: source},
        )

    return _refresh


def source_schedules(
    registry: Registry, jobs: dict[str, Any], freshness_job: Any
) -> list[dg.ScheduleDefinition]:
    """Dagster schedules for ``schedule_table(registry)``; ``jobs`` maps job names to jobs
    (``refresh_check`` among them)."""
    out: list[dg.ScheduleDefinition] = []
    for row in schedule_table(registry):
        if row["source"] is None:
            out.append(
                dg.ScheduleDefinition(
                    name=row["name"],
                    cron_schedule=row["cron"],
                    job=freshness_job,
                    execution_timezone="UTC",
                    default_status=dg.DefaultScheduleStatus.RUNNING,
                    description="Every source's freshness check, hourly.",
                )
            )
        else:
            out.append(_source_schedule(row, jobs[row["job"]]))
    return out


def started_by_run_ingest(run: dg.DagsterRun) -> bool:
    """A run ``run_ingest`` started (CLI, MCP ``ingest_doc``): it refreshes and publishes itself,
    so the run-status sensors leave it alone."""
    return run.tags.get(ENTRY_TAG) == "run_ingest"


def publish_sensor(monitored: list[Any]) -> dg.RunStatusSensorDefinition:
    """``publish_after_ingest``: publish after a successful per-source run (see the docstring)."""

    @dg.run_status_sensor(
        name="publish_after_ingest",
        run_status=dg.DagsterRunStatus.SUCCESS,
        monitored_jobs=monitored,
        request_job=PUBLISH_JOB,
        default_status=dg.DefaultSensorStatus.RUNNING,
        description="Publishes after a successful ingest/refresh/release run started by the "
        "UI, a schedule or a sensor.",
    )
    def publish_after_ingest(context: dg.RunStatusSensorContext):
        run = context.dagster_run
        if started_by_run_ingest(run):
            return dg.SkipReason(f"run {run.run_id} was started by run_ingest, which publishes")
        return dg.RunRequest(run_key=f"publish-after-{run.run_id}")

    return publish_after_ingest
