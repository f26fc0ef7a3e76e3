"""The Dagster instance of a home, dead-run recovery and retention, apart from ``ingest``.

Contract: ``open_instance(home)`` (the persistent instance under ``home/dagster``, created with
telemetry off and run monitoring on; it also writes ``write_dev_config(home)``), ``recover_dead_runs(instance)`` (STARTED runs tagged
``PID_TAG`` whose process is gone are marked failed), ``run_gc(home, ...)`` (retention,
``lib/gc.py``, under the ingest lock, refused while another run is in progress:
``runs_in_progress``). Its own module so that the ``gc`` job
(``defs/gc.py``) does not import ``ingest``, which imports the definitions (no import cycle).
``docorbit_assets.ingest`` re-exports these names.

``write_dev_config(home)``: ``<project>/dagster.yaml`` (only when the project has a
``docorbit.toml`` and no ``dagster.yaml`` yet; never overwritten) whose ``storage`` is the
home's instance (``base_dir: .docorbit/dagster``, relative to the project). ``dagster dev`` /
``dg dev -m docorbit_assets.definitions`` started in the project without ``DAGSTER_HOME`` read
it from the working directory, so they show the runs the CLI recorded and keep schedule and
sensor state, with no environment variable (the definitions find the project the same way:
its ``docorbit.toml``).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dagster as dg

from docorbit_serve.errors import IngestError
from docorbit_serve.home import Home, atomic_write_bytes
from docorbit_serve.ingest_lock import ingest_lock
from docorbit_serve.registry import load_registry

__all__ = [
    "PID_TAG",
    "open_instance",
    "recover_dead_runs",
    "run_gc",
    "runs_in_progress",
    "write_dev_config",
]

# Run monitoring: the daemon (docorbit ui / dagster dev) fails runs whose worker died.
_DAGSTER_YAML = (
    b"telemetry:\n  enabled: false\nrun_monitoring:\n  enabled: true\n  poll_interval_seconds: 30\n"
)
PID_TAG = "docorbit/pid"


def open_instance(home: Home) -> dg.DagsterInstance:
    """The persistent Dagster instance under ``home/dagster`` (created with telemetry off)."""
    root = home.dagster_home
    root.mkdir(parents=True, exist_ok=True)
    if not (root / "dagster.yaml").exists():
        atomic_write_bytes(root / "dagster.yaml", _DAGSTER_YAML)
    write_dev_config(home)
    return dg.DagsterInstance.from_config(str(root))


def write_dev_config(home: Home) -> Path | None:
    """Write ``<project>/dagster.yaml`` for ``dagster dev`` / ``dg dev`` (module docstring);
    returns its path when written, else ``None``."""
    target = home.project_root / "dagster.yaml"
    if (
        not home.config_path.is_file()
        or target.exists()
        or (target.parent / "dagster.yml").exists()
    ):
        return None
    try:
        base = home.dagster_home.resolve().relative_to(home.project_root.resolve()).as_posix()
    except ValueError:  # a home outside the project: an absolute path
        base = home.dagster_home.resolve().as_posix()
    text = (
        "# Written by DocOrbit: `dagster dev` / `dg dev -m docorbit_assets.definitions` started\n"
        "# in this folder use the project's Dagster instance (the CLI's runs, schedule state).\n"
        f"storage:\n  sqlite:\n    base_dir: {json.dumps(base)}\n"
    ).encode() + _DAGSTER_YAML
    atomic_write_bytes(target, text)
    return target


@contextlib.contextmanager
def _exclusive(home: Home) -> Iterator[None]:
    # The faces take the same lock earlier (before importing this module, before writing
    # docorbit.toml); it is re-entrant for the thread holding it.
    with ingest_lock(home):
        yield


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover_dead_runs(instance: dg.DagsterInstance) -> list[str]:
    """Mark failed every STARTED/STARTING run tagged ``docorbit/pid`` whose process is gone.

    Returns the run ids marked. ``run_ingest`` tags its runs at launch; a run the UI, a
    schedule or a sensor launched is tagged by ``DocOrbitResource`` when its worker process
    initializes it (every DocOrbit job uses it). Runs without the tag (killed before that) are
    left to Dagster's run monitoring (enabled in the instance's ``dagster.yaml``).
    """
    marked = []
    statuses = [dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.STARTING]
    for run in instance.get_runs(filters=dg.RunsFilter(statuses=statuses)):
        raw = run.tags.get(PID_TAG, "")
        if not raw.isdigit() or int(raw) == os.getpid() or _pid_alive(int(raw)):
            continue
        instance.report_run_failed(run, f"the process that ran it (pid {raw}) is gone")
        marked.append(run.run_id)
    return marked


_WRITING = [
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
    dg.DagsterRunStatus.CANCELING,
]


def runs_in_progress(
    instance: dg.DagsterInstance, exclude: str | None = None
) -> list[dg.DagsterRun]:
    """Runs of ``instance`` that may be writing now (starting, started, canceling), but
    ``exclude`` (the caller's own run)."""
    runs = instance.get_runs(filters=dg.RunsFilter(statuses=_WRITING))
    return [r for r in runs if r.run_id != exclude]


def _refuse_if_busy(instance: dg.DagsterInstance, exclude: str | None) -> None:
    """``IngestError`` when another run is in progress: runs the UI, a schedule or a sensor
    launched do not take the ingest lock, and the files a live build is writing (``tables/.tmp``,
    temp Parquet and index files, a snapshot folder before its ``snapshots`` marker) are what
    gc removes as a killed build's debris."""
    busy = runs_in_progress(instance, exclude)
    if busy:
        names = ", ".join(f"{r.run_id} ({r.job_name})" for r in busy[:5])
        raise IngestError(
            f"gc --apply refused: run {names} is in progress and may be writing files gc would "
            "remove; retry when it has ended (a run whose process is gone is marked failed "
            "at the next gc, ingest or start of the UI's daemon; or terminate it in the UI)",
            detail={"runs": [{"run_id": r.run_id, "job": r.job_name} for r in busy]},
        )


def run_gc(
    home: Home,
    *,
    apply: bool = False,
    keep_last: int | None = None,
    locks: tuple[Path, ...] = (),
    instance: dg.DagsterInstance | None = None,
    run_id: str | None = None,
) -> dict[str, Any]:
    """Retention (``lib/gc.py``): the plan (dry run) or, with ``apply``, the removal under the
    ingest lock, plus ``failed_runs``: STARTED runs of dead processes marked failed
    (``recover_dead_runs``, first). ``apply`` raises ``IngestError`` while another run of the
    instance is in progress (``run_id``: the caller's own run, the ``gc`` job's), since runs
    launched by the UI's daemon do not take the ingest lock. ``keep_last`` defaults to
    ``[settings] keep_snapshots``. The CLI's ``docorbit gc`` and the ``gc`` job call it."""
    from docorbit_assets.lib.gc import apply_gc, plan_gc

    keep = keep_last or load_registry(home.config_path).keep_snapshots
    if not apply:
        plan = plan_gc(home, keep_last=keep, locks=locks)
        return {**plan, "applied": False, "removed": [], "errors": [], "failed_runs": []}
    with _exclusive(home):
        if instance is None and not home.dagster_home.is_dir():
            return {**apply_gc(home, plan_gc(home, keep_last=keep, locks=locks)), "failed_runs": []}
        with contextlib.ExitStack() as stack:
            inst = instance if instance is not None else stack.enter_context(open_instance(home))
            failed = recover_dead_runs(inst)
            _refuse_if_busy(inst, run_id)
            result = apply_gc(home, plan_gc(home, keep_last=keep, locks=locks))
            return {**result, "failed_runs": failed}
