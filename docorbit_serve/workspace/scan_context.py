"""What an ecosystem reader gets from the workspace scan: ``ScanContext`` (the root, bounded and
cached reads of manifests and lockfiles, the warning list) and ``Unreadable``.

Contract: ``read_text`` / ``load`` / ``text`` never read a file over ``MAX_MANIFEST_BYTES``
(``MAX_LOCK_BYTES`` for lockfiles) or a link out of the root; a file that cannot be read or
parsed becomes one ``ScanWarning`` (and ``None`` / ``Unreadable``), never an exception out of the
scan. Its own module so that ``scan`` and the ``ecosystems`` readers do not import each other.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from docorbit_serve.workspace.model import ScanWarning

__all__ = ["MAX_LOCK_BYTES", "MAX_MANIFEST_BYTES", "ScanContext", "Unreadable"]

MAX_MANIFEST_BYTES = 2 * 1024 * 1024
MAX_LOCK_BYTES = 64 * 1024 * 1024


class Unreadable(Exception):
    """Internal: the file was not read; a warning has been recorded."""


@dataclass
class ScanContext:
    """What a reader needs: the root, bounded cached reads, and the warning list."""

    root: Path
    warnings: list[ScanWarning] = field(default_factory=list)
    files_read: int = 0
    _cache: dict[tuple[Path, str], Any] = field(default_factory=dict)
    _failed: set[Path] = field(default_factory=set)

    def rel(self, path: Path) -> str:
        rel = path.relative_to(self.root).as_posix()
        return rel or "."

    def warn(self, code: str, path: Path, message: str) -> None:
        self.warnings.append(ScanWarning(code, self.rel(path), message))

    def not_in_lockfile(self, manifest: Path, name: str, spec: str, lock: Path | None) -> None:
        where = self.rel(lock) if lock else "the lockfile"
        self.warn("not_in_lockfile", manifest, f"{name} {spec!r} has no entry in {where}")

    def read_text(self, path: Path, *, lock: bool = False) -> str:
        """The file's text, or ``Unreadable`` after recording why (once per file)."""
        if path in self._failed:
            raise Unreadable(str(path))
        limit = MAX_LOCK_BYTES if lock else MAX_MANIFEST_BYTES
        try:
            if path.is_symlink() and not path.resolve().is_relative_to(self.root):
                self._fail("unsafe_path", path, "link to a file outside the workspace")
            size = path.stat().st_size
            if size > limit:
                self._fail("too_large", path, f"{size} bytes > bound of {limit} bytes")
            self.files_read += 1
            return path.read_bytes().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as e:
            self._fail("unreadable", path, f"{type(e).__name__}: {e}")
        raise AssertionError("unreachable")

    def _fail(self, code: str, path: Path, message: str) -> None:
        self._failed.add(path)
        self.warn(code, path, message)
        raise Unreadable(str(path))

    def load(self, path: Path, fmt: str, *, lock: bool = False) -> Any:
        """Parse ``path`` as ``json``, ``toml`` or ``yaml`` (cached); ``None`` after a warning."""
        key = (path, fmt)
        if key in self._cache:
            return self._cache[key]
        try:
            text = self.read_text(path, lock=lock)
            value = _PARSERS[fmt](text)
        except Unreadable:
            value = None
        except (ValueError, yaml.YAMLError, RecursionError) as e:
            # json.JSONDecodeError and tomllib.TOMLDecodeError are ValueErrors.
            self._failed.add(path)
            self.warn("parse_error", path, f"{fmt}: {_one_line(e)}")
            value = None
        self._cache[key] = value
        return value

    def load_mapping(self, path: Path, fmt: str, what: str) -> dict[str, Any] | None:
        """``load`` a manifest that must be a mapping; ``None`` (after a warning) otherwise."""
        data = self.load(path, fmt)
        if data is None:
            return None
        if not isinstance(data, dict):
            self.warn("parse_error", path, f"{path.name} is not {what}")
            return None
        return data

    def text(self, path: Path, *, lock: bool = False) -> str | None:
        """The file's text (cached), or ``None`` after a warning."""
        key = (path, "text")
        if key not in self._cache:
            try:
                self._cache[key] = self.read_text(path, lock=lock)
            except Unreadable:
                self._cache[key] = None
        return self._cache[key]

    def find_up(self, start: Path, names: tuple[str, ...]) -> Path | None:
        """The nearest file named one of ``names`` in ``start`` or above it, within the root."""
        d = start
        while True:
            for n in names:
                p = d / n
                if p.is_file():
                    return p
            if d == self.root or self.root not in d.parents:
                return None
            d = d.parent


def _yaml_load(text: str) -> Any:
    return yaml.safe_load(text)


_PARSERS: dict[str, Callable[[str], Any]] = {
    "json": json.loads,
    "toml": tomllib.loads,
    "yaml": _yaml_load,
}


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split())[:300]
