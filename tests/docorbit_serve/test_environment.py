"""The environment is read in one place (issue 12 item 4): ``settings.Environment`` types and
validates every variable DocOrbit reads, no other module touches ``os.environ``, and every
variable the code or the scripts name is documented in docs/configuration.md (the way datasette
tests its settings)."""

from __future__ import annotations

import ast
import dataclasses
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from docorbit_serve.cli import cli
from docorbit_serve.errors import ConfigError
from docorbit_serve.home import pipeline_home, resolve_home
from docorbit_serve.settings import ENV_VARS, Environment, child_environ
from tests.support.code import package_modules

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("docorbit_serve", "docorbit_assets")
DOCS = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
_ENV_NAMES = {"environ", "environb", "getenv", "putenv", "unsetenv"}


def _python_files(*folders: str) -> list[Path]:
    return sorted(p for f in folders for p in (REPO / f).rglob("*.py"))


def _environment_reads(tree: ast.Module) -> list[int]:
    """Lines of ``tree`` that reach the process environment (``os.environ``, ``getenv``, ...)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in _ENV_NAMES:
            if isinstance(node.value, ast.Name) and node.value.id == "os":
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            lines += [node.lineno for a in node.names if a.name in _ENV_NAMES]
    return lines


def test_only_settings_reads_the_process_environment():
    reads = {
        path: lines
        for path, tree in package_modules().items()
        if (lines := _environment_reads(tree))
    }
    assert set(reads) == {"docorbit_serve/settings.py"}, reads


def test_the_scan_sees_every_way_of_reading_the_environment():
    probe = ast.parse("import os\nfrom os import getenv\na = os.environ['X']\nb = os.getenv('Y')\n")
    assert sorted(_environment_reads(probe)) == [2, 3, 4]


def test_every_variable_the_code_names_is_an_environment_field_and_documented():
    fields = {f.name: f.default for f in dataclasses.fields(Environment)}
    assert set(fields) == set(Environment.VARIABLES)
    assert set(Environment.VARIABLES.values()) == set(ENV_VARS)
    for name, var in Environment.VARIABLES.items():
        assert fields[name] == ENV_VARS[var].default, var
    named = set()
    for p in _python_files(*PACKAGES):
        named |= set(re.findall(r"""["'](DOCORBIT_[A-Z_]+)["']""", p.read_text(encoding="utf-8")))
    assert "DOCORBIT_PROJECT" in named and named <= set(ENV_VARS), named - set(ENV_VARS)
    undocumented = [v for v in ENV_VARS if f"| `{v}` |" not in DOCS]
    assert not undocumented, f"undocumented in docs/configuration.md: {undocumented}"


def test_every_variable_the_scripts_and_tests_read_is_documented():
    read = set()
    pattern = re.compile(r"""(?:environ\.get\(|environ\[|getenv\()\s*["'](DOCORBIT_[A-Z_]+)""")
    for p in _python_files("scripts", "benchmarks", "tests"):
        read |= set(pattern.findall(p.read_text(encoding="utf-8")))
    assert "DOCORBIT_DATA" in read  # the scan finds what scripts/eval_dev.py reads
    undocumented = sorted(v for v in read if f"| `{v}` |" not in DOCS)
    assert not undocumented, f"undocumented in docs/configuration.md: {undocumented}"


def test_an_empty_environment_gives_the_documented_defaults():
    env = Environment.read({})
    assert env == Environment()
    assert (env.log_level, env.pypi_url, env.npm_url) == (
        "WARNING",
        "https://pypi.org",
        "https://registry.npmjs.org",
    )
    assert Environment.read({v: "" for v in ENV_VARS}) == Environment()  # empty = unset


def test_values_are_typed_and_normalised():
    env = Environment.read(
        {
            "DOCORBIT_HOME": "/h",
            "DOCORBIT_PROJECT": "/p",
            "DOCORBIT_LOG_LEVEL": "debug",
            "DOCORBIT_PYPI_URL": "http://127.0.0.1:9/pypi/",
            "DOCORBIT_NPM_URL": "https://npm.example/",
            "HOME": "/u",
            "UNRELATED": "x",
        }
    )
    assert env == Environment(
        home="/h",
        project="/p",
        log_level="DEBUG",
        pypi_url="http://127.0.0.1:9/pypi",
        npm_url="https://npm.example",
        user_home="/u",
    )


@pytest.mark.parametrize(
    ("var", "value"),
    [
        ("DOCORBIT_LOG_LEVEL", "verbose"),
        ("DOCORBIT_PYPI_URL", "pypi.org"),
        ("DOCORBIT_NPM_URL", "file:///etc/passwd"),
    ],
)
def test_a_bad_value_is_a_config_error_naming_the_variable(var, value):
    with pytest.raises(ConfigError) as e:
        Environment.read({var: value})
    assert e.value.detail == {"key": var, "where": "environment", "value": value}
    assert var in e.value.message and e.value.exit_code == 1


def test_the_cli_refuses_a_bad_variable_with_exit_1(tmp_path):
    (tmp_path / "docorbit.toml").write_text("", encoding="utf-8")
    r = CliRunner().invoke(
        cli, ["-p", str(tmp_path), "list", "--json"], env={"DOCORBIT_LOG_LEVEL": "loud"}
    )
    error = json.loads(r.output)["error"]
    assert r.exit_code == 1 and error["code"] == "config"
    assert error["detail"]["key"] == "DOCORBIT_LOG_LEVEL"


def test_the_home_comes_from_the_environment_object(tmp_path):
    user = tmp_path / "user"
    project = tmp_path / "proj"
    env = Environment(user_home=str(user))
    assert resolve_home(env=env, cwd=tmp_path).path == (user / ".docorbit").resolve()
    assert pipeline_home({"DOCORBIT_PROJECT": str(project), "HOME": str(user)}).path == (
        project / ".docorbit"
    )
    explicit = {"DOCORBIT_HOME": str(tmp_path / "h"), "DOCORBIT_PROJECT": str(project)}
    assert pipeline_home(explicit).path == (tmp_path / "h").resolve()


def test_a_child_process_gets_this_environment_with_the_overrides(monkeypatch):
    monkeypatch.setenv("DOCORBIT_LOG_LEVEL", "INFO")
    env = child_environ({"DOCORBIT_HOME": "/x"})
    assert env["DOCORBIT_HOME"] == "/x" and env["DOCORBIT_LOG_LEVEL"] == "INFO"
