"""Line-based Markdown scanning shared by ``normalize``, ``slice`` and ``extract``.

Contract: ``scan_markdown(markdown) -> Scan`` finds, in one linear pass over the lines,

- **fenced code blocks** (```` ``` ```` / ``~~~``, three or more, any indentation so that fences
  inside admonitions, tabs and list items count too). A fence is closed by a line of the same
  character, at least as long, with nothing else on it. An opener left *unclosed* runs to the
  end of its container, as CommonMark (markdown-it) reads it: its lines are code, so a
  ``# comment`` in it is not a section heading.
- **headings** outside fences: ATX (``#`` … ``######`` indented at most 3 spaces, followed by a
  space or end of line) and setext (a non-blank line followed by a ``===`` / ``---`` underline).
  ``Heading.text`` is the heading as written, minus closing ``#``s and a trailing attribute list
  ``{ #id .class }``. ``Heading.anchor`` is the id MkDocs gives the heading: an explicit
  ``{ #id }`` first, else Python-Markdown's ``toc`` slug of the *rendered* heading text, made
  unique within the page with ``toc.unique`` (``_1``, ``_2``) exactly as the ``toc`` extension
  does (explicit ids are reserved first). The heading is rendered by the ``markdown`` package
  itself (``attr_list`` + ``toc``), so inline markup, entities and HTML are handled as MkDocs does.

Also: ``split_front_matter`` (YAML front matter at the very top), ``iter_links`` (inline,
reference-style and autolinks outside fences and code spans), ``fence_language`` and
``admonitions`` (every common dialect: MkDocs ``!!!``/``???``, pymdownx ``///``, GitHub
``> [!TYPE]``, Docusaurus/MyST ``:::``, Sphinx/rST ``.. warning::``, MyST ```` ```{note} ````).

Block structure as CommonMark reads it: markdown-it-py (``commonmark`` preset) parses the page
once and its block tokens' line maps decide two things the line scanner cannot see alone:

- lines inside an **HTML block** (``<div>`` … up to the blank line, ``<details>``, MDX
  components, comments) are raw HTML, never headings;
- a fence **left open** runs to the end of its container (the document, list item or block
  quote), as CommonMark renders it, so ``# …`` lines inside it are code, not sections.

Everything else (fences at any indentation, headings in admonition bodies, anchors) is the
line scanner's, so the public contract is unchanged. markdown-it only ever *removes* heading
candidates or *adds* fences; when its ``maxNesting`` drops deeply nested blocks the scan falls
back to the line rules there, so deep nesting cannot drop text (SECURITY-NOTES.md §5/6).
Front matter is split off before the scan (``split_front_matter``) and admonitions are read by
``admonitions``, so no mdit-py-plugins are needed. Line numbers here are 0-based indices into
``markdown.split("\\n")``.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import markdown as _markdown
import yaml
from markdown.extensions.toc import slugify, unique
from markdown_it import MarkdownIt

__all__ = [
    "RST_ADMONITIONS",
    "Admonition",
    "Fence",
    "Heading",
    "Scan",
    "admonitions",
    "block_tokens",
    "fence_language",
    "iter_links",
    "scan_markdown",
    "split_front_matter",
]

_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_FENCE_CLOSE = re.compile(r"^[ \t]*(?P<run>`{3,}|~{3,})[ \t]*$")
# ``rest`` keeps trailing blanks (the scan strips them): a lazy ``.*?`` before ``[ \t]*$`` was
# quadratic on a heading holding a long run of spaces (20,000 spaces: 5.7 s).
_ATX = re.compile(r"^ {0,3}(?P<hashes>#{1,6})(?:[ \t]+(?P<rest>.*))?$")
_SETEXT_UNDERLINE = re.compile(r"^(?P<u>=+|-+)[ \t]*$")
# The lookbehinds let a run of blanks be tried from its first character only (linear time).
_CLOSING_HASHES = re.compile(r"(?:^|(?<![ \t])[ \t]+)#+[ \t]*$")
# Python-Markdown attr_list's header pattern (a space, then `{...}` at the end of the line).
_ATTR_LIST = re.compile(r"(?<![ ])[ ]+\{\:?[ ]*(?P<attrs>[^\}\n ][^\n]*)\}[ ]*$")
_ATTR_ID = re.compile(r"(?:^|\s)#(?P<id>[^\s}]+)")
_REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*\S")
_NOT_SETEXT_TEXT = re.compile(r"^(?: {4,}|\t|[ ]{0,3}(?:[-*+>|<]|\d+[.)]\s|!!!|\?\?\?|:::))")


@dataclass(frozen=True)
class Fence:
    start: int  # line index of the opening fence
    end: int  # line index of the closing fence
    language: str
    info: str
    code: str


@dataclass(frozen=True)
class Heading:
    line: int  # first line of the heading (the text line for setext headings)
    end_line: int  # last line (the underline for setext headings)
    level: int
    text: str
    anchor: str
    explicit_id: bool


@dataclass
class Scan:
    lines: list[str]
    headings: list[Heading] = field(default_factory=list)
    fences: list[Fence] = field(default_factory=list)
    in_fence: list[bool] = field(default_factory=list)


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """``(front_matter, rest)``: YAML between a leading ``---`` line and the next ``---``/``...``.

    Front matter that is not a YAML mapping is still dropped from the text (it is metadata,
    not content) and reported as ``{}``.
    """
    if not text.startswith("---"):
        return {}, text
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        return {}, text
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            raw = "\n".join(lines[1:i])
            try:
                data = yaml.safe_load(raw) if raw.strip() else {}
            except yaml.YAMLError:
                data = None
            if raw.strip() and not isinstance(data, dict):
                # Not YAML front matter after all (e.g. a page opening with a thematic break).
                if data is None:
                    return {}, text
                return {}, "\n".join(lines[i + 1 :])
            return (data or {}), "\n".join(lines[i + 1 :])
    return {}, text


def fence_language(info: str) -> str:
    """The language of a fence info string: first word, lower-cased, ``{.py}`` → ``py``."""
    word = info.strip().split(maxsplit=1)[0] if info.strip() else ""
    word = word.strip("{}").lstrip(".").split("{", 1)[0].split(",", 1)[0]
    return word.lower()


def _find_fences(lines: list[str]) -> tuple[list[Fence], list[bool]]:
    fences: list[Fence] = []
    in_fence = [False] * len(lines)
    # Candidate closing lines per fence character: (line index, run length), in order.
    closers: dict[str, tuple[list[int], list[int]]] = {"`": ([], []), "~": ([], [])}
    for k, line in enumerate(lines):
        cm = _FENCE_CLOSE.match(line)
        if cm:
            idx, lens = closers[cm.group("run")[0]]
            idx.append(k)
            lens.append(len(cm.group("run")))
    # No closer of length >= failed[c] exists after the last failed search (so none later
    # either): keeps pages full of unclosed openers linear instead of quadratic.
    failed = {"`": 1 << 30, "~": 1 << 30}
    i, n = 0, len(lines)
    while i < n:
        m = _FENCE_OPEN.match(lines[i])
        if m is None or ("`" in m.group("info") and m.group("fence")[0] == "`"):
            i += 1
            continue
        char, length = m.group("fence")[0], len(m.group("fence"))
        j = _closing_line(closers[char], i, length) if length < failed[char] else -1
        if j < 0:  # unclosed: not a fence (Python-Markdown)
            failed[char] = min(failed[char], length)
            i += 1
            continue
        indent = len(m.group("indent").expandtabs(4))
        body = [_dedent(line, indent) for line in lines[i + 1 : j]]
        info = m.group("info").strip()
        fences.append(Fence(i, j, fence_language(info), info, "\n".join(body)))
        for k in range(i, j + 1):
            in_fence[k] = True
        i = j + 1
    return fences, in_fence


def _closing_line(cands: tuple[list[int], list[int]], opener: int, length: int) -> int:
    idx, lens = cands
    for k in range(bisect_right(idx, opener), len(idx)):
        if lens[k] >= length:
            return idx[k]
    return -1


def _dedent(line: str, indent: int) -> str:
    k = 0
    while k < len(line) and k < indent and line[k] == " ":
        k += 1
    return line[k:]


# A permalink a site's generator puts beside a heading, kept by a text dump of the site (an
# llms.txt made from VitePress pages: "Route [\u200b](https://…/tutorial#route)"): a link whose
# text is empty, zero-width or a permalink sign. Not the heading's words: dropped from the text.
_PERMALINK = r"\[[\s\u200b\u200c\u200d\u2060\ufeff#¶§🔗]*\]\([^()\s]*(?:\s+\"[^\"]*\")?\)"
_PERMALINKS = re.compile(rf"^(?:{_PERMALINK}\s*)+|(?<!\s)(?:\s*{_PERMALINK})+$")


def _heading_text(raw: str) -> str:
    text = _CLOSING_HASHES.sub("", raw.strip())
    if text.endswith("}"):
        text = _ATTR_LIST.sub("", " " + text).strip()
    if "](" not in text:
        return text
    return _PERMALINKS.sub("", text).strip() or text


_md_lock = threading.Lock()
_md: _markdown.Markdown | None = None


def _renderer() -> _markdown.Markdown:
    global _md
    if _md is None:
        _md = _markdown.Markdown(extensions=["attr_list", "toc"])
    return _md


_BLANK_RUN = re.compile(r"[ \t]{2,}")


def _render_id(source: str) -> str:
    """The id Python-Markdown (attr_list + toc) gives the single heading in ``source``. Runs of
    blanks become one space first (the id's slug collapses them anyway), and without a closing
    brace the braces go: attr_list's own pattern is quadratic on a long run of blanks (50,000
    spaces: 1.5 s) and on a line of unclosed " {" (20,000: 5 s)."""
    source = _BLANK_RUN.sub(" ", source)
    if not source.endswith("}"):
        # No attribute list can match; attr_list's search would still try every " {" (slow on
        # thousands of them). Braces are not part of an id's slug.
        source = source.replace("{", "")
    return _render_id_of(source)


@lru_cache(maxsize=65536)
def _render_id_of(source: str) -> str:
    with _md_lock:
        md = _renderer()
        md.reset()
        md.convert(source)
        tokens = list(getattr(md, "toc_tokens", []))
    while tokens:
        tok = tokens.pop(0)
        return str(tok["id"])
    return ""


_CONTAINER_OPENER = re.compile(r"^[ ]*(?:!!!|\?\?\?\+?|===)[ \t]")


def _outer_lines(lines: list[str], in_fence: list[bool]) -> list[int]:
    """For every line, the index of the nearest earlier non-blank line (outside fences) that
    is less indented, or -1. One pass with a stack of strictly increasing indents."""
    outer = [-1] * len(lines)
    stack: list[tuple[int, int]] = []  # (indent, line index)
    for k, line in enumerate(lines):
        if not line.strip() or in_fence[k]:
            continue
        indent = len(line) - len(line.lstrip(" "))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        outer[k] = stack[-1][1] if stack else -1
        stack.append((indent, k))
    return outer


def _in_container(lines: list[str], outer: list[int], i: int) -> bool:
    """True when indented line ``i`` is the body of an admonition / details / content tab.

    Python-Markdown (``admonition``, ``pymdownx.details``/``tabbed``) parses such bodies as
    Markdown, so ``    ## Heading`` there is a real heading with a TOC id. Elsewhere an
    indented ``#`` line is code or list text.
    """
    k = outer[i]
    if k < 0:
        return False
    indent = len(lines[i]) - len(lines[i].lstrip(" "))
    k_indent = len(lines[k]) - len(lines[k].lstrip(" "))
    return bool(_CONTAINER_OPENER.match(lines[k])) and indent - k_indent <= 7


def _explicit_id(raw: str) -> str:
    if not raw.rstrip(" \t").endswith("}"):
        return ""  # no attribute list (and no quadratic search over a line of " {" runs)
    m = _ATTR_LIST.search(raw)
    if m is None:
        return ""
    idm = _ATTR_ID.search(m.group("attrs"))
    return idm.group("id") if idm else ""


def _raw_slug(source: str, plain: str) -> str:
    rendered = _render_id(source)
    if rendered:
        return rendered
    # Python-Markdown did not see a heading (e.g. a CommonMark-only form): slug the text.
    return slugify(plain, "-")


_MDIT = MarkdownIt("commonmark")
_mdit_lock = threading.Lock()


def block_tokens(markdown: str) -> list[Any]:
    """CommonMark's block tokens of ``markdown`` (markdown-it-py, 0-based line ``map``s), parsed
    under the one lock every caller shares (the parser object is not shared between threads
    unguarded): the scan's fences and HTML blocks, the injection rules' indented code."""
    with _mdit_lock:
        return _MDIT.parse(markdown)


_HTML_START = re.compile(r"^ {0,3}<[A-Za-z/!?]", re.M)


def _needs_block_parse(markdown: str, lines: list[str], in_fence: list[bool]) -> bool:
    """markdown-it can only change the scan when a line opens an HTML block or a fence marker
    is left outside every fence the line scanner paired (an opener left unclosed)."""
    if "<" in markdown and _HTML_START.search(markdown) and _heading_after_html(lines):
        return True
    if "```" not in markdown and "~~~" not in markdown:
        return False
    return any(
        not in_fence[k] and ("```" in line or "~~~" in line) and _FENCE_OPEN.match(line)
        for k, line in enumerate(lines)
    )


_HTML_SPANNING = re.compile(
    r"^ {0,3}<(?:!--|\?|![A-Za-z]|!\[CDATA\[|(?:script|pre|style|textarea)\b)", re.I
)
_HEADING_LIKE = re.compile(r"^ {0,3}(?:#{1,6}(?:[ \t]|$)|=+[ \t]*$|-+[ \t]*$)")


def _heading_after_html(lines: list[str]) -> bool:
    """A heading-like line inside what could be an HTML block: before the next blank line, or
    anywhere after a block kind that runs past blank lines (comments, <script>, <pre> …)."""
    k, n = 0, len(lines)
    while k < n:
        line = lines[k]
        if not (line.lstrip(" ").startswith("<") and _HTML_START.match(line)):
            k += 1
            continue
        if _HTML_SPANNING.match(line):
            return True
        k += 1
        while k < n and lines[k].strip():
            if _HEADING_LIKE.match(lines[k]):
                return True
            k += 1
    return False


def _block_structure(
    markdown: str, lines: list[str], in_fence: list[bool]
) -> tuple[list[Fence], list[bool]]:
    """CommonMark's fences and raw-HTML lines: ``(fences, in_html)`` from markdown-it's block
    tokens (0-based line maps; a fence left open ends with its container)."""
    in_html = [False] * len(lines)
    fences: list[Fence] = []
    if not _needs_block_parse(markdown, lines, in_fence):
        return fences, in_html
    for tok in block_tokens(markdown):
        if tok.map is None:
            continue
        a, b = tok.map
        if tok.type == "html_block":
            for k in range(a, min(b, len(lines))):
                in_html[k] = True
        elif tok.type == "fence" and b > a:
            info = tok.info.strip()
            fences.append(Fence(a, b - 1, fence_language(info), info, tok.content.rstrip("\n")))
    return fences, in_html


def _merge_fences(
    lines: list[str], fences: list[Fence], in_fence: list[bool], cm_fences: list[Fence]
) -> list[Fence]:
    """Add CommonMark fences the line scanner did not take (an opener left unclosed)."""
    added = False
    for f in cm_fences:
        if any(in_fence[k] for k in range(f.start, f.end + 1)):
            continue
        if not _FENCE_OPEN.match(lines[f.start]):
            continue
        fences.append(f)
        for k in range(f.start, f.end + 1):
            in_fence[k] = True
        added = True
    return sorted(fences, key=lambda f: f.start) if added else fences


def scan_markdown(markdown: str) -> Scan:
    """Fences and headings (with MkDocs anchors) of ``markdown`` (front matter already removed)."""
    lines = markdown.split("\n")
    fences, in_fence = _find_fences(lines)
    cm_fences, in_html = _block_structure(markdown, lines, in_fence)
    fences = _merge_fences(lines, fences, in_fence, cm_fences)
    refdefs = "\n".join(
        line for i, line in enumerate(lines) if not in_fence[i] and _REFDEF.match(line)
    )
    # (line, end line, level, text, source to render, explicit id)
    found: list[tuple[int, int, int, str, str, str]] = []
    outer: list[int] | None = None  # computed on the first indented "#" line
    n = len(lines)
    i = 0
    while i < n:
        if in_fence[i] or in_html[i]:
            i += 1
            continue
        line = lines[i]
        m = _ATX.match(line)
        if m is None and line.startswith("    ") and line.lstrip(" ").startswith("#"):
            if outer is None:
                outer = _outer_lines(lines, in_fence)
            if _in_container(lines, outer, i):
                m = _ATX.match(line.lstrip(" "))
        if m:
            rest = (m.group("rest") or "").rstrip(" \t")
            level = len(m.group("hashes"))
            source = "#" * level + " " + rest
            found.append((i, i, level, _heading_text(rest), source, _explicit_id(rest)))
            i += 1
            continue
        if (
            line.strip()
            and i + 1 < n
            and not in_fence[i + 1]
            and not in_html[i + 1]
            and _SETEXT_UNDERLINE.match(lines[i + 1])
            and not _NOT_SETEXT_TEXT.match(line)
            and not _ATX.match(line)
        ):
            level = 1 if lines[i + 1].startswith("=") else 2
            text = line.strip()
            source = text + "\n" + ("===" if level == 1 else "---")
            found.append((i, i + 1, level, _heading_text(text), source, _explicit_id(text)))
            i += 2
            continue
        i += 1

    used: set[str] = {explicit for *_, explicit in found if explicit}
    counters: dict[str, int] = {}  # toc.unique's cache: linear on pages of repeated headings
    headings: list[Heading] = []
    for line_no, end, level, text, source, explicit in found:
        if explicit:
            anchor = explicit
        else:
            src = source + ("\n\n" + refdefs if refdefs and "[" in source else "")
            slug = _raw_slug(src, text)
            # toc gives an empty slug "_1" already; re-apply unique against the page's ids.
            anchor = unique("" if slug == "_1" else slug, used, counters)
        headings.append(Heading(line_no, end, level, text, anchor, bool(explicit)))
    return Scan(lines=lines, headings=headings, fences=fences, in_fence=in_fence)


_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_INLINE_LINK = re.compile(
    r"(?<!!)\[(?P<text>[^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*)\]\(\s*<?(?P<url>[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
_REF_LINK = re.compile(r"(?<![!\]])\[(?P<text>[^\[\]]+)\]\[(?P<ref>[^\[\]]*)\]")
_REF_DEF = re.compile(r"^ {0,3}\[(?P<ref>[^\]]+)\]:[ \t]*<?(?P<url>[^\s>]+)>?")
_AUTOLINK = re.compile(r"<(?P<url>(?:https?|ftp|mailto):[^\s<>]+)>")


def iter_links(scan: Scan) -> list[tuple[int, str, str]]:
    """``(line_index, text, url)`` for links outside fences and code spans, in page order.

    Inline ``[text](url)``, reference ``[text][ref]`` / ``[ref][]`` resolved through the page's
    ``[ref]: url`` definitions (case-insensitive), and ``<https://…>`` autolinks. Image links
    (``![alt](src)``) are not links.
    """
    defs: dict[str, str] = {}
    for i, line in enumerate(scan.lines):
        if not scan.in_fence[i]:
            m = _REF_DEF.match(line)
            if m:
                defs.setdefault(_norm_ref(m.group("ref")), m.group("url"))
    out: list[tuple[int, str, str]] = []
    for i, line in enumerate(scan.lines):
        if scan.in_fence[i] or "[" not in line and "<" not in line:
            continue
        if _REF_DEF.match(line):
            continue
        text = _CODE_SPAN.sub(lambda mm: " " * len(mm.group(0)), line)
        hits: list[tuple[int, str, str]] = []
        for m in _INLINE_LINK.finditer(text):
            if m.group("url"):
                hits.append((m.start(), m.group("text").strip(), m.group("url")))
        for m in _REF_LINK.finditer(text):
            ref = m.group("ref") or m.group("text")
            url = defs.get(_norm_ref(ref))
            if url:
                hits.append((m.start(), m.group("text").strip(), url))
        for m in _AUTOLINK.finditer(text):
            hits.append((m.start(), m.group("url"), m.group("url")))
        out.extend((i, t, u) for _, t, u in sorted(hits))
    return out


def _norm_ref(ref: str) -> str:
    return " ".join(ref.split()).lower()


# -- admonitions -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Admonition:
    start: int  # first line (the opener)
    end: int  # exclusive end line
    type: str  # lower-case: "warning", "note", "deprecated", "versionchanged", ...
    title: str  # "" when the dialect's default title is used
    dialect: str  # "mkdocs", "pymdownx-blocks", "github", "docusaurus", "rst", "myst"
    body: str  # the body text, markers removed, fenced code left out, whitespace collapsed


RST_ADMONITIONS = frozenset(
    {
        *("attention", "caution", "danger", "error", "hint", "important", "note", "tip"),
        *("warning", "admonition", "seealso", "todo", "deprecated", "versionadded"),
        *("versionchanged", "versionremoved"),
    }
)
_COLON_TYPES = RST_ADMONITIONS | {"info", "success", "secondary", "details"}
"""``:::`` types; ``::: pkg.module`` (mkdocstrings/mkautodoc) is a directive, not an admonition."""
_MKDOCS_OPEN = re.compile(
    r"^(?P<indent>[ ]*)(?:!!!|\?\?\?\+?)[ \t]+(?P<type>[\w-]+)(?:[ \t]+(?P<rest>.*))?$"
)
_BLOCKS_OPEN = re.compile(r"^[ ]*///[ \t]*(?P<type>[\w-]+)[ \t]*(?:\|[ \t]*(?P<title>.*))?$")
_BLOCKS_END = re.compile(r"^[ ]*///[ \t]*$")
_GH_OPEN = re.compile(r"^[ ]{0,3}>[ \t]*\[!(?P<type>[A-Za-z][\w-]*)\][+-]?[ \t]*(?P<title>.*)$")
_COLON_OPEN = re.compile(
    r"^[ ]{0,3}(?P<colons>:{3,})[ \t]*\{?(?P<type>[A-Za-z][\w-]*)\}?[ \t]*(?P<title>.*)$"
)
_COLON_END = re.compile(r"^[ ]{0,3}(?P<colons>:{3,})[ \t]*$")
_RST_OPEN = re.compile(r"^(?P<indent>[ ]*)\.\.[ \t]+(?P<type>[\w-]+)::[ \t]*(?P<rest>.*)$")
_QUOTE_PREFIX = re.compile(r"^[ ]{0,3}>[ ]?")
_BOLD_LINE = re.compile(r"^\*\*(?P<t>[^*\n]+)\*\*$")


def admonitions(scan: Scan) -> list[Admonition]:
    """Admonitions outside fenced code, in every common dialect, in document order:

    MkDocs ``!!! type "title"`` / ``??? type`` (indented body), pymdownx ``/// type | title``
    … ``///``, GitHub ``> [!TYPE]`` (the quoted lines after it; a first ``**Title**`` line is its
    title, the form ``html_to_md`` writes for every HTML dialect), Docusaurus/MyST
    ``:::type title`` / ``:::{type}`` … ``:::`` (a closer has at least the opener's colons),
    reStructuredText/Sphinx ``.. type::`` (known admonition and version directives; indented
    body) and MyST ```` ```{type} ```` fences. Linear in the number of lines."""
    lines, in_fence = scan.lines, scan.in_fence
    fence_at = {f.start: f for f in scan.fences}
    out: list[Admonition] = []
    i, n = 0, len(lines)
    while i < n:
        if in_fence[i]:
            f = fence_at.get(i)
            typ = f.info.strip() if f else ""
            if f and typ.startswith("{") and typ[1:].split("}", 1)[0].lower() in RST_ADMONITIONS:
                name = typ[1:].split("}", 1)[0].lower()
                body = [ln for ln in f.code.split("\n") if not ln.startswith(":")]
                out.append(_adm(f.start, f.end + 1, name, "", "myst", body))
                i = f.end + 1
                continue
            i += 1
            continue
        line = lines[i]
        m = _MKDOCS_OPEN.match(line)
        if m:
            j = _indented_end(lines, i, len(m.group("indent")))
            title = _quoted_title(m.group("rest") or "")
            out.append(_adm(i, j, m.group("type"), title, "mkdocs", _unfenced(scan, i + 1, j)))
            i = j
            continue
        m = _BLOCKS_OPEN.match(line)
        if m and not _BLOCKS_END.match(line):
            j = i + 1
            while j < n and not (_BLOCKS_END.match(lines[j]) and not in_fence[j]):
                j += 1
            end = min(j + 1, n)
            body = _unfenced(scan, i + 1, j)
            title = (m.group("title") or "").strip()
            out.append(_adm(i, end, m.group("type"), title, "pymdownx-blocks", body))
            i = end
            continue
        m = _GH_OPEN.match(line)
        if m:
            j = i + 1
            while j < n and lines[j].lstrip().startswith(">"):
                j += 1
            body = [_QUOTE_PREFIX.sub("", ln) for ln in _unfenced(scan, i + 1, j)]
            title = (m.group("title") or "").strip()
            first = next((k for k, ln in enumerate(body) if ln.strip()), None)
            if not title and first is not None:
                bold = _BOLD_LINE.match(body[first].strip())
                if bold:
                    title = bold.group("t").strip()
                    body = body[first + 1 :]
            out.append(_adm(i, j, m.group("type"), title, "github", body))
            i = j
            continue
        m = _COLON_OPEN.match(line)
        if m and m.group("type").lower() in _COLON_TYPES and not m.group("title").startswith("."):
            need = len(m.group("colons"))
            j = i + 1
            while j < n:
                c = _COLON_END.match(lines[j])
                if c and not in_fence[j] and len(c.group("colons")) >= need:
                    break
                j += 1
            end = min(j + 1, n)
            body = [ln for ln in _unfenced(scan, i + 1, j) if not _COLON_END.match(ln)]
            title = m.group("title").strip()
            dialect = "myst" if "{" in line else "docusaurus"
            out.append(_adm(i, end, m.group("type"), title, dialect, body))
            i = end
            continue
        m = _RST_OPEN.match(line)
        if m and m.group("type").lower() in RST_ADMONITIONS:
            j = _indented_end(lines, i, len(m.group("indent")))
            typ = m.group("type").lower()
            rest = m.group("rest").strip()
            title = rest if typ == "admonition" else ""
            body = ([rest] if rest and typ != "admonition" else []) + _unfenced(scan, i + 1, j)
            out.append(_adm(i, j, typ, title, "rst", body))
            i = j
            continue
        i += 1
    return out


def _adm(start: int, end: int, typ: str, title: str, dialect: str, body: list[str]) -> Admonition:
    text = " ".join(" ".join(ln.split()) for ln in body if ln.strip())
    return Admonition(start, end, typ.lower(), title, dialect, text)


def _indented_end(lines: list[str], i: int, indent: int) -> int:
    j = i + 1
    while j < len(lines) and (
        not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip(" ")) > indent
    ):
        j += 1
    while j > i + 1 and not lines[j - 1].strip():
        j -= 1
    return j


def _unfenced(scan: Scan, a: int, b: int) -> list[str]:
    return [scan.lines[k] for k in range(a, b) if not scan.in_fence[k]]


def _quoted_title(rest: str) -> str:
    m = re.match(r'^\s*"([^"]*)"', rest)
    return m.group(1) if m else ""
