"""Operations commands: ``refresh``, ``gc``, ``schedule`` and ``ui`` (docs/operations.md).

- ``docorbit refresh [--source NAME]``: the ``refresh_all`` job per source (reused discovery,
  conditional fetches, unchanged pages' rows reused), then ``publish``; same report and exit
  codes as ``ingest``.
- ``docorbit gc [--apply] [--keep N] [--lock FILE]``: retention (``docorbit_assets/lib/gc.py``);
  a dry run by default that lists what would go (and what is kept, with why), ``--apply``
  removes it under the ingest lock and marks failed the runs whose process died.
- ``docorbit schedule``: each Dagster schedule (per-source ``refresh`` cadences and the hourly
  freshness checks) with its cron, job and next run (UTC).
- ``docorbit ui [--host H] [--port P]``: the Dagster UI with its daemon (``dagster dev``) on
  this project, ``DAGSTER_HOME`` and the home set by the command itself; SIGTERM or Ctrl-C stops
  it (the signal goes to the whole ``dagster dev`` process group, killed after 20 s).

The pipeline is imported inside the commands (the rest of the CLI never loads Dagster).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import click

from docorbit_serve import service
from docorbit_serve.cli._common import _emit, _info, _State, cli, json_option
from docorbit_serve.errors import IngestError, UsageError
from docorbit_serve.registry import load_registry
from docorbit_serve.settings import child_environ

__all__ = ["gc", "refresh", "schedule", "ui"]


@cli.command()
@click.option("--source", "source", metavar="NAME", help="Only this source (default: all).")
@json_option
@click.pass_obj
def refresh(state: _State, source: str | None) -> None:
    """Refresh the sources cheaply: refetch conditionally, reprocess only what changed."""
    home = state.home()
    reg = load_registry(home.config_path)
    if source:
        reg.get(source)
    elif not reg.sources:
        raise UsageError(f"no sources in {home.config_path}; add one with `docorbit add`")
    from docorbit_serve.ingest_lock import ingest_lock

    with ingest_lock(home):
        report = service.run_ingest(
            home, [source] if source else None, progress=_info, refresh=True
        )
    if not report.get("ok"):
        raise IngestError(
            "refresh failed (the previous publication is still served)", detail=report
        )
    lines = [f"published {report.get('publish_id')}"]
    for name, e in sorted(report["sources"].items()):
        lines.append(f"  {name}: snapshot {e.get('snapshot')} · {e.get('seconds', 0):.1f} s")
    _emit(state, report, "\n".join(lines))


@cli.command()
@click.option("--apply", "apply", is_flag=True, help="Remove the files (default: dry run).")
@click.option("--keep", "keep", type=click.IntRange(min=1), default=None, metavar="N",
              help="Snapshots kept per source (default: [settings] keep_snapshots, 3).")  # fmt: skip
@click.option("--lock", "locks", multiple=True, metavar="FILE",
              type=click.Path(dir_okay=False, path_type=Path),
              help="Also keep what this docs.lock pins (the project's own is always read).")  # fmt: skip
@json_option
@click.pass_obj
def gc(state: _State, apply: bool, keep: int | None, locks: tuple[Path, ...]) -> None:
    """Remove unreferenced snapshots, index files, vectors and a killed build's debris."""
    home = state.home()
    result = service.run_gc(home, apply=apply, keep_last=keep, locks=locks)
    _emit(state, result, _gc_text(result))


def _gc_text(result: dict[str, Any]) -> str:
    verb = "removed" if result["applied"] else "would remove"
    lines = [f"{verb} {len(result['remove'])} paths, {result['bytes'] / 1e6:.1f} MB"]
    lines += [f"  {e['kind']:<8} {e['path']} ({e['bytes']} B)" for e in result["remove"]]
    for source, snaps in result["keep"].items():
        for snap, why in snaps.items():
            lines.append(f"  keep     {source} {snap} ({', '.join(why)})")
    lines += [f"  run {r} marked failed (its process is gone)" for r in result["failed_runs"]]
    lines += [f"  error {e['path']}: {e['error']}" for e in result["errors"]]
    if not result["applied"] and result["remove"]:
        lines.append("dry run: add --apply to remove")
    return "\n".join(lines)


@cli.command()
@json_option
@click.pass_obj
def schedule(state: _State) -> None:
    """What runs when: refresh schedules per source and the freshness checks (UTC)."""
    home = state.home()
    reg = load_registry(home.config_path)
    rows = service.schedules(reg)
    lines = ["| schedule | cron (UTC) | job | source | next run |", "|---" * 5 + "|"]
    lines += [
        f"| {r['name']} | {r['cron']} | {r['job']} | {r['source'] or '-'} | {r['next_run']} |"
        for r in rows
    ]
    if len(rows) == 1:
        lines.append('no source has a refresh cadence; set refresh = "daily" in docorbit.toml')
    _emit(state, {"config": str(reg.path), "schedules": rows}, "\n".join(lines))


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=3000, show_default=True, type=int, help="Port to bind.")
@click.pass_obj
def ui(state: _State, host: str, port: int) -> None:
    """Start the Dagster UI and daemon on this project (Ctrl-C or SIGTERM stops it)."""
    home = state.home()
    service.prepare_dagster(home)  # creates home/dagster with its dagster.yaml
    env = child_environ(
        {
            "DAGSTER_HOME": str(home.dagster_home),
            "DOCORBIT_HOME": str(home.path),
            "DOCORBIT_PROJECT": str(home.project_root),
            "DAGSTER_DISABLE_TELEMETRY": "1",
        }
    )
    dagster = Path(sys.executable).with_name("dagster")
    cmd = [str(dagster), "dev", "-m", "docorbit_assets.definitions", "-h", host, "-p", str(port)]
    _info(f"Dagster UI on http://{host}:{port} (DAGSTER_HOME={home.dagster_home}); Ctrl-C stops")
    proc = subprocess.Popen(cmd, env=env, cwd=str(home.project_root), start_new_session=True)
    sys.exit(_supervise(proc))


def _supervise(proc: subprocess.Popen[bytes]) -> int:
    """Wait for ``proc``; SIGTERM/SIGINT to us → SIGTERM to its group, SIGKILL after 20 s."""

    def stop(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        with _suppress_lookup():
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with _suppress_lookup():
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        return 0


def _suppress_lookup() -> Any:
    import contextlib

    return contextlib.suppress(ProcessLookupError)
