"""The change commands on a real publication: the OpenAI spec at three points in time ingested
as three versions of one library (kind ``openapi``, local files from fixtures/changes/openai),
then ``docorbit diff``, ``verify`` (exit 4 on a mismatch, 0 on a clean file) and ``impact``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from docorbit_serve.cli import cli
from docorbit_serve.registry import SourceConfig

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "changes"
VERSIONS = ("1.3.0", "2.0.0", "2023-11-06-devday")


@pytest.fixture(scope="module")
def oai_home(tmp_path_factory, home_factory, ingest_home):
    sources = [
        SourceConfig(
            name=f"openai-{v}",
            kind="openapi",
            location=str(FIX / "openai" / v / "openapi.yaml"),
            library="openai",
            version=v,
        )
        for v in VERSIONS
    ]
    home = home_factory(tmp_path_factory.mktemp("oai"), *sources)
    ingest_home(home)
    return home


def _run(home, *args):
    return CliRunner().invoke(cli, ["--home", str(home.path), *args])


def test_cli_diff_of_library_versions_reports_removed_added_and_deprecated(oai_home):
    r = _run(
        oai_home,
        "diff",
        "openai",
        "--from",
        "1.3.0",
        "--to",
        "2.0.0",
        "--kind",
        "endpoint",
        "--json",
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert (
        data["summary"]["endpoint"].get("removed") == 5
        and "added" not in data["summary"]["endpoint"]
    )
    assert data["from"]["version"] == "1.3.0" and data["to"]["version"] == "2.0.0"
    r = _run(oai_home, "diff", "openai", "--kind", "endpoint", "--json")  # default: top two
    data = json.loads(r.stdout)
    assert (data["from"]["version"], data["to"]["version"]) == ("2.0.0", "2023-11-06-devday")
    assert data["summary"]["endpoint"]["added"] == 34
    assert data["summary"]["endpoint"]["deprecated"] == 6
    text = _run(oai_home, "diff", "openai", "--kind", "endpoint").stdout
    assert "[BEGIN UNTRUSTED DOC" in text and "deprecated endpoint `POST /edits`" in text


def test_cli_verify_exits_4_on_a_mismatch_and_0_on_a_clean_file(oai_home, docorbit_bin):
    ws = FIX / "workspace"
    r = _run(oai_home, "verify", str(ws / "src" / "app.py"), "--json")
    assert r.exit_code == 4, r.output
    data = json.loads(r.stdout)
    assert data["status"] == "mismatch" and data["versions"] == {"openai": "2023-11-06-devday"}
    rules = {f["rule"] for c in data["calls"] for f in c["findings"] if f["status"] == "mismatch"}
    assert "removed_api" in rules
    proc = subprocess.run(
        [str(docorbit_bin), "--home", str(oai_home.path), "verify", str(ws / "scripts" / "clean.sh")],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "# Verify: verified" in proc.stdout
    proc = subprocess.run(
        [str(docorbit_bin), "--home", str(oai_home.path), "verify", str(ws / "scripts" / "answers.sh")],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 4 and "removed_api" in proc.stdout


def test_cli_verify_reads_stdin_with_a_language_and_refuses_missing_paths(oai_home):
    code = 'import requests\nrequests.get("https://api.openai.com/v1/models", headers={"Authorization": "x"})\n'
    r = CliRunner().invoke(
        cli,
        ["--home", str(oai_home.path), "verify", "-", "--language", "python", "--json"],
        input=code,
    )
    assert r.exit_code == 0 and json.loads(r.stdout)["status"] == "verified"
    r = _run(oai_home, "verify", "-", "--json")
    assert r.exit_code == 2
    r = _run(oai_home, "verify", "/no/such/file.py", "--json")
    assert r.exit_code == 7 and json.loads(r.stdout)["error"]["code"] == "bad_input"


def test_cli_impact_lists_workspace_lines_using_removed_endpoints(oai_home):
    ws = FIX / "workspace"
    r = _run(
        oai_home,
        "impact",
        str(ws),
        "--library",
        "openai",
        "--from",
        "1.3.0",
        "--to",
        "2.0.0",
        "--json",
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    got = {(h["file"], h["line"], h["key"], h["certainty"]) for h in data["hits"]}
    assert ("src/app.py", 11, "GET /engines", "high") in got
    assert ("scripts/answers.sh", 3, "POST /answers", "high") in got
    assert data["files_scanned"] == 4 and data["diff"]["summary"]["endpoint"]["removed"] == 5


def test_cli_diff_unknown_library_is_not_found(oai_home):
    r = _run(oai_home, "diff", "nolib", "--json")
    assert r.exit_code == 3 and json.loads(r.stdout)["error"]["code"] == "unknown_library"
