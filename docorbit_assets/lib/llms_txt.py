"""The ``llms.txt`` format: parse it, and judge whether a text is a usable ``llms.txt``.

Contract:
- ``parse_llms_txt(text) -> LlmsTxt``: the H1 title, the first blockquote (summary), the H2
  sections, the list-item links (``LlmsEntry``: title, URL as written, description, section) and
  the count of every Markdown link outside code fences. Never raises.
- ``check_llms_txt(text) -> Verdict``: ``valid`` when it has at least one link, with a confidence
  from its structure; the metadata records title, summary, sections, entries and links.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["LlmsEntry", "LlmsTxt", "check_llms_txt", "parse_llms_txt"]


@dataclass(frozen=True)
class LlmsEntry:
    title: str
    url: str  # as written (may be relative)
    description: str
    section: str  # the H2 it is listed under; "" before the first H2


@dataclass(frozen=True)
class LlmsTxt:
    title: str  # the first H1, "" when absent
    summary: str  # the first blockquote, joined
    sections: tuple[str, ...]  # H2 names in order
    entries: tuple[LlmsEntry, ...]  # list-item links, document order
    links: int  # every Markdown link outside code fences


_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_ITEM = re.compile(
    r"^\s*[-*+]\s+\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)\s*:?\s*(.*)$"
)
_FENCE = re.compile(r"^\s*(```|~~~)")


def parse_llms_txt(text: str) -> LlmsTxt:
    """Parse the llms.txt structure: H1 title, blockquote summary, H2 sections, link lists."""
    title, summary, sections, entries, links = "", [], [], [], 0
    section, in_fence, quote_done = "", False, False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        stripped = line.strip()
        if stripped.startswith("# ") and not title:
            title = stripped[2:].strip()
        elif stripped.startswith("## "):
            section = stripped[3:].strip()
            sections.append(section)
        elif stripped.startswith(">") and not quote_done:
            summary.append(stripped.lstrip(">").strip())
        elif summary:
            quote_done = True
        links += len(_LINK.findall(line))
        m = _ITEM.match(line)
        if m:
            entries.append(LlmsEntry(m.group(1).strip(), m.group(2), m.group(3).strip(), section))
    return LlmsTxt(title, " ".join(s for s in summary if s), tuple(sections), tuple(entries), links)


def check_llms_txt(text: str) -> tuple[str, float, str, dict[str, Any]]:
    doc = parse_llms_txt(text)
    meta = {
        "title": doc.title,
        "summary": doc.summary,
        "sections": list(doc.sections),
        "entries": len(doc.entries),
        "links": doc.links,
    }
    if doc.links == 0:
        return "invalid", 0.0, "llms.txt has no Markdown links", meta
    confidence = 0.5 + 0.2 * bool(doc.title) + 0.1 * bool(doc.summary)
    confidence += 0.1 * bool(doc.sections) + 0.05 * bool(doc.entries)
    label = f"'{doc.title}'" if doc.title else "without H1 title"
    why = f"llms.txt {label}: {len(doc.sections)} sections, {len(doc.entries)} entries"
    return "valid", round(min(confidence, 0.95), 2), why, meta
