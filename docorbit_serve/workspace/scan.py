"""Walk a workspace and collect the direct dependencies of every package in it.

``scan_workspace(root)`` visits every folder under ``root`` (not following links, pruning
``SKIP_DIRS`` and hidden folders), and hands each folder to the eight ecosystem readers in
``ecosystems/``. Each reader looks for its manifest in that folder, reads the nearest lockfile
that governs it, and returns ``Dependency`` records that prefer the lockfile's exact version.

Bounds: manifests over ``MAX_MANIFEST_BYTES`` and lockfiles over ``MAX_LOCK_BYTES`` are not
read (``too_large`` warning); at most ``MAX_FILES`` manifests are read (``scan_limit``).
A file that cannot be read or parsed becomes a ``ScanWarning``; the scan never raises for the
content of the workspace. The result is sorted, so the same tree gives the same scan.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from docorbit_serve.errors import InputError
from docorbit_serve.workspace.model import Dependency, ScanWarning, WorkspaceScan

__all__ = [
    "MAX_FILES",
    "MAX_LOCK_BYTES",
    "MAX_MANIFEST_BYTES",
    "SKIP_DIRS",
    "ScanContext",
    "scan_workspace",
]

MAX_MANIFEST_BYTES = 2 * 1024 * 1024
MAX_LOCK_BYTES = 64 * 1024 * 1024
MAX_FILES = 5000
MAX_DEPTH = 16

SKIP_DIRS = frozenset(
    {
        "node_modules",
        "bower_components",
        "vendor",
        "target",
        "build",
        "dist",
        "out",
        "venv",
        "site-packages",
        "__pycache__",
        "Pods",
    }
)


class _Unreadable(Exception):
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
        """The file's text, or ``_Unreadable`` after recording why (once per file)."""
        if path in self._failed:
            raise _Unreadable(str(path))
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
        raise _Unreadable(str(path))

    def load(self, path: Path, fmt: str, *, lock: bool = False) -> Any:
        """Parse ``path`` as ``json``, ``toml`` or ``yaml`` (cached); ``None`` after a warning."""
        key = (path, fmt)
        if key in self._cache:
            return self._cache[key]
        try:
            text = self.read_text(path, lock=lock)
            value = _PARSERS[fmt](text)
        except _Unreadable:
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
            except _Unreadable:
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


def _walk(root: Path):
    """Yield (folder, file names) breadth-first in sorted order, pruning skipped folders."""
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        d = Path(dirpath)
        depth = len(d.relative_to(root).parts)
        dirnames[:] = sorted(
            n
            for n in dirnames
            if not n.startswith(".")
            and n not in SKIP_DIRS
            and depth < MAX_DEPTH
            and not (d / n / "pyvenv.cfg").exists()  # a virtualenv under any name
        )
        yield d, frozenset(filenames)


def scan_workspace(root: Path) -> WorkspaceScan:
    """Every direct dependency of every package under ``root``, lockfile versions first."""
    from docorbit_serve.workspace.ecosystems import READERS

    root = Path(root).resolve()
    if not root.is_dir():
        raise InputError(
            f"workspace root {root} is not a folder; pass the project folder",
            detail={"root": str(root)},
        )
    ctx = ScanContext(root=root)
    deps: list[Dependency] = []
    for d, names in _walk(root):
        if ctx.files_read >= MAX_FILES:
            ctx.warn("scan_limit", d, f"stopped after reading {MAX_FILES} files")
            break
        for reader in READERS:
            try:
                deps.extend(reader(ctx, d, names))
            except _Unreadable:
                continue
    unique = sorted(set(deps), key=Dependency.sort_key)
    warnings = sorted(set(ctx.warnings))
    return WorkspaceScan(root=str(root), dependencies=unique, warnings=warnings)
