"""``run_ingest``: the one hand-over point from the CLI (``docorbit ingest``) and MCP (``ingest_doc``)
to Dagster.

``run_ingest(home, *, sources=None, progress=None) -> dict``:

1. reads ``docorbit.toml``, syncs the ``source`` dynamic partitions with it, and marks failed
   every run of this instance still STARTED whose process is gone (``recover_dead_runs``: a
   killed ``docorbit ingest`` never leaves a run STARTED forever);
2. for each selected source (all configured ones by default, in name order) executes the named
   job ``ingest_<source>`` (``refresh=True``: ``refresh_all``, discovery reused) in-process for
   that partition: the partitioned assets ``sources`` … ``snapshots`` with their checks.
   ``refresh=True`` first executes ``refresh_check`` once for all selected sources
   (``defs/refresh.py``: conditional fetch against each latest snapshot); a source it finds
   unchanged gets no per-source run (its entry: ``unchanged: true``, the latest snapshot, the
   check's ``run_id``);
3. if at least one source got through, executes the ``publish`` job (``search_index`` and
   ``published``, with their checks and the freshness checks) — unless the publication it
   would plan is the one served already (same snapshots: a refresh that changed nothing), then
   ``publish`` is ``{"status": "ok", "unchanged": true, "run_id": null}``.

Each run is tagged ``docorbit/entry=run_ingest`` and ``docorbit/pid=<pid>`` (what
``recover_dead_runs`` checks).

Runs are recorded in a persistent ``DagsterInstance`` at ``home/dagster`` (telemetry off), so
``DAGSTER_HOME=<home>/dagster dagster dev -w workspace.yaml`` shows them afterwards. One ingest
at a time per home (an exclusive lock on ``home/dagster/ingest.lock``; a second one fails at once
with ``IngestError``).

Failure isolation: a source whose run fails (a stage raises, or a blocking check fails) is
reported with an ``IngestError``-shaped error and keeps its previous snapshot; other sources
continue; ``published.json`` changes only through the final ``published`` step, which swaps it
atomically after the new index is complete. A run killed at any point leaves the previous
publication readable.

Output discipline: stdout is data for the CLI, so Dagster's console logger is set to CRITICAL (the
report carries the errors; it writes to stderr anyway) and stray ``print``s inside steps are redirected to stderr. ``progress``,
when given, receives one short human-readable line per source and per phase.

The report::

    {"ok": bool, "home": str, "published": bool, "publish_id": str|None, "index": str|None,
     "sources": {name: {"status": "ok"|"failed", "snapshot": str|None, "rows": {table: n},
                        "seconds": float, "run_id": str, "error": {code, message, detail}|None,
                        "warnings": [{code, url, message}]}},
     "publish": {"status": "ok"|"failed"|"skipped", "seconds": float, "run_id": str|None,
                 "error": {...}|None}}
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import dagster as dg

from docorbit_assets.defs.jobs import MODE_TAG, job_names
from docorbit_assets.defs.partitions import sync_partitions
from docorbit_assets.instance import (  # re-exported: callers import them from here
    PID_TAG,
    _exclusive,
    open_instance,
    recover_dead_runs,
    run_gc,
)
from docorbit_assets.lib.local_files import fetch_warnings
from docorbit_assets.lib.publish import current_manifest, latest_snapshot, plan_publication
from docorbit_serve import errors
from docorbit_serve.errors import ConfigError, IngestError
from docorbit_serve.home import Home
from docorbit_serve.registry import load_registry
from docorbit_serve.search.rerank import serves

__all__ = ["PID_TAG", "open_instance", "recover_dead_runs", "run_gc", "run_ingest"]

_QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}


def _unchanged(home: Home, registry: Any) -> bool:
    """Whether the publication planned now is the one served (same snapshots, index on disk):
    then the ``publish`` run would change nothing and is not started."""
    served = current_manifest(home) or {}
    if not served.get("index") or not (home.path / served["index"]).is_file():
        return False
    if not serves(served, registry.dense_stage if registry.hybrid else None):
        return False  # another dense stage, or vectors of another model (an upgrade): rebuilt
    return plan_publication(home, registry)["publish_id"] == served.get("publish_id")


def _root_cause(info: Any) -> Any:
    """The innermost error of a serialized chain, preferring a DocOrbit error."""
    chain = []
    while info is not None:
        chain.append(info)
        info = info.cause
    for item in reversed(chain):
        if item.cls_name in errors.__all__:
            return item
    return chain[-1]


def _error_from(result: dg.ExecuteInProcessResult, what: str) -> dict[str, Any]:
    failed_checks = [
        {"asset": e.asset_key.to_user_string(), "check": e.check_name, **_check_problems(e)}
        for e in result.get_asset_check_evaluations()
        if not e.passed
    ]
    steps = []
    for event in result.get_step_failure_events():
        cause = _root_cause(event.step_failure_data.error)
        cls = getattr(errors, cause.cls_name or "", None)
        message = cause.message.strip().splitlines()[0] if cause.message else ""
        message = re.sub(rf"^[\w.]*\b{re.escape(cause.cls_name or '')}: ", "", message)
        steps.append(
            {
                "step": event.step_key,
                "code": getattr(cls, "code", "error"),
                "error_class": cause.cls_name,
                "message": message,
            }
        )
    first = next((s for s in steps if s["error_class"] != "DagsterAssetCheckFailedError"), None)
    if first is not None:
        summary = f"{first['step']}: {first['message']}"
    elif failed_checks:
        summary = "blocking check failed: " + ", ".join(c["check"] for c in failed_checks)
    else:
        summary = "the run did not succeed"
    err = IngestError(
        f"{what} failed ({summary})",
        detail={"steps": steps, "failed_checks": failed_checks, "run_id": result.run_id},
    )
    return err.to_json()["error"]


def _check_problems(evaluation: Any) -> dict[str, Any]:
    problems = evaluation.metadata.get("problems")
    return {"problems": str(problems.value) if problems is not None else ""}


def _execute(
    defs: dg.Definitions,
    instance: dg.DagsterInstance,
    job: str,
    partition: str | None,
    allow_hosts: tuple[str, ...] = (),
    mode: str = "ingest",
    config: dict[str, Any] | None = None,
) -> dg.ExecuteInProcessResult:
    """Execute the named job ``job`` in-process (recorded under its name in the instance)."""
    tags = {"docorbit/entry": "run_ingest", PID_TAG: str(os.getpid()), MODE_TAG: mode}
    if allow_hosts:  # per-run allowances, read by the discover and fetch assets
        tags["docorbit/allow_hosts"] = ",".join(allow_hosts)
    with contextlib.redirect_stdout(sys.stderr):
        return defs.resolve_job_def(job).execute_in_process(
            partition_key=partition,
            instance=instance,
            run_config={**_QUIET, **(config or {})},
            raise_on_error=False,
            tags=tags,
        )


def _source_entry(home: Home, name: str, result: dg.ExecuteInProcessResult) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "status": "ok" if result.success else "failed",
        "snapshot": None,
        "rows": {},
        "run_id": result.run_id,
        "error": None,
        "warnings": [],
    }
    if result.success:
        row = latest_snapshot(home, name) or {}
        entry["snapshot"] = row.get("id")
        entry["rows"] = json.loads(row.get("row_counts_json") or "{}")
        # local files refused (binary, not UTF-8, control characters), unreadable or skipped
        entry["warnings"] = fetch_warnings(home.staging_file("fetches", name))
    else:
        entry["error"] = _error_from(result, f"ingest of source {name!r}")
    return entry


def _check_unchanged(
    defs: dg.Definitions,
    instance: dg.DagsterInstance,
    home: Home,
    names: list[str],
    allow_hosts: tuple[str, ...],
) -> dict[str, dict[str, Any]]:
    """``refresh_check`` over ``names``: the report entries of the sources found unchanged."""
    from docorbit_assets.defs.refresh import probe_results

    config = {"ops": {"check_sources": {"config": {"sources": names}}}}
    result = _execute(defs, instance, "refresh_check", None, allow_hosts, "refresh", config)
    if not result.success:
        return {}
    out = {}
    for name, probe in probe_results(result).items():
        row = latest_snapshot(home, name) or {}
        if not probe.get("unchanged") or row.get("id") != probe.get("snapshot"):
            continue
        out[name] = {
            "status": "ok",
            "snapshot": row["id"],
            "rows": json.loads(row.get("row_counts_json") or "{}"),
            "run_id": result.run_id,
            "error": None,
            "warnings": fetch_warnings(home.staging_file("fetches", name)),
            "unchanged": True,
            "seconds": float(probe.get("seconds") or 0.0),
        }
    return out


def run_ingest(
    home: Home,
    *,
    sources: list[str] | None = None,
    progress: Callable[[str], None] | None = None,
    allow_hosts: tuple[str, ...] = (),
    refresh: bool = False,
) -> dict[str, Any]:
    """Ingest ``sources`` (default: all configured) and publish; see the module docstring.

    ``allow_hosts``: extra ``HOST:PORT`` fetch allowances for this run only (``--allow-host``).
    ``refresh``: run ``refresh_all`` (reuse the source's last discovery; conditional fetches).
    """
    from docorbit_assets.definitions import build_definitions

    say = progress or (lambda _msg: None)
    registry = load_registry(home.config_path)
    if not registry.sources:
        raise ConfigError(
            f"no sources configured in {home.config_path}; add one with `docorbit add`",
            detail={"config": str(home.config_path)},
        )
    selected = (
        [registry.get(n) for n in dict.fromkeys(sources)]
        if sources
        else sorted(registry.sources, key=lambda s: s.name)
    )
    report: dict[str, Any] = {
        "ok": False,
        "home": str(home.path),
        "published": False,
        "publish_id": None,
        "index": None,
        "sources": {},
        "publish": {"status": "skipped", "seconds": 0.0, "run_id": None, "error": None},
    }
    home.path.mkdir(parents=True, exist_ok=True)
    defs = build_definitions(home)
    slugs = job_names(s.name for s in registry.sources)
    mode = "refresh" if refresh else "ingest"
    with _exclusive(home), open_instance(home) as instance:
        sync_partitions(instance, [s.name for s in registry.sources])
        for run_id in recover_dead_runs(instance):
            say(f"marked run {run_id} failed: its process is gone")
        unchanged = (
            _check_unchanged(defs, instance, home, [c.name for c in selected], tuple(allow_hosts))
            if refresh
            else {}
        )
        for cfg in selected:
            if cfg.name in unchanged:
                report["sources"][cfg.name] = unchanged[cfg.name]
                say(f"{cfg.name}: unchanged, snapshot {unchanged[cfg.name]['snapshot']}")
                continue
            say(f"{cfg.name}: {mode} of {cfg.kind} source {cfg.location}")
            started = time.perf_counter()
            job = "refresh_all" if refresh else f"ingest_{slugs[cfg.name]}"
            result = _execute(defs, instance, job, cfg.name, tuple(allow_hosts), mode)
            entry = _source_entry(home, cfg.name, result)
            entry["seconds"] = round(time.perf_counter() - started, 3)
            report["sources"][cfg.name] = entry
            if entry["status"] == "ok":
                say(f"{cfg.name}: snapshot {entry['snapshot']} ({entry['seconds']:.1f} s)")
            else:
                say(f"{cfg.name}: FAILED: {entry['error']['message']}")
        if any(e["status"] == "ok" for e in report["sources"].values()) and _unchanged(
            home, registry
        ):
            report["publish"] = {**report["publish"], "status": "ok", "unchanged": True}
            say("publishing: unchanged (these snapshots are published already)")
        elif any(e["status"] == "ok" for e in report["sources"].values()):
            say("publishing: building the search index")
            started = time.perf_counter()
            result = _execute(defs, instance, "publish", None)
            report["publish"] = {
                "status": "ok" if result.success else "failed",
                "seconds": round(time.perf_counter() - started, 3),
                "run_id": result.run_id,
                "error": None if result.success else _error_from(result, "publishing"),
            }
            say(f"publishing: {report['publish']['status']} ({report['publish']['seconds']:.1f} s)")
    manifest = current_manifest(home)
    if manifest is not None:
        report["publish_id"] = manifest.get("publish_id")
        report["index"] = str(Path(home.path / manifest["index"])) if "index" in manifest else None
    report["published"] = report["publish"]["status"] == "ok"
    report["ok"] = report["published"] and all(
        e["status"] == "ok" for e in report["sources"].values()
    )
    return report
