"""Home resolution ladder (DESIGN.md §4) and atomic writes."""

from __future__ import annotations

import json
from pathlib import Path

from docorbit_serve.home import atomic_write_json, find_project_root, resolve_home


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {"HOME": str(tmp_path / "user"), **extra}


def test_explicit_home_wins_over_everything(tmp_path: Path) -> None:
    h = resolve_home(home=tmp_path / "h", global_=True, project=tmp_path / "p", env=_env(tmp_path))
    assert h.path == (tmp_path / "h").resolve()


def test_docorbit_home_env_is_the_explicit_home(tmp_path: Path) -> None:
    h = resolve_home(env=_env(tmp_path, DOCORBIT_HOME=str(tmp_path / "envhome")), cwd=tmp_path)
    assert h.path == (tmp_path / "envhome").resolve()


def test_global_flag_uses_user_home(tmp_path: Path) -> None:
    h = resolve_home(global_=True, project=tmp_path / "p", env=_env(tmp_path))
    assert h.path == (tmp_path / "user" / ".docorbit").resolve()


def test_project_flag_puts_home_inside_the_project(tmp_path: Path) -> None:
    h = resolve_home(project=tmp_path / "p", env=_env(tmp_path))
    assert h.path == (tmp_path / "p" / ".docorbit").resolve()
    assert h.config_path == (tmp_path / "p" / "docorbit.toml").resolve()


def test_nearest_project_root_above_cwd_is_found(tmp_path: Path) -> None:
    user = tmp_path / "user"
    proj = user / "code" / "app"
    deep = proj / "src" / "pkg"
    deep.mkdir(parents=True)
    (proj / "pyproject.toml").write_text("[project]\nname='x'\n")
    h = resolve_home(cwd=deep, env={"HOME": str(user)})
    assert h.path == proj.resolve() / ".docorbit"


def test_project_search_stops_before_the_user_home(tmp_path: Path) -> None:
    user = tmp_path / "user"
    (user / "a" / "b").mkdir(parents=True)
    (user / "package.json").write_text("{}")  # a marker in the user's home itself is ignored
    assert find_project_root(user / "a" / "b", stop=user) is None
    h = resolve_home(cwd=user / "a" / "b", env={"HOME": str(user)})
    assert h.path == (user / ".docorbit").resolve()


def test_atomic_write_json_is_deterministic_and_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "published.json"
    atomic_write_json(target, {"b": 1, "a": [2, 1]})
    first = target.read_bytes()
    atomic_write_json(target, {"a": [2, 1], "b": 1})
    assert target.read_bytes() == first
    assert json.loads(first) == {"a": [2, 1], "b": 1}
    assert first.endswith(b"\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["published.json"]
