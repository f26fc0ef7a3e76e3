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

import os
from pathlib import Path

from docorbit_serve.errors import InputError
from docorbit_serve.workspace.model import Dependency, WorkspaceScan
from docorbit_serve.workspace.scan_context import (
    MAX_LOCK_BYTES,
    MAX_MANIFEST_BYTES,
    ScanContext,
    Unreadable,
)

__all__ = [
    "MAX_FILES",
    "MAX_LOCK_BYTES",
    "MAX_MANIFEST_BYTES",
    "SKIP_DIRS",
    "ScanContext",
    "scan_workspace",
]

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
    from docorbit_serve.workspace.ecosystems import READERS  # the readers use ScanContext

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
            except Unreadable:
                continue
    unique = sorted(set(deps), key=Dependency.sort_key)
    warnings = sorted(set(ctx.warnings))
    return WorkspaceScan(root=str(root), dependencies=unique, warnings=warnings)
