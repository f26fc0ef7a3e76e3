"""Endpoint diff of the OpenAI spec at three points in time (fixtures/changes/openai, see
PROVENANCE.md), on rows built by the pipeline's own OpenAPI parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from docorbit_assets.lib.endpoints import endpoint_rows, parse_spec
from docorbit_serve.changes import diff_tables

SPECS = Path(__file__).resolve().parents[2] / "fixtures" / "changes" / "openai"
REMOVED_IN_2 = [
    "GET /engines",
    "GET /engines/{}",
    "POST /answers",
    "POST /classifications",
    "POST /engines/{}/search",
]
DEPRECATED_IN_DEVDAY = [
    "GET /fine-tunes",
    "GET /fine-tunes/{}",
    "GET /fine-tunes/{}/events",
    "POST /edits",
    "POST /fine-tunes",
    "POST /fine-tunes/{}/cancel",
]


def _rows(version: str) -> list[dict]:
    path = SPECS / version / "openapi.yaml"
    parsed = parse_spec(path.read_bytes(), spec_url=f"file://{path.name}")
    return endpoint_rows(
        parsed, source="openai", library="openai", version=version, spec_url=f"spec/{version}"
    )


@pytest.fixture(scope="module")
def versions() -> dict[str, list[dict]]:
    return {v: _rows(v) for v in ("1.3.0", "2.0.0", "2023-11-06-devday")}


def _diff(versions, a, b):
    return diff_tables({"endpoints": versions[a]}, {"endpoints": versions[b]}, f"s_{a}", f"s_{b}")


def _keys(items, change):
    return sorted(i.key for i in items if i.change == change)


def test_1_3_to_2_0_removes_exactly_the_five_deprecated_operations(versions):
    items = _diff(versions, "1.3.0", "2.0.0")
    assert _keys(items, "removed") == sorted(REMOVED_IN_2)
    deprecated_before = sorted(
        f"{r['method']} {r['path']}".replace("{engine_id}", "{}")
        for r in versions["1.3.0"]
        if r["deprecated"]
    )
    assert deprecated_before == sorted(REMOVED_IN_2)
    assert all(i.details == ["was deprecated"] for i in items if i.change == "removed")
    assert _keys(items, "added") == [] and _keys(items, "deprecated") == []


def test_2_0_to_devday_adds_34_operations_and_deprecates_6(versions):
    items = _diff(versions, "2.0.0", "2023-11-06-devday")
    added = _keys(items, "added")
    assert len(added) == 34 and "POST /assistants" in added and "POST /threads/{}/runs" in added
    assert _keys(items, "deprecated") == DEPRECATED_IN_DEVDAY
    assert _keys(items, "removed") == []


def test_endpoint_items_carry_pointer_spec_url_and_both_snapshots(versions):
    items = _diff(versions, "2.0.0", "2023-11-06-devday")
    chat = next(i for i in items if i.key == "POST /chat/completions")
    assert chat.change == "modified"
    assert "request body field `tools` added" in chat.details
    assert chat.pointer == "/paths/~1chat~1completions/post"
    assert chat.url == "spec/2023-11-06-devday"
    assert (chat.from_snapshot, chat.to_snapshot) == ("s_2.0.0", "s_2023-11-06-devday")
    files = next(i for i in items if i.key == "GET /files")
    assert "query parameter `purpose` added" in files.details


def test_endpoint_diff_is_deterministic_and_ignores_prose_edits(versions):
    a = [i.model_dump_json() for i in _diff(versions, "2.0.0", "2023-11-06-devday")]
    b = [i.model_dump_json() for i in _diff(versions, "2.0.0", "2023-11-06-devday")]
    assert a == b
    reworded = [
        {**r, "summary": r["summary"] + " (reworded)", "description": "new words"}
        for r in versions["2.0.0"]
    ]
    assert diff_tables({"endpoints": versions["2.0.0"]}, {"endpoints": reworded}, "a", "b") == []
