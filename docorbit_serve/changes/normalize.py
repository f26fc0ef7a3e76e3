"""Normalised forms for diffing: what a reader would call "the same text" compares equal.

Contract:
- ``markdown_units(text) -> list[str]``: the text as a list of units (headings, paragraphs, list
  items, code lines), each with whitespace collapsed, ATX/setext heading markers, list markers,
  block-quote markers, emphasis markers and fence lines removed, links reduced to their text,
  and runs of list items that are nothing but a link sorted. A paragraph re-wrapped over other
  lines is one unit either way. The link targets of the text come last as one sorted unit, so a
  reordering of links is not a change but a changed target is.
- ``normalized(text) -> str``: the units joined by newlines (the form two texts are compared in).
- ``schema_form(obj)``: a JSON value with prose keys (``description``, ``summary``, ``example``,
  ``examples``, ``title``, ``x-*``) removed at every depth, for comparing API contracts without
  counting wording edits as contract changes.
Pure functions, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["PROSE_KEYS", "markdown_units", "normalized", "schema_form"]

PROSE_KEYS = frozenset({"description", "summary", "example", "examples", "title", "$ref-name"})

_FENCE = re.compile(r"^\s*(```|~~~)")
_SETEXT = re.compile(r"^\s*(=+|-+)\s*$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_ATX = re.compile(r"^\s{0,3}#{1,6}\s+")
_ATX_CLOSE = re.compile(r"\s+#+\s*$")
_LIST = re.compile(r"^\s*(?:[*+-]|\d{1,9}[.)])\s+")
_QUOTE = re.compile(r"^\s*(?:>\s?)+")
_IMAGE_OR_LINK = re.compile(r"!?\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'][^\"']*[\"'])?\s*\)")
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(\S+)")
_AUTOLINK = re.compile(r"<(https?://[^>\s]+)>")
_EMPHASIS = re.compile(r"(?<![\w\\])[*_]{1,3}|[*_]{1,3}(?![\w])")
_LINK_ONLY = re.compile(r"^!?\[[^\]]*\]\([^)]*\)$")


def _inline(line: str, links: set[str]) -> str:
    def keep_text(m: re.Match[str]) -> str:
        if m.group(2):
            links.add(m.group(2))
        return m.group(1)

    line = _IMAGE_OR_LINK.sub(keep_text, line)
    line = _REF_LINK.sub(r"\1", line)
    for url in _AUTOLINK.findall(line):
        links.add(url)
    line = _AUTOLINK.sub(r"\1", line)
    line = _EMPHASIS.sub("", line)
    return " ".join(line.split())


def _sort_link_runs(units: list[tuple[str, bool]]) -> list[str]:
    out: list[str] = []
    run: list[str] = []
    for text, link_item in units:
        if link_item:
            run.append(text)
            continue
        out.extend(sorted(run))
        run.clear()
        out.append(text)
    out.extend(sorted(run))
    return out


def markdown_units(text: str) -> list[str]:
    links: set[str] = set()
    units: list[tuple[str, bool]] = []
    para: list[str] = []
    in_code = False

    def flush() -> None:
        if para:
            units.append((" ".join(para), False))
            para.clear()

    for raw in text.splitlines():
        if _FENCE.match(raw):
            flush()
            in_code = not in_code
            continue
        if in_code:
            code = " ".join(raw.split())
            if code:
                units.append((code, False))
            continue
        m_def = _REF_DEF.match(raw)
        if m_def:
            links.add(m_def.group(1))
            continue
        line = _QUOTE.sub("", raw)
        if not line.strip() or _RULE.match(line) or (para and _SETEXT.match(line)):
            flush()
            continue
        heading = _ATX.match(line)
        item = _LIST.match(line)
        if heading or item:
            flush()
            body = line[(heading or item).end() :]  # type: ignore[union-attr]
            if heading:
                body = _ATX_CLOSE.sub("", body)
            link_item = bool(item) and bool(_LINK_ONLY.match(body.strip()))
            units.append((_inline(body, links), link_item))
            continue
        para.append(_inline(line, links))
    flush()
    out = [u for u in _sort_link_runs(units) if u]
    if links:
        out.append("links: " + " ".join(sorted(links)))
    return out


def normalized(text: str) -> str:
    return "\n".join(markdown_units(text))


def schema_form(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {
            k: schema_form(v)
            for k, v in sorted(obj.items())
            if k not in PROSE_KEYS and not str(k).startswith("x-")
        }
    if isinstance(obj, list):
        return [schema_form(v) for v in obj]
    return obj
