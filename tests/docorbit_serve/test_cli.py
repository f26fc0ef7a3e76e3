"""The docorbit CLI through click's CliRunner (in-process): registry commands, errors, reading."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from docorbit_serve.cli import EXIT_CODES, cli


def run(*args: str, env: dict[str, str] | None = None, input: str | None = None):
    return CliRunner().invoke(cli, list(args), env=env, input=input, catch_exceptions=False)


def _json(result) -> dict:
    return json.loads(result.stdout)


@pytest.fixture
def project(tmp_path: Path, clean_env, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder, also the working directory (relative paths resolve against it)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Hello\n", encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def _toml(project: Path) -> dict:
    return tomllib.loads((project / "docorbit.toml").read_text(encoding="utf-8"))


def test_init_creates_config_and_home_and_is_idempotent(project):
    r = run("-p", str(project), "init", "--json")
    assert r.exit_code == 0, r.output
    data = _json(r)
    assert data["config_created"] is True and data["home_created"] is True
    assert (project / "docorbit.toml").is_file() and (project / ".docorbit").is_dir()
    assert (project / ".docorbit" / ".gitignore").read_text() == "*\n"
    before = (project / "docorbit.toml").read_bytes()
    again = _json(run("-p", str(project), "init", "--json"))
    assert again["config_created"] is False and again["home_created"] is False
    assert (project / "docorbit.toml").read_bytes() == before


def test_init_with_home_creates_a_self_contained_home(tmp_path, clean_env):
    home = tmp_path / "a" / "home"
    r = run("--home", str(home), "init", "--json")
    assert r.exit_code == 0, r.output
    assert (home / "docorbit.toml").is_file() and not (home / ".gitignore").exists()
    assert _json(r)["project_root"] == str(home)


def test_init_for_a_missing_project_folder_is_bad_input(tmp_path, clean_env):
    r = run("-p", str(tmp_path / "nope"), "init", "--json")
    assert r.exit_code == 7 and "does not exist" in _json(r)["error"]["message"]
    assert not (tmp_path / "nope").exists()


def test_add_infers_local_kind_and_stores_a_path_inside_the_project_relative(project):
    r = run("-p", str(project), "add", str(project / "docs"), "--library", "mylib", "--json")
    assert r.exit_code == 0, r.output
    assert _json(r)["added"]["location"] == "docs"
    (src,) = _toml(project)["sources"]
    assert src == {
        "name": "mylib",
        "kind": "local",
        "location": "docs",
        "library": "mylib",
        "version": "",
    }
    assert "docorbit ingest" in r.stderr  # the hint goes to stderr, stdout stays data


def test_add_keeps_a_path_outside_the_project_absolute(project, httpx_docs):
    r = run("-p", str(project), "add", str(httpx_docs), "--name", "hx", "--library", "httpx",
            "--version", "0.28", "--include", "**/*.md", "--exclude", "community/*")  # fmt: skip
    assert r.exit_code == 0, r.output
    (src,) = _toml(project)["sources"]
    assert src["location"] == str(httpx_docs) and src["version"] == "0.28"
    assert src["include"] == ["**/*.md"] and src["exclude"] == ["community/*"]


def test_add_infers_web_kind_for_urls_and_keeps_allowed_hosts(project):
    r = run("-p", str(project), "add", "http://127.0.0.1:8765/docs/", "--name", "site",
            "--library", "site", "--allow-host", "127.0.0.1:8765", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    (src,) = _toml(project)["sources"]
    assert src["kind"] == "web" and src["allow_hosts"] == ["127.0.0.1:8765"]


def test_add_default_name_includes_the_version(project):
    run("-p", str(project), "add", "docs", "--library", "lib", "--version", "2")
    (src,) = _toml(project)["sources"]
    assert src["name"] == "lib-2" and src["location"] == "docs"


def test_add_resolves_a_relative_path_against_the_working_directory(project):
    (project / "docs" / "sub").mkdir()
    os.chdir(project / "docs")
    run("-p", str(project), "add", "sub", "--library", "sub")
    assert _toml(project)["sources"][0]["location"] == "docs/sub"


def test_add_of_a_missing_folder_is_bad_input_exit_7(project):
    r = run("-p", str(project), "add", str(project / "nope"), "--library", "x", "--json")
    assert r.exit_code == 7
    err = _json(r)["error"]
    assert err["code"] == "bad_input" and "no such file" in err["message"]
    assert not (project / "docorbit.toml").exists()


def test_add_rejects_a_malformed_allow_host_and_a_duplicate_name(project):
    r = run("-p", str(project), "add", "docs", "--library", "x", "--allow-host", "bad", "--json")
    assert r.exit_code == 2 and _json(r)["error"]["code"] == "usage"
    assert run("-p", str(project), "add", "docs", "--library", "x").exit_code == 0
    dup = run("-p", str(project), "add", "docs", "--library", "x", "--json")
    assert dup.exit_code == 2 and "exists" in _json(dup)["error"]["message"]


def test_json_is_accepted_before_and_after_the_command(project):
    run("-p", str(project), "init")
    before = run("--json", "-p", str(project), "list")
    after = run("-p", str(project), "list", "--json")
    assert _json(before) == _json(after)
    assert _json(after)["sources"] == []


def test_list_and_remove_round_trip(project):
    run("-p", str(project), "add", "docs", "--library", "a")
    run("-p", str(project), "add", "docs", "--name", "b", "--library", "b")
    listed = _json(run("-p", str(project), "list", "--json"))["sources"]
    assert [s["name"] for s in listed] == ["a", "b"]
    assert all(s["published"] is False for s in listed)
    plain = run("-p", str(project), "list")
    assert "| a |" in plain.stdout and "(not published)" in plain.stdout
    assert _json(run("-p", str(project), "remove", "a", "--json"))["removed"]["name"] == "a"
    assert [s["name"] for s in _toml(project)["sources"]] == ["b"]


def test_remove_of_an_unknown_source_prints_a_json_error(project):
    run("-p", str(project), "add", "docs", "--library", "a")
    r = run("-p", str(project), "remove", "zzz", "--json")
    assert r.exit_code == 3
    err = _json(r)["error"]
    assert err["code"] == "source_not_found" and err["detail"]["known"] == ["a"]


def test_errors_without_json_go_to_stderr_only(project):
    r = run("-p", str(project), "remove", "zzz")
    assert r.exit_code == 3 and r.stdout == ""
    assert "source_not_found" in r.stderr


def test_home_options_are_alternatives(project, tmp_path):
    r = run("--home", str(tmp_path / "h"), "-p", str(project), "list", "--json")
    assert r.exit_code == 2 and _json(r)["error"]["code"] == "usage"


def test_click_usage_errors_become_json_usage_errors(project):
    r = run("-p", str(project), "add", "--json")  # PATH_OR_URL and --library missing
    assert r.exit_code == 2 and _json(r)["error"]["code"] == "usage"
    r = run("-p", str(project), "get", "c_x", "--mode", "book", "--json")
    assert r.exit_code == 2 and "book" in _json(r)["error"]["message"]


def test_mcp_http_beyond_loopback_without_an_allow_list_is_refused_clearly(project):
    r = run("-p", str(project), "mcp", "--http", "--host", "0.0.0.0", "--json")
    assert r.exit_code == 2
    err = _json(r)["error"]
    assert err["code"] == "usage" and "--allow-host" in err["message"]


def test_reading_before_anything_is_published_exits_3(project):
    run("-p", str(project), "init")
    for args in (["search", "timeout"], ["get", "c_00000000000000000000"]):
        r = run("-p", str(project), *args, "--json")
        assert r.exit_code == 3, args
        assert _json(r)["error"]["code"] == "not_published"
        assert "docorbit ingest" in _json(r)["error"]["message"]


def test_ingest_without_sources_is_a_usage_error(project):
    run("-p", str(project), "init")
    r = run("-p", str(project), "ingest", "--json")
    assert r.exit_code == 2 and "docorbit add" in _json(r)["error"]["message"]


def test_help_documents_every_exit_code():
    out = run("--help").stdout
    for code, meaning in EXIT_CODES.items():
        assert f"{code:>3}  {meaning}" in out


# --------------------------------------------------------------------------- published corpus

RESULT_FIELDS = {
    "chunk_id", "library", "version", "source", "url", "path", "title", "heading", "anchor",
    "breadcrumb", "score", "tokens", "snapshot", "untrusted", "content",
}  # fmt: skip


def test_search_json_results_carry_the_contract_fields(published_home):
    r = run("--home", str(published_home.path), "search", "set a default timeout on a client",
            "--library", "httpx", "--limit", "3", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    data = _json(r)
    assert 1 <= len(data["hits"]) <= 3
    for hit in data["hits"]:
        assert set(hit) >= RESULT_FIELDS
        assert hit["untrusted"] is True and hit["library"] == "httpx"
        assert hit["snapshot"].startswith("s_")
    assert data["hits"][0]["path"] == "advanced/timeouts.md"


def test_search_markdown_quotes_every_hit_as_untrusted_data(published_home):
    r = run("--home", str(published_home.path), "search", "timeout", "--limit", "2")
    assert r.exit_code == 0
    assert r.stdout.count("[BEGIN UNTRUSTED DOC c_") == 2
    assert r.stdout.count("[END UNTRUSTED DOC c_") == 2


def test_search_with_an_unknown_library_exits_3(published_home):
    r = run("--home", str(published_home.path), "search", "timeout", "--library", "nope", "--json")
    assert r.exit_code == 3 and _json(r)["error"]["code"] == "unknown_library"


def test_search_batch_answers_one_line_per_query(published_home, tmp_path):
    batch = tmp_path / "q.jsonl"
    lines = [
        {"id": "a", "query": "streaming responses"},
        {"id": 2, "query": "proxy", "library": "httpx"},
        {"id": "c", "query": "timeout", "library": "nope"},
    ]
    batch.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")
    r = run("--home", str(published_home.path), "search", "--batch", str(batch), "--json",
            "--limit", "4")  # fmt: skip
    assert r.exit_code == 0, r.output
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", 2, "c"]
    assert all(set(h) >= RESULT_FIELDS for o in out[:2] for h in o["hits"])
    assert 1 <= len(out[0]["hits"]) <= 4
    assert out[2]["hits"] == [] and out[2]["error"]["code"] == "unknown_library"


def test_search_batch_with_a_broken_line_is_bad_input_before_any_output(published_home, tmp_path):
    batch = tmp_path / "q.jsonl"
    batch.write_text('{"id": 1, "query": "timeout"}\n{not json\n', encoding="utf-8")
    r = run("--home", str(published_home.path), "search", "--batch", str(batch), "--json")
    assert r.exit_code == 7
    assert _json(r)["error"]["code"] == "bad_input" and ":2:" in _json(r)["error"]["message"]


def test_get_reads_a_section_and_continues_with_its_cursor(published_home):
    home = str(published_home.path)
    hit = _json(run("--home", home, "search", "WSGI transport", "--json", "--limit", "1"))["hits"][
        0
    ]
    first = _json(run("--home", home, "get", hit["chunk_id"], "--mode", "page",
                      "--max-tokens", "100", "--json"))  # fmt: skip
    assert first["untrusted"] is True and first["truncated"] is True and first["tokens"] <= 100
    second = _json(run("--home", home, "get", "--cursor", first["next_cursor"], "--max-tokens",
                       "100", "--json"))  # fmt: skip
    assert second["offset"] == len(first["content"]) and second["page_id"] == first["page_id"]
    md = run("--home", home, "get", hit["chunk_id"], "--mode", "section").stdout
    assert f"[BEGIN UNTRUSTED DOC {hit['chunk_id']}]" in md


def test_get_of_an_unknown_chunk_exits_3(published_home):
    r = run("--home", str(published_home.path), "get", "c_00000000000000000000", "--json")
    assert r.exit_code == 3 and _json(r)["error"]["code"] == "not_found"


def test_list_shows_the_published_snapshot(published_home):
    (src,) = _json(run("--home", str(published_home.path), "list", "--json"))["sources"]
    manifest = json.loads(published_home.published_path.read_text())
    assert src["published"] is True
    assert src["snapshot"] == manifest["sources"]["httpx"]["snapshot"]


def test_a_failed_ingest_exits_8_with_the_report_in_the_error(project):
    gone = project / "gone"
    gone.mkdir()
    run("-p", str(project), "add", "gone", "--library", "gone")
    gone.rmdir()
    r = run("-p", str(project), "ingest", "--json")
    assert r.exit_code == 8, r.output
    err = _json(r)["error"]
    assert err["code"] == "ingest_failed" and err["message"].startswith("ingest failed: gone:")
    assert err["detail"]["sources"]["gone"]["status"] == "failed"
    assert not (project / ".docorbit" / "published.json").exists()


def test_docs_cli_page_names_every_command_and_exit_code():
    page = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    for name in cli.commands:
        assert f"| `{name}" in page, name
    for code, meaning in EXIT_CODES.items():
        assert f"| {code} | {meaning} |" in page


def test_add_stores_crawl_limits_and_refuses_unknown_or_bad_ones(project):
    r = run("-p", str(project), "add", "docs", "--library", "a", "--limit", "max_pages=20",
            "--limit", "politeness=0.5", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    (entry,) = _toml(project)["sources"]
    assert entry["limits"] == {"max_pages": 20, "politeness": 0.5}
    for bad in ("pages=3", "max_pages", "max_pages=lots", "politeness=-1"):
        r = run("-p", str(project), "add", "docs", "--name", "b", "--library", "b",
                "--limit", bad, "--json")  # fmt: skip
        assert r.exit_code == 2, (bad, r.output)
        assert _json(r)["error"]["code"] == "usage"
    assert [s["name"] for s in _toml(project)["sources"]] == ["a"]
