"""docs.lock: deterministic bytes, content hash apart from retrieval time."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from docorbit_serve.workspace import read_docs_lock, resolve_workspace, write_docs_lock

REPO = Path(__file__).resolve().parents[2]
MANIFESTS = REPO / "fixtures" / "kit" / "manifests"  # copied from the kit
INDEXED = {"pydantic": ["v1.10.26", "v2.11.10", "v2.12.5"], "httpx": ["0.28.1"], "mcp": [""]}
PUBLISHED = {
    "publish_id": "u_abc",
    "sources": {
        "pydantic-v2": {"snapshot": "s_2", "library": "pydantic", "version": "v2.12.5", "kind": "local",
                        "location": "/somewhere/on/this/machine", "created_at": "2026-01-01T00:00:00Z"},
        "pydantic-v1": {"snapshot": "s_1", "library": "pydantic", "version": "v1.10.26"},
    },
}  # fmt: skip


def _write(root: Path, published=PUBLISHED, retrieved_at="2026-02-01T10:00:00Z"):
    res = resolve_workspace(root, INDEXED)
    return write_docs_lock(
        root, res.scan, res.resolutions, {**published, "retrieved_at": retrieved_at}
    )


def test_two_writes_on_an_unchanged_workspace_give_identical_bytes(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(MANIFESTS / "npm-workspaces-mcp-servers", root)
    first = _write(root).read_bytes()
    second = _write(root, retrieved_at="2026-03-01T10:00:00Z").read_bytes()
    assert first == second
    doc = json.loads(first)
    assert doc["retrieved_at"] == "2026-02-01T10:00:00Z"  # carried forward: content unchanged


def test_format_is_sorted_two_space_json_with_trailing_newline_and_relative_paths(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(MANIFESTS / "npm-workspaces-mcp-servers", root)
    text = _write(root).read_text()
    doc = json.loads(text)
    assert text == json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert str(tmp_path) not in text and "/somewhere/on/this/machine" not in text
    assert set(doc) == {"content", "docs_lock_version", "retrieved_at", "snapshot_hash"}
    canonical = json.dumps(
        doc["content"], sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    assert doc["snapshot_hash"] == "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()
    fetch_pyd = [
        d
        for d in doc["content"]["dependencies"]
        if d["name"] == "pydantic" and d["package_path"] == "src/fetch"
    ]
    assert (
        fetch_pyd[0]["docs"]["library"] == "pydantic"
        and fetch_pyd[0]["docs"]["level"] != "unresolved"
    )
    assert read_docs_lock(root) == doc


def test_changed_content_gets_a_new_hash_and_a_new_retrieved_at(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(MANIFESTS / "php-composer", root)
    before = json.loads(_write(root).read_text())
    newer = {**PUBLISHED, "publish_id": "u_def"}
    after = json.loads(
        _write(root, published=newer, retrieved_at="2026-03-01T10:00:00Z").read_text()
    )
    assert after["snapshot_hash"] != before["snapshot_hash"]
    assert after["retrieved_at"] == "2026-03-01T10:00:00Z"


def test_retrieval_time_alone_does_not_change_the_hash(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        shutil.copytree(MANIFESTS / "go-glow", d)
    ha = json.loads(_write(a, retrieved_at="2026-01-01T00:00:00Z").read_text())["snapshot_hash"]
    hb = json.loads(_write(b, retrieved_at="2027-01-01T00:00:00Z").read_text())["snapshot_hash"]
    assert ha == hb


def test_a_corrupt_docs_lock_is_replaced(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(MANIFESTS / "go-glow", root)
    (root / "docs.lock").write_text("{ not json")
    assert read_docs_lock(root) is None
    doc = json.loads(_write(root).read_text())
    assert doc["docs_lock_version"] == 1
