"""``docorbit init`` on a first run: a folder with no project marker becomes the project (as
``git init`` does) and says so; inside a project it uses the project's root; in the user's home
it is the global home. Nothing is written to ``~/.docorbit`` unless that is where init runs."""

from __future__ import annotations

import json

from click.testing import CliRunner

from docorbit_serve.cli import cli


def _init(cwd, user_home, monkeypatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(cwd)
    env = {"HOME": str(user_home), "DOCORBIT_HOME": None}
    res = CliRunner().invoke(cli, ["init", *args], env=env, catch_exceptions=False)
    return res.exit_code, res.stdout


def test_init_in_a_folder_with_no_marker_makes_it_the_project(tmp_path, monkeypatch):
    user_home, folder = tmp_path / "home", tmp_path / "work" / "newdocs"
    user_home.mkdir()
    folder.mkdir(parents=True)
    code, out = _init(folder, user_home, monkeypatch)
    assert code == 0, out
    assert out.splitlines()[0] == f"initialized a DocOrbit project in {folder}"
    assert (folder / "docorbit.toml").is_file() and (folder / ".docorbit").is_dir()
    assert not (user_home / ".docorbit").exists()
    # Idempotent, and from then on the folder is a project (docorbit.toml is a marker).
    code, out = _init(folder, user_home, monkeypatch, "--json")
    data = json.loads(out)
    assert code == 0 and data["project_created"] is False and data["config_created"] is False
    assert data["project_root"] == str(folder)


def test_init_inside_a_project_uses_the_projects_root(tmp_path, monkeypatch):
    user_home, root = tmp_path / "home", tmp_path / "proj"
    (root / "src" / "pkg").mkdir(parents=True)
    user_home.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n', "utf-8")
    code, out = _init(root / "src" / "pkg", user_home, monkeypatch, "--json")
    data = json.loads(out)
    assert code == 0 and data["project_root"] == str(root) and data["project_created"] is False
    assert (root / "docorbit.toml").is_file() and not (root / "src" / "pkg" / ".docorbit").exists()


def test_init_in_the_users_home_is_the_global_home(tmp_path, monkeypatch):
    user_home = tmp_path / "home"
    user_home.mkdir()
    code, out = _init(user_home, user_home, monkeypatch, "--json")
    data = json.loads(out)
    assert code == 0 and data["home"] == str(user_home / ".docorbit")
    assert data["project_created"] is False


def test_other_commands_outside_a_project_still_use_the_global_home(tmp_path, monkeypatch):
    user_home, folder = tmp_path / "home", tmp_path / "elsewhere"
    user_home.mkdir()
    folder.mkdir()
    monkeypatch.chdir(folder)
    res = CliRunner().invoke(
        cli, ["list", "--json"], env={"HOME": str(user_home), "DOCORBIT_HOME": None}
    )
    assert json.loads(res.stdout)["home"] == str(user_home / ".docorbit")
    assert not (folder / ".docorbit").exists()
