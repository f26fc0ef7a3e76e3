"""docorbit.toml: round trip, validation, deterministic writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from docorbit_serve.errors import ConfigError, SourceNotFound, UsageError
from docorbit_serve.registry import SourceConfig, load_registry, save_registry


def test_registry_round_trips_sources_sorted_by_name(tmp_path: Path) -> None:
    path = tmp_path / "docorbit.toml"
    reg = load_registry(path)
    assert reg.sources == []
    reg.add(
        SourceConfig("pydantic-v2", "local", "docs/v2", "pydantic", "2.12", include=("**/*.md",))
    )
    reg.add(
        SourceConfig("httpx", "web", "http://127.0.0.1:8000/", "httpx", limits={"max_pages": 5})
    )
    save_registry(reg)
    again = load_registry(path)
    assert [s.name for s in again.sources] == ["httpx", "pydantic-v2"]
    assert again.get("httpx").limits == {"max_pages": 5}
    assert again.get("pydantic-v2").include == ("**/*.md",)
    before = path.read_bytes()
    save_registry(again)
    assert path.read_bytes() == before


def test_adding_a_duplicate_name_is_a_usage_error(tmp_path: Path) -> None:
    reg = load_registry(tmp_path / "docorbit.toml")
    reg.add(SourceConfig("a", "local", "docs", "lib"))
    with pytest.raises(UsageError):
        reg.add(SourceConfig("a", "local", "other", "lib"))


def test_unknown_source_names_the_known_ones(tmp_path: Path) -> None:
    reg = load_registry(tmp_path / "docorbit.toml")
    reg.add(SourceConfig("a", "local", "docs", "lib"))
    with pytest.raises(SourceNotFound) as e:
        reg.remove("b")
    assert e.value.detail["known"] == ["a"]
    assert e.value.to_json()["error"]["code"] == "source_not_found"


@pytest.mark.parametrize("name", ["", "../x", "a b", "x" * 65, "-lead"])
def test_source_names_that_cannot_be_folder_names_are_refused(name: str) -> None:
    with pytest.raises(UsageError):
        SourceConfig(name, "local", "docs", "lib")


def test_broken_toml_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "docorbit.toml"
    path.write_text("[[sources]\nname=")
    with pytest.raises(ConfigError):
        load_registry(path)


def test_local_locations_resolve_against_the_project_root(tmp_path: Path) -> None:
    src = SourceConfig("a", "local", "docs", "lib")
    assert src.resolved_location(tmp_path) == str((tmp_path / "docs").resolve())
    web = SourceConfig("w", "web", "https://example.org/docs/", "lib")
    assert web.resolved_location(tmp_path) == "https://example.org/docs/"


def test_eval_settings_round_trip_and_stay_out_of_the_source_identity(tmp_path: Path) -> None:
    path = tmp_path / "docorbit.toml"
    reg = load_registry(path)
    plain = SourceConfig("a", "local", "docs", "lib", "1.0")
    gated = SourceConfig(
        "a", "local", "docs", "lib", "1.0", eval_queries="q.jsonl", eval_tolerance=0.05
    )
    reg.add(gated)
    save_registry(reg)
    again = load_registry(path).get("a")
    assert (again.eval_queries, again.eval_tolerance, again.eval_min_mrr) == ("q.jsonl", 0.05, None)
    assert again.identity() == plain.identity()
    assert "eval_queries" not in plain.to_toml()
