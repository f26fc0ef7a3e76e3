"""Pins without a corpus: classification, the speaking dependency, workspace detection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docorbit_serve.home import Home
from docorbit_serve.versioned import (
    classify,
    find_workspace,
    indexed_versions,
    update_docs_lock,
    workspace_pins,
    workspace_root,
)

MANIFEST = {
    "publish_id": "u_1",
    "sources": {
        "pyd-1": {"library": "pydantic", "version": "1.10.26", "snapshot": "s_1"},
        "pyd-2": {"library": "pydantic", "version": "2.12.5", "snapshot": "s_2"},
        "httpx": {"library": "httpx", "version": "", "snapshot": "s_3"},
    },
}


def _ws(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_indexed_versions_groups_labels_by_library():
    assert indexed_versions(MANIFEST) == {"httpx": [""], "pydantic": ["1.10.26", "2.12.5"]}


@pytest.mark.parametrize(
    ("pinned", "label", "match"),
    [
        ("1.10.13", "1.10.26", "major_minor"),
        ("1.10.26", "1.10.26", "exact"),
        ("1.9.0", "1.10.26", "major"),
        ("1.10.13", "2.12.5", "other"),
        ("1.10.13", "", "unversioned"),
        ("1.10.13", "latest", "unversioned"),
        ("0.32.2", "1.10.26", "other"),
    ],
)
def test_each_hit_label_is_classified_against_the_pinned_version(tmp_path, pinned, label, match):
    pins = workspace_pins(_ws(tmp_path, {"requirements.txt": f"pydantic=={pinned}\n"}), MANIFEST)
    assert classify(label, pins["pydantic"]) == match


def test_an_unpinned_library_is_neutral_and_a_range_pin_matches_by_its_requirement(tmp_path):
    pins = workspace_pins(_ws(tmp_path, {"requirements.txt": "pydantic>=2,<3\nhttpx\n"}), MANIFEST)
    assert pins["pydantic"].status == "available" and pins["pydantic"].resolution.level == "range"
    assert classify("2.12.5", pins["pydantic"]) == "range"
    assert classify("1.10.26", pins["pydantic"]) == "other"
    assert pins["httpx"].status == "unpinned" and classify("", pins["httpx"]) == "unversioned"
    assert classify("1.0", None) == "unpinned"


def test_only_unversioned_docs_for_a_pinned_version_is_not_called_unavailable(tmp_path):
    pins = workspace_pins(_ws(tmp_path, {"requirements.txt": "httpx==0.28.1\n"}), MANIFEST)
    assert pins["httpx"].status == "unversioned_docs"


def test_in_a_monorepo_the_root_runtime_dependency_speaks_and_the_others_are_conflicts(tmp_path):
    root = _ws(
        tmp_path,
        {
            "requirements.txt": "pydantic==2.12.3\n",
            "requirements-dev.txt": "pydantic==2.12.3\n",
            "legacy/requirements.txt": "pydantic==1.10.13\n",
        },
    )
    pin = workspace_pins(root, MANIFEST)["pydantic"]
    assert (pin.dependency.version, pin.dependency.package_path) == ("2.12.3", ".")
    assert [(c.package_path, c.version) for c in pin.conflicts] == [("legacy", "1.10.13")]
    assert pin.to_dict()["conflicts"][0]["source_file"] == "legacy/requirements.txt"


def test_no_publication_means_no_pins_and_docs_lock_records_unresolved(tmp_path):
    root = _ws(tmp_path, {"requirements.txt": "pydantic==1.10.13\n"})
    assert workspace_pins(root, {}) == {}
    out = update_docs_lock(root, None)
    doc = json.loads((root / "docs.lock").read_text())
    assert out["written"] and out["dependencies"] == 1 and out["matched"] == 0
    assert doc["content"]["publication"] == {"publish_id": None, "sources": {}}
    assert update_docs_lock(root, None)["changed"] is False


def test_requirements_only_folders_are_workspaces_and_project_homes_use_their_project(tmp_path):
    ws = _ws(tmp_path / "svc", {"requirements.txt": "pydantic==1.10.13\n"})
    (ws / "src" / "pkg").mkdir(parents=True)
    assert find_workspace(ws / "src" / "pkg", stop=tmp_path) == ws.resolve()
    assert find_workspace(tmp_path / "svc" / "..", stop=tmp_path) is None
    project = Home(tmp_path / "proj" / ".docorbit", tmp_path / "proj")
    assert workspace_root(project, cwd=ws) == tmp_path / "proj"
    elsewhere = Home(tmp_path / "docs-home", tmp_path / "docs-home")
    assert workspace_root(elsewhere, cwd=ws / "src") == ws.resolve()
    assert workspace_root(elsewhere, str(tmp_path / "x"), cwd=ws) == (tmp_path / "x").resolve()
