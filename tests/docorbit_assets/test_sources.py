import json
from pathlib import Path

from docorbit_assets.lib.sources import source_table
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS


def test_source_table_is_one_row_with_the_folder_resolved_against_the_project(tmp_path: Path):
    cfg = SourceConfig(
        name="httpx",
        kind="local",
        location="docs",
        library="httpx",
        version="0.28",
        include=("**/*.md",),
        exclude=("drafts/**",),
    )
    table = source_table(cfg, tmp_path)
    assert table.schema.equals(SCHEMAS["sources"])
    assert table.num_rows == 1
    row = table.to_pylist()[0]
    assert row["location"] == str((tmp_path / "docs").resolve())
    assert row["include"] == ["**/*.md"] and row["exclude"] == ["drafts/**"]
    assert (row["name"], row["kind"], row["library"], row["version"]) == (
        "httpx",
        "local",
        "httpx",
        "0.28",
    )


def test_source_config_json_is_the_entry_as_configured_in_canonical_form(tmp_path: Path):
    cfg = SourceConfig(
        name="orbitkit",
        kind="web",
        location="http://127.0.0.1:8000/",
        library="orbitkit",
        limits={"max_pages": 5},
    )
    row = source_table(cfg, tmp_path).to_pylist()[0]
    assert row["location"] == "http://127.0.0.1:8000/"
    assert json.loads(row["config_json"]) == cfg.to_toml()
    assert row["config_json"] == json.dumps(cfg.to_toml(), sort_keys=True, separators=(",", ":"))
