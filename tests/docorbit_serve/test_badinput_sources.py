"""Bad input to the source commands: URL schemes read case-insensitively, every refused scheme
is ``blocked_url`` (exit 5) with docorbit.toml unchanged, ``inspect`` previews a local path
without storing anything, and a second ingest is refused at once, before the pipeline (Dagster)
is imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from docorbit_serve.cli import cli
from docorbit_serve.ingest_lock import ingest_lock
from docorbit_serve.registry import load_registry
from tests.support.paths import FIXTURE_SITE

from .conftest import make_home

REFUSED = [
    "ws://docs.example.com/",
    "WSS://docs.example.com/",
    "view-source:https://docs.example.com/",
    "javascript:alert(1)",
    "file:///etc/passwd",
    "ftp://docs.example.com/pub/",
    "data:text/html,<h1>x</h1>",
]


def _run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def home(tmp_path):
    return make_home(tmp_path / "proj")


@pytest.mark.parametrize("url", REFUSED)
@pytest.mark.parametrize("command", ["add", "inspect"])
def test_a_refused_scheme_is_blocked_url_and_leaves_the_config_alone(command, url, home):
    before = home.config_path.read_bytes()
    extra = ["--library", "x"] if command == "add" else []
    res = _run("--home", str(home.path), command, url, *extra, "--json")
    assert res.exit_code == 5, res.output
    err = json.loads(res.stdout)["error"]
    assert err["code"] == "blocked_url" and err["detail"]["reason"] == "scheme"
    assert home.config_path.read_bytes() == before


@pytest.mark.parametrize("url", ["HTTPS://docs.example.com/en/", "Http://docs.example.com/"])
def test_url_schemes_are_case_insensitive(url, home):
    res = _run("--home", str(home.path), "add", url, "--library", "x", "--json")
    assert res.exit_code == 0, res.output
    (src,) = load_registry(home.config_path).sources
    assert src.kind == "web" and src.location.lower().startswith("http")


def test_inspect_previews_a_local_folder_and_stores_nothing(tmp_path):
    res = _run("--home", str(tmp_path / "h"), "inspect", str(FIXTURE_SITE), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["kind"] == "local" and data["files"] == len(data["sample"]) > 0
    assert all(rel.endswith((".md", ".mdx", ".markdown")) for rel in data["sample"])
    assert data["bytes"] == sum((FIXTURE_SITE / rel).stat().st_size for rel in data["sample"])
    assert data["ingest"] == {"kind": "local", "location": str(FIXTURE_SITE)}
    assert not (tmp_path / "h").exists()  # nothing stored


def test_inspect_previews_the_html_and_rst_pages_a_local_ingest_reads(tmp_path):
    """A built docs folder (MkDocs HTML) and an rST guide: the preview lists what the local
    reader takes (pages, not the build's 404/search artifacts), as the ingest does."""
    from docorbit_assets.lib.local_files import local_document_files

    folder = Path(__file__).parents[2] / "fixtures" / "local_formats"
    data = json.loads(_run("--home", str(tmp_path / "h"), "inspect", str(folder), "--json").stdout)
    taken = local_document_files(folder)
    assert data["files"] == len(taken) and data["sample"] == taken[: len(data["sample"])]
    assert any(r.endswith(".html") for r in taken) and any(r.endswith(".rst") for r in taken)
    assert not any(r.endswith("404.html") or r.startswith("search/") for r in data["sample"])
    assert data["ingest"] == {"kind": "local", "location": str(folder)}


def test_inspect_previews_one_local_file(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\ntext\n", encoding="utf-8")
    data = json.loads(_run("inspect", str(page), "--json").stdout)
    assert (data["kind"], data["files"], data["sample"]) == ("markdown", 1, ["page.md"])


@pytest.mark.e2e
def test_a_second_ingest_is_refused_at_once_before_dagster_is_imported(home):
    code = (
        "import sys\n"
        "from docorbit_serve.cli import cli\n"
        "try:\n"
        f"    cli.main(['--home', {str(home.path)!r}, 'ingest', '--json'], standalone_mode=False)\n"
        "except Exception as e:\n"
        "    print('ERR', getattr(e, 'code', type(e).__name__))\n"
        "print('DAGSTER', 'dagster' in sys.modules)\n"
    )
    reg = load_registry(home.config_path)
    assert not reg.sources
    _run("--home", str(home.path), "add", str(FIXTURE_SITE), "--library", "site")
    with ingest_lock(home):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
        ).stdout
    err = json.loads(out.splitlines()[0])["error"]
    assert err["code"] == "ingest_failed" and "another ingest is running" in err["message"]
    assert out.splitlines()[-1] == "DAGSTER False"


def test_the_ingest_lock_refuses_another_thread_and_reenters_for_its_own(home):
    import threading

    seen: list[str] = []
    with ingest_lock(home), ingest_lock(home):  # re-entrant for the holding thread

        def other() -> None:
            try:
                with ingest_lock(home):
                    seen.append("entered")
            except Exception as e:  # noqa: BLE001 - recorded and asserted below
                seen.append(getattr(e, "code", type(e).__name__))

        t = threading.Thread(target=other)
        t.start()
        t.join(30)
    assert seen == ["ingest_failed"]
    with ingest_lock(home):  # released: free again
        pass
