"""Dashboard data over real publications: a failed fetch shows with its typed code and turns the
source's health to failing; searches feed the latency plot; benchmark history feeds its plot."""

from __future__ import annotations

import shutil

from starlette.testclient import TestClient

from docorbit_serve.catalog import Catalog
from docorbit_serve.home import resolve_home
from docorbit_serve.registry import Registry, SourceConfig, save_registry
from docorbit_serve.web import data
from docorbit_serve.web.app import build_web_app
from docorbit_serve.web.timings import SearchTimings, benchmark_history, record_benchmark
from tests.support.dashboard import FIXTURE, dashboard_home


def test_a_failed_fetch_is_listed_with_its_code_and_the_publication_is_shown(tmp_path):
    from docorbit_assets.ingest import run_ingest

    docs = tmp_path / "docs"
    shutil.copytree(FIXTURE / "orbit-2.0", docs)
    (docs / "broken.md").symlink_to(docs / "missing.md")  # unreadable: read_error
    home = resolve_home(home=tmp_path / ".docorbit", env={})
    home.path.mkdir()
    save_registry(Registry(home.config_path, [SourceConfig(
        name="orbit", kind="local", location=str(docs), library="orbit", version="2.0")]))  # fmt: skip
    assert run_ingest(home)["ok"]
    catalog = Catalog(home)
    failures = data.fetch_failures(home, catalog.manifest())
    assert [(f["url"].rsplit("/", 1)[1], f["error_code"]) for f in failures] == [
        ("broken.md", "read_error")
    ]
    (row,) = data.source_health(catalog)
    assert row["health"] == "failing" and row["failed_fetches"] == 1
    (pub,) = data.publications(home, catalog.manifest())
    assert pub["current"] and pub["publish_id"] == catalog.manifest()["publish_id"]
    page = TestClient(build_web_app(home, catalog)).get("/")
    assert page.status_code == 200 and "read_error" in page.text
    assert pub["publish_id"] in page.text.split('id="publications"')[1].split("</table>")[0]


def test_searches_feed_the_latency_plot_and_benchmark_rows_feed_theirs(tmp_path_factory, tmp_path):
    home = dashboard_home(tmp_path_factory)
    timings = SearchTimings()
    client = TestClient(build_web_app(home, Catalog(home), timings))
    assert "no data" in client.get("/").text.split('id="plot-latency"')[1].split("</figure>")[0]
    assert client.get("/search", params={"q": "timeout"}).status_code == 200
    assert client.get("/api/v1/search", params={"q": "timeout"}).status_code == 200
    assert set(timings.points()) == {"dashboard", "rest"}
    latency = client.get("/").text.split('id="plot-latency"')[1].split("</figure>")[0]
    assert latency.count("<circle") == 2

    bench_home = resolve_home(home=tmp_path / "h", env={})
    record_benchmark(
        bench_home, {"at": "2026-01-01T00:00:00Z", "source": "s", "mrr@10": 0.6, "r@5": 0.7}
    )
    record_benchmark(
        bench_home, {"at": "2026-01-02T00:00:00Z", "source": "s", "mrr@10": 0.7, "r@5": 0.8}
    )
    with (bench_home.path / "benchmarks" / "retrieval.jsonl").open("a") as f:
        f.write("not json\n")
    assert [r["mrr@10"] for r in benchmark_history(bench_home)] == [0.6, 0.7]


def test_the_dashboard_says_nothing_is_published_instead_of_failing(tmp_path):
    home = resolve_home(home=tmp_path / "empty", env={})
    client = TestClient(build_web_app(home, Catalog(home)))
    r = client.get("/")
    assert r.status_code == 503 and "not_published" in r.text
    api = client.get("/api/v1/search", params={"q": "x"})
    assert api.status_code == 503 and api.json()["error"]["code"] == "not_published"


def test_health_turns_stale_once_the_last_fetch_is_older_than_stale_after_hours(tmp_path_factory):
    from datetime import UTC, datetime, timedelta

    home = dashboard_home(tmp_path_factory)
    catalog = Catalog(home)
    now = [r["health"] for r in data.source_health(catalog)]
    assert set(now) == {"ok"}
    later = datetime.now(UTC) + timedelta(hours=49)  # default stale_after_hours is 48
    rows = data.source_health(catalog, now=later)
    assert {r["health"] for r in rows} == {"stale"} and all(r["age_hours"] > 48 for r in rows)
