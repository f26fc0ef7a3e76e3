"""One corpus per session: pydantic 1.10.26 and 2.12.5 docs published side by side.

Built through the CLI (``init``, ``add --library pydantic --version …`` twice, ``ingest``)
into a home folder that is not named ``.docorbit``, so its registry lives inside it and the
workspace comes from ``--workspace`` or the working directory, as for a global home.
Tests must not change it.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from docorbit_serve.cli import cli
from docorbit_serve.home import Home, resolve_home
from tests.support.paths import shared_data

REPO = Path(__file__).resolve().parents[3]
PYDANTIC = (REPO / ".." / "shared" / "data" / "docs" / "versions" / "pydantic").resolve()
WORKSPACES = REPO / "fixtures" / "workspaces"
QUESTIONS = REPO / "fixtures" / "version_questions.jsonl"
VERSIONS = {"1.10.26": PYDANTIC / "v1.10.26" / "docs", "2.12.5": PYDANTIC / "v2.12.5" / "docs"}


@dataclass(frozen=True)
class Corpus:
    home: Home
    report: dict


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="session")
def two_versions(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    for folder in VERSIONS.values():  # two whole pydantic doc sets: the full kit only
        shared_data(str(folder.relative_to(PYDANTIC.parents[2])))
    path = tmp_path_factory.mktemp("versions") / "docs-home"
    h = str(path)
    assert invoke("--home", h, "init").exit_code == 0
    for version, folder in VERSIONS.items():
        r = invoke("--home", h, "add", str(folder), "--library", "pydantic", "--version", version)
        assert r.exit_code == 0, r.output
    r = invoke("--home", h, "ingest", "--json")
    assert r.exit_code == 0, (r.stdout, r.stderr)
    return Corpus(resolve_home(home=path, env={}), json.loads(r.stdout))


@pytest.fixture(scope="session")
def questions() -> list[dict]:
    return [json.loads(x) for x in QUESTIONS.read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.fixture
def workspace(tmp_path: Path):
    """``workspace(name) -> Path``: a private copy of ``fixtures/workspaces/<name>``."""

    def copy(name: str) -> Path:
        dest = tmp_path / name
        if not dest.exists():
            shutil.copytree(WORKSPACES / name, dest)
        return dest

    return copy
