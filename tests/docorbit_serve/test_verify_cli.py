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

pytestmark = pytest.mark.slow  # one real ingest of three spec versions (~1 min)
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
    # all kinds: the operations' sections and endpoint symbols are folded into the endpoint items
    r = _run(oai_home, "diff", "openai", "--from", "1.3.0", "--to", "2.0.0", "--json")
    every = json.loads(r.stdout)
    removed = [(i["kind"], i["key"]) for i in every["items"] if i["change"] == "removed"]
    assert len(removed) == 5 and {k for k, _ in removed} == {"endpoint"}
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


# --------------------------------------------------------------------------- MCP, via the SDK


def _mcp(home, calls):
    """Run ``calls`` ([(tool, args)]) through the SDK client; (tools by name, results)."""
    import anyio
    from mcp import Client

    from docorbit_serve.mcp_server import build_server

    out: dict = {"tools": {}, "results": []}

    async def main() -> None:
        async with Client(build_server(home)) as client:
            out["tools"] = {t.name: t for t in (await client.list_tools()).tools}
            for name, args in calls:
                out["results"].append(await client.call_tool(name, args))

    anyio.run(main)
    return out["tools"], out["results"]


def test_mcp_change_tools_answer_through_the_sdk_and_match_their_output_schemas(oai_home):
    import shutil

    import jsonschema

    shutil.copytree(FIX / "workspace", oai_home.project_root / "ws", dirs_exist_ok=True)
    code = 'fetch("https://api.openai.com/v1/answers", {method: "POST", body: JSON.stringify({question: "q"})})'
    tools, (check, check_path, diff1, diff2, impact, outside) = _mcp(
        oai_home,
        [
            ("check_api", {"code": code, "language": "javascript"}),
            ("check_api", {"path": "ws/scripts/clean.sh"}),
            ("diff_docs", {"target": "openai", "kinds": ["endpoint"], "limit": 30}),
            ("diff_docs", {"target": "openai", "kinds": ["endpoint"], "limit": 30, "cursor": None}),
            (
                "analyze_impact",
                {"target": "openai", "from_ref": "1.3.0", "to_ref": "2.0.0", "path": "ws"},
            ),
            ("check_api", {"path": "../../etc/passwd"}),
        ],
    )
    for name in ("check_api", "diff_docs", "analyze_impact"):
        assert tools[name].annotations.read_only_hint is True
    for r, name in (
        (check, "check_api"),
        (check_path, "check_api"),
        (diff1, "diff_docs"),
        (impact, "analyze_impact"),
    ):
        assert not r.is_error, r.content
        jsonschema.validate(r.structured_content, tools[name].output_schema)
    data = check.structured_content
    assert data["status"] == "mismatch"
    assert data["calls"][0]["findings"][0]["rule"] == "removed_api"
    assert check_path.structured_content["status"] == "verified"
    d = diff1.structured_content
    assert (
        d["total"]
        == d["summary"]["endpoint"]["added"]
        + d["summary"]["endpoint"]["deprecated"]
        + d["summary"]["endpoint"]["modified"]
    )
    assert len(d["items"]) == 30 and d["next_cursor"]
    assert diff2.structured_content == d  # deterministic
    assert "BEGIN UNTRUSTED DOC" in diff1.content[0].text
    hits = impact.structured_content["hits"]
    assert {("ws/src/app.py", 11), ("ws/scripts/answers.sh", 3)} <= {
        (h["file"], h["line"]) for h in hits
    }
    assert outside.is_error and "[bad_input]" in outside.content[0].text


def test_mcp_diff_docs_pages_with_its_cursor(oai_home):
    _, (first,) = _mcp(oai_home, [("diff_docs", {"target": "openai", "limit": 40})])
    seen = [i["key"] + i["kind"] for i in first.structured_content["items"]]
    cursor = first.structured_content["next_cursor"]
    while cursor:
        _, (page,) = _mcp(
            oai_home, [("diff_docs", {"target": "openai", "limit": 40, "cursor": cursor})]
        )
        seen += [i["key"] + i["kind"] for i in page.structured_content["items"]]
        cursor = page.structured_content["next_cursor"]
    assert len(seen) == first.structured_content["total"] == len(set(seen))
    _, (bad,) = _mcp(oai_home, [("diff_docs", {"target": "openai", "cursor": "garbage"})])
    assert bad.is_error and "[bad_input]" in bad.content[0].text


def test_cli_verify_checks_against_the_version_the_workspace_pins(oai_home, tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "requirements.txt").write_text("openai==1.3.0\n")
    (ws / "app.py").write_text(
        "import requests\n"
        'H = {"Authorization": "Bearer k"}\n'
        'requests.post("https://api.openai.com/v1/answers", json={"model": "m", "question": "q", "examples": [], "examples_context": "c"}, headers=H)\n'
        'requests.post("https://api.openai.com/v1/assistants", json={"model": "m"}, headers=H)\n'
    )
    r = _run(oai_home, "verify", str(ws / "app.py"), "--workspace", str(ws), "--json")
    data = json.loads(r.stdout)
    assert data["versions"] == {"openai": "1.3.0"}, data
    answers, assistants = data["calls"]
    assert answers["status"] == "warning" and answers["version"] == "1.3.0"
    assert [f["rule"] for f in answers["findings"] if f["status"] == "warning"] == [
        "deprecated_api"
    ]
    assert assistants["status"] == "mismatch"
    assert assistants["findings"][0]["rule"] == "version_mismatch"
    assert r.exit_code == 4
