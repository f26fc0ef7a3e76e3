"""One file filter for every source: include/exclude globs and the local Markdown file list.

Contract:
- ``glob_match(rel_path, pattern)``: ``**`` spans folders, ``*``/``?`` do not; a pattern without
  ``/`` matches the file name in any folder, one with ``/`` the whole relative path.
- ``selected(rel, include, exclude)``: kept when it matches an include glob (or there are none)
  and no exclude glob. ``selected_url(url, include, exclude)`` applies the same to a URL's path
  (without its leading ``/``): local files, llms.txt entries, sitemap and crawled pages alike.
- ``local_markdown_files(root, include, exclude)``: Markdown files (``MARKDOWN_SUFFIXES``) under
  ``root``, sorted POSIX relative paths; hidden names and links out of ``root`` skipped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

__all__ = [
    "MARKDOWN_SUFFIXES",
    "glob_match",
    "local_markdown_files",
    "selected",
    "selected_url",
]

MARKDOWN_SUFFIXES = (".md", ".mdx", ".markdown")


def glob_match(rel_path: str, pattern: str) -> bool:
    """Match a POSIX relative path against a glob: ``**`` spans folders, ``*``/``?`` do not.

    A pattern without ``/`` matches the file name in any folder (``*.md``); a pattern with
    ``/`` matches the whole relative path (``guide/**/*.md``).
    """
    if "/" not in pattern:
        return _glob_regex(pattern).fullmatch(PurePosixPath(rel_path).name) is not None
    return _glob_regex(pattern.lstrip("/")).fullmatch(rel_path) is not None


def _glob_regex(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def selected(rel: str, include: Sequence[str], exclude: Sequence[str]) -> bool:
    if include and not any(glob_match(rel, p) for p in include):
        return False
    return not any(glob_match(rel, p) for p in exclude)


def selected_url(url: str, include: Sequence[str], exclude: Sequence[str]) -> bool:
    """``selected`` on the URL's path (no leading ``/``)."""
    return selected(urlsplit(url).path.lstrip("/"), include, exclude)


def local_markdown_files(
    root: Path,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    suffixes: tuple[str, ...] = MARKDOWN_SUFFIXES,
) -> list[str]:
    """Markdown files (or files with one of ``suffixes``) under ``root`` as sorted POSIX paths
    relative to it.

    Hidden files and folders (name starting with ``.``) are skipped; symlinks that resolve
    outside ``root`` are skipped (a docs folder must not read files it does not contain).
    """
    root = root.resolve()
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if name.startswith(".") or not name.lower().endswith(suffixes):
                continue
            full = Path(dirpath) / name
            if full.is_symlink() and not full.resolve().is_relative_to(root):
                continue
            rel = full.relative_to(root).as_posix()
            if selected(rel, include, exclude):
                found.append(rel)
    return sorted(found)
