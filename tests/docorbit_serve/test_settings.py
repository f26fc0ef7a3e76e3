"""docorbit.toml is the user's file (issue 13 item 5, issue 12 item 4): every key typed and
documented, misspelt keys named with a suggestion, add/remove round-trip comments and order,
``--limit`` keys exactly those the fetcher and crawler honour."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

from docorbit_serve.cli import cli
from docorbit_serve.errors import ConfigError
from docorbit_serve.registry import load_registry
from docorbit_serve.settings import ENV_VARS, LIMITS, SETTINGS, SOURCE_KEYS

REPO = Path(__file__).resolve().parents[2]
USER_FILE = """\
# my docs, by hand
[settings]
hybrid = false  # lexical for now

[[sources]]
# the main library
location = "docs"
name = "zeta"
library = "zeta"
kind = "local"
"""


def _run(root: Path, *args: str):
    return CliRunner().invoke(cli, ["-p", str(root), *args], env={"DOCORBIT_HOME": None})


@pytest.mark.parametrize(
    ("text", "key", "suggestion"),
    [
        ("[settings]\nhybird = true\n", "hybird", "hybrid"),
        ('[[sources]]\nname = "a"\nlocation = "d"\nlibray = "a"\n', "libray", "library"),
        (
            '[[sources]]\nname = "a"\nlocation = "d"\n[sources.limits]\nmax_page = 3\n',
            "max_page",
            "max_pages",
        ),  # fmt: skip
        ("[setings]\nhybrid = true\n", "setings", "settings"),
    ],
)
def test_a_misspelt_key_is_an_error_that_names_it_and_the_right_one(
    tmp_path, text, key, suggestion
):
    (tmp_path / "docorbit.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as e:
        load_registry(tmp_path / "docorbit.toml")
    assert e.value.detail["key"] == key and e.value.detail["suggestion"] == suggestion
    assert repr(key) in e.value.message and repr(suggestion) in e.value.message
    r = _run(tmp_path, "list")
    assert r.exit_code == 1 and f"did you mean {suggestion!r}" in r.stderr


def test_a_value_of_the_wrong_type_is_an_error(tmp_path):
    (tmp_path / "docorbit.toml").write_text('[settings]\nhybrid = "yes"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="hybrid must be true/false"):
        load_registry(tmp_path / "docorbit.toml")


def test_add_and_remove_keep_comments_order_and_untouched_keys(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "more").mkdir()
    cfg = tmp_path / "docorbit.toml"
    cfg.write_text(USER_FILE, encoding="utf-8")
    r = _run(
        tmp_path, "add", str(tmp_path / "more"), "--library", "alpha", "--limit", "max_pages=3"
    )
    assert r.exit_code == 0, r.output
    after_add = cfg.read_text(encoding="utf-8")
    assert after_add.startswith(USER_FILE)  # the user's text untouched, the new source appended
    assert 'name = "alpha"' in after_add and "max_pages = 3" in after_add
    assert _run(tmp_path, "remove", "alpha").exit_code == 0
    assert cfg.read_text(encoding="utf-8").rstrip("\n") == USER_FILE.rstrip("\n")


def test_limit_keys_are_exactly_those_the_fetcher_and_crawler_honour(tmp_path):
    from docorbit_assets.lib.secure_fetch import _LIMIT_ALIASES, FetchPolicy
    from tests.support.code import package_modules

    # honoured: a FetchPolicy field (directly or by alias), or read off the source's
    # SourceLimits by the fetch stage or the crawler (lim.max_depth, ...)
    policy = {f.name for f in dataclasses.fields(FetchPolicy)}
    honoured = {k for k, v in _LIMIT_ALIASES.items() if v in policy} | (policy & set(LIMITS))
    for path in ("docorbit_assets/lib/crawl.py", "docorbit_assets/lib/fetch.py"):
        honoured |= {
            n.attr
            for n in ast.walk(package_modules()[path])
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
            and n.value.id == "lim" and n.attr in LIMITS
        }  # fmt: skip
    assert honoured == set(LIMITS), set(LIMITS) - honoured
    (tmp_path / "docs").mkdir()
    for key in LIMITS:
        value = "80,443" if key == "ports" else "1"
        r = _run(tmp_path, "add", str(tmp_path / "docs"), "--library", key.replace("_", "-"),
                 "--limit", f"{key}={value}", "--json")  # fmt: skip
        assert r.exit_code == 0, (key, r.output)
    assert load_registry(tmp_path / "docorbit.toml").sources  # every written key loads again
    r = _run(tmp_path, "add", str(tmp_path / "docs"), "--library", "x", "--limit", "max_pagez=1")
    assert r.exit_code == 2 and "max_pages" in r.output


def test_every_setting_limit_and_environment_variable_is_documented():
    docs = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    for group in (SETTINGS, SOURCE_KEYS, LIMITS, ENV_VARS):
        missing = [k for k in group if f"`{k}`" not in docs]
        assert not missing, f"undocumented in docs/configuration.md: {missing}"
    # the environment: one reader, every variable documented (test_environment.py)


def test_every_error_class_exits_with_a_member_of_the_one_exit_code_enum():
    from docorbit_serve import errors
    from docorbit_serve.cli import EXIT_CODES

    classes = [getattr(errors, n) for n in errors.__all__ if n not in ("ExitCode",)]
    codes = {c.exit_code for c in classes}
    assert codes <= set(errors.ExitCode) and set(EXIT_CODES) == {int(c) for c in errors.ExitCode}
    assert errors.BlockedURL.exit_code == errors.ExitCode.BLOCKED_URL == 5


def test_source_limits_is_the_one_typed_reading_of_a_sources_limits():
    from docorbit_assets.lib.secure_fetch import fetch_limits
    from docorbit_serve.registry import SourceConfig
    from docorbit_serve.settings import SourceLimits

    assert SourceLimits() == SourceLimits.from_table({})
    fields = {f.name: f.default for f in dataclasses.fields(SourceLimits)}
    assert set(fields) == set(LIMITS)  # every field a documented --limit key, and back
    assert {k: list(v) if k == "ports" else v for k, v in fields.items()} == {
        k: key.default for k, key in LIMITS.items()
    }
    assert {f: LIMITS[f].default for f in ("max_pages", "retries")} == {
        "max_pages": 50,
        "retries": 2,
    }
    cfg = SourceConfig(
        "s", "web", "http://127.0.0.1:1/", "s", limits={"max_pages": 7, "max_depth": 1}
    )
    assert fetch_limits(cfg) == SourceLimits(max_pages=7, max_depth=1)
    with pytest.raises(ConfigError, match="did you mean 'max_depth'"):
        SourceLimits.from_table({"max_dept": 2})


def test_the_fetch_policy_defaults_are_the_documented_limits():
    from docorbit_assets.lib.netpolicy import DEFAULT_PORTS, NetPolicy, check_url
    from docorbit_assets.lib.secure_fetch import _LIMIT_ALIASES, FetchPolicy

    policy = FetchPolicy()
    for key, field in _LIMIT_ALIASES.items():
        assert getattr(policy, field) == LIMITS[key].default, key
    assert policy.max_bytes == LIMITS["max_bytes"].default
    assert list(policy.ports) == list(DEFAULT_PORTS) == LIMITS["ports"].default
    docs = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert "| `ports` | `[80, 443, 8080, 8443]` |" in docs
    for port in LIMITS["ports"].default:  # the documented default is what the policy lets through
        assert check_url(f"https://docs.example.com:{port}/", NetPolicy()).port == port
