"""Fixtures for the serving tests: one published corpus per session, built by the real pipeline.

``published_home`` ingests the real httpx docs (``fixtures/kit/docs/httpx/docs``, copied from the kit)
through ``docorbit_assets.ingest.run_ingest`` into a temporary home once per test session.
Tests must not change it; a test that publishes again builds its own home (``home_factory``,
``ingest_home``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from docorbit_serve.home import Home, resolve_home
from docorbit_serve.registry import Registry, SourceConfig, save_registry

REPO = Path(__file__).resolve().parents[2]
HTTPX_DOCS = (REPO / "fixtures" / "kit" / "docs" / "httpx" / "docs").resolve()
DOCORBIT_BIN = Path(sys.executable).with_name("docorbit")


def make_home(root: Path, *sources: SourceConfig) -> Home:
    """A project folder ``root`` with ``docorbit.toml`` listing ``sources`` and home ``root/.docorbit``."""
    root.mkdir(parents=True, exist_ok=True)
    home = resolve_home(home=root / ".docorbit", env={})
    home.path.mkdir(parents=True, exist_ok=True)
    save_registry(Registry(home.config_path, list(sources)))
    return home


def httpx_source(name: str = "httpx") -> SourceConfig:
    return SourceConfig(
        name=name, kind="local", location=str(HTTPX_DOCS), library="httpx", version="0.28"
    )


def ingest(home: Home, sources: list[str] | None = None) -> dict:
    from docorbit_assets.ingest import run_ingest

    report = run_ingest(home, sources=sources)
    assert report["ok"], report
    return report


@pytest.fixture(scope="session")
def httpx_docs() -> Path:
    assert HTTPX_DOCS.is_dir(), f"fixture data missing: {HTTPX_DOCS}"
    return HTTPX_DOCS


@pytest.fixture(scope="session")
def docorbit_bin() -> Path:
    assert DOCORBIT_BIN.is_file(), f"console script missing: {DOCORBIT_BIN} (run make install)"
    return DOCORBIT_BIN


@pytest.fixture(scope="session")
def home_factory():
    """``home_factory(root, *sources) -> Home`` (see ``make_home``)."""
    return make_home


@pytest.fixture(scope="session")
def ingest_home():
    """``ingest_home(home, sources=None) -> dict``: run the real pipeline on ``home``, publish."""
    return ingest


@pytest.fixture(scope="session")
def published_home(tmp_path_factory: pytest.TempPathFactory) -> Home:
    """Built through the CLI's ``ingest`` command (in-process), which hands over to run_ingest."""
    from click.testing import CliRunner

    from docorbit_serve.cli import cli

    assert HTTPX_DOCS.is_dir(), f"fixture data missing: {HTTPX_DOCS}"
    home = make_home(tmp_path_factory.mktemp("published"), httpx_source())
    r = CliRunner().invoke(cli, ["--home", str(home.path), "ingest", "--json"])
    assert r.exit_code == 0, (r.stdout, r.stderr)
    report = json.loads(r.stdout)  # stdout is the report alone; progress went to stderr
    assert report["ok"] and report["sources"]["httpx"]["status"] == "ok"
    assert "httpx" in r.stderr
    assert home.published_path.is_file()
    return home


@pytest.fixture
def clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """An environment whose HOME is a temp folder and without DOCORBIT_HOME."""
    user_home = tmp_path / "user-home"
    user_home.mkdir()
    monkeypatch.setenv("HOME", str(user_home))
    monkeypatch.delenv("DOCORBIT_HOME", raising=False)
    env = {k: v for k, v in os.environ.items() if k != "DOCORBIT_HOME"}
    env["HOME"] = str(user_home)
    yield env
