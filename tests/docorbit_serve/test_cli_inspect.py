"""CLI faces of the fetch policy and discovery: allowances on add/ingest, blocked_url (exit 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from docorbit_serve.cli import cli
from docorbit_serve.registry import load_registry, save_registry
from tests.support.http import FAST_LIMITS, allowance, serve_directory
from tests.support.paths import FIXTURE_SITE


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, clean_env, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    monkeypatch.chdir(root)
    assert run("-p", str(root), "init").exit_code == 0
    return root


def _fast(project: Path) -> None:
    """No politeness delay for the loopback server (the policy itself is tested elsewhere)."""
    reg = load_registry(project / "docorbit.toml")
    for src in list(reg.sources):
        reg.add(type(src)(**{**src.__dict__, "limits": dict(FAST_LIMITS)}), replace=True)
    save_registry(reg)


def test_add_refuses_a_loopback_url_without_an_allowance_with_blocked_url_exit_5(project):
    r = run("-p", str(project), "add", "http://127.0.0.1:8765/", "--library", "x", "--json")
    assert r.exit_code == 5
    err = json.loads(r.stdout)["error"]
    assert (err["code"], err["detail"]["reason"]) == ("blocked_url", "loopback")
    assert load_registry(project / "docorbit.toml").sources == []
    other_port = run("-p", str(project), "add", "http://127.0.0.1:8765/", "--library", "x",
                     "--allow-host", "127.0.0.1:8766", "--json")  # fmt: skip
    assert other_port.exit_code == 5


def test_ingest_of_a_source_on_a_refused_host_fails_with_blocked_url_until_allowed(project):
    with serve_directory(FIXTURE_SITE) as base:
        added = run("-p", str(project), "add", base, "--library", "orbitkit",
                    "--allow-host", allowance(base), "--json")  # fmt: skip
        assert added.exit_code == 0, added.output
        assert json.loads(added.stdout)["added"]["allow_hosts"] == [allowance(base)]
        reg = load_registry(project / "docorbit.toml")
        (src,) = reg.sources
        reg.add(type(src)(**{**src.__dict__, "allow_hosts": ()}), replace=True)  # forget it
        save_registry(reg)
        _fast(project)
        blocked = run("-p", str(project), "ingest", "--json")
        allowed = run("-p", str(project), "ingest", "--allow-host", allowance(base), "--json")
    assert blocked.exit_code == 5
    err = json.loads(blocked.stdout)["error"]
    assert err["code"] == "blocked_url"
    steps = err["detail"]["sources"]["orbitkit"]["error"]["detail"]["steps"]
    assert {s["code"] for s in steps} == {"blocked_url"}
    assert allowed.exit_code == 0, allowed.output
    report = json.loads(allowed.stdout)
    assert report["published"] and report["sources"]["orbitkit"]["rows"]["fetches"] == 6
