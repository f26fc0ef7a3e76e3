"""The ``release_watch`` sensor under a running Dagster daemon (``dg dev`` in the project, as
docs/operations.md says), against a registry fixture served on 127.0.0.1: the daemon ticks the
sensor, launches the new version's run, ``publish_after_ingest`` publishes it, and search pinned
to the old version still answers from the old snapshot."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from docorbit_assets.ingest import run_ingest
from docorbit_serve.catalog import Catalog
from docorbit_serve.home import Home
from docorbit_serve.registry import load_registry
from docorbit_serve.search import search
from tests.docorbit_assets.test_releases import _feeds, _registry
from tests.support.http import serve_routes
from tests.support.paths import FIXTURE_SITE

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.timeout(1200)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _published_versions(home: Home) -> dict[str, str]:
    """``{source: snapshot}`` of the served publication (empty while there is none)."""
    try:
        manifest = json.loads(home.published_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {name: entry["snapshot"] for name, entry in manifest.get("sources", {}).items()}


def _wait_published(proc: subprocess.Popen, home: Home, source: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if source in _published_versions(home):
            return True
        time.sleep(2)
    return False


def test_the_daemon_turns_a_new_release_into_a_published_version_beside_the_old(
    tmp_path: Path,
) -> None:
    shutil.copytree(FIXTURE_SITE / "docs", tmp_path / "docs")
    home = Home(tmp_path / ".docorbit", tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAGSTER_", "DOCORBIT_"))}
    dg_bin = str(Path(sys.executable).with_name("dg"))
    with serve_routes(_feeds("1.1")) as base:
        _registry(tmp_path, base, "pypi:orbitkit")
        first = run_ingest(home)
        assert first["ok"], first
        old_snapshot = first["sources"]["orbit"]["snapshot"]
        port = _free_port()
        log = (tmp_path / "dg.log").open("wb")
        proc = subprocess.Popen(  # webserver + daemon: schedules and sensors tick
            [
                dg_bin,
                "dev",
                "-m",
                "docorbit_assets.definitions",
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
            ],
            cwd=tmp_path,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            published = _wait_published(proc, home, "orbitkit-1.1", 900)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                log.close()
    tail = (tmp_path / "dg.log").read_text(errors="replace")[-3000:]
    assert published, f"the daemon did not publish orbitkit-1.1 within 900 s:\n{tail}"
    reg = load_registry(home.config_path)
    assert {(s.name, s.version, s.track) for s in reg.sources} == {
        ("orbit", "1.0", ""),
        ("orbitkit-1.1", "1.1", "pypi:orbitkit"),
    }
    assert _published_versions(home)["orbit"] == old_snapshot
    catalog = Catalog(home)
    old = search(catalog, "retry backoff", library="orbitkit", version="1.0").hits
    new = search(catalog, "retry backoff", library="orbitkit", version="1.1").hits
    assert old and {h.snapshot for h in old} == {old_snapshot}
    assert new and {h.source for h in new} == {"orbitkit-1.1"}
