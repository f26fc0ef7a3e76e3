"""The confidence ladder and workspace resolution."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from docorbit_serve.workspace import CONFIDENCE, Dependency, resolve_docs_version, resolve_workspace

REPO = Path(__file__).resolve().parents[2]
MANIFESTS = REPO / "fixtures" / "kit" / "manifests"  # copied from the kit
PYDANTIC = ["v1.10.26", "v2.11.10", "v2.12.5"]  # the labels of shared/data/docs/versions/pydantic


def dep(version=None, spec="", ecosystem="pypi", name="pydantic"):
    return Dependency(
        ecosystem, name, spec, version, "lockfile" if version else "manifest", ".", "x"
    )


@pytest.mark.parametrize(
    ("version", "labels", "level", "chosen"),
    [
        ("1.10.26", PYDANTIC, "exact", "v1.10.26"),
        ("2.12.5", PYDANTIC, "exact", "v2.12.5"),
        ("1.10.3", PYDANTIC, "major_minor", "v1.10.26"),
        ("2.12.0", PYDANTIC, "major_minor", "v2.12.5"),
        ("2.12.3", ["2.12", "v2", "2.12.9"], "major_minor", "2.12"),
        ("1.9.0", PYDANTIC, "major", "v1.10.26"),
        ("2.13.1", PYDANTIC, "major", "v2.12.5"),
        ("2.5.1", ["v2", "latest"], "major", "v2"),
        ("3.0.0", PYDANTIC, "latest_fallback", "v2.12.5"),
        ("3.0.0", ["v2", "latest"], "latest_fallback", "latest"),
        ("3.0.0", [""], "latest_fallback", ""),
        ("3.0.0", [], "unresolved", None),
    ],
)
def test_ladder_levels_follow_what_the_docs_labels_expose(version, labels, level, chosen):
    res = resolve_docs_version(dep(version), labels)
    assert (res.level, res.version) == (level, chosen)
    assert res.confidence == CONFIDENCE[level]
    assert res.reason


def test_a_major_label_never_claims_exact_or_minor_precision():
    res = resolve_docs_version(dep("2.12.5"), ["v2"])
    assert (res.level, res.confidence) == ("major", 0.90)


def test_zero_major_versions_need_the_same_minor_for_a_major_match():
    assert (
        resolve_docs_version(dep("0.3.2", ecosystem="npm"), ["0.2", "0.4"]).level
        == "latest_fallback"
    )
    assert resolve_docs_version(dep("0.3.2", ecosystem="npm"), ["0.3.9"]).level == "major_minor"
    assert resolve_docs_version(dep("0.3.2", ecosystem="npm"), ["v0"]).level == "major"


def test_range_level_when_only_a_requirement_is_known():
    res = resolve_docs_version(dep(None, ">=2.0,<2.12"), PYDANTIC)
    assert (res.level, res.version, res.confidence) == ("range", "v2.11.10", 0.85)
    res = resolve_docs_version(dep(None, "^1.30", ecosystem="npm", name="sdk"), ["v1", "v2"])
    assert (res.level, res.version) == ("range", "v1")
    assert resolve_docs_version(dep(None, ">=3"), PYDANTIC).level == "latest_fallback"
    assert resolve_docs_version(dep(None, "==1.10.26"), PYDANTIC).level == "exact"  # a pin is exact


def test_nearest_lists_the_closest_indexed_versions_first():
    res = resolve_docs_version(dep("3.0.0"), PYDANTIC)
    assert res.nearest == ["v2.12.5", "v2.11.10", "v1.10.26"]
    assert resolve_docs_version(dep("1.11.0"), PYDANTIC).nearest[0] == "v1.10.26"


def test_go_pseudo_versions_resolve_by_their_semver_line():
    d = dep(
        "v1.1.1-0.20250404203927-76690c660834",
        ecosystem="go",
        name="github.com/charmbracelet/lipgloss",
    )
    assert resolve_docs_version(d, ["v1.1", "v0.9"]).level == "major_minor"


def test_resolve_workspace_matches_libraries_by_normalized_and_short_names():
    indexed = {
        "pydantic": PYDANTIC,
        "HTTPX": ["0.28"],
        "cobra": ["v1.10.2"],
        "spring-boot-starter-parent": ["4.0"],
    }
    npm = resolve_workspace(MANIFESTS / "npm-workspaces-mcp-servers", indexed)
    by = {
        (d.package_path, d.name): r
        for d, r in zip(npm.scan.dependencies, npm.resolutions, strict=True)
    }
    assert by[("src/fetch", "pydantic")].library == "pydantic"
    assert by[("src/fetch", "pydantic")].level in ("exact", "major_minor", "major")
    assert by[("src/fetch", "httpx")].library == "HTTPX"
    assert by[("src/everything", "express")].level == "unresolved"
    go = resolve_workspace(MANIFESTS / "go-glow", indexed)
    cobra = [
        r
        for d, r in zip(go.scan.dependencies, go.resolutions, strict=True)
        if d.name.endswith("/cobra")
    ]
    assert cobra[0].level == "exact" and cobra[0].version == "v1.10.2"
    mvn = resolve_workspace(MANIFESTS / "maven-spring-petclinic", indexed)
    parent = [
        r
        for d, r in zip(mvn.scan.dependencies, mvn.resolutions, strict=True)
        if d.name.endswith(":spring-boot-starter-parent")
    ]
    assert (parent[0].level, parent[0].version) == ("major_minor", "4.0")


def test_workspace_package_does_not_import_dagster_or_the_pipeline():
    code = (
        "import sys, docorbit_serve.workspace as w; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('dagster', 'docorbit_assets')]; "
        "print(bad)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
