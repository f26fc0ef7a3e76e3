"""Impact of a diff on a workspace (issue 15 point 4): the OpenAI 1.3.0 -> 2.0.0 removals on
fixtures/changes/workspace (written for these tests), rows from the pipeline's parser."""

from __future__ import annotations

from pathlib import Path

from docorbit_assets.lib.endpoints import endpoint_rows, parse_spec
from docorbit_serve.changes import diff_tables
from docorbit_serve.codecalls import read_sources
from docorbit_serve.impact import impact_hits

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "changes"


def _rows(version: str) -> list[dict]:
    path = FIX / "openai" / version / "openapi.yaml"
    parsed = parse_spec(path.read_bytes(), spec_url=str(path))
    return endpoint_rows(parsed, source="openai", library="openai", version=version, spec_url="s")


def _hits():
    old, new = _rows("1.3.0"), _rows("2.0.0")
    items = diff_tables({"endpoints": old}, {"endpoints": new}, "s_old", "s_new")
    files, _ = read_sources([FIX / "workspace"], root=FIX / "workspace")
    return impact_hits(items, old, new, files)


def test_impact_lists_every_use_of_a_removed_endpoint_with_line_and_certainty():
    got = {(h.file, h.line, h.key, h.change, h.certainty) for h in _hits()}
    assert ("src/app.py", 11, "GET /engines", "removed", "high") in got
    assert ("src/app.py", 16, "POST /engines/{}/search", "removed", "medium") in got
    assert ("src/app.py", 24, "GET /engines", "removed", "medium") in got  # SDK method
    assert ("src/app.py", 27, "POST /answers", "removed", "heuristic") in got  # a comment
    assert ("src/client.ts", 5, "POST /classifications", "removed", "high") in got
    assert ("scripts/answers.sh", 3, "POST /answers", "removed", "high") in got


def test_impact_reports_modified_endpoints_and_leaves_out_unchanged_ones():
    hits = _hits()
    clean = [(h.line, h.key, h.change, h.certainty) for h in hits if h.file == "scripts/clean.sh"]
    assert clean == [(4, "POST /embeddings", "modified", "high")]  # its request body changed
    assert not [h for h in hits if "/models" in h.snippet or "/files" in h.snippet]
    removed = [h for h in hits if h.change == "removed"]
    assert removed and all(h.snippet and h.details == ["was deprecated"] for h in removed)


def test_impact_is_sorted_and_deterministic():
    a, b = _hits(), _hits()
    assert [h.model_dump() for h in a] == [h.model_dump() for h in b]
    assert [(h.file, h.line, h.key) for h in a] == sorted((h.file, h.line, h.key) for h in a)


def test_a_removed_symbol_is_found_by_text_as_a_heuristic_hit():
    from docorbit_serve.models.change import DiffItem

    removed = DiffItem(
        kind="symbol",
        change="removed",
        key="function pydantic.parse_obj_as",
        title="pydantic.parse_obj_as",
        from_snapshot="s_a",
        to_snapshot="s_b",
    )
    files = {
        "m.py": "from pydantic import parse_obj_as\n\nx = parse_obj_as(int, '1')\ny = parse_obj_asx\n",
        "n.py": "print('nothing here')\n",
    }
    hits = impact_hits([removed], [], [], files)
    assert [(h.file, h.line, h.certainty) for h in hits] == [
        ("m.py", 1, "heuristic"),
        ("m.py", 3, "heuristic"),
    ]
    assert all(h.key == removed.key and h.change == "removed" for h in hits)
