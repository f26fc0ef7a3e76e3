"""``published.json`` goes through one model (issue 12 item 1): ``models.core.Manifest`` is the
only declaration, the pipeline's writer and every reader check the file with it, a malformed
manifest is ``not_published`` to the catalog and is never written over a good publication."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from docorbit_assets.lib import publish as lib_publish
from docorbit_serve import service
from docorbit_serve.catalog import Catalog
from docorbit_serve.changes.snapshots import list_snapshots
from docorbit_serve.errors import IngestError, NotPublished
from docorbit_serve.home import Home
from docorbit_serve.manifest import BadManifest, check_manifest, read_manifest
from tests.docorbit_serve.test_search_corpus import make_manifest, publish_corpus
from tests.support.code import package_modules

REPO = Path(__file__).resolve().parents[2]
GOOD = make_manifest(
    {"httpx": {"snapshot": "s_1", "library": "httpx", "version": "0.28", "kind": "local"}}
)
BAD = [
    ({**GOOD, "publish_id": ""}, "publish_id"),
    ({k: v for k, v in GOOD.items() if k != "index"}, "index"),
    ({**GOOD, "schema_version": 3.5}, "schema_version"),
    ({**GOOD, "sources": {"httpx": {"library": "httpx"}}}, "sources.httpx.snapshot"),
    ({**GOOD, "sources": ["httpx"]}, "sources"),
    ({**GOOD, "vectors": {"rows": 3}}, "vectors.path"),
]


def test_manifest_is_declared_once():
    declared = [
        f"{path}:{node.name}"
        for path, tree in package_modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and node.name == "Manifest"
    ]
    assert declared == ["docorbit_serve/models/core.py:Manifest"]


def test_a_valid_manifest_comes_back_unchanged_with_its_extra_keys():
    data = {**GOOD, "vectors": {"path": "index/x.vectors.npy", "model": "m", "rows": 2}, "x": 1}
    assert check_manifest(data) is data


@pytest.mark.parametrize(("data", "where"), BAD, ids=[w for _, w in BAD])
def test_a_malformed_manifest_is_refused_naming_where(data, where):
    with pytest.raises(BadManifest) as e:
        check_manifest(data)
    assert f"({where}:" in str(e.value)


def test_reading_absent_unreadable_and_valid_files(tmp_path):
    path = tmp_path / "published.json"
    assert read_manifest(path) is None
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(BadManifest, match="unreadable"):
        read_manifest(path)
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(BadManifest, match="not a manifest"):
        read_manifest(path)
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    assert read_manifest(path) == GOOD


def test_the_pipeline_publication_passes_the_check_and_a_bad_one_is_never_written(tmp_path):
    home = publish_corpus(tmp_path)
    manifest = json.loads(home.published_path.read_text(encoding="utf-8"))
    assert read_manifest(home.published_path) == manifest
    assert lib_publish.publish(home, manifest) == manifest  # the writer's own check passes
    before = home.published_path.read_bytes()
    bad = {**manifest, "sources": {**manifest["sources"], "extra": {"snapshot": 7}}}
    with pytest.raises(IngestError, match=r"sources\.extra\.snapshot"):
        lib_publish.publish(home, bad)
    assert home.published_path.read_bytes() == before


def test_every_reader_treats_a_malformed_manifest_as_nothing_published(tmp_path):
    home = Home(tmp_path / ".docorbit", tmp_path)
    home.path.mkdir()
    home.published_path.write_text(json.dumps(BAD[3][0]), encoding="utf-8")
    with pytest.raises(NotPublished) as e:
        Catalog(home).manifest()
    assert e.value.code == "not_published" and "sources.httpx.snapshot" in e.value.message
    assert lib_publish.current_manifest(home) is None
    assert service.published_manifest(home) == {}
    assert list_snapshots(home) == []
    home.published_path.write_text(json.dumps(GOOD), encoding="utf-8")
    assert service.published_manifest(home) == lib_publish.current_manifest(home) == GOOD
