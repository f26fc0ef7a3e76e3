"""run_ingest: failures and kills never damage what is published."""

from __future__ import annotations

import json
import selectors
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from docorbit_assets.ingest import run_ingest
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, save_registry
from tests.support.paths import KIT_DATA, REPO

HTTPX_DOCS = (KIT_DATA / "docs" / "httpx" / "docs").resolve()


def _project(root: Path, *folders: str) -> Home:
    """A project with a copy of the httpx docs per name in ``folders`` (source name = folder)."""
    home = Home(root / ".docorbit", root)
    sources = []
    for name in folders:
        shutil.copytree(HTTPX_DOCS, root / name)
        sources.append(SourceConfig(name=name, kind="local", location=name, library=name))
    save_registry(Registry(home.config_path, sources))
    return home


def _assert_readable(home: Home) -> dict:
    """published.json parses and names an index file that exists and opens with its chunks."""
    manifest = json.loads(home.published_path.read_text(encoding="utf-8"))
    index = home.path / manifest["index"]
    assert index.is_file()
    con = duckdb.connect(str(index), read_only=True)
    try:
        assert con.table("chunks").count("*").fetchone()[0] > 0
    finally:
        con.close()
    return manifest


def test_failed_ingest_leaves_the_publication_unchanged_and_other_sources_continue(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    home = _project(tmp_path, "httpx", "mirror")
    first = run_ingest(home)
    assert first["ok"], first
    before = home.published_path.read_bytes()
    shutil.rmtree(home.project_root / "httpx")  # the folder of one source disappears
    messages: list[str] = []
    capfd.readouterr()
    report = run_ingest(home, progress=messages.append)
    assert capfd.readouterr().out == ""  # stdout is the CLI's data channel
    assert not report["ok"]
    failed = report["sources"]["httpx"]
    assert failed["status"] == "failed" and failed["snapshot"] is None
    assert failed["error"]["code"] == "ingest_failed"
    assert failed["error"]["detail"]["steps"][0]["code"] == "fetch_error"
    assert "does not exist" in failed["error"]["message"]
    assert report["sources"]["mirror"]["status"] == "ok"
    assert report["sources"]["mirror"]["snapshot"] == first["sources"]["mirror"]["snapshot"]
    assert any(m.startswith("httpx: FAILED") for m in messages)
    # The failed source kept its snapshot, the other did not change: same publication, same bytes.
    assert home.published_path.read_bytes() == before
    assert (
        _assert_readable(home)["sources"]["httpx"]["snapshot"]
        == (first["sources"]["httpx"]["snapshot"])
    )


_CHILD = """
import sys
from pathlib import Path
from docorbit_assets.ingest import run_ingest
from docorbit_serve.home import Home
root = Path(sys.argv[1])
run_ingest(Home(root / ".docorbit", root), sources=["httpx"], progress=lambda m: print(m, file=sys.stderr, flush=True))
"""


def _kill_when(proc: subprocess.Popen, marker: str, timeout: float = 180.0) -> list[str]:
    """SIGKILL ``proc`` as soon as a stderr line starts with ``marker``; returns the lines seen."""
    assert proc.stderr is not None
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stderr, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not sel.select(timeout=max(0.0, deadline - time.monotonic())):
                break
            line = proc.stderr.readline()
            if not line:
                break
            seen.append(line.rstrip("\n"))
            if line.startswith(marker):
                proc.send_signal(signal.SIGKILL)
                break
    proc.kill()  # no-op if already dead; bounded cleanup either way
    proc.wait(timeout=30)
    return seen


def test_ingest_killed_while_publishing_leaves_a_readable_publication(
    tmp_path: Path,
) -> None:
    home = _project(tmp_path, "httpx")
    assert run_ingest(home)["ok"]
    before = _assert_readable(home)
    (home.project_root / "httpx" / "killed.md").write_text(
        "# Killed\n\nA page added later.\n", "utf-8"
    )
    with subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(home.project_root)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as proc:
        seen = _kill_when(proc, "publishing:")
    assert proc.returncode == -signal.SIGKILL, seen
    assert any(line.startswith("httpx: snapshot") for line in seen), seen
    _assert_readable(home)
    # The next ingest recovers (lock released, instance usable) and publishes the new page.
    report = run_ingest(home, sources=["httpx"])
    assert report["ok"], report
    assert report["sources"]["httpx"]["rows"]["pages"] == 24
    assert _assert_readable(home)["publish_id"] != before["publish_id"]
