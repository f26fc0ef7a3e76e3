"""Reading local documentation files that are not all Markdown: text decoding, refusal, rST.

Contract:

- ``decode_text(body) -> str`` decodes a local file's bytes or raises ``NotText(code, message)``.
  Accepted: a UTF-8 / UTF-16 / UTF-32 byte-order mark (decoded with it), else strict UTF-8, else
  cp1252 only when every byte decodes (Windows-1252 leaves five bytes undefined, so arbitrary
  binary almost never passes). Refused, with a stable ``code``: ``binary_file`` (NUL bytes,
  more than 4 and more than one per thousand, without a UTF-16/32 mark: a stray NUL in a text
  file is kept, stored safely), ``not_utf8`` (neither UTF-8 nor clean cp1252) and
  ``control_characters`` (more than ``MAX_CONTROL_RATIO`` of the characters are C0/C1 controls
  other than tab, newline, carriage return and form feed). The check is linear in the body.
- ``rst_to_markdown(text) -> str`` converts reStructuredText's block structure to Markdown with
  a small converter (no docutils: it is not a dependency, and a docs reader only needs sections
  and code): section titles (underlined, optionally overlined, levels in order of first use as
  docutils assigns them) become ATX headings; ``.. code-block:: lang`` / ``.. code:: lang`` /
  ``.. sourcecode:: lang`` and a paragraph ending in ``::`` followed by an indented block become
  fenced code; inline ````literal```` becomes ```literal```, ```text <url>`_`` a link, and
  ``:role:`target``` code. Admonitions (``.. note::``) are kept as written: ``markdown_scan``
  reads the rST dialect. Every other line is kept verbatim, so no text is lost.
- ``is_build_artifact(rel_path)`` names pages of a Sphinx or MkDocs build that are not
  documentation (``_static/``, ``_sources/``, ``_modules/``, ``search.html``, ``genindex.html``,
  ``404.html``…); the local reader skips them.
- ``local_document_files(root, include, exclude)``: the files a local source reads
  (``LOCAL_SUFFIXES``: Markdown, ``.html``/``.htm``, ``.rst``), build artifacts of HTML/rST
  skipped, sorted relative POSIX paths (``filefilter`` walks and filters). ``.txt`` files are
  read only when an include glob names them (``*.txt``): a docs folder's ``.txt`` files are as
  often ``requirements.txt``, ``robots.txt`` or Sphinx's ``_sources/*.rst.txt`` copies as
  documentation. The others are *reported*: ``skipped_text_files`` lists them and the fetcher
  records each as a row with ``error_code`` ``skipped_text`` (a warning in the ingest report).
- ``prepare(rel, body, truncated) -> (body, content_type)``: the bytes a ``fetches`` row holds
  for a local file: HTML as read (``text/html``; the HTML normalizer decodes it), Markdown and
  text as UTF-8 (``text/markdown``), rST converted to Markdown; ``NotText`` when refused
  (``REFUSALS`` are its codes). A body cut at the byte cap may end inside a UTF-8 sequence: up
  to three trailing bytes are dropped before decoding.
- ``fetch_warnings(fetches_path)``: ``[{code, url, message}]`` for the rows of a source's
  ``fetches`` table whose ``error_code`` is one of ``WARNINGS`` (refused, unreadable or skipped
  local files), at most ``MAX_WARNINGS``; the ingest report lists them.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from docorbit_assets.lib.filefilter import MARKDOWN_SUFFIXES, local_markdown_files, selected

__all__ = [
    "LOCAL_SUFFIXES",
    "MAX_WARNINGS",
    "MAX_CONTROL_RATIO",
    "REFUSALS",
    "WARNINGS",
    "NotText",
    "decode_text",
    "fetch_warnings",
    "is_build_artifact",
    "local_document_files",
    "prepare",
    "rst_to_markdown",
    "select_documents",
    "skipped_text_files",
]

HTML_SUFFIXES = (".html", ".htm")
LOCAL_SUFFIXES = (*MARKDOWN_SUFFIXES, *HTML_SUFFIXES, ".rst")
REFUSALS = ("binary_file", "not_utf8", "control_characters")
WARNINGS = (*REFUSALS, "read_error", "skipped_text")
"""``fetches`` error codes of a local source that the ingest report lists as warnings."""
MAX_WARNINGS = 50

MAX_CONTROL_RATIO = 0.3
"""Above this share of control characters a decoded file is not documentation."""


class NotText(ValueError):
    """A local file that is not text DocOrbit can read; ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def decode_text(body: bytes) -> str:
    """The text of a local file, or ``NotText`` (see module docstring)."""
    text = _decode(body)
    if text:
        controls = len(_CONTROL.findall(text))
        if controls > MAX_CONTROL_RATIO * len(text):
            raise NotText(
                "control_characters",
                f"{controls} of {len(text)} characters are control characters: not a text file",
            )
    return text


def _decode(body: bytes) -> str:
    for bom, codec in _BOMS:
        if body.startswith(bom):
            try:
                return body.decode(codec)
            except UnicodeDecodeError as e:
                raise NotText("not_utf8", f"invalid {codec} after its byte-order mark: {e}") from e
    nuls = body.count(b"\x00")
    if nuls > max(4, len(body) // 1000):
        raise NotText("binary_file", f"{nuls} NUL bytes in {len(body)}: a binary file")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as e:
        first = e
    try:
        return body.decode("cp1252")
    except UnicodeDecodeError:
        raise NotText(
            "not_utf8", f"neither UTF-8 ({first.reason} at byte {first.start}) nor cp1252"
        ) from None


_ARTIFACT_DIRS = ("_static", "_sources", "_modules", "_images", "_downloads", "assets", "search")
_ARTIFACT_PAGES = ("search.html", "genindex.html", "py-modindex.html", "404.html", "objects.inv")


def is_build_artifact(rel_path: str) -> bool:
    """True for generated pages and folders of a Sphinx/MkDocs build (not documentation)."""
    parts = PurePosixPath(rel_path).parts
    if parts and parts[-1].lower() in _ARTIFACT_PAGES:
        return True
    return any(p in _ARTIFACT_DIRS for p in parts[:-1])


def select_documents(
    rels: Iterable[str], include: Sequence[str] = (), exclude: Sequence[str] = ()
) -> tuple[list[str], list[str]]:
    """The local reader's rule over relative POSIX paths (a folder's files, a git tree):
    ``(documents, skipped .txt)``, both sorted. Documents are Markdown, ``.html``/``.htm`` and
    ``.rst`` (``.txt`` too when an include glob names it) selected by the globs, build artifacts
    left out (a Markdown file never is one); hidden names are skipped."""
    txt = _names_txt(include)
    docs, skipped = [], []
    for rel in sorted(rels):
        low = rel.lower()
        if any(part.startswith(".") for part in PurePosixPath(rel).parts):
            continue
        if not low.endswith((*LOCAL_SUFFIXES, ".txt")) or not selected(rel, include, exclude):
            continue
        if low.endswith(MARKDOWN_SUFFIXES):
            docs.append(rel)
        elif is_build_artifact(rel):
            continue
        elif not low.endswith(".txt") or txt:
            docs.append(rel)
        else:
            skipped.append(rel)
    return docs, skipped


def local_document_files(
    root: Path, include: Sequence[str] = (), exclude: Sequence[str] = ()
) -> list[str]:
    """Documents a local source reads (see module docstring)."""
    return select_documents(_candidates(root, include, exclude), include, exclude)[0]


def skipped_text_files(
    root: Path, include: Sequence[str] = (), exclude: Sequence[str] = ()
) -> list[str]:
    """``.txt`` files a local source does not read (no include glob names them)."""
    return select_documents(_candidates(root, include, exclude), include, exclude)[1]


def _candidates(root: Path, include: Sequence[str], exclude: Sequence[str]) -> list[str]:
    return local_markdown_files(root, include, exclude, suffixes=(*LOCAL_SUFFIXES, ".txt"))


def _names_txt(include: Sequence[str]) -> bool:
    return any(p.lower().endswith(".txt") for p in include)


def prepare(rel: str, body: bytes, truncated: bool = False) -> tuple[bytes, str]:
    """(row body, content type) for a local file; ``NotText`` when it is refused."""
    suffix = PurePosixPath(rel).suffix.lower()
    text = _decode_cut(body) if truncated else decode_text(body)
    if suffix in HTML_SUFFIXES:
        return body, "text/html"
    if suffix == ".rst":
        return rst_to_markdown(text).encode("utf-8"), "text/markdown"
    return text.encode("utf-8"), "text/markdown"


def _decode_cut(body: bytes) -> str:
    """``decode_text`` of a body cut at the byte cap, which may end inside a UTF-8 sequence."""
    for k in range(4):
        head = body[: len(body) - k]
        try:
            head.decode("utf-8")
        except UnicodeDecodeError:
            continue
        return decode_text(head)
    return decode_text(body)


def fetch_warnings(fetches_path: Path) -> list[dict[str, Any]]:
    """Warnings for the ingest report from a staged ``fetches`` table (see module docstring)."""
    try:
        table = pq.read_table(fetches_path, columns=["url", "error_code", "error_message"])
    except (FileNotFoundError, OSError, pa.ArrowException):
        return []
    out = []
    for row in table.to_pylist():
        if row["error_code"] in WARNINGS:
            out.append(
                {"code": row["error_code"], "url": row["url"], "message": row["error_message"]}
            )
            if len(out) >= MAX_WARNINGS:
                break
    return out


# -- reStructuredText -------------------------------------------------------------------------

_ADORN = re.compile(r"^([=\-~^\"'`#*+_:.])\1{2,}\s*$")
_DIRECTIVE_CODE = re.compile(r"^(\s*)\.\.\s+(?:code-block|code|sourcecode)::\s*(\S*)\s*$")
_OPTION = re.compile(r"^\s+:[\w-]+:")
_LITERAL = re.compile(r"``([^`\n]+?)``")
_LINK = re.compile(r"`([^`<\n]+?)\s*<([^>\n]+)>`__?")
_ROLE = re.compile(r":[\w:+-]+:`([^`\n]+?)`")


def rst_to_markdown(text: str) -> str:
    """Markdown for reStructuredText ``text`` (see module docstring)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    levels: list[tuple[str, bool]] = []  # adornment styles in order of first use
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        title = _section_title(lines, i)
        if title is not None:
            text_line, style, used = title
            if style not in levels:
                levels.append(style)
            level = min(levels.index(style) + 1, 6)
            out.append("#" * level + " " + _inline(text_line.strip()))
            i += used
            continue
        m = _DIRECTIVE_CODE.match(line)
        if m:
            i = _code_block(lines, i + 1, len(m.group(1)), m.group(2), out)
            continue
        if line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            head = line.rstrip()[:-2]  # "Example::" -> "Example:", "Example ::" -> "Example"
            if head.strip():
                out.append(_inline(head.rstrip() if head.endswith((" ", "\t")) else head + ":"))
            i = _code_block(lines, i + 1, len(line) - len(line.lstrip()), "", out)
            continue
        out.append(_inline(line))
        i += 1
    return "\n".join(out)


def _section_title(lines: list[str], i: int) -> tuple[str, tuple[str, bool], int] | None:
    """(title, (adornment char, overlined), lines used) when a section title starts at ``i``."""
    line = lines[i]
    over = _ADORN.match(line)
    if over and i + 2 < len(lines):
        under = _ADORN.match(lines[i + 2])
        title = lines[i + 1]
        if under and under.group(1) == over.group(1) and title.strip() and not _ADORN.match(title):
            return title, (over.group(1), True), 3
    if i + 1 < len(lines) and line.strip() and not line.startswith((" ", "\t")):
        under = _ADORN.match(lines[i + 1])
        if under and not _ADORN.match(line) and len(lines[i + 1].rstrip()) >= len(line.rstrip()):
            return line, (under.group(1), False), 2
    return None


def _code_block(lines: list[str], i: int, indent: int, language: str, out: list[str]) -> int:
    """Append the indented block after a code directive or ``::`` as a fence; return next line."""
    n = len(lines)
    while i < n and _OPTION.match(lines[i]):
        i += 1
    body: list[str] = []
    j = i
    while j < n and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
        body.append(lines[j])
        j += 1
    while body and not body[-1].strip():
        body.pop()
        j -= 1
    while body and not body[0].strip():
        body.pop(0)
    if not body:
        return i
    cut = min(len(b) - len(b.lstrip()) for b in body if b.strip())
    out.append("")
    out.append("```" + language)
    out.extend(b[cut:] for b in body)
    out.append("```")
    return j


def _inline(line: str) -> str:
    if "`" not in line:
        return line
    line = _LINK.sub(lambda m: f"[{m.group(1).strip()}]({m.group(2).strip()})", line)
    line = _LITERAL.sub(lambda m: f"`{m.group(1)}`", line)
    return _ROLE.sub(lambda m: f"`{m.group(1)}`", line)
