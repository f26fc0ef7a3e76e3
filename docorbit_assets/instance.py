"""The Dagster instance of a home, dead-run recovery and retention, apart from ``ingest``.

Contract: ``open_instance(home)`` (the persistent instance under ``home/dagster``, created with
telemetry off and run monitoring on; it also writes ``write_dev_config(home)``), ``recover_dead_runs(instance)`` (STARTED runs tagged
``PID_TAG`` whose process is gone are marked failed), ``run_gc(home, ...)`` (retention,
``lib/gc.py``, under the ingest lock). Its own module so that the ``gc`` job
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

from docorbit_serve.home import Home, atomic_write_bytes
from docorbit_serve.ingest_lock import ingest_lock
from docorbit_serve.registry import load_registry

__all__ = ["PID_TAG", "open_instance", "recover_dead_runs", "run_gc", "write_dev_config"]

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

    Returns the run ids marked. Runs without the tag (launched by the UI's daemon) are left to
    Dagster's run monitoring (enabled in the instance's ``dagster.yaml``).
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


def run_gc(
    home: Home,
    *,
    apply: bool = False,
    keep_last: int | None = None,
    locks: tuple[Path, ...] = (),
    instance: dg.DagsterInstance | None = None,
) -> dict[str, Any]:
    """Retention (``lib/gc.py``): the plan (dry run) or, with ``apply``, the removal under the
    ingest lock (no build writes meanwhile), plus ``failed_runs``: STARTED runs of dead
    processes marked failed (``recover_dead_runs``). ``keep_last`` defaults to
    ``[settings] keep_snapshots``. The CLI's ``docorbit gc`` and the ``gc`` job call it."""
    from docorbit_assets.lib.gc import apply_gc, plan_gc

    keep = keep_last or load_registry(home.config_path).keep_snapshots
    if not apply:
        plan = plan_gc(home, keep_last=keep, locks=locks)
        return {**plan, "applied": False, "removed": [], "errors": [], "failed_runs": []}
    with _exclusive(home):
        result = apply_gc(home, plan_gc(home, keep_last=keep, locks=locks))
        if instance is not None:
            return {**result, "failed_runs": recover_dead_runs(instance)}
        if not home.dagster_home.is_dir():
            return {**result, "failed_runs": []}
        with open_instance(home) as inst:
            return {**result, "failed_runs": recover_dead_runs(inst)}
