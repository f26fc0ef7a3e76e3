"""Workspace scanning against the real projects in shared/data/manifests and our fixtures.

Expected versions are read straight from the lockfile text with small regexes or plain JSON
look-ups, independently of the scanner's parsers.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from docorbit_serve.errors import InputError
from docorbit_serve.workspace import WARNING_CODES, scan_workspace

REPO = Path(__file__).resolve().parents[2]
MANIFESTS = REPO / "fixtures" / "kit" / "manifests"  # copied from the kit
FIXTURES = REPO / "fixtures" / "workspaces"


def _one(scan, name, package_path=".", ecosystem=None):
    hits = [
        d
        for d in scan.dependencies
        if d.name == name
        and d.package_path == package_path
        and (ecosystem is None or d.ecosystem == ecosystem)
    ]
    assert len(hits) == 1, (name, package_path, hits)
    return hits[0]


def _toml_lock_version(text: str, name: str) -> str:
    """Version of a [[package]] in Cargo.lock / uv.lock, by regex (first entry of that name)."""
    m = re.search(rf'^name = "{re.escape(name)}"\nversion = "([^"]+)"', text, re.M)
    assert m, name
    return m.group(1)


@pytest.fixture(scope="module")
def npm_scan():
    return scan_workspace(MANIFESTS / "npm-workspaces-mcp-servers")


def test_npm_workspace_members_get_versions_from_root_package_lock(npm_scan):
    lock = json.loads((MANIFESTS / "npm-workspaces-mcp-servers" / "package-lock.json").read_text())
    packages = lock["packages"]
    for member, name in [
        ("src/everything", "express"),
        ("src/everything", "zod"),
        ("src/filesystem", "minimatch"),
        ("src/filesystem", "glob"),
        ("src/sequentialthinking", "yargs"),
        ("src/memory", "@modelcontextprotocol/sdk"),
    ]:
        expected = (
            packages.get(f"{member}/node_modules/{name}") or packages[f"node_modules/{name}"]
        )["version"]
        dep = _one(npm_scan, name, member, "npm")
        assert dep.version == expected
        assert dep.resolved_from == "lockfile"
        assert dep.lock_file == "package-lock.json"
        assert dep.source_file == f"{member}/package.json"


def test_npm_dev_dependencies_are_marked_dev_and_workspace_links_left_out(npm_scan):
    assert _one(npm_scan, "vitest", "src/everything").dev is True
    assert _one(npm_scan, "express", "src/everything").dev is False
    names_at_root = {d.name for d in npm_scan.dependencies if d.package_path == "."}
    assert "@modelcontextprotocol/server-everything" not in names_at_root


def test_npm_monorepo_keeps_python_subprojects_with_their_own_uv_locks(npm_scan):
    for sub, name in [
        ("fetch", "httpx"),
        ("fetch", "pydantic"),
        ("git", "gitpython"),
        ("time", "tzlocal"),
    ]:
        text = (MANIFESTS / "npm-workspaces-mcp-servers" / "src" / sub / "uv.lock").read_text()
        dep = _one(npm_scan, name, f"src/{sub}", "pypi")
        assert dep.version == _toml_lock_version(text, name)
        assert dep.lock_file == f"src/{sub}/uv.lock"
    # the same library in three packages stays three records
    mcp = [d for d in npm_scan.dependencies if d.name == "mcp"]
    assert sorted(d.package_path for d in mcp) == ["src/fetch", "src/git", "src/time"]
    assert _one(npm_scan, "pytest", "src/fetch").dev is True


def test_cargo_workspace_members_read_the_root_cargo_lock():
    root = MANIFESTS / "cargo-workspace-ripgrep"
    scan = scan_workspace(root)
    text = (root / "Cargo.lock").read_text()
    for member, name in [
        (".", "anyhow"),
        (".", "serde_json"),
        ("crates/ignore", "walkdir"),
        ("crates/ignore", "crossbeam-deque"),
        ("crates/globset", "aho-corasick"),
        ("crates/pcre2", "pcre2"),
    ]:
        dep = _one(scan, name, member, "cargo")
        assert dep.version == _toml_lock_version(text, name), (member, name)
        assert dep.lock_file == "Cargo.lock"
    fuzz_text = (root / "fuzz" / "Cargo.lock").read_text()
    dep = _one(scan, "libfuzzer-sys", "fuzz")
    assert dep.version == _toml_lock_version(fuzz_text, "libfuzzer-sys")
    assert dep.lock_file == "fuzz/Cargo.lock"
    # path dependencies on workspace members are local code, not documentation targets
    assert not scan.find("grep-matcher")
    assert scan.warnings == []


def test_go_mod_versions_including_pseudo_versions_and_indirect_flag():
    root = MANIFESTS / "go-glow"
    scan = scan_workspace(root)
    text = (root / "go.mod").read_text()
    for module in [
        "github.com/charmbracelet/lipgloss",
        "github.com/spf13/cobra",
        "golang.org/x/exp",
        "github.com/muesli/ansi",
        "mvdan.cc/sh/v3",
    ]:
        m = re.search(rf"^\s*(?:require\s+)?{re.escape(module)} (v\S+)", text, re.M)
        dep = _one(scan, module, ".", "go")
        assert dep.version == m.group(1)
    assert _one(scan, "github.com/charmbracelet/lipgloss").version.startswith("v1.1.1-0.2025")
    assert _one(scan, "golang.org/x/exp").direct is False
    assert _one(scan, "github.com/spf13/cobra").direct is True
    assert len(scan.dependencies) == len(re.findall(r"^\t\S+ v\S+", text, re.M))


def test_python_requirements_pins_and_pyproject_ranges():
    root = MANIFESTS / "python-httpx"
    scan = scan_workspace(root)
    req = (root / "requirements.txt").read_text()
    for name in ["mkdocs", "pytest", "uvicorn", "mkdocs-material", "cryptography"]:
        m = re.search(rf"^{re.escape(name)}==(\S+)$", req, re.M)
        dep = _one(scan, name)
        assert dep.version == m.group(1)
        assert dep.source_file == "requirements.txt"
        assert dep.resolved_from == "manifest"
    httpcore = _one(scan, "httpcore")
    assert (httpcore.spec, httpcore.version, httpcore.source_file) == (
        "==1.*",
        None,
        "pyproject.toml",
    )
    assert _one(scan, "rich").spec in ("<15,>=10", ">=10,<15")
    assert not scan.find("httpx")  # "-e .[brotli,...]" is the project itself


def test_composer_versions_come_from_composer_lock_and_platform_packages_are_left_out():
    root = MANIFESTS / "php-composer"
    scan = scan_workspace(root)
    lock = json.loads((root / "composer.lock").read_text())
    locked = {p["name"]: p["version"] for p in lock["packages"] + lock["packages-dev"]}
    for name in [
        "symfony/console",
        "composer/semver",
        "psr/log",
        "react/promise",
        "phpstan/phpstan",
    ]:
        assert _one(scan, name).version == locked[name]
    assert _one(scan, "phpstan/phpstan").dev is True
    assert not [d for d in scan.dependencies if d.name in ("php", "ext-json")]
    assert len(scan.dependencies) == 27


def test_rubygems_versions_from_gemfile_lock_with_groups_and_platform_suffixes_dropped():
    root = MANIFESTS / "ruby-rubygems.org"
    scan = scan_workspace(root)
    lock = (root / "Gemfile.lock").read_text()
    for name in ["rails", "puma", "pg", "google-protobuf", "rubocop", "avo-advanced"]:
        m = re.search(rf"^    {re.escape(name)} \(([0-9][^-)]*)", lock, re.M)
        assert _one(scan, name).version == m.group(1), name
    assert _one(scan, "rails").spec == "~> 8.1.3"
    assert _one(scan, "rubocop").dev is True  # group :development, :test
    assert _one(scan, "avo_upgrade").dev is True  # group: :development option
    assert _one(scan, "tailwindcss-rails").dev is False  # :assets is not a dev group
    deps_section = lock.split("\nDEPENDENCIES\n", 1)[1].split("\n\n", 1)[0]
    assert len(scan.dependencies) == len(deps_section.strip().splitlines())


def test_pub_versions_from_pubspec_lock_and_sdk_packages_left_out():
    root = MANIFESTS / "dart-flutter-gallery"
    scan = scan_workspace(root)
    lock = (root / "pubspec.lock").read_text()
    for name in ["provider", "google_fonts", "url_launcher", "intl", "test"]:
        m = re.search(
            rf"^  {name}:\n(?:    .*\n|      .*\n)*?    version: \"([^\"]+)\"", lock, re.M
        )
        assert _one(scan, name).version == m.group(1), name
    assert _one(scan, "intl").spec == "any"
    assert _one(scan, "test").dev is True
    assert not scan.find("flutter")
    assert len(scan.dependencies) == lock.count('dependency: "direct') - 4  # 4 sdk packages


def test_maven_pom_properties_and_parent_managed_versions():
    root = MANIFESTS / "maven-spring-petclinic"
    scan = scan_workspace(root)
    pom = (root / "pom.xml").read_text()
    boot = re.search(r"<parent>.*?<version>([^<]+)</version>", pom, re.S).group(1)
    bootstrap = re.search(r"<webjars-bootstrap.version>([^<]+)<", pom).group(1)
    assert _one(scan, "org.springframework.boot:spring-boot-starter-parent").version == boot
    assert _one(scan, "org.springframework.boot:spring-boot-starter-webmvc").version == boot
    assert _one(scan, "org.webjars.npm:bootstrap").version == bootstrap
    assert (
        _one(scan, "com.h2database:h2").version is None
    )  # managed by the parent's BOM, unknown here
    assert _one(scan, "org.testcontainers:testcontainers-mysql").dev is True
    project_deps = pom.split("<dependencies>", 1)[1].split("</dependencies>", 1)[0]
    assert project_deps.count("<dependency>") + 1 == len(scan.dependencies)  # + the parent
    assert not scan.find("com.puppycrawl.tools:checkstyle")  # plugin dependencies are build tooling


def test_every_shared_project_scans_without_warnings():
    for project in sorted(p for p in MANIFESTS.iterdir() if p.is_dir()):
        scan = scan_workspace(project)
        assert scan.dependencies, project.name
        assert scan.warnings == [], (project.name, scan.warnings)


def test_pnpm_monorepo_keeps_one_record_per_package_and_version():
    scan = scan_workspace(FIXTURES / "pnpm-monorepo")
    lodash = sorted((d.package_path, d.version) for d in scan.find("lodash"))
    assert lodash == [("packages/legacy", "3.10.1"), ("packages/web", "4.17.21")]
    assert _one(scan, "react", "packages/web").version == "18.3.1"  # peer suffix dropped
    assert not scan.find("@mono/legacy")  # workspace: link


def test_yarn_classic_and_berry_lockfiles():
    classic = scan_workspace(FIXTURES / "yarn-classic")
    assert _one(classic, "chalk").version == "4.1.2"
    assert _one(classic, "@babel/code-frame").version == "7.24.2"
    assert _one(classic, "jest").dev is True
    berry = scan_workspace(FIXTURES / "yarn-berry")
    assert _one(berry, "zod").version == "3.23.8"


def test_poetry_lock_and_caret_requirements():
    scan = scan_workspace(FIXTURES / "poetry-app")
    pyd = _one(scan, "pydantic")
    assert (pyd.version, pyd.lock_file) == ("1.10.15", "poetry.lock")
    assert "<2" in pyd.spec and ">=1.10" in pyd.spec
    assert _one(scan, "pytest").dev is True
    assert not scan.find("mylib") and not scan.find("python")


def test_broken_manifests_become_typed_warnings_not_crashes():
    scan = scan_workspace(FIXTURES / "broken")
    by_file = {}
    for w in scan.warnings:
        assert w.code in WARNING_CODES
        by_file.setdefault(w.file, set()).add(w.code)
    assert by_file["npm-truncated/package.json"] == {"parse_error"}
    assert by_file["npm-badlock/package-lock.json"] == {"parse_error"}
    assert "invalid_spec" in by_file["npm-badlock/package.json"]
    assert by_file["cargo-bad/Cargo.toml"] == {"parse_error"}
    assert by_file["composer-bad/composer.json"] == {"parse_error"}
    assert by_file["pub-bad/pubspec.yaml"] == {"parse_error"}
    assert by_file["maven-truncated/pom.xml"] == {"parse_error"}
    assert by_file["go-bad/go.mod"] == {"parse_error"}
    assert "parse_error" in by_file["ruby-bad/Gemfile"]
    assert {"parse_error", "invalid_spec"} <= by_file["pypi-bad/pyproject.toml"]
    assert "invalid_spec" in by_file["pypi-bad/requirements.txt"]
    # the good parts of broken packages are still read
    assert _one(scan, "requests", "pypi-bad").version == "2.32.3"
    assert _one(scan, "github.com/spf13/cobra", "go-bad").version == "v1.8.0"


def test_pom_entities_are_never_expanded():
    scan = scan_workspace(FIXTURES / "broken" / "maven-entity")
    assert _one(scan, "com.google.guava:guava").version == "33.0.0-jre"
    bomb = _one(scan, "org.example:uses-bomb")
    assert bomb.version is None and "aaaa" not in bomb.spec
    assert {w.code for w in scan.warnings} == {"unresolved_property"}


def test_scan_skips_dependency_folders_and_bounds_file_size(tmp_path):
    shutil.copytree(FIXTURES / "yarn-classic", tmp_path / "app")
    for skipped in ("node_modules/leftpad", ".venv/lib", "target/debug", "vendor/x", ".git/x"):
        d = tmp_path / "app" / skipped
        d.mkdir(parents=True)
        (d / "package.json").write_text('{"dependencies": {"should-not-appear": "1.0.0"}}')
    big = tmp_path / "app" / "huge"
    big.mkdir()
    (big / "package.json").write_text('{"x": "' + "a" * (3 * 1024 * 1024) + '"}')
    scan = scan_workspace(tmp_path)
    assert not scan.find("should-not-appear")
    assert {d.package_path for d in scan.dependencies} == {"app"}
    assert [w.code for w in scan.warnings] == ["too_large"]


def test_scan_does_not_follow_links_out_of_the_workspace(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "package.json").write_text('{"dependencies": {"secret": "1.0.0"}}')
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "package.json").symlink_to(outside / "package.json")
    scan = scan_workspace(ws)
    assert not scan.find("secret")
    assert [w.code for w in scan.warnings] == ["unsafe_path"]


def test_scan_is_deterministic_and_rejects_a_missing_root(tmp_path):
    a = scan_workspace(MANIFESTS / "ruby-rubygems.org")
    b = scan_workspace(MANIFESTS / "ruby-rubygems.org")
    assert a.to_dict() == b.to_dict()
    with pytest.raises(InputError):
        scan_workspace(tmp_path / "nope")
