"""Diff of documentation snapshots and versions (issue 15 point 1), on real ingests of copied
pydantic pages (fixtures/changes/pydantic, see its PROVENANCE.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docorbit_serve.changes import diff
from docorbit_serve.changes.normalize import normalized
from docorbit_serve.errors import InputError, NotFound, UnknownLibrary
from docorbit_serve.registry import SourceConfig

REPO = Path(__file__).resolve().parents[2]
PYD = REPO / "fixtures" / "changes" / "pydantic"


def _src(name: str, folder: Path, version: str) -> SourceConfig:
    return SourceConfig(
        name=name, kind="local", location=str(folder), library="pydantic", version=version
    )


@pytest.fixture(scope="module")
def two_versions(tmp_path_factory, home_factory, ingest_home):
    root = tmp_path_factory.mktemp("pyd")
    home = home_factory(
        root,
        _src("pyd-211", PYD / "v2.11.10", "2.11.10"),
        _src("pyd-212", PYD / "v2.12.5", "2.12.5"),
    )
    ingest_home(home)
    return home


def _keys(res, kind, change):
    return sorted(i.key for i in res.items if i.kind == kind and i.change == change)


@pytest.mark.slow
def test_diff_of_two_library_versions_lists_changed_added_pages_not_blank_line_edits(two_versions):
    res = diff(two_versions, "pydantic")
    assert res.mode == "library"
    assert (res.from_.version, res.to.version) == ("2.11.10", "2.12.5")
    assert _keys(res, "page", "added") == ["integrations/pyrefly.md"]
    assert _keys(res, "page", "removed") == []
    # install.md and devtools.md differ only by blank lines; validate_call.md is identical
    assert _keys(res, "page", "modified") == ["concepts/config.md", "why.md"]
    sections = _keys(res, "section", "modified") + _keys(res, "section", "added")
    assert sections and all(k.startswith(("concepts/config.md", "why.md")) for k in sections)
    for item in res.items:
        assert item.from_snapshot == res.from_.snapshot and item.to_snapshot == res.to.snapshot
        assert item.url
    assert sum(sum(v.values()) for v in res.summary.values()) == res.total == len(res.items)


@pytest.mark.slow
def test_diff_is_identical_when_run_again(two_versions):
    a = diff(two_versions, "pydantic").model_dump_json()
    b = diff(two_versions, "pydantic", from_="2.11.10", to="2.12.5").model_dump_json()
    assert a == b
    first = diff(two_versions, "pydantic")
    by_id = diff(two_versions, "pydantic", from_=first.from_.snapshot[:10], to=first.to.snapshot)
    assert by_id.model_dump_json() == a  # a library side may be named by its snapshot id


@pytest.mark.slow
def test_diff_pages_through_a_cursor_without_losing_or_repeating_items(two_versions):
    whole = diff(two_versions, "pydantic")
    seen, cursor = [], None
    while True:
        part = diff(two_versions, "pydantic", limit=2, cursor=cursor)
        seen += [i.model_dump_json() for i in part.items]
        cursor = part.next_cursor
        if cursor is None:
            break
    assert seen == [i.model_dump_json() for i in whole.items]
    with pytest.raises(InputError):
        diff(
            two_versions,
            "pydantic",
            kinds=["page"],
            cursor=whole.next_cursor or "eyJ2IjoxLCJvIjoyfQ",
        )


@pytest.mark.slow
def test_diff_refuses_unknown_library_and_version(two_versions):
    with pytest.raises(UnknownLibrary):
        diff(two_versions, "nosuchlib")
    with pytest.raises(NotFound):
        diff(two_versions, "pydantic", from_="1.0")


@pytest.mark.slow
def test_formatting_only_copy_of_a_page_gives_an_empty_diff(tmp_path, home_factory, ingest_home):
    docs = tmp_path / "docs" / "concepts"
    docs.mkdir(parents=True)
    shutil.copy(PYD / "v2.12.5" / "concepts" / "config.md", docs / "config.md")
    home = home_factory(tmp_path / "proj", _src("cfg", tmp_path / "docs", "2.12.5"))
    ingest_home(home)
    shutil.copy(PYD / "reformatted" / "concepts" / "config.md", docs / "config.md")
    ingest_home(home)
    res = diff(home, "cfg")
    assert res.mode == "source" and res.from_.snapshot != res.to.snapshot
    assert res.total == 0 and res.items == []
    # a real edit of the same page is reported, with the section that changed
    text = (docs / "config.md").read_text() + "\n## Frozen models\n\nModels can be frozen.\n"
    (docs / "config.md").write_text(text)
    ingest_home(home)
    res = diff(home, "cfg")
    assert _keys(res, "page", "modified") == ["concepts/config.md"]
    assert _keys(res, "section", "added") == ["concepts/config.md#frozen-models"]


def test_normalized_form_ignores_whitespace_markers_emphasis_and_link_order():
    a = "# T\n\nSome *text*\nhere.\n\n- [A](a.md)\n- [B](b.md)\n"
    b = "T\n=\n\nSome   text here.\n\n1. [B](b.md)\n2. [A](a.md)\n"
    assert normalized(a) == normalized(b)
    assert normalized(a) != normalized(a.replace("b.md", "c.md"))
    assert normalized(a) != normalized(a.replace("here", "there"))
