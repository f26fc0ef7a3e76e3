"""Incremental refresh through the real pipeline (Dagster in-process, loopback HTTP)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from docorbit_assets.ingest import open_instance, run_ingest
from docorbit_serve.catalog import Catalog
from docorbit_serve.home import Home
from docorbit_serve.registry import Registry, SourceConfig, save_registry
from docorbit_serve.schemas import PER_SOURCE_TABLES
from docorbit_serve.search import search
from tests.support.http import FAST_LIMITS, Route, allowance, serve_directory, serve_routes
from tests.support.paths import FIXTURE_SITE, KIT_DATA

pytestmark = pytest.mark.slow
MD = "text/markdown; charset=utf-8"


def _frozen(home: Home, table: str, source: str, snapshot: str) -> dict[str, dict]:
    rows = pq.read_table(home.table_dir(table, source, snapshot) / "part-0.parquet").to_pylist()
    return {
        r["id"]: {k: v for k, v in r.items() if k not in ("fetched_at", "snapshot")} for r in rows
    }


def test_local_refresh_reuses_everything_unchanged_and_reprocesses_only_a_changed_page(
    tmp_path: Path,
) -> None:
    shutil.copytree(FIXTURE_SITE / "docs", tmp_path / "docs")
    home = Home(tmp_path / ".docorbit", tmp_path)
    cfg = SourceConfig(name="site", kind="local", location="docs", library="orbitkit")
    save_registry(Registry(home.config_path, [cfg]))
    cold = run_ingest(home)
    published = home.published_path.read_bytes()
    (hit, *_) = search(Catalog(home), "install orbitkit").hits
    assert hit.fetched_at and hit.age_hours is not None  # provenance: when, and how long ago
    same = run_ingest(home, refresh=True)
    assert same["ok"], same
    assert same["sources"]["site"]["snapshot"] == cold["sources"]["site"]["snapshot"]
    assert same["publish_id"] == cold["publish_id"]
    assert home.published_path.read_bytes() == published  # publishing was a no-op
    page = tmp_path / "docs" / "install.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n## Offline\n\nA new section.\n")
    changed = run_ingest(home, refresh=True)
    old, new = cold["sources"]["site"]["snapshot"], changed["sources"]["site"]["snapshot"]
    assert changed["ok"] and new != old
    for table in ("pages", "chunks"):
        before, after = _frozen(home, table, "site", old), _frozen(home, table, "site", new)
        differing = {i for i in before.keys() | after.keys() if before.get(i) != after.get(i)}
        paths = {(before.get(i) or after[i])["path"] for i in differing}
        assert differing and paths == {"install.md"}, (table, paths)
    # every per-source table: only the changed page's rows differ between the two snapshots
    # (sources and discovered not at all; fetches, pages ... postings only the page's rows)
    for table in PER_SOURCE_TABLES:
        paths = _differing_paths(home, "site", table, old, new)
        assert paths <= {"install.md"}, (table, paths)
        if table in ("fetches", "pages", "chunks", "postings"):
            assert paths == {"install.md"}, table
    # the extract stages re-extracted the changed chunks only, reusing the others'
    reuse = _reuse_metadata(home, changed["sources"]["site"]["run_id"])
    before, after = _frozen(home, "chunks", "site", old), _frozen(home, "chunks", "site", new)
    redone = {i for i, c in after.items() if before.get(i) != c}
    assert redone and {after[i]["path"] for i in redone} == {"install.md"}
    for asset in ("symbols", "examples", "pitfalls", "postings"):
        counts = (reuse[asset]["rows_computed"], reuse[asset]["rows_reused"])
        assert counts == (len(redone), len(after) - len(redone)), (asset, counts)
    assert reuse["links"]["rows_computed"] == 1, reuse["links"]
    # ... and what it reused is exactly what a cold ingest of the edited tree computes
    fresh = run_ingest(Home(tmp_path / ".docorbit-cold", tmp_path))
    assert fresh["sources"]["site"]["snapshot"] == new


def _rows(home: Home, source: str, table: str, snapshot: str) -> dict[str, dict]:
    """Rows of a frozen table keyed by their content (``fetched_at`` and ``snapshot`` aside)."""
    path = home.table_dir(table, source, snapshot) / "part-0.parquet"
    out = {}
    for r in pq.read_table(path).to_pylist():
        row = {k: v for k, v in r.items() if k not in ("fetched_at", "snapshot")}
        out[json.dumps(row, sort_keys=True, default=str)] = row
    return out


def _differing_paths(home: Home, source: str, table: str, old: str, new: str) -> set[str]:
    """The page paths of the rows in one snapshot's ``table`` but not in the other's; a
    differing row that belongs to no page (``sources``, ``discovered``, a fetched document that
    became no page) counts as ``<table>``."""
    pages = {**_frozen(home, "pages", source, old), **_frozen(home, "pages", source, new)}
    chunks = {**_frozen(home, "chunks", source, old), **_frozen(home, "chunks", source, new)}
    by_url = {p["url"]: p["path"] for p in pages.values()}
    before, after = _rows(home, source, table, old), _rows(home, source, table, new)
    paths = set()
    for key in before.keys() ^ after.keys():
        row = before.get(key) or after[key]
        if table == "fetches":
            paths.add(by_url.get(row["url"]) or by_url.get(row["final_url"]) or f"<{table}>")
        elif "path" in row:
            paths.add(row["path"])
        elif "page_id" in row:
            paths.add(pages[row["page_id"]]["path"])
        elif "chunk_id" in row:
            paths.add(chunks[row["chunk_id"]]["path"])
        else:
            paths.add(f"<{table}>")
    return paths


def _reuse_metadata(home: Home, run_id: str) -> dict[str, dict]:
    out = {}
    with open_instance(home) as instance:
        for rec in instance.get_records_for_run(run_id, limit=10_000).records:
            event = rec.event_log_entry.dagster_event
            if event is None or event.event_type_value != "ASSET_MATERIALIZATION":
                continue
            mat = event.event_specific_data.materialization
            out[mat.asset_key.to_user_string()] = {k: v.value for k, v in mat.metadata.items()}
    return out


def _site(pages: dict[str, bytes], bodies_sent: list[str]):
    def answer(path: str, headers: dict[str, str]) -> Route:
        body = pages.get(path)
        if body is None:
            return Route(status=404)
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if headers.get("if-none-match") == etag:
            return Route(status=304, headers={"ETag": etag})
        bodies_sent.append(path)
        ctype = MD if path.endswith(".md") else "text/plain; charset=utf-8"
        return Route(body=body, content_type=ctype, headers={"ETag": etag})

    return {p: answer for p in pages}


def test_web_refresh_answered_304_transfers_no_body_and_a_new_etag_makes_a_new_snapshot(
    tmp_path: Path,
) -> None:
    pages = {"/llms.txt": (FIXTURE_SITE / "llms.txt").read_bytes()}
    for f in sorted((FIXTURE_SITE / "docs").glob("*.md")):
        pages[f"/docs/{f.name}"] = f.read_bytes()
    sent: list[str] = []
    home = Home(tmp_path / ".docorbit", tmp_path)
    with serve_routes(_site(pages, sent)) as base:
        cfg = SourceConfig(
            name="orbit",
            kind="llms_txt",
            location=base + "llms.txt",
            library="orbitkit",
            allow_hosts=(allowance(base),),
            limits=FAST_LIMITS,
        )
        save_registry(Registry(home.config_path, [cfg]))
        cold = run_ingest(home)
        assert cold["ok"], json.dumps(cold)[:2000]
        assert "/docs/install.md" in sent
        sent.clear()
        same = run_ingest(home, refresh=True)
        assert same["ok"] and sent == []  # every request answered 304: no body transferred
        assert same["sources"]["orbit"]["snapshot"] == cold["sources"]["orbit"]["snapshot"]
        assert same["publish_id"] == cold["publish_id"]
        pages["/docs/api.md"] += b"\n## RetryBudget\n\nA new class.\n"
        changed = run_ingest(home, refresh=True)
    assert sent == ["/docs/api.md"]  # the new ETag's body, and only it
    assert changed["ok"]
    old, new = cold["sources"]["orbit"]["snapshot"], changed["sources"]["orbit"]["snapshot"]
    assert new != old
    assert changed["publish_id"] != cold["publish_id"]
    pages_new = _frozen(home, "pages", "orbit", new).values()
    (api,) = {p["path"] for p in pages_new if p["url"].endswith("/docs/api.md")}
    for table in PER_SOURCE_TABLES:  # only the changed page's rows differ, in every table
        paths = _differing_paths(home, "orbit", table, old, new)
        assert paths <= {api}, (table, paths)
        if table in ("fetches", "pages", "chunks", "postings"):
            assert paths == {api}, table
    hits = search(Catalog(home), "RetryBudget", library="orbitkit").hits
    assert hits and hits[0].snapshot == new  # the new snapshot is the published one


def test_an_edited_included_snippet_is_not_hidden_by_the_unchanged_short_cut(
    tmp_path: Path,
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(
        '# Guide\n\n## Retry\n\nCall it like this:\n\n--8<-- "snippets/retry.py"\n', "utf-8"
    )
    snippet = tmp_path / "docs" / "snippets" / "retry.py"
    snippet.parent.mkdir()
    snippet.write_text("import orbitkit\n\norbitkit.retry(fetch, attempts=3)\n", "utf-8")
    home = Home(tmp_path / ".docorbit", tmp_path)
    cfg = SourceConfig(name="snip", kind="local", location="docs", library="orbitkit")
    save_registry(Registry(home.config_path, [cfg]))
    cold = run_ingest(home)
    same = run_ingest(home, refresh=True)
    assert same["sources"]["snip"]["snapshot"] == cold["sources"]["snip"]["snapshot"]
    snippet.write_text("import orbitkit\n\norbitkit.retry(fetch, attempts=5)\n", "utf-8")
    changed = run_ingest(home, refresh=True)
    new = changed["sources"]["snip"]["snapshot"]
    assert changed["ok"] and new != cold["sources"]["snip"]["snapshot"]
    codes = [e["code"] for e in _frozen(home, "examples", "snip", new).values()]
    assert any("attempts=5" in c for c in codes), codes


def test_a_real_site_refreshed_from_a_plain_file_server_transfers_only_the_edited_page(
    tmp_path: Path,
) -> None:
    """The real built httpx site (23 pages) on the stdlib file server, which answers
    ``If-Modified-Since`` with 304: an unchanged refresh transfers no body, one edited page is
    the only body transferred and the only page whose rows change."""
    site = tmp_path / "site"
    shutil.copytree(KIT_DATA / "site" / "httpx", site)
    home = Home(tmp_path / ".docorbit", tmp_path)
    answers: list[tuple[str, int]] = []
    with serve_directory(site, responses=answers) as base:
        cfg = SourceConfig(
            name="httpx",
            kind="web",
            location=base,
            library="httpx",
            allow_hosts=(allowance(base),),
            limits=FAST_LIMITS,
        )
        save_registry(Registry(home.config_path, [cfg]))
        cold = run_ingest(home)
        assert cold["ok"], json.dumps(cold)[:2000]
        bodies = [p for p, status in answers if status == 200]
        assert len(bodies) >= 23  # every page's body once
        answers.clear()
        same = run_ingest(home, refresh=True)
        assert same["ok"], same
        assert [p for p, status in answers if status == 200] == []  # 0 bodies re-downloaded
        assert sum(status == 304 for _, status in answers) >= 23
        assert same["sources"]["httpx"]["snapshot"] == cold["sources"]["httpx"]["snapshot"]
        assert same["publish_id"] == cold["publish_id"]
        page = site / "async" / "index.html"
        html = page.read_text(encoding="utf-8")
        marker = '<article class="md-content__inner md-typeset">'
        assert marker in html
        page.write_text(
            html.replace(marker, marker + "<h2>Zebrafinch</h2><p>A zebrafinch transport.</p>"),
            encoding="utf-8",
        )
        answers.clear()
        changed = run_ingest(home, refresh=True)
    assert changed["ok"], changed
    assert [p for p, status in answers if status == 200] == ["/async/"]
    old, new = cold["sources"]["httpx"]["snapshot"], changed["sources"]["httpx"]["snapshot"]
    assert new != old
    (edited,) = {
        p["path"]
        for p in _frozen(home, "pages", "httpx", new).values()
        if "Zebrafinch" in p["markdown"]
    }
    for table in PER_SOURCE_TABLES:
        paths = _differing_paths(home, "httpx", table, old, new)
        assert paths <= {edited}, (table, paths)
        if table in ("fetches", "pages", "chunks", "postings"):
            assert paths == {edited}, table
    hits = search(Catalog(home), "zebrafinch transport", library="httpx").hits
    assert hits and hits[0].snapshot == new and hits[0].path == edited
