"""Prompt-injection annotations scored on the kit (both sides) and on real documentation."""

from __future__ import annotations

import json
from pathlib import Path

from docorbit_assets.lib.injection import annotate, max_severity

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO / ".." / "shared" / "data"
KIT = SHARED / "badinputs" / "prompt_injection"
RANK = {"": 0, "low": 1, "medium": 2, "high": 3}


def _rows(name: str) -> list[dict]:
    lines = (KIT / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_kit_injections_are_flagged_at_their_minimum_severity() -> None:
    by_level: dict[str, list[bool]] = {}
    for row in _rows("injections.jsonl"):
        got = max_severity(annotate(row["text"]))
        by_level.setdefault(row["min_severity"], []).append(RANK[got] >= RANK[row["min_severity"]])
    assert sum(len(v) for v in by_level.values()) == 42
    for level, hits in by_level.items():
        assert sum(hits) / len(hits) >= 0.95, level


def test_benign_kit_passages_are_never_flagged_high() -> None:
    rows = _rows("benign.jsonl")
    assert len(rows) == 22
    flagged = [r["id"] for r in rows if max_severity(annotate(r["text"])) == "high"]
    assert flagged == []


def test_hidden_carriers_of_the_kit_page_are_each_flagged_high() -> None:
    page = (KIT / "carriers" / "page_hidden.html").read_text(encoding="utf-8")
    high = [a["location"] for a in annotate(page, html=page) if a["severity"] == "high"]
    for carrier in ("html comment", "css-hidden", "@alt", "@aria-label", "<template>"):
        assert any(carrier in loc for loc in high), carrier
    assert sum("text[" in loc for loc in high) >= 2  # Unicode tag characters and bidi override


def test_real_documentation_paragraphs_are_not_flagged_high() -> None:
    paragraphs = 0
    for path in sorted((SHARED / "docs" / "httpx" / "docs").rglob("*.md")):
        for para in path.read_text(encoding="utf-8").split("\n\n"):
            paragraphs += 1
            assert max_severity(annotate(para)) != "high", (path.name, para[:200])
    assert paragraphs > 500


def test_unsafe_links_and_invisible_characters_are_annotated() -> None:
    active = (SHARED / "badinputs" / "markdown_html" / "active_content.html").read_text()
    unsafe = [a for a in annotate(active, html=active) if a["type"] == "unsafe_link"]
    assert len(unsafe) >= 6 and {a["severity"] for a in unsafe} <= {"low", "medium"}
    bidi = (SHARED / "badinputs" / "markdown_html" / "zero_width_bidi.md").read_text()
    kinds = {a["type"] for a in annotate(bidi)}
    assert "hidden_text" in kinds


def test_legitimate_zero_width_joiner_and_rtl_marks_are_not_hidden_text() -> None:
    for row in _rows("benign.jsonl"):
        if row["technique"] in ("zwj-legit", "rtl-legit"):
            assert annotate(row["text"]) == []


def test_annotations_are_deterministic_and_evidence_is_printable() -> None:
    row = next(r for r in _rows("injections.jsonl") if r["technique"] == "unicode-tags")
    first, second = annotate(row["text"]), annotate(row["text"])
    assert first == second and first
    for a in first:
        assert set(a) == {"type", "severity", "evidence", "location"}
        assert all(not (0xE0000 <= ord(c) <= 0xE007F) for c in a["evidence"])
