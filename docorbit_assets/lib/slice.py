"""slice: ``pages`` → ``chunks`` (schema ``CHUNKS``), one chunk per heading section.

Contract: ``slice_pages(pages) -> pa.Table``, deterministic, rows in page order (pages sorted by
``path``, chunks in document order within a page).

- A **section** starts at a heading (ATX or setext, outside fenced code; see ``markdown_scan``)
  and runs to the next heading of any level. Text before the first heading is a section with
  ``heading = ""``, ``anchor = ""``, ``level = 0`` when it is not blank.
- ``heading``: the heading text as written (markup kept), without closing ``#``s or a trailing
  ``{ #id }`` attribute list. ``anchor``: the MkDocs (Python-Markdown ``toc``) id.
- ``breadcrumb``: the ancestor headings' text, outermost first, without the own heading.
- ``text``: the section's Markdown, heading line included, trailing blank lines dropped.
  ``line_start``/``line_end``: 1-based inclusive lines of that text in the page ``markdown``.
  Every non-blank line of a page belongs to exactly one chunk (or, cut as below, to consecutive
  chunks).
- A section over ``MAX_TOKENS`` (1000) is split into parts near ``TARGET_TOKENS`` (500) at
  paragraph and code boundaries: blank lines outside fences and admonitions (an admonition of
  any dialect, ``markdown_scan.admonitions``, stays whole with its title). Blocks are packed in
  order; a part is closed before the block that would take it past ``TARGET_TOKENS``, unless
  taking that block lands nearer the target and stays within ``MAX_TOKENS`` (then it is taken and
  the part closed); a last part under a quarter of the target joins the one before when the two
  fit in ``MAX_TOKENS``. A block that is itself over ``MAX_TOKENS`` (e.g. a long release-notes
  bullet list) is first cut before its top-level list items, and, failing that (a scraped dump
  without blank lines), before any line. Fenced code is never split (a fence larger than that
  stays whole); a single line outside fences still over ``MAX_TOKENS`` (a 10 MB paragraph on one
  line) is cut into pieces near ``TARGET_TOKENS`` at spaces (anywhere when it has none, each
  piece at most ``MAX_TOKENS``), which share its line number and whose texts concatenate to it
  exactly, so no chunk of prose is unbounded. Every part keeps heading, anchor, level and breadcrumb; the
  first part has id ``stable_id("c_", source, path, anchor)``, part *n* ≥ 2 has
  ``stable_id("c_", source, path, anchor, "part-<n>")``.
- ``prev_id``/``next_id`` link the chunks of a page in order; ``parent_id`` is the (first-part)
  chunk id of the nearest ancestor section, "" for top-level sections.
- ``url`` = page URL + ``#anchor`` when the anchor is non-empty; provenance (source, library,
  version, path, title, fetched_at) is copied from the page. ``security_annotations``: every
  page annotation is given to exactly one chunk, by its integer ``start`` (an offset into the
  page Markdown; HTML carriers the conversion removed carry a ``near`` placement from
  ``injection.place_html_annotations``; ``injection.Annotation.anchor``): the chunk whose line
  range holds it, else the next chunk, else the last; neither → the first chunk.
  Nothing is re-annotated, so chunk and page agree and the annotator runs once per page.
- ``code_blocks`` (language, code) of the fences in the chunk; ``tokens`` via ``count_tokens``;
  ``content_hash`` = SHA-256 hex of ``text``.
- Relationships (issue 5's names → columns): *parent_section* = ``parent_id``,
  *previous_chunk* / *next_chunk* = ``prev_id`` / ``next_id``, *contains_code* =
  ``contains_code`` (the chunk holds a fenced code block), *explains_code* = ``explains_code``:
  the ``EXAMPLES`` ids (``extract.example_id(chunk_id, k)``, non-empty blocks only) of the code
  blocks in the chunk, and, for a chunk without code whose next chunk is a part of the same
  section that starts with a fence (text split just before the code), that fence's id.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from docorbit_assets.lib.extract import example_id
from docorbit_assets.lib.injection import Annotation
from docorbit_assets.lib.markdown_scan import Scan, admonitions, scan_markdown
from docorbit_serve.schemas import SCHEMAS, stable_id
from docorbit_serve.tokens import count_tokens

__all__ = ["MAX_TOKENS", "TARGET_TOKENS", "slice_markdown", "slice_pages"]

MAX_TOKENS = 1000
"""A section over this many tokens (``count_tokens``) is split into parts (issue 5)."""
TARGET_TOKENS = 500
"""The size parts of a split section aim at; cuts fall at the block boundary nearest to it."""


@dataclass(frozen=True)
class _Section:
    start: int  # 0-based first line
    end: int  # 0-based last line (exclusive)
    level: int
    heading: str
    anchor: str
    breadcrumb: tuple[str, ...]
    parent_anchor: str | None  # None: no parent section


def slice_pages(pages: pa.Table) -> pa.Table:
    """Chunks of every page (see module docstring)."""
    rows: list[dict[str, Any]] = []
    for page in sorted(pages.to_pylist(), key=lambda p: (p["path"], p["url"])):
        rows.extend(slice_markdown(page))
    return pa.Table.from_pylist(rows, schema=SCHEMAS["chunks"])


def slice_markdown(page: dict[str, Any]) -> list[dict[str, Any]]:
    """The chunk rows of one ``PAGES`` row (a dict)."""
    scan = scan_markdown(page["markdown"] or "")
    sections = _sections(scan)
    source, path = page["source"], page["path"]
    ids = {s.anchor: stable_id("c_", source, path, s.anchor) for s in sections}
    fence_starts = {f.start for f in scan.fences}
    rows: list[dict[str, Any]] = []
    for sec in sections:
        parts = [(a, b, text) for a, b in _parts(scan, sec) for text in _texts(scan, a, b)]
        for n, (a, b, text) in enumerate(parts, start=1):
            chunk_id = ids[sec.anchor]
            if n > 1:
                chunk_id = stable_id("c_", source, path, sec.anchor, f"part-{n}")
            rows.append(
                {
                    "id": chunk_id,
                    "page_id": page["id"],
                    "source": source,
                    "library": page["library"],
                    "version": page["version"],
                    "url": page["url"] + ("#" + sec.anchor if sec.anchor else ""),
                    "path": path,
                    "title": page["title"],
                    "heading": sec.heading,
                    "anchor": sec.anchor,
                    "level": sec.level,
                    "breadcrumb": list(sec.breadcrumb),
                    "text": text,
                    "code_blocks": [
                        {"language": f.language, "code": f.code}
                        for f in scan.fences
                        if a <= f.start < b
                    ],
                    "tokens": count_tokens(text),
                    "content_hash": hashlib.sha256(text.encode("utf-8")).hexdigest(),
                    "line_start": a + 1,
                    "line_end": b,
                    "prev_id": "",
                    "next_id": "",
                    "parent_id": ids[sec.parent_anchor] if sec.parent_anchor is not None else "",
                    "fetched_at": page["fetched_at"],
                    "security_annotations": [],
                    "contains_code": False,
                    "explains_code": [],
                    "_starts_with_code": a in fence_starts,
                    "_section": sec.start,
                }
            )
    for prev, nxt in zip(rows, rows[1:], strict=False):
        prev["next_id"], nxt["prev_id"] = nxt["id"], prev["id"]
    _relate_code(rows)
    _place_annotations(page.get("security_annotations") or [], page["markdown"] or "", rows)
    return rows


def _relate_code(rows: list[dict[str, Any]]) -> None:
    """Fill ``contains_code`` and ``explains_code`` (module docstring); drop the helper keys."""
    for r in rows:
        r["contains_code"] = bool(r["code_blocks"])
        r["explains_code"] = [
            example_id(r["id"], k) for k, b in enumerate(r["code_blocks"]) if b["code"].strip()
        ]
    for prev, nxt in zip(rows, rows[1:], strict=False):
        if (
            not prev["code_blocks"]
            and nxt["_starts_with_code"]
            and nxt["_section"] == prev["_section"]
            and nxt["code_blocks"][0]["code"].strip()
        ):
            prev["explains_code"] = [example_id(nxt["id"], 0)]
    for r in rows:
        del r["_starts_with_code"], r["_section"]


def _place_annotations(annotations: list[dict], markdown: str, rows: list[dict[str, Any]]) -> None:
    """Each page annotation goes to exactly one chunk: the one whose line range holds the start
    of its text offset, ``start`` or else ``near`` (the next chunk when it starts on a blank line
    between two, the last chunk past the end, the first when it has neither)."""
    if not rows:
        return
    starts = [0]
    for m in re.finditer("\n", markdown):
        starts.append(m.end())
    ends = [r["line_end"] for r in rows]
    for ann in annotations:
        at = Annotation.from_row(ann).anchor  # start, else the near placement
        line = bisect_right(starts, at) if at is not None else 1  # 1-based line of the start
        k = bisect_left(ends, line)
        rows[min(k, len(rows) - 1)]["security_annotations"].append(dict(ann))


def _sections(scan: Scan) -> list[_Section]:
    lines = scan.lines
    starts = [h.line for h in scan.headings]
    out: list[_Section] = []
    first = starts[0] if starts else len(lines)
    if any(line.strip() for line in lines[:first]):
        out.append(_Section(0, first, 0, "", "", (), None))
    stack: list[tuple[int, str, str]] = []  # (level, heading, anchor)
    for k, h in enumerate(scan.headings):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        while stack and stack[-1][0] >= h.level:
            stack.pop()
        crumbs = tuple(s[1] for s in stack)
        parent = stack[-1][2] if stack else None
        out.append(_Section(h.line, end, h.level, h.text, h.anchor, crumbs, parent))
        stack.append((h.level, h.text, h.anchor))
    return out


_LIST_ITEM = re.compile(r"^(?:[*+-]|\d{1,9}[.)])[ \t]")


def _split_block(scan: Scan, a: int, b: int) -> list[tuple[int, int]]:
    """A block over ``MAX_TOKENS`` cut before its top-level list items, and a piece still over
    it (e.g. a scraped dump without blank lines) before any line; never inside a fence."""
    lines = scan.lines
    if b - a < 2 or _at_most("\n".join(lines[a:b]), MAX_TOKENS):
        return [(a, b)]
    starts = {f.start for f in scan.fences}
    cuts = [i for i in range(a + 1, b) if not scan.in_fence[i] and _LIST_ITEM.match(lines[i])]
    out: list[tuple[int, int]] = []
    bounds = [a, *cuts, b]
    for x, y in zip(bounds, bounds[1:], strict=False):
        if y - x < 2 or _at_most("\n".join(lines[x:y]), MAX_TOKENS):
            out.append((x, y))
            continue
        ok = [i for i in range(x + 1, y) if not scan.in_fence[i] or i in starts]
        edges = [x, *ok, y]
        out.extend((u, v) for u, v in zip(edges, edges[1:], strict=False) if v > u)
    return out


# ~TARGET_TOKENS of English prose (about four characters a cl100k token).
_PIECE_CHARS = 4 * TARGET_TOKENS


def _texts(scan: Scan, a: int, b: int) -> list[str]:
    """The text of part ``[a, b)``: one, or the pieces of a single prose line over
    ``MAX_TOKENS`` (module docstring)."""
    text = "\n".join(scan.lines[a:b])
    if b - a != 1 or scan.in_fence[a] or _at_most(text, MAX_TOKENS):
        return [text]
    pieces, i, n = [], 0, len(text)
    while i < n:
        j = min(n, i + _PIECE_CHARS)
        if j < n:
            k = text.rfind(" ", i + _PIECE_CHARS // 2, j)
            j = k + 1 if k >= 0 else j  # the space ends this piece
        while not _at_most(text[i:j], MAX_TOKENS):  # dense text (CJK, symbols): fewer characters
            j = i + max(1, (j - i) // 2)
        pieces.append(text[i:j])
        i = j
    return pieces


def _at_most(text: str, limit: int) -> bool:
    """``count_tokens(text) <= limit``, skipping the count when the UTF-8 size settles it
    (every cl100k token covers at least one byte)."""
    return len(text.encode("utf-8")) <= limit or count_tokens(text) <= limit


def _trim(lines: list[str], a: int, b: int) -> int:
    while b > a + 1 and not lines[b - 1].strip():
        b -= 1
    return b


def _parts(scan: Scan, sec: _Section) -> list[tuple[int, int]]:
    """Line ranges ``[a, b)`` of the section's parts (one unless the section is very long)."""
    lines = scan.lines
    end = _trim(lines, sec.start, sec.end)
    if sec.level == 0:  # leading blank lines of a page are not content
        start = sec.start
        while start < end and not lines[start].strip():
            start += 1
    else:
        start = sec.start
    whole = "\n".join(lines[start:end])
    if _at_most(whole, MAX_TOKENS):
        return [(start, end)]
    # Blocks: runs of lines ending at a blank line outside fences.
    blocks: list[tuple[int, int]] = []
    inside = [False] * len(lines)  # admonition bodies stay with their opener
    for adm in admonitions(scan):
        if adm.end > start and adm.start < end:
            for k in range(adm.start + 1, min(adm.end, len(lines))):
                inside[k] = True
    a = start
    for i in range(start, end):
        if not lines[i].strip() and not scan.in_fence[i] and not inside[i] and i > a:
            blocks.append((a, i))
            a = i
    blocks.append((a, end))
    blocks = [sub for blk in blocks for sub in _split_block(scan, *blk)]
    parts = [p for p, _ in _pack(lines, blocks)]
    out = []
    for a, b in parts:
        while a < b and not lines[a].strip():
            a += 1
        out.append((a, _trim(lines, a, b)))
    return [(a, b) for a, b in out if b > a]


def _pack(lines: list[str], blocks: list[tuple[int, int]]) -> list[tuple[tuple[int, int], int]]:
    """Consecutive blocks packed into parts near ``TARGET_TOKENS`` (module docstring):
    ``[((a, b), tokens)]``."""
    parts: list[tuple[tuple[int, int], int]] = []
    cur_a, cur_b, cur = blocks[0][0], blocks[0][0], 0
    for a, b in blocks:
        t = count_tokens("\n".join(lines[a:b])) + 1  # +1: the joining newline
        if cur_b > cur_a and cur + t > TARGET_TOKENS:
            over, under = cur + t - TARGET_TOKENS, TARGET_TOKENS - cur
            if cur + t <= MAX_TOKENS and over < under:
                parts.append(((cur_a, b), cur + t))
                cur_a, cur_b, cur = b, b, 0
                continue
            parts.append(((cur_a, cur_b), cur))
            cur_a, cur = a, 0
        cur_b, cur = b, cur + t
    if cur_b > cur_a:
        parts.append(((cur_a, cur_b), cur))
    if len(parts) > 1 and parts[-1][1] < TARGET_TOKENS // 4:
        (pa_, _), pt = parts[-2]
        (_, lb), lt = parts[-1]
        if pt + lt <= MAX_TOKENS:
            parts[-2:] = [((pa_, lb), pt + lt)]
    return parts
