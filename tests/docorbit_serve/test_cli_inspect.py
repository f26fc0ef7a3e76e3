"""CLI faces of the fetch policy and discovery: allowances on add/ingest, blocked_url (exit 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from docorbit_serve.cli import cli
from docorbit_serve.registry import load_registry, save_registry
from tests.support.http import FAST_LIMITS, HTTPX_SITE_URL, allowance, serve_directory, serve_site
from tests.support.paths import FIXTURE_SITE, KIT_DATA


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


SITE = KIT_DATA / "site" / "httpx"
PETSTORE = KIT_DATA / "openapi/oai-examples/examples/v3.0/petstore.json"


def test_inspect_json_prints_findings_validity_and_ranking_without_storing(project):
    overlay = {"/openapi.json": (200, "application/json", PETSTORE.read_bytes())}
    with serve_site(SITE, overlay=overlay, rewrite={HTTPX_SITE_URL: "{base}"}) as base:
        r = run("-p", str(project), "inspect", base, "--allow-host", allowance(base), "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["ingest"] == {"url": base + "sitemap.xml", "type": "sitemap"}
    assert data["purposes"]["api"]["recommended"]["url"] == base + "openapi.json"
    assert data["purposes"]["navigation"]["recommended"]["type"] == "sitemap"
    assert "OpenAPI 3.0.0 'Swagger Petstore'" in data["purposes"]["api"]["rationale"]
    statuses = {(c["type"], c["status"]) for c in data["candidates"]}
    assert ("openapi", "valid") in statuses and ("llms_txt", "invalid") in statuses
    assert load_registry(project / "docorbit.toml").sources == []
    assert not (project / ".docorbit" / "staging").exists()


def test_inspect_of_a_refused_url_is_blocked_url_exit_5(project):
    r = run("-p", str(project), "inspect", "http://169.254.169.254/latest/", "--json")
    assert r.exit_code == 5
    assert json.loads(r.stdout)["error"]["detail"]["reason"] == "metadata"


def test_add_of_a_package_name_stores_its_documented_url(project):
    r = run("-p", str(project), "add", "httpx", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["added"]["location"] == "https://www.python-httpx.org"
    assert data["added"]["library"] == "httpx" and data["added"]["kind"] == "web"
    assert data["resolved"]["chosen"]["origin"] == "installed"


def test_crawl_ingest_of_the_built_httpx_site_needs_an_allowance_for_its_exact_port(project):
    with serve_site(SITE) as base:  # no llms.txt, sitemap on another host: crawled as HTML
        refused = run("-p", str(project), "add", base, "--library", "httpx", "--json")
        added = run("-p", str(project), "add", base, "--library", "httpx",
                    "--allow-host", allowance(base), "--json")  # fmt: skip
        assert added.exit_code == 0, added.output
        _fast(project)
        ingested = run("-p", str(project), "ingest", "--json")
    assert refused.exit_code == 5
    assert json.loads(refused.stdout)["error"]["code"] == "blocked_url"
    assert ingested.exit_code == 0, ingested.output
    rows = json.loads(ingested.stdout)["sources"]["httpx"]["rows"]
    assert rows["fetches"] == 23 and rows["pages"] >= 22
