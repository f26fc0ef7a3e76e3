"""Optional evaluation: the whole pydantic docs trees v2.11.10 -> v2.12.5 from the shared kit
(``../shared/data/docs/versions/pydantic``), ingested as two versions of one library. Skipped
when the kit is absent. MANIFEST.md: 42 ``.md`` pages differ byte-wise, 2 are added
(``examples/dynamic_models.md``, ``integrations/pyrefly.md``), none removed."""

from __future__ import annotations

import pytest

from docorbit_serve.changes import diff
from docorbit_serve.changes.normalize import normalized
from docorbit_serve.registry import SourceConfig
from tests.support.paths import SHARED_DATA

pytestmark = pytest.mark.slow
TREES = SHARED_DATA / "docs" / "versions" / "pydantic"


@pytest.fixture(scope="module")
def full_home(tmp_path_factory, home_factory, ingest_home):
    if not (TREES / "v2.11.10" / "docs").is_dir():
        pytest.skip(f"shared kit absent: {TREES}")
    sources = [
        SourceConfig(
            name=f"pyd-{v}",
            kind="local",
            location=str(TREES / v / "docs"),
            library="pydantic",
            version=v.lstrip("v"),
        )
        for v in ("v2.11.10", "v2.12.5")
    ]
    home = home_factory(tmp_path_factory.mktemp("pydfull"), *sources)
    ingest_home(home)
    return home


def test_full_pydantic_trees_diff_lists_added_and_changed_pages(full_home):
    res = diff(full_home, "pydantic", limit=1000)
    pages = {(i.change, i.key) for i in res.items if i.kind == "page"}
    added = sorted(k for c, k in pages if c == "added")
    assert added == ["examples/dynamic_models.md", "integrations/pyrefly.md"]
    assert not [k for c, k in pages if c == "removed"]
    old, new = TREES / "v2.11.10" / "docs", TREES / "v2.12.5" / "docs"
    changed = {
        str(p.relative_to(new))
        for p in new.rglob("*.md")
        if (old / p.relative_to(new)).is_file()
        and normalized((old / p.relative_to(new)).read_text()) != normalized(p.read_text())
    }
    modified = {k for c, k in pages if c == "modified"}
    assert modified <= changed and len(modified) >= len(changed) - 2
    assert "install.md" not in modified  # blank lines only
    print(f"\npydantic 2.11.10 -> 2.12.5: {res.summary}")
    assert diff(full_home, "pydantic", limit=1000).model_dump_json() == res.model_dump_json()
