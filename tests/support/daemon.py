"""``dg dev`` (webserver + daemon) in a project, for the tests that let schedules and sensors
tick for real: started with no DAGSTER_/DOCORBIT_ variables (as the README says), stopped with
SIGTERM and, failing that, its whole process group killed."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from docorbit_serve.home import Home


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def published_versions(home: Home) -> dict[str, str]:
    """``{source: snapshot}`` of the served publication (empty while there is none)."""
    try:
        manifest = json.loads(home.published_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {name: entry["snapshot"] for name, entry in manifest.get("sources", {}).items()}


@contextlib.contextmanager
def dg_dev(project: Path, log: Path) -> Iterator[subprocess.Popen]:
    """``dg dev -m docorbit_assets.definitions`` in ``project``, its output in ``log``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAGSTER_", "DOCORBIT_"))}
    dg_bin = str(Path(sys.executable).with_name("dg"))
    cmd = [dg_bin, "dev", "-m", "docorbit_assets.definitions", "-h", "127.0.0.1"]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*cmd, "-p", str(free_port())],
            cwd=project,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            yield proc
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)


def wait_until(proc: subprocess.Popen, done: Callable[[], bool], seconds: float) -> bool:
    """Poll ``done`` every 2 s while ``proc`` runs, at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if done():
            return True
        time.sleep(2)
    return False
