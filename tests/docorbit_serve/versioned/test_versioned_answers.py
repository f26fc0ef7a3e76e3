"""Version-aware answers over pydantic 1.10.26 and 2.12.5 published side by side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docorbit_serve.catalog import Catalog
from docorbit_serve.search import search
from docorbit_serve.versioned import pinned_versions, versioned_search, workspace_pins

from .conftest import invoke

V1, V2 = "1.10.26", "2.12.5"
FLOOR = 0.9  # share of questions whose top result is from the pinned version's docs


@pytest.fixture(scope="module")
def catalog(two_versions):
    cat = Catalog(two_versions.home)
    yield cat
    cat.close()


def _pins(name: str, catalog) -> dict:
    from .conftest import WORKSPACES

    return workspace_pins(WORKSPACES / name, catalog.manifest())


def test_two_versions_of_one_library_are_published_side_by_side(two_versions):
    h = str(two_versions.home.path)
    published = json.loads(two_versions.home.published_path.read_text())["sources"]
    assert {(s["library"], s["version"]) for s in published.values()} == {
        ("pydantic", V1),
        ("pydantic", V2),
    }
    rows = json.loads(invoke("--home", h, "list", "--json").stdout)["sources"]
    assert sorted((r["name"], r["version"], r["published"]) for r in rows) == [
        (f"pydantic-{V1}", V1, True),
        (f"pydantic-{V2}", V2, True),
    ]
    for version in (V1, V2):
        r = invoke("--home", h, "search", "validator", "--version", version, "--json")
        hits = json.loads(r.stdout)["hits"]
        assert hits and {x["version"] for x in hits} == {version}
    r = invoke("--home", h, "search", "validator", "--library", "pydantic", "--version", "3.0")
    assert r.exit_code == 3 and V1 in r.stderr and V2 in r.stderr


@pytest.mark.parametrize(
    ("name", "want"), [("pydantic-v1-requirements", V1), ("pydantic-v2-uv", V2)]
)
def test_a_pinned_workspace_gets_its_versions_sections_first(catalog, questions, name, want):
    pins = _pins(name, catalog)
    assert pins["pydantic"].status == "available" and pins["pydantic"].resolution.version == want
    top = []
    for q in questions:
        hits = versioned_search(catalog, q["query"], pins=pins, library="pydantic", limit=3).hits
        assert hits, q["id"]
        top.append(hits[0].version == want)
    baseline = [
        search(catalog, q["query"], library="pydantic", limit=1).hits[0].version == want
        for q in questions
    ]
    share, base = sum(top) / len(top), sum(baseline) / len(baseline)
    print(f"\n{name}: version-correct top results {share:.0%} (unaware search {base:.0%})")
    assert len(questions) >= 20
    assert share >= FLOOR and share > base


def test_every_hit_is_stamped_with_the_version_it_came_from(catalog):
    pins = _pins("pydantic-v1-requirements", catalog)
    res = versioned_search(catalog, "model configuration options", pins=pins, limit=30)
    matches = {(h.version, h.version_match) for h in res.hits}
    assert (V1, "major_minor") in matches and (V2, "other") in matches
    assert all(m == ("major_minor" if v == V1 else "other") for v, m in matches)
    assert res.versions["pydantic"]["wanted"] == "1.10.13"
    assert res.versions["pydantic"]["docs_version"] == V1
    sections = [(h.library, h.path, h.anchor) for h in res.hits]
    assert len(sections) == len(set(sections))


def test_a_version_not_indexed_says_version_unavailable_and_lists_the_nearest(catalog):
    pins = _pins("pydantic-unavailable", catalog)
    res = versioned_search(catalog, "custom validator", pins=pins, library="pydantic", limit=10)
    info = res.versions["pydantic"]
    assert info["status"] == "version_unavailable" and info["wanted"] == "0.32.2"
    assert info["nearest"] == [V1, V2]
    assert res.hits and {h.version_match for h in res.hits} == {"other"}
    assert "version_unavailable" in res.notices[0] and "never from 0.32.2" in res.notices[0]


def test_a_pin_on_the_same_major_is_a_major_match_not_unavailable(catalog, tmp_path):
    (tmp_path / "requirements.txt").write_text("pydantic==2.5.0\n")
    pins = workspace_pins(tmp_path, catalog.manifest())
    assert pins["pydantic"].status == "available"
    assert (pins["pydantic"].resolution.level, pins["pydantic"].resolution.version) == ("major", V2)
    hits = versioned_search(catalog, "validators", pins=pins, limit=5).hits
    assert hits[0].version == V2 and hits[0].version_match == "major"


def test_pinned_versions_gives_the_context_packer_one_resolution_per_library(catalog):
    from .conftest import WORKSPACES

    pins = pinned_versions(WORKSPACES / "pydantic-v2-uv", catalog)
    assert list(pins) == ["pydantic"]
    r = pins["pydantic"]
    assert (r.wanted, r.version, r.level, r.confidence) == ("2.12.3", V2, "major_minor", 0.95)


def test_an_explicit_version_filter_is_obeyed_and_still_stamped(catalog):
    pins = _pins("pydantic-v1-requirements", catalog)
    res = versioned_search(catalog, "validators", pins=pins, version=V2, limit=5)
    assert res.hits and {(h.version, h.version_match) for h in res.hits} == {(V2, "other")}


def test_cli_search_ranks_for_the_workspace_and_says_so(two_versions, workspace, monkeypatch):
    h = str(two_versions.home.path)
    ws = workspace("pydantic-v1-requirements")
    r = invoke("--home", h, "search", "forbid extra fields", "--workspace", str(ws), "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and data["hits"][0]["version"] == V1
    assert data["hits"][0]["version_match"] == "major_minor"
    assert data["versions"]["pydantic"]["status"] == "available"
    monkeypatch.chdir(ws)  # no --workspace: the working directory's workspace counts
    text = invoke("--home", h, "search", "forbid extra fields", "--limit", "2").stdout
    assert text.startswith("**Version:** pydantic: workspace uses 1.10.13 (requirements.txt)")
    assert f"pydantic {V1}" in text.split("[BEGIN UNTRUSTED DOC")[0]
    plain = json.loads(
        invoke("--home", h, "search", "forbid extra fields", "--no-project-aware", "--json").stdout
    )
    # one model for every search: no pin applied -> empty versions, version_match None
    assert plain["versions"] == {} and plain["hits"][0]["version_match"] is None


def test_cli_version_reports_use_docs_and_confidence(two_versions, workspace):
    h = str(two_versions.home.path)
    out = {}
    for name in ("pydantic-v1-requirements", "pydantic-v2-uv", "pydantic-unavailable"):
        r = invoke("--home", h, "version", "--workspace", str(workspace(name)), "--json")
        assert r.exit_code == 0, r.output
        (row,) = json.loads(r.stdout)["libraries"]
        out[name] = (row["wanted"], row["docs_version"], row["level"], row["confidence"], row["status"])  # fmt: skip
    assert out == {
        "pydantic-v1-requirements": ("1.10.13", V1, "major_minor", 0.95, "available"),
        "pydantic-v2-uv": ("2.12.3", V2, "major_minor", 0.95, "available"),
        "pydantic-unavailable": ("0.32.2", V2, "latest_fallback", 0.5, "version_unavailable"),
    }
    text = invoke("--home", h, "version", "--workspace", str(workspace("pydantic-unavailable")))
    assert f"none for this version (nearest: {V1}, {V2})" in text.stdout
    missing = json.loads(
        invoke(
            "--home",
            h,
            "version",
            "httpx",
            "--workspace",
            str(workspace("pydantic-v2-uv")),
            "--json",
        ).stdout  # fmt: skip
    )
    assert missing["libraries"] == [] and missing["missing"][0]["library"] == "httpx"


def test_docorbit_update_twice_gives_a_byte_identical_docs_lock(two_versions, workspace):
    h = str(two_versions.home.path)
    ws = workspace("pydantic-v2-uv")
    first = invoke("--home", h, "update", "--workspace", str(ws), "--json")
    assert first.exit_code == 0 and json.loads(first.stdout)["changed"] is True
    before = (ws / "docs.lock").read_bytes()
    second = invoke("--home", h, "update", "--workspace", str(ws), "--json")
    assert json.loads(second.stdout)["changed"] is False
    assert (ws / "docs.lock").read_bytes() == before
    doc = json.loads(before)
    assert before.decode() == json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert set(doc) == {"content", "docs_lock_version", "retrieved_at", "snapshot_hash"}
    assert "retrieved_at" not in json.dumps(doc["content"])
    (dep,) = [d for d in doc["content"]["dependencies"] if d["name"] == "pydantic"]
    assert dep["docs"]["version"] == V2 and dep["version"] == "2.12.3"
    assert doc["content"]["publication"]["publish_id"] == two_versions.report["publish_id"]
    assert invoke("--home", h, "update", "--workspace", str(ws), "--check").exit_code == 0
    lock = ws / "uv.lock"
    lock.write_text(lock.read_text().replace('version = "2.12.3"', 'version = "1.10.13"'))
    stale = invoke("--home", h, "update", "--workspace", str(ws), "--check", "--json")
    assert stale.exit_code == 1 and json.loads(stale.stdout)["error"]["code"] == "docs_lock_stale"
    assert (ws / "docs.lock").read_bytes() == before  # --check writes nothing


def test_init_writes_docs_lock_for_a_project_with_dependencies(workspace, tmp_path: Path):
    ws = workspace("pydantic-v1-requirements")
    r = invoke("-p", str(ws), "init", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["docs_lock"]["written"] is True
    first = (ws / "docs.lock").read_bytes()
    assert invoke("-p", str(ws), "init").exit_code == 0
    assert (ws / "docs.lock").read_bytes() == first
    deps = json.loads(first)["content"]["dependencies"]
    (dep,) = [d for d in deps if d["name"] == "pydantic"]
    assert dep["version"] == "1.10.13" and dep["docs"]["level"] == "unresolved"  # not published
    empty = tmp_path / "empty-project"
    empty.mkdir()
    assert invoke("-p", str(empty), "init").exit_code == 0
    assert not (empty / "docs.lock").exists()
