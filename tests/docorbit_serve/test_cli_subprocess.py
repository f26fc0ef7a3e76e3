"""The installed console script ``docorbit`` run as a real process (stdout/stderr/exit codes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def sh(bin_: Path, *args: str, cwd: Path, env: dict[str, str], stdin: str | None = None):
    return subprocess.run(
        [str(bin_), *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_console_script_round_trips_init_add_list_remove(docorbit_bin, tmp_path, clean_env):
    proj = tmp_path / "proj"
    (proj / "docs" / "guide").mkdir(parents=True)
    (proj / ".git").mkdir()  # a project root marker: no -p needed from inside it
    cwd = proj / "docs"

    r = sh(docorbit_bin, "init", "--json", cwd=cwd, env=clean_env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["project_root"] == str(proj)

    r = sh(docorbit_bin, "add", "guide", "--library", "guide", "--json", cwd=cwd, env=clean_env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["added"]["location"] == "docs/guide"
    assert "docorbit ingest" in r.stderr

    r = sh(docorbit_bin, "--json", "list", cwd=cwd, env=clean_env)
    assert [s["name"] for s in json.loads(r.stdout)["sources"]] == ["guide"]

    r = sh(docorbit_bin, "remove", "guide", cwd=cwd, env=clean_env)
    assert r.returncode == 0 and r.stdout.strip() == "removed guide"
    r = sh(docorbit_bin, "list", "--json", cwd=cwd, env=clean_env)
    assert json.loads(r.stdout)["sources"] == []


def test_console_script_prints_json_errors_on_stdout_with_their_exit_codes(
    docorbit_bin, tmp_path, clean_env
):
    proj = tmp_path / "p"
    proj.mkdir()
    cases = [
        (["remove", "ghost"], 3, "source_not_found"),
        (["add", "--library", "x"], 2, "usage"),
        (["search", "timeout"], 3, "not_published"),
        (["add", str(proj / "missing"), "--library", "x"], 7, "bad_input"),
    ]
    for args, code, err in cases:
        r = sh(docorbit_bin, "-p", str(proj), *args, "--json", cwd=tmp_path, env=clean_env)
        assert r.returncode == code, (args, r.stdout, r.stderr)
        payload = json.loads(r.stdout)
        assert set(payload) == {"error"}
        assert payload["error"]["code"] == err
        assert set(payload["error"]) == {"code", "message", "detail"}


def test_console_script_batch_search_reads_stdin_and_writes_json_lines(
    docorbit_bin, published_home, tmp_path, clean_env
):
    queries = "\n".join(
        json.dumps(q)
        for q in (
            {"id": "q1", "query": "HTTP/2 support"},
            {"id": "q2", "query": "event hooks", "library": "httpx"},
        )
    )
    r = sh(docorbit_bin, "--home", str(published_home.path), "search", "--batch", "-",
           "--limit", "2", "--json", cwd=tmp_path, env=clean_env, stdin=queries)  # fmt: skip
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [set(x) for x in rows] == [{"id", "hits"}, {"id", "hits"}]
    assert [x["id"] for x in rows] == ["q1", "q2"]
    for x in rows:
        assert 1 <= len(x["hits"]) <= 2
        assert all(h["untrusted"] is True and h["chunk_id"].startswith("c_") for h in x["hits"])


def test_python_dash_m_runs_the_same_cli(tmp_path, clean_env):
    r = subprocess.run(
        [sys.executable, "-m", "docorbit_serve", "--help"],
        capture_output=True,
        text=True,
        env=clean_env,
        cwd=tmp_path,
        timeout=60,
    )
    assert r.returncode == 0
    assert "Exit codes:" in r.stdout and "blocked_url" in r.stdout
