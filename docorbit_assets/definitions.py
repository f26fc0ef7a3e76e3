"""The one ``Definitions`` object of DocOrbit (``workspace.yaml`` and ``dg`` load ``defs``).

``build_definitions(home=None)`` assembles the assets, checks, named jobs (``defs/jobs.py``),
schedules and sensors (``defs/schedules.py``, ``defs/sensors.py``), per-source freshness checks
(``defs/freshness.py``) and resources. Per-source pieces (``ingest_<source>`` jobs,
``refresh_<source>`` schedules, ``fresh_<source>`` checks) come from ``docorbit.toml``, read
when the code location loads: the home is ``home`` when given (``run_ingest``), else
``DOCORBIT_HOME`` / ``DOCORBIT_PROJECT`` / the working directory's project. A missing or broken
``docorbit.toml`` gives the definitions without per-source pieces (the UI still loads and the
``source_partitions`` sensor reports the error); "Reload definitions" in the UI picks up edits.
Resources still resolve the home at run time (``defs/resources.py``).

Start the UI with one command (sets ``DAGSTER_HOME`` and the project itself)::

    .venv/bin/docorbit ui            # or: make ui  — http://127.0.0.1:3000

Every asset carries an owner (``OWNERS``) and a description (its docstring).

Runs launched by the UI, schedules and sensors use the in-process executor, as ``run_ingest``
does: a per-source run is ~15 short steps, and a subprocess per step (Dagster's default
multiprocess executor: a Python start and the imports each) cost more than the steps on a
small machine.
"""

from __future__ import annotations

import warnings

import dagster as dg

from docorbit_assets.defs import ALL_ASSETS, ALL_CHECKS, SENSORS
from docorbit_assets.defs.freshness import freshness_checks
from docorbit_assets.defs.gc import GC_JOB
from docorbit_assets.defs.io_manager import build_resources
from docorbit_assets.defs.jobs import (
    PUBLISH_JOB,
    REFRESH_ALL,
    freshness_job,
    ingest_job,
    job_names,
)
from docorbit_assets.defs.refresh import REFRESH_CHECK, refresh_changed
from docorbit_assets.defs.releases import release_watch
from docorbit_assets.defs.schedules import publish_sensor, source_schedules
from docorbit_serve.errors import DocOrbitError
from docorbit_serve.home import Home, pipeline_home
from docorbit_serve.registry import Registry, load_registry

__all__ = ["OWNERS", "build_definitions", "defs"]

OWNERS = ["team:docs-platform"]


def _registry(home: Home | None) -> Registry | None:
    try:
        home = home or pipeline_home()
        return load_registry(home.config_path)
    except (DocOrbitError, OSError):
        return None


def _with_owner(spec: dg.AssetSpec) -> dg.AssetSpec:
    return spec.replace_attributes(owners=spec.owners or OWNERS)


def build_definitions(home: Home | None = None) -> dg.Definitions:
    """The Definitions for ``home`` (``None``: resolved from the environment, see above)."""
    registry = _registry(home)
    slugs = job_names(s.name for s in registry.sources) if registry else {}
    ingest_jobs = {f"ingest_{s}": ingest_job(name, s) for name, s in slugs.items()}
    fresh = freshness_checks(slugs)
    fresh_job = freshness_job(fresh)
    scheduled = {REFRESH_CHECK.name: REFRESH_CHECK}
    schedules = source_schedules(registry, scheduled, fresh_job) if registry else []
    defs = dg.Definitions(
        assets=ALL_ASSETS,
        asset_checks=[*ALL_CHECKS, *fresh],
        jobs=[*ingest_jobs.values(), REFRESH_ALL, REFRESH_CHECK, PUBLISH_JOB, fresh_job, GC_JOB],
        schedules=schedules,
        sensors=[
            *SENSORS,
            publish_sensor([*ingest_jobs.values(), REFRESH_ALL]),
            release_watch,
            refresh_changed,
        ],
        resources=build_resources(home),
        executor=dg.in_process_executor,
    )
    with warnings.catch_warnings():  # map_asset_specs is marked preview in Dagster 1.13
        warnings.simplefilter("ignore", dg.PreviewWarning)
        return defs.map_asset_specs(func=_with_owner)


defs = build_definitions()
