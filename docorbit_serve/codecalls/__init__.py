"""Code -> API calls (issue 15 point 2): which HTTP endpoints and SDK methods code calls.

Contract:
- ``extract_calls(text, *, path="", language=None) -> list[ApiCall]``: the language comes from
  ``language`` (``python``, ``javascript``/``js``, ``typescript``/``ts``, ``tsx``, ``shell``/
  ``curl``, ``markdown``) or the file suffix; Markdown and text files are read for fenced code
  blocks of those languages and for cURL lines; unknown kinds give ``[]``. Python uses ``ast``
  (``python.py``), JS/TS tree-sitter (``javascript.py``), cURL ``shlex`` (``curl.py``).
- ``read_sources(paths, *, root=None) -> ({file: text}, truncated)`` and
  ``scan_paths(paths, *, root=None) -> (calls, files_scanned, truncated)``: every source file
  under the given files/folders (skipping ``.git``, ``node_modules``, virtualenvs, build output
  and files over ``MAX_FILE_BYTES``; at most ``MAX_FILES`` files); ``file`` in each call is
  relative to ``root`` when given.
Dynamic or ambiguous parts are listed in ``ApiCall.dynamic`` and never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from docorbit_serve.codecalls.curl import curl_calls
from docorbit_serve.codecalls.javascript import js_calls
from docorbit_serve.codecalls.python import python_calls
from docorbit_serve.models.change import ApiCall

__all__ = [
    "MAX_FILES",
    "MAX_FILE_BYTES",
    "extract_calls",
    "language_of",
    "read_sources",
    "scan_paths",
]

MAX_FILES = 5000
MAX_FILE_BYTES = 1_000_000
SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", "dist", "build", ".docorbit",
             ".tox", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".next", "site-packages"}  # fmt: skip
_SUFFIX = {
    ".py": "python", ".pyi": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".curl": "shell",
    ".md": "markdown", ".mdx": "markdown", ".txt": "markdown", ".http": "shell",
}  # fmt: skip
_ALIASES = {"py": "python", "python3": "python", "js": "javascript", "node": "javascript",
            "jsx": "javascript", "ts": "typescript", "bash": "shell", "sh": "shell",
            "curl": "shell", "console": "shell", "zsh": "shell", "md": "markdown"}  # fmt: skip
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)[ \t]*(?P<lang>[\w+-]*)[^\n]*$")


def language_of(path: str) -> str | None:
    return _SUFFIX.get(Path(path).suffix.lower())


def _by_language(text: str, path: str, language: str) -> list[ApiCall]:
    lang = _ALIASES.get(language.lower(), language.lower())
    if lang == "python":
        return python_calls(text, path)
    if lang in ("javascript", "typescript", "tsx"):
        dialect = {"javascript": "js", "typescript": "ts", "tsx": "tsx"}[lang]
        return js_calls(text, path, dialect=dialect)
    if lang == "shell":
        return curl_calls(text, path)
    if lang == "markdown":
        return _markdown_calls(text, path)
    return []


def _shift(calls: list[ApiCall], offset: int) -> list[ApiCall]:
    return [c.model_copy(update={"line": c.line + offset}) for c in calls]


def _markdown_calls(text: str, path: str) -> list[ApiCall]:
    """Calls in fenced code blocks (by their language) and cURL lines outside them."""
    out: list[ApiCall] = []
    lines = text.splitlines()
    prose: list[str] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            prose.append(lines[i])
            i += 1
            continue
        start, fence = i, m.group("fence")
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        body = "\n".join(lines[start + 1 : j])
        lang = m.group("lang") or "shell"
        if lang.lower() not in ("markdown", "md"):
            out += _shift(_by_language(body, path, lang), start + 1)
        prose += [""] * (j + 1 - start)
        i = j + 1
    out += curl_calls("\n".join(prose), path)
    return sorted(out, key=lambda c: (c.line, c.column))


def extract_calls(text: str, *, path: str = "", language: str | None = None) -> list[ApiCall]:
    lang = language or language_of(path) or ""
    return _by_language(text, path, lang) if lang else []


def _files(paths: Iterable[Path]) -> Iterable[Path]:
    for p in paths:
        if p.is_file():
            yield p
            continue
        for f in sorted(p.rglob("*")):
            if any(part in SKIP_DIRS for part in f.relative_to(p).parts[:-1]):
                continue
            if f.is_file() and language_of(f.name):
                yield f


def read_sources(paths: Iterable[Path], *, root: Path | None = None) -> tuple[dict[str, str], bool]:
    """``{relative path: text}`` of the source files under ``paths`` (bounded), truncated flag."""
    out: dict[str, str] = {}
    for f in _files(paths):
        if len(out) >= MAX_FILES:
            return out, True
        try:
            if f.stat().st_size > MAX_FILE_BYTES:
                continue
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        out[str(f.relative_to(root)) if root and f.is_relative_to(root) else str(f)] = text
    return out, False


def scan_paths(
    paths: Iterable[Path], *, root: Path | None = None
) -> tuple[list[ApiCall], int, bool]:
    files, truncated = read_sources(paths, root=root)
    calls: list[ApiCall] = []
    for rel, text in files.items():
        calls += extract_calls(text, path=rel, language=language_of(rel))
    calls.sort(key=lambda c: (c.file, c.line, c.column))
    return calls, len(files), truncated
