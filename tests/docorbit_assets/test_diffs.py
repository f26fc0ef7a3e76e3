"""The ``diffs`` asset: each new snapshot of a source is compared with the previous one by a
real ingest (Dagster, in-process), and the diff is frozen beside it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from docorbit_assets.ingest import run_ingest
from docorbit_assets.lib.diffs import source_diff
from docorbit_serve.changes import diff
from docorbit_serve.changes.snapshots import list_snapshots
from docorbit_serve.home import resolve_home
from docorbit_serve.registry import Registry, SourceConfig, save_registry

pytestmark = pytest.mark.slow  # two real ingests
PYD = Path(__file__).resolve().parents[2] / "fixtures" / "changes" / "pydantic"


def _ingest(home) -> str:
    report = run_ingest(home)
    assert report["ok"], report
    return report["sources"]["pyd"]["snapshot"]


def test_each_new_snapshot_gets_its_diff_against_the_previous_one(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(PYD / "v2.11.10", docs)
    home = resolve_home(home=tmp_path / "proj" / ".docorbit", env={})
    home.path.mkdir(parents=True)
    cfg = SourceConfig(
        name="pyd", kind="local", location=str(docs), library="pydantic", version="2"
    )
    save_registry(Registry(home.config_path, [cfg]))

    first = _ingest(home)
    frozen = home.table_dir("diffs", "pyd", first) / "part-0.parquet"
    assert frozen.is_file() and pq.read_table(frozen).num_rows == 0  # nothing before it

    shutil.rmtree(docs)
    shutil.copytree(PYD / "v2.12.5", docs)
    second = _ingest(home)
    assert second != first
    table = pq.read_table(home.table_dir("diffs", "pyd", second) / "part-0.parquet")
    rows = table.to_pylist()
    pages = {(r["change"], r["key"]) for r in rows if r["kind"] == "page"}
    assert pages == {
        ("added", "integrations/pyrefly.md"),
        ("modified", "concepts/config.md"),
        ("modified", "why.md"),
    }
    assert {(r["from_snapshot"], r["to_snapshot"]) for r in rows} == {(first, second)}
    # the frozen table is the serving diff of the same two snapshots, item for item
    served = diff(home, "pyd", first, second, limit=1000)
    assert [(r["kind"], r["change"], r["key"]) for r in rows] == [
        (i.kind, i.change, i.key) for i in served.items
    ]
    assert source_diff(home, "pyd", second).equals(table)  # deterministic
    assert [s.id for s in list_snapshots(home)] == [first, second]
