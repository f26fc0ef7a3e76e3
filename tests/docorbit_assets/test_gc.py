"""Retention (``docorbit gc`` / ``run_gc``): exactly the unreferenced files go, readers keep going,
and a SIGKILLed build's debris and run are cleaned up."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import dagster as dg
import pytest

from docorbit_assets.ingest import open_instance, run_gc, run_ingest
from docorbit_serve.catalog import Catalog, IndexFile
from docorbit_serve.errors import IngestError
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, save_registry
from docorbit_serve.search import search
from tests.support.http import Route, serve_routes, web_source
from tests.support.paths import FIXTURE_SITE, REPO

pytestmark = pytest.mark.slow


def _edit(root: Path, n: int) -> None:
    page = root / "docs" / "install.md"
    page.write_text(page.read_text(encoding="utf-8") + f"\n## Edit {n}\n\nChange {n}.\n", "utf-8")


@pytest.fixture(scope="module")
def three_generations(tmp_path_factory: pytest.TempPathFactory) -> tuple[Home, list[dict]]:
    """A project ingested, then refreshed after two edits: three snapshots and index files."""
    root = tmp_path_factory.mktemp("gc")
    shutil.copytree(FIXTURE_SITE / "docs", root / "docs")
    home = Home(root / ".docorbit", root)
    src = SourceConfig(name="site", kind="local", location="docs", library="orbitkit")
    save_registry(Registry(home.config_path, [src]))
    reports = [run_ingest(home)]
    for n in (1, 2):
        _edit(root, n)
        reports.append(run_ingest(home, refresh=True))
    assert all(r["ok"] for r in reports)
    return home, reports


def _files(home: Home) -> set[str]:
    return {p.relative_to(home.path).as_posix() for p in home.path.rglob("*") if p.is_file()}


def test_gc_lists_then_removes_exactly_the_unreferenced_files_while_searches_run(
    three_generations: tuple[Home, list[dict]],
) -> None:
    home, reports = three_generations
    snaps = [r["sources"]["site"]["snapshot"] for r in reports]
    pubs = [r["publish_id"] for r in reports]
    assert len(set(snaps)) == 3 and len(set(pubs)) == 3
    debris = [
        home.index_dir / f".{pubs[2]}.0123456789ab.tmp.duckdb",
        home.index_dir / f".{pubs[2]}.0123456789ab.tmp.duckdb.wal",
        home.tables / ".tmp" / "chunks-abc" / "part-0.parquet",
        home.staging / "pages" / "source=site" / ".part-0.parquet.tmp-1a2b3c4d",
    ]
    for path in debris:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half written")
    # docs.lock pins the first snapshot (and its publication).
    lock = {
        "content": {
            "publication": {"publish_id": pubs[0], "sources": {"site": {"snapshot": snaps[0]}}}
        }
    }
    (home.project_root / "docs.lock").write_text(json.dumps(lock), "utf-8")
    before = _files(home)

    plan = run_gc(home, keep_last=1)
    assert _files(home) == before  # a dry run touches nothing
    removed_paths = {e["path"] for e in plan["remove"]}
    expected = {f"index/{pubs[1]}.duckdb", *(p.relative_to(home.path).as_posix() for p in debris)}
    expected.discard("tables/.tmp/chunks-abc/part-0.parquet")
    expected.add("tables/.tmp/chunks-abc")
    snapshot_dirs = {p for p in removed_paths if p.startswith("tables/") and "snapshot=" in p}
    assert removed_paths - snapshot_dirs == expected
    assert {p.rsplit("snapshot=", 1)[1] for p in snapshot_dirs} == {snaps[1]}
    # every table folder of that snapshot: the same tables the published snapshot has
    published_tables = {d.parts[-3] for d in home.tables.glob(f"*/source=site/snapshot={snaps[2]}")}
    assert {p.split("/")[1] for p in snapshot_dirs} == published_tables
    assert {"snapshots", "pages", "chunks", "fetches"} <= published_tables
    assert plan["keep"]["site"] == {
        snaps[0]: ["pinned"],
        snaps[2]: ["published", "latest", "recent"],
    }

    errors: list[BaseException] = []
    answers: dict[str, list[int]] = {"served": [], "old": []}
    stop = threading.Event()
    # A server that opened the previous publication (pubs[1]) before the switch: gc removes
    # that index file and its snapshot, and the server keeps answering from its open file.
    old_index = home.index_dir / f"{pubs[1]}.duckdb"
    old_server = IndexFile(old_index)

    def reader(catalog: Catalog | IndexFile, name: str) -> None:
        try:
            while not stop.is_set():
                answers[name].append(len(search(catalog, "retry backoff jitter").hits))
        except BaseException as e:  # noqa: BLE001 - reported by the assert below
            errors.append(e)

    threads = [
        threading.Thread(target=reader, args=(Catalog(home), "served")),
        threading.Thread(target=reader, args=(old_server, "old")),
    ]
    for thread in threads:
        thread.start()
    try:
        while not (answers["served"] and answers["old"]):
            time.sleep(0.01)
        done = run_gc(home, apply=True, keep_last=1)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    assert not errors, errors
    assert all(counts and min(counts) > 0 for counts in answers.values()), answers
    assert done["errors"] == [] and set(done["removed"]) == removed_paths
    gone = {f for f in before if any(f == p or f.startswith(p + "/") for p in removed_paths)}
    assert _files(home) == before - gone
    assert search(Catalog(home), "retry backoff jitter").hits
    assert not old_index.exists()
    old_hits = search(old_server, "retry backoff jitter").hits  # still answering, after gc
    assert old_hits and {h.snapshot for h in old_hits} == {snaps[1]}
    old_server.close()


_CHILD = """
import sys
from pathlib import Path
from docorbit_assets.ingest import run_ingest
from docorbit_serve.home import Home
root = Path(sys.argv[1])
run_ingest(Home(root / ".docorbit", root), progress=lambda m: print(m, file=sys.stderr, flush=True))
"""


def test_a_sigkilled_build_leaves_debris_that_gc_removes_and_its_run_reads_failed(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    pages = sorted((FIXTURE_SITE / "docs").glob("*.md"))
    for i in range(300):  # enough pages that the index build takes a while
        src = pages[i % len(pages)]
        (docs / f"{src.stem}-{i:03d}.md").write_text(
            src.read_text(encoding="utf-8").replace("orbitkit", f"orbitkit{i}"), "utf-8"
        )
    home = Home(tmp_path / ".docorbit", tmp_path)
    src = SourceConfig(name="big", kind="local", location="docs", library="orbitkit")
    save_registry(Registry(home.config_path, [src]))
    with _child(_CHILD, tmp_path) as proc:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and proc.poll() is None:
            if home.index_dir.is_dir() and any(home.index_dir.glob(".*.tmp.duckdb*")):
                proc.send_signal(signal.SIGKILL)
                break
            time.sleep(0.005)
        proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    debris = sorted(p.name for p in home.index_dir.glob(".*.tmp.duckdb*"))
    assert debris
    with open_instance(home) as instance:
        (stuck,) = instance.get_runs(filters=dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED]))
    assert stuck.job_name == "publish"
    result = run_gc(home, apply=True)
    assert {e["kind"] for e in result["remove"]} == {"debris"}
    assert not any(home.index_dir.glob(".*.tmp.duckdb*"))
    assert result["failed_runs"] == [stuck.run_id]
    with open_instance(home) as instance:
        run = instance.get_run_by_id(stuck.run_id)
    assert run is not None and run.status == dg.DagsterRunStatus.FAILURE


_UI_LIKE_CHILD = """
import sys
from pathlib import Path
from docorbit_assets.definitions import build_definitions
from docorbit_assets.ingest import open_instance
from docorbit_serve.home import Home
root = Path(sys.argv[1])
home = Home(root / ".docorbit", root)
job = build_definitions(home).resolve_job_def("refresh_all")
with open_instance(home) as instance:  # no run_ingest tags: a run as the UI's daemon launches
    instance.add_dynamic_partitions("source", ["slow"])  # what the source_partitions sensor does
    job.execute_in_process(instance=instance, partition_key="slow", raise_on_error=False)
"""


def test_gc_refuses_while_a_ui_launched_run_is_writing_and_fails_it_once_its_process_is_gone(
    tmp_path: Path,
) -> None:
    release = threading.Event()

    def stalled(path: str, headers: dict[str, str]) -> Route:
        release.wait(timeout=120)  # the run sits in its discover step meanwhile
        return Route(body=b"# Slow\n\nA page.\n", content_type="text/markdown")

    home = Home(tmp_path / ".docorbit", tmp_path)
    with serve_routes({"/slow.md": stalled}) as base:
        cfg = web_source(base + "slow.md", "markdown", name="slow")
        save_registry(Registry(home.config_path, [cfg]))
        with open_instance(home):
            pass  # the instance exists before the child opens it
        with _child(_UI_LIKE_CHILD, tmp_path) as proc:
            try:
                run = _wait_started(home, proc, 300)
                assert run.tags["docorbit/pid"] == str(proc.pid)  # tagged by DocOrbitResource
                assert "docorbit/entry" not in run.tags
                assert run_gc(home)["applied"] is False  # a dry run is always fine
                with pytest.raises(IngestError) as refused:
                    run_gc(home, apply=True)
                assert [r["run_id"] for r in refused.value.detail["runs"]] == [run.run_id]
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=30)
            finally:
                release.set()
                proc.kill()
    done = run_gc(home, apply=True)  # the process is gone: its run is failed, gc goes ahead
    assert done["applied"] and done["failed_runs"] == [run.run_id]
    with open_instance(home) as instance:
        after = instance.get_run_by_id(run.run_id)
    assert after is not None and after.status == dg.DagsterRunStatus.FAILURE


def _child(code: str, tmp_path: Path) -> subprocess.Popen:
    """A Python child running ``code`` on the project in ``tmp_path``, in its own session (so
    the test can kill its process group), its output discarded."""
    return subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _wait_started(home: Home, proc: subprocess.Popen, seconds: float) -> dg.DagsterRun:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        with open_instance(home) as instance:
            runs = instance.get_runs(filters=dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED]))
        if runs and "docorbit/pid" in runs[0].tags:
            return runs[0]
        time.sleep(0.2)
    raise AssertionError(f"no started run within {seconds:.0f} s (child exit {proc.poll()})")
