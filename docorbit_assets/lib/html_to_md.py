"""HTML page -> deterministic Markdown, with nothing lost silently.

Contract: ``html_to_markdown(html, url=...)`` takes one fetched HTML page (``str`` or raw
``bytes``) and returns an :class:`HtmlConversion`. It never fetches anything (``<base href>``
and meta refresh are only read), never raises on hostile markup (only :class:`InputError` for
input it cannot treat as text at all), and gives the same bytes for the same input.

Pipeline (each step a small function below):

1. **decode** bytes: BOM, else strict UTF-8, else the ``<meta charset>`` if it is an
   ASCII-compatible codec, else UTF-8 with replacement (count noted). A ``<meta>`` that lies
   (says utf-16 over UTF-8 bytes) loses to valid UTF-8. NUL and C0 controls are removed
   before parsing (counted in ``notes``).
2. **parse** with lxml (``huge_tree=False``, no network). libxml2 stops at depth 256 and drops
   the deep text *and the following siblings* without raising; its ``error_log`` is checked
   and the page is marked ``truncated``.
3. **pick the main content**: known framework containers first (:data:`MAIN_SELECTORS`:
   MkDocs/Material, Sphinx, Docusaurus, VitePress, then generic ``main``/``article``/
   ``[role=main]``); for an unknown layout with enough text, trafilatura; a small page
   without any of these is taken whole (``body``).
4. **drop chrome** inside it (:func:`_chrome_label`: nav, sidebars, headers/footers, cookie
   banners, "edit this page", search, headerlinks, copy buttons, scripts, elements hidden
   with ``display:none``/``visibility:hidden``/``hidden``), each rule counted in ``dropped``.
5. **rewrite for the converter**: heading ids become ``{ #id }`` attributes; code blocks get
   ``language-X`` from any dialect (``language-``, ``lang-``, Sphinx ``highlight-``,
   ``data-lang``); line-number columns go; every admonition dialect becomes one blockquote
   form (below); tab sets become labelled sections; links and images become absolute and
   canonical (resolved against ``<base href>`` if it is http(s), else ``url``); links with
   ``javascript:``/``vbscript:``/``data:``/``file:`` targets keep their text and lose the
   target; tables are capped at :data:`MAX_TABLE_ROWS` rows.
6. **convert** with html-to-markdown (Rust), fixed options.
7. **check coverage**: the words of the cleaned container (lxml ``text_content``) against the
   words of the Markdown; below :data:`MIN_WORD_COVERAGE` the page is marked truncated.

Admonitions (MkDocs ``div.admonition``/``details``, Sphinx ``.admonition`` and
``deprecated``/``versionadded``/``versionchanged``, Docusaurus ``.theme-admonition``,
VitePress ``.custom-block``, GitHub ``.markdown-alert``) are all written as a GitHub-style
alert blockquote, with the dialect's type upper-cased and the title (when it is not just the
type's name) on its own bold line::

    > [!WARNING]
    >
    > **Custom title**
    >
    > Body paragraphs, lists and code fences, each line quoted.

It is plain CommonMark (a blockquote), GitHub renders it as an alert for the five GitHub
types, and the slicer keeps it inside its section.

The output Markdown keeps raw ``<``/``>`` of the page's prose as text (for example
``<Response [200 OK]>``); render it with raw HTML disabled.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit, urlunsplit

import html_to_markdown as h2m
from lxml import etree

from docorbit_serve.errors import InputError

__all__ = [
    "MAIN_SELECTORS",
    "MAX_INPUT_CHARS",
    "MAX_TABLE_ROWS",
    "MIN_WORD_COVERAGE",
    "HtmlConversion",
    "decode_html",
    "html_to_markdown",
    "markdown_text",
    "visible_text",
    "words",
]

MAX_INPUT_CHARS = 10 * 1024 * 1024
"""Decoded characters converted per page; the rest is cut and the page marked truncated."""
MAX_TABLE_ROWS = 2000
"""Rows kept per table; more are dropped and the page marked truncated."""
MAX_ELEMENTS = 400_000
"""Elements kept in the chosen container; a page over this is cut (bounded conversion cost)."""
MIN_WORD_COVERAGE = 0.95
"""Share of the container's words that must reach the Markdown, else ``truncated``."""
MAX_TRAFILATURA_CHARS = 512_000
"""Unknown layouts bigger than this are taken whole (trafilatura costs ~2 s per MB)."""
MIN_EXTRACTED_SHARE = 0.2
"""trafilatura keeping less than this share of the page's words is overruled (page kept whole)."""
SMALL_PAGE_WORDS = 300
"""Below this many words an unknown layout is taken whole instead of asking trafilatura."""


def _cls(name: str) -> str:
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


MAIN_SELECTORS: tuple[tuple[str, str], ...] = (
    ("mkdocs-material", f"//article[{_cls('md-content__inner')}]"),
    ("mkdocs-material", f"//div[{_cls('md-content')}]"),
    ("docusaurus", f"//article//div[{_cls('markdown')}]"),
    ("vitepress", f"//*[{_cls('vp-doc')}]"),
    (
        "sphinx",
        f"//div[{_cls('body')} and (@role='main' or ancestor::*[{_cls('bodywrapper')} or {_cls('documentwrapper')}])]",
    ),
    ("sphinx", "//*[@itemprop='articleBody']"),
    ("sphinx", f"//div[{_cls('body')}]"),
    ("role-main", "//*[@role='main']"),
    ("main", "//main"),
    ("article", "//article"),
)
"""(name, XPath) tried in order; the first that matches with text wins (largest match)."""

_HIDDEN_STYLE = re.compile(r"(?:display\s*:\s*none|visibility\s*:\s*hidden)", re.I)

_SIDEBAR = frozenset(
    [
        "sidebar",
        "md-sidebar",
        "sphinxsidebar",
        "toc",
        "table-of-contents",
        "theme-doc-toc-mobile",
        "theme-doc-toc-desktop",
        "wy-nav-side",
        "bd-sidebar-primary",
        "bd-sidebar-secondary",
        "VPSidebar",
    ]
)
_BREADCRUMBS = frozenset(["breadcrumbs", "theme-doc-breadcrumbs", "wy-breadcrumbs", "md-path"])
_SEARCH = frozenset(["search", "md-search", "DocSearch", "DocSearch-Button", "VPNavBarSearch"])
_EDIT = frozenset(
    [
        "md-content__button",
        "theme-edit-this-page",
        "edit-this-page",
        "edit-link",
        "md-source-file",
        "theme-last-updated",
    ]
)
_PAGINATION = frozenset(
    [
        "pagination-nav",
        "theme-doc-footer",
        "prev-next-area",
        "rst-footer-buttons",
        "md-footer",
        "related",
        "md-feedback",
        "prev-next",
        "VPDocFooter",
        "prev-next-buttons",
    ]
)
_HEADERLINK = frozenset(
    ["headerlink", "anchor", "hash-link", "header-anchor", "anchor-link", "anchorjs-link"]
)
_COPY = frozenset(["lang", "md-clipboard", "copybtn", "clean-btn", "copy-button"])
_LINENOS = frozenset(["linenos", "linenodiv", "line-numbers-rows"])
_FORM = frozenset(["form", "input", "select", "textarea", "button"])
_EMBED = frozenset(["iframe", "object", "embed", "svg", "canvas", "video", "audio"])
_SCRIPT = frozenset(["script", "style", "noscript", "template", "link", "meta"])
_BANNER_TAGS = frozenset(["div", "section", "aside", "dialog", "form", "footer"])
_COOKIE_BANNER = re.compile(
    r"cookie[-_]?(?:banner|consent|notice|bar|popup|law|policy|message)|consent|gdpr|cc-window|onetrust"
)
_CHROME_TAGS = {
    **dict.fromkeys(_SCRIPT, "script/style"),
    **dict.fromkeys(_FORM, "form control"),
    "nav": "nav",
    "footer": "header/footer",
}
_ADMONITION_HINTS = ("admonition", "callout", "aside--", "alert")


def _chrome_label(el: etree._Element) -> str | None:
    """Why ``el`` is page chrome (a ``dropped`` label), or None when it is content."""
    tag = el.tag
    if tag is etree.Comment or tag is etree.ProcessingInstruction:
        return "comment"
    if not isinstance(tag, str):
        return None
    tag = tag.lower()
    if tag in _CHROME_TAGS:
        return _CHROME_TAGS[tag]
    if not el.attrib:
        return "header/footer" if tag == "header" and not el.xpath(".//h1") else None
    classes = set(_classes(el))
    class_text = (el.get("class") or "").lower()
    role = el.get("role") or ""
    if tag in _SCRIPT:
        return "script/style"
    if tag == "nav" or role == "navigation":
        return "nav"
    if (
        tag == "footer"
        or role in ("banner", "contentinfo")
        or (tag == "header" and not el.xpath(".//h1"))
    ):
        return "header/footer"
    if (
        tag == "aside" and not any(h in class_text for h in _ADMONITION_HINTS)
    ) or classes & _SIDEBAR:
        return "sidebar/toc"
    if classes & _BREADCRUMBS or (el.get("aria-label") or "").lower() == "breadcrumbs":
        return "breadcrumbs"
    if role == "search" or classes & _SEARCH:
        return "search"
    if tag in _BANNER_TAGS and _COOKIE_BANNER.search(
        f"{class_text} {(el.get('id') or '').lower()}"
    ):
        return "cookie banner"
    if classes & _EDIT or el.get("title") in ("Edit this page", "View source of this page"):
        return "edit this page"
    if classes & _PAGINATION:
        return "pagination/footer nav"
    if tag == "a" and classes & _HEADERLINK:
        return "headerlink"
    if classes & _COPY:
        return "copy button"
    if tag in _FORM:
        return "form control"
    if classes & _LINENOS:
        return "line numbers"
    if _is_hidden(el):
        return "hidden element"
    if tag in _EMBED:
        return "embedded object"
    return None


_ADMONITION_TYPES = frozenset(
    [
        "note",
        "tip",
        "hint",
        "important",
        "info",
        "warning",
        "caution",
        "danger",
        "error",
        "attention",
        "seealso",
        "todo",
        "success",
        "question",
        "failure",
        "bug",
        "example",
        "quote",
        "abstract",
        "summary",
        "tldr",
        "deprecated",
        "versionadded",
        "versionchanged",
        "versionremoved",
        "check",
        "done",
        "fail",
        "missing",
        "help",
        "faq",
        "cite",
        "secondary",
    ]
)
_UNSAFE_SCHEMES = ("javascript:", "vbscript:", "data:", "file:", "blob:", "filesystem:")
_WORD = re.compile(r"\w+", re.UNICODE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_URL_STRIP = re.compile(r"[\x00-\x20\x7f]")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_HEADING_LINE = re.compile(r"^(#{1,6})\s+(.*?)(?:\s+\{\s*#([^\s}]+)\s*\})?\s*#*\s*$")
_ALERT_LINE = re.compile(r"^> \[![A-Z0-9_-]+\]$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


@dataclass
class HtmlConversion:
    """One converted page. ``dropped``/``notes`` are sorted, human-readable and stable."""

    markdown: str
    title: str
    headings: list[tuple[int, str, str]]
    truncated: bool
    truncation_reason: str
    dropped: list[str] = field(default_factory=list)
    word_coverage: float = 1.0
    strategy: str = ""
    notes: list[str] = field(default_factory=list)


def words(text: str) -> Counter[str]:
    """The multiset of case-folded word tokens used by the coverage check."""
    return Counter(w.casefold() for w in _WORD.findall(text))


def html_to_markdown(html: str | bytes, *, url: str) -> HtmlConversion:
    """Convert one HTML page to Markdown (see the module docstring for every step)."""
    notes: list[str] = []
    reasons: list[str] = []
    text = _decode(html, notes) if isinstance(html, bytes) else html
    if len(text) > MAX_INPUT_CHARS:
        reasons.append(f"input of {len(text)} characters cut at {MAX_INPUT_CHARS}")
        text = text[:MAX_INPUT_CHARS]
    text, n_ctrl = _CONTROL.subn("", text)
    if n_ctrl:
        notes.append(f"control characters removed before parsing: {n_ctrl}")
    root, parse_errors = _parse(text)
    reasons.extend(parse_errors)
    if root is None:
        notes.append("empty document")
        return _result("", "", [], reasons, [], 1.0, "empty", notes)
    base = _base_url(root, url, notes)
    title = _title(root)
    container, strategy, dropped = _main_content(root, url)
    counts: Counter[str] = Counter()
    _find_heading_ids(container)
    _drop_chrome(container, counts)
    n_elements = sum(1 for _ in container.iter())
    if n_elements > MAX_ELEMENTS:
        reasons.append(f"{n_elements} elements in the main content, over {MAX_ELEMENTS}")
        _cut_elements(container, MAX_ELEMENTS)
    _cap_tables(container, reasons)
    reference = words(visible_text(container))
    _rewrite(container, base, counts)
    markdown = _convert(container)
    coverage = _coverage(reference, words(markdown_text(markdown)))
    if coverage < MIN_WORD_COVERAGE:
        reasons.append(f"word coverage {coverage:.3f} below {MIN_WORD_COVERAGE}")
    dropped.extend(f"{label} ({n})" for label, n in sorted(counts.items()))
    h1 = _first_h1(markdown)
    return _result(
        markdown, h1 or title, _headings(markdown), reasons, dropped, coverage, strategy, notes
    )


def _result(
    markdown: str,
    title: str,
    headings: list[tuple[int, str, str]],
    reasons: list[str],
    dropped: list[str],
    coverage: float,
    strategy: str,
    notes: list[str],
) -> HtmlConversion:
    return HtmlConversion(
        markdown=markdown,
        title=title,
        headings=headings,
        truncated=bool(reasons),
        truncation_reason="; ".join(reasons),
        dropped=dropped,
        word_coverage=round(coverage, 4),
        strategy=strategy,
        notes=notes,
    )


# -- 1. decode ------------------------------------------------------------------------------


def decode_html(data: bytes) -> str:
    """The text of an HTML body, decoded exactly as ``html_to_markdown`` decodes it."""
    return _decode(data, [])


def _decode(data: bytes, notes: list[str]) -> str:
    for bom, encoding in (
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF32_LE, "utf-32-le"),
        (codecs.BOM_UTF32_BE, "utf-32-be"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ):
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    match = _META_CHARSET.search(data[:4096])
    if match:
        declared = match.group(1).decode("ascii", "replace").lower()
        try:
            info = codecs.lookup(declared)
        except LookupError:
            info = None
        if info is not None and not info.name.startswith(("utf-16", "utf-32", "utf-8")):
            try:
                return data.decode(info.name)
            except UnicodeDecodeError:
                pass
    text = data.decode("utf-8", errors="replace")
    replaced = text.count("\ufffd") - data.count("\ufffd".encode())
    notes.append(f"invalid UTF-8: {replaced} replacement characters")
    return text


# -- 2. parse -------------------------------------------------------------------------------


def _parse(text: str) -> tuple[etree._Element | None, list[str]]:
    parser = etree.HTMLParser(
        encoding="utf-8", no_network=True, huge_tree=False, remove_pis=True, remove_blank_text=False
    )
    if not text.strip():
        return None, []
    try:
        root = etree.fromstring(text.encode("utf-8", "replace"), parser=parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as e:
        if "empty" in str(e).lower():
            return None, []
        raise InputError(f"HTML could not be parsed: {e}", detail={"stage": "normalize"}) from e
    if root is None:
        return None, []
    reasons = []
    for entry in parser.error_log:
        if (
            entry.type_name == "ERR_RESOURCE_LIMIT"
            or "Excessive depth" in entry.message
            or "Huge" in entry.message
        ):
            reasons.append(
                f"HTML parser limit at line {entry.line}: {entry.message.strip()} (deeper content dropped)"
            )
            break
    if text.rfind("<!--") > text.rfind("-->"):
        # libxml2 swallows the rest of the page into the comment without an error.
        reasons.append("unterminated HTML comment hides the rest of the page")
    return root, reasons


def _base_url(root: etree._Element, url: str, notes: list[str]) -> str:
    # <base href> is a URL found in content: resolved, never fetched; only http(s) is honoured.
    for href in root.xpath("//base/@href")[:1]:
        candidate = urljoin(url, _URL_STRIP.sub("", str(href)))
        if urlsplit(candidate).scheme in ("http", "https"):
            return candidate
        notes.append(f"<base href> ignored (not http/https): {str(href)[:80]}")
    return url


def _title(root: etree._Element) -> str:
    for xpath in ("//meta[@property='og:title']/@content", "//title"):
        found = root.xpath(xpath)
        if found:
            value = found[0] if isinstance(found[0], str) else _string(found[0])
            value = " ".join(str(value).split())
            if value:
                return value
    return ""


# -- 3. main content ------------------------------------------------------------------------


def _main_content(root: etree._Element, url: str) -> tuple[etree._Element, str, list[str]]:
    for name, xpath in MAIN_SELECTORS:
        matches = [m for m in root.xpath(xpath) if isinstance(m.tag, str)]
        matches = [m for m in matches if _string(m).strip()]
        if matches:
            best = max(matches, key=lambda m: len(_string(m)))
            return best, name, [f"outside main content ({name})"]
    body = root.find("body")
    if body is None:
        body = root
    size = len(etree.tostring(body, encoding="unicode", method="html"))
    if size > MAX_TRAFILATURA_CHARS or sum(words(visible_text(body)).values()) < SMALL_PAGE_WORDS:
        return body, "body", []
    extracted = _trafilatura(root, url)
    before = sum(words(visible_text(body)).values())
    after = sum(words(visible_text(extracted)).values()) if extracted is not None else 0
    if extracted is None or after < MIN_EXTRACTED_SHARE * before:
        # The extractor found (almost) nothing: keep the whole page rather than lose it.
        return body, "body", []
    return (
        extracted,
        "trafilatura",
        [f"boilerplate removed by trafilatura ({before - after} of {before} words)"],
    )


def _trafilatura(root: etree._Element, url: str) -> etree._Element | None:
    import trafilatura  # imported lazily: it is slow to import and only used for unknown layouts

    result = trafilatura.extract(
        etree.tostring(root, encoding="unicode", method="html"),
        url=url,
        output_format="html",
        include_comments=False,
        include_tables=True,
        include_links=True,
        include_images=True,
        include_formatting=True,
        favor_recall=True,
        deduplicate=False,
    )
    if not result:
        return None
    doc = etree.fromstring(result.encode("utf-8"), parser=etree.HTMLParser(encoding="utf-8"))
    if doc is None:
        return None
    body = doc.find("body")
    return body if body is not None else doc


# -- 4. chrome ------------------------------------------------------------------------------


def _drop_chrome(container: etree._Element, counts: Counter[str]) -> None:
    stack = list(container)
    doomed: list[etree._Element] = []
    unwrap: list[etree._Element] = []
    while stack:
        el = stack.pop()
        label = _chrome_label(el)
        if label is None:
            stack.extend(el)
        elif label == "embedded object":
            # Unwrap, do not delete: libxml2 treats <embed> as a container and nests the rest
            # of the page in it; <object>/<svg> children are fallback content or labels.
            unwrap.append(el)
            counts[label] += 1
            stack.extend(el)
        else:
            doomed.append(el)
            counts[label] += 1
    for el in doomed:
        _remove(el)
    for el in reversed(unwrap):
        if el.getparent() is not None:
            _unwrap(el)


def _unwrap(el: etree._Element) -> None:
    """Replace ``el`` by its text and children (``drop_tag`` of lxml.html)."""
    parent = el.getparent()
    if parent is None:
        return
    index = parent.index(el)
    children = list(el)
    text = el.text or ""
    prev = el.getprevious()
    if text:
        if prev is not None:
            prev.tail = (prev.tail or "") + text
        else:
            parent.text = (parent.text or "") + text
    tail = el.tail
    for offset, child in enumerate(children):
        parent.insert(index + offset, child)
    parent.remove(el)
    if tail:
        last = children[-1] if children else parent[index - 1] if index > 0 else None
        if last is not None:
            last.tail = (last.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail


def _is_hidden(el: etree._Element) -> bool:
    if el.get("hidden") is not None and el.get("role") != "tabpanel":
        return True
    return bool(_HIDDEN_STYLE.search(el.get("style") or ""))


def _remove(el: etree._Element) -> None:
    """Remove an element but keep its tail text (which belongs to the parent)."""
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail
    if tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)


def _cut_elements(container: etree._Element, limit: int) -> None:
    for i, el in enumerate(list(container.iter())):
        if i >= limit and el.getparent() is not None:
            el.getparent().remove(el)


def _cap_tables(container: etree._Element, reasons: list[str]) -> None:
    for table in container.iter("table"):
        rows = [r for r in table.iter("tr")]
        if len(rows) > MAX_TABLE_ROWS:
            for row in rows[MAX_TABLE_ROWS:]:
                row.getparent().remove(row)
            reasons.append(f"table with {len(rows)} rows cut to {MAX_TABLE_ROWS}")


# -- 5. rewrite -----------------------------------------------------------------------------


def _rewrite(container: etree._Element, base: str, counts: Counter[str]) -> None:
    _code_blocks(container)
    _admonitions(container)
    _tabs(container)
    _heading_ids(container)
    _links(container, base, counts)


def _string(el: etree._Element) -> str:
    """All text of ``el`` (XPath string value: comments excluded)."""
    return str(el.xpath("string()"))


def _classes(el: etree._Element) -> list[str]:
    return (el.get("class") or "").split()


def _code_language(pre: etree._Element) -> str:
    candidates = [pre, *pre.iterchildren("code")]
    parent = pre.getparent()
    for _ in range(3):
        if parent is None:
            break
        candidates.append(parent)
        parent = parent.getparent()
    for el in candidates:
        for attr in ("data-lang", "data-language"):
            if el.get(attr):
                return el.get(attr).strip().lower()
        for token in _classes(el):
            for prefix in ("language-", "lang-", "highlight-"):
                if token.startswith(prefix) and len(token) > len(prefix):
                    lang = token[len(prefix) :].lower().removeprefix("source-")
                    if lang not in ("default", "none", "nohighlight", "plaintext"):
                        return lang
    return ""


def _code_blocks(container: etree._Element) -> None:
    # Pygments line-number tables: keep only the code cell.
    for table in container.xpath(f".//table[{_cls('highlighttable')}]"):
        code_cells = table.xpath(f".//td[{_cls('code')}]")
        if code_cells and table.getparent() is not None:
            table.getparent().replace(table, code_cells[0])
            code_cells[0].tag = "div"
    for pre in list(container.iter("pre")):
        lang = _code_language(pre)
        children = list(pre)
        if len(children) == 1 and children[0].tag == "code" and not (pre.text or "").strip():
            code = children[0]
        else:
            code = etree.SubElement(pre, "code")
            code.text, pre.text = pre.text, None
            for child in children:
                code.append(child)
        code.attrib.clear()
        if lang:
            code.set("class", f"language-{lang}")


def _admonition_kind(el: etree._Element) -> tuple[str, etree._Element | None] | None:
    """(type, title element) when ``el`` is an admonition of a known dialect, else None."""
    classes = _classes(el)
    tokens = set(classes)
    title_xpath = "./*[contains(@class, 'title') or contains(@class, 'admonitionHeading') or self::summary][1]"
    if (
        "theme-admonition" in tokens
        or "markdown-alert" in tokens
        or any(c.startswith("theme-admonition-") for c in classes)
    ):
        kind = next(
            (
                c.split("-", 2)[-1]
                for c in classes
                if c.startswith(("theme-admonition-", "markdown-alert-"))
            ),
            "note",
        )
        title = el.xpath(title_xpath)
        return kind, title[0] if title else None
    if (
        "admonition" in tokens
        or "custom-block" in tokens
        or (el.tag == "details" and tokens & _ADMONITION_TYPES)
    ):
        known = [
            c.removeprefix("admonition-")
            for c in classes
            if c.removeprefix("admonition-") in _ADMONITION_TYPES
        ]
        title = el.xpath(title_xpath)
        return (known[0] if known else "note"), title[0] if title else None
    if el.tag == "div" and tokens & {
        "deprecated",
        "versionadded",
        "versionchanged",
        "versionremoved",
    }:
        return sorted(tokens & {"deprecated", "versionadded", "versionchanged", "versionremoved"})[
            0
        ], None
    return None


def _admonitions(container: etree._Element) -> None:
    # Innermost first, so nested admonitions become nested blockquotes.
    for el in reversed(list(container.iter("div", "details", "aside", "section"))):
        found = _admonition_kind(el)
        if found is None or el.getparent() is None:
            continue
        kind, title_el = found
        quote = etree.Element("blockquote")
        marker = etree.SubElement(quote, "p")
        marker.text = f"[!{kind.upper()}]"
        title = " ".join(_string(title_el).split()) if title_el is not None else ""
        if title and title.casefold() != kind.casefold():
            strong = etree.SubElement(etree.SubElement(quote, "p"), "strong")
            strong.text = title
        body = el
        if title_el is not None:
            _remove(title_el)
        content = el.xpath("./*[contains(@class, 'admonitionContent')]")
        if content:
            body = content[0]
        if (body.text or "").strip():
            para = etree.SubElement(quote, "p")
            para.text = body.text
        for child in list(body):
            quote.append(child)
        quote.tail = el.tail
        el.getparent().replace(el, quote)


def _tabs(container: etree._Element) -> None:
    # MkDocs Material content tabs: labels and blocks side by side -> "**label**" + block.
    for tabset in container.xpath(f".//div[{_cls('tabbed-set')}]"):
        labels = tabset.xpath(f"./div[{_cls('tabbed-labels')}]/label")
        blocks = tabset.xpath(f"./div[{_cls('tabbed-content')}]/div[{_cls('tabbed-block')}]")
        if not labels or len(labels) != len(blocks):
            continue
        section = etree.Element("div")
        for label, block in zip(labels, blocks, strict=True):
            strong = etree.SubElement(etree.SubElement(section, "p"), "strong")
            strong.text = " ".join(_string(label).split())
            section.append(block)
        section.tail = tabset.tail
        tabset.getparent().replace(tabset, section)
    # ARIA tabs (Docusaurus and others): role=tab labels, role=tabpanel panels.
    for tablist in container.xpath(".//*[@role='tablist']"):
        parent = tablist.getparent()
        if parent is None:
            continue
        tabs = tablist.xpath(".//*[@role='tab']")
        panels = parent.xpath(".//*[@role='tabpanel']")
        if tabs and len(tabs) == len(panels):
            for tab, panel in zip(tabs, panels, strict=True):
                strong = etree.Element("strong")
                strong.text = " ".join(_string(tab).split())
                para = etree.Element("p")
                para.append(strong)
                panel.insert(0, para)
                panel.attrib.pop("hidden", None)
            _remove(tablist)


_ANCHOR_ATTR = "data-docorbit-anchor"


def _find_heading_ids(container: etree._Element) -> None:
    """Record each heading's own anchor before chrome removal (which drops ``a.anchor``)."""
    for heading in container.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        anchor = heading.get("id") or ""
        if not anchor:
            inner = heading.xpath(".//a[@id or @name]")
            if inner:
                anchor = inner[0].get("id") or inner[0].get("name") or ""
        if not anchor:
            parent = heading.getparent()
            if (
                parent is not None
                and parent.tag in ("section", "div")
                and parent.get("id")
                and parent.index(heading) == 0
            ):
                anchor = parent.get("id") or ""
        anchor = anchor.strip()
        if anchor and not any(c.isspace() or c in "{}" for c in anchor):
            heading.set(_ANCHOR_ATTR, anchor)


def _heading_ids(container: etree._Element) -> None:
    for heading in container.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        anchor = heading.attrib.pop(_ANCHOR_ATTR, "")
        if anchor and _string(heading).strip():
            attr = etree.SubElement(heading, "span")
            attr.text = f" {{ #{anchor} }}"


def canonical_url(href: str, base: str) -> str | None:
    """Absolute, canonical form of ``href`` against ``base``; None for an unsafe scheme."""
    cleaned = _URL_STRIP.sub("", href)
    if cleaned.lower().startswith(_UNSAFE_SCHEMES):
        return None
    parts = urlsplit(urljoin(base, cleaned))
    scheme = parts.scheme.lower()
    if scheme in _UNSAFE_SCHEMES or f"{scheme}:" in _UNSAFE_SCHEMES:
        return None
    netloc = parts.netloc.lower()
    if (scheme, parts.port) in (("http", 80), ("https", 443)):
        netloc = netloc.rsplit(":", 1)[0]
    path = parts.path or ("/" if netloc else "")
    return urlunsplit((scheme, netloc, path, parts.query, parts.fragment))


def _links(container: etree._Element, base: str, counts: Counter[str]) -> None:
    for el in container.iter("a", "img", "area", "source"):
        el.attrib.pop("srcset", None)
        attr = "href" if el.tag in ("a", "area") else "src"
        value = el.get(attr)
        if value is None:
            continue
        url = canonical_url(value, base)
        if url is None:
            del el.attrib[attr]
            counts[f"unsafe {attr} target"] += 1
        else:
            el.set(attr, url)


# -- 6. convert -----------------------------------------------------------------------------

_OPTIONS = h2m.ConversionOptions(
    heading_style="atx",
    bullets="-",
    list_indent_width=2,
    code_block_style="backticks",
    newline_style="backslash",
    autolinks=False,
    extract_metadata=False,
    expand_abbreviations=False,
    include_blockquote_citations=False,
    hidden_content="reachable",
    inline_data_media="alt_text_only",
    preprocessing=h2m.PreprocessingOptions(enabled=False),
)


def _convert(container: etree._Element) -> str:
    fragment = etree.tostring(container, encoding="unicode", method="html")
    try:
        result = h2m.convert(fragment, _OPTIONS)
    except h2m.ConversionError as e:
        raise InputError(
            f"HTML to Markdown conversion failed: {e}", detail={"stage": "normalize"}
        ) from e
    markdown = result.content or ""
    text = "\n".join(_tidy_lines(markdown.splitlines())).strip("\n")
    return text + "\n" if text else ""


def _tidy_lines(lines: list[str]) -> list[str]:
    """Outside code: strip trailing blanks, one blank line at most, a blank before a quote."""
    out: list[str] = []
    fence = ""
    for line in lines:
        m = _FENCE.match(line)
        if fence:
            if (
                m
                and m.group(1)[0] == fence[0]
                and len(m.group(1)) >= len(fence)
                and not line.strip(" `~")
            ):
                fence = ""
            out.append(line)
            continue
        if m:
            fence = m.group(1)
        line = line.rstrip()
        if not line and out and not out[-1]:
            continue
        if line.startswith(">") and out and out[-1] and not out[-1].startswith(">"):
            out.append("")
        elif _ALERT_LINE.match(line) and out and out[-1].startswith(">"):
            out.append("")  # two admonitions side by side stay two blockquotes
        out.append(line)
    return out


# -- 7. checks and structure ----------------------------------------------------------------


_BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "br",
        "dd",
        "details",
        "dialog",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "label",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    ]
)


def visible_text(el: etree._Element) -> str:
    """``text_content()`` with a line break at block boundaries (``</p><p>`` splits words)."""
    parts: list[str] = []
    for event, node in etree.iterwalk(el, events=("start", "end")):
        tag = node.tag if isinstance(node.tag, str) else ""
        if event == "start":
            if tag in _BLOCK_TAGS:
                parts.append("\n")
            if tag and node.text:
                parts.append(node.text)
        else:
            if tag in _BLOCK_TAGS:
                parts.append("\n")
            if node is not el and node.tail:
                parts.append(node.tail)
    return "".join(parts)


_MD_LINK = re.compile(
    r"!?\[([^\[\]\n]*)\]\((?:<[^>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+\"[^\"\n]*\")?\)"
)
_MD_ATTR = re.compile(r"\s*\{ #[^\s}]+ \}")
_MD_ESCAPE = re.compile(r"\\(?=[^\w\s])")


def markdown_text(markdown: str) -> str:
    """The prose of our Markdown: links and images reduced to their text, ``{ #id }``
    attributes and backslash escapes removed, so ``[a](u)[b](v)`` reads ``ab`` as in HTML."""
    text = _MD_ATTR.sub("", markdown)
    for _ in range(2):  # an image inside a link needs a second pass
        text = _MD_LINK.sub(r"\1", text)
    return _MD_ESCAPE.sub("", text)


def _coverage(reference: Counter[str], produced: Counter[str]) -> float:
    total = sum(reference.values())
    if total == 0:
        return 1.0
    kept = sum(min(n, produced[w]) for w, n in reference.items())
    return kept / total


def _headings(markdown: str) -> list[tuple[int, str, str]]:
    found: list[tuple[int, str, str]] = []
    fence = ""
    for line in markdown.splitlines():
        m = _FENCE.match(line)
        if m:
            marker = m.group(1)
            if not fence:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = ""
            continue
        if fence:
            continue
        hm = _HEADING_LINE.match(line)
        if hm:
            found.append((len(hm.group(1)), hm.group(2).strip(), hm.group(3) or ""))
    return found


def _first_h1(markdown: str) -> str:
    for level, text, _anchor in _headings(markdown):
        if level == 1:
            return text
    return ""
