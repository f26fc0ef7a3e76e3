"""``refresh_check``: one run that decides, for every source at once, whether a refresh has
anything to do.

A refresh of an unchanged source used to cost one full per-source run (``refresh_all``) whose
``fetches`` step found nothing changed and made Dagster skip the rest: ~80 event-log writes
(planned materializations and checks of 13 assets, skipped steps) per source, most of a
refresh's time on small sources. ``docorbit refresh`` now runs this job first: its one op
(``check_sources``) calls ``lib.refresh.probe_source`` per source — conditional GETs / file
hashes against the latest snapshot's discovery, the ``fetches`` rows staged (freshness, the
next conditional GETs) — and records an ``AssetObservation`` of ``fetches`` for the source's
partition (metadata ``unchanged``, ``snapshot``, ``documents``, ``reason``, ``seconds``), so
the UI shows every check. Only changed sources (or those without a usable reference, or whose
probe failed: the full run reports the error) then get their ``refresh_all`` run.

Config (launchpad): ``sources`` — the source names to check (empty: every configured source).
Per-run fetch allowances come from the run tag ``docorbit/allow_hosts`` as for the assets.

``refresh_changed`` (run-status sensor): after a successful ``refresh_check`` run started from
the UI, a schedule or a sensor, requests one ``refresh_all`` run per source it did not find
unchanged (then ``publish_after_ingest`` publishes them). Runs started by ``run_ingest``
(``docorbit refresh``) are skipped: it runs the changed sources itself.
"""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import time

import dagster as dg
from pydantic import Field

from docorbit_assets.defs.discover import ALLOW_HOSTS_TAG
from docorbit_assets.defs.jobs import MODE_TAG, REFRESH_ALL
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.defs.schedules import started_by_run_ingest
from docorbit_assets.lib.refresh import Probe, probe_source

__all__ = ["REFRESH_CHECK", "changed_sources", "check_sources", "probe_results", "refresh_changed"]


class CheckSourcesConfig(dg.Config):
    sources: list[str] = Field(
        default_factory=list, description="Source names to check; empty = every source."
    )


def _observation(probe: Probe, seconds: float, error: str = "") -> dg.AssetObservation:
    return dg.AssetObservation(
        asset_key="fetches",
        partition=probe.source,
        metadata={
            "unchanged": probe.unchanged,
            "snapshot": probe.snapshot or "",
            "documents": probe.documents,
            "reason": probe.reason,
            "seconds": round(seconds, 3),
            "error": error,
        },
    )


@dg.op(
    description="Conditional fetch of each source against its latest snapshot; records which "
    "sources are unchanged (no per-source run needed)."
)
def check_sources(
    context: dg.OpExecutionContext, config: CheckSourcesConfig, docorbit: DocOrbitResource
) -> None:
    registry = docorbit.registry()
    names = config.sources or sorted(s.name for s in registry.sources)
    raw = context.run.tags.get(ALLOW_HOSTS_TAG, "")
    hosts = (*registry.allow_hosts, *(h for h in raw.split(",") if h))
    home = docorbit.resolve()
    for name in names:
        started = time.perf_counter()
        try:
            probe = probe_source(home, registry.get(name), registry.project_root, hosts)
            error = ""
        except Exception as e:  # the full run reports it with its code; here it means "run it"
            probe = Probe(name, False, None, 0, "check failed; the full run will report it")
            error = f"{type(e).__name__}: {e}"[:500]
        context.log.info(f"{name}: {probe.reason}{' (' + error + ')' if error else ''}")
        context.log_event(_observation(probe, time.perf_counter() - started, error))


@dg.job(
    name="refresh_check",
    description="Check every source for changes in one run (docorbit refresh starts it first; "
    "only changed sources then run refresh_all).",
    tags={MODE_TAG: "refresh"},
)
def refresh_check() -> None:
    check_sources()


REFRESH_CHECK = refresh_check


def probe_results(result: dg.ExecuteInProcessResult) -> dict[str, dict]:
    """``{source: observation metadata}`` of a ``refresh_check`` run (last one per source)."""
    out: dict[str, dict] = {}
    for event in result.get_asset_observation_events():
        obs = event.asset_observation_data.asset_observation
        if obs.partition:
            out[obs.partition] = {k: v.value for k, v in obs.metadata.items()}
    return out


def changed_sources(instance: dg.DagsterInstance, run_id: str) -> list[str]:
    """Sources a ``refresh_check`` run did not find unchanged (sorted)."""
    records = instance.get_records_for_run(
        run_id, of_type=dg.DagsterEventType.ASSET_OBSERVATION, limit=10_000
    ).records
    out = set()
    for rec in records:
        event = rec.event_log_entry.dagster_event
        if event is None:
            continue
        obs = event.asset_observation_data.asset_observation
        unchanged = obs.metadata.get("unchanged")
        if obs.partition and not (unchanged is not None and unchanged.value is True):
            out.add(obs.partition)
    return sorted(out)


@dg.run_status_sensor(
    name="refresh_changed",
    run_status=dg.DagsterRunStatus.SUCCESS,
    monitored_jobs=[REFRESH_CHECK],
    request_job=REFRESH_ALL,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="After refresh_check (UI, schedule, sensor): refresh_all for each source it "
    "found changed.",
)
def refresh_changed(context: dg.RunStatusSensorContext):
    run = context.dagster_run
    if started_by_run_ingest(run):
        return dg.SkipReason(f"run {run.run_id} was started by run_ingest, which refreshes")
    changed = changed_sources(context.instance, run.run_id)
    if not changed:
        return dg.SkipReason(f"run {run.run_id}: every checked source is unchanged")
    tags = {MODE_TAG: "refresh"}
    return [
        dg.RunRequest(run_key=f"refresh-{run.run_id}-{name}", partition_key=name, tags=tags)
        for name in changed
    ]
