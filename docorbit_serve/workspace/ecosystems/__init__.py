"""One reader per ecosystem: ``read(ctx, folder, file_names) -> list[Dependency]``.

A reader looks only for its own manifest in ``folder``; when it finds one it reads the nearest
lockfile that governs it and returns one ``Dependency`` per declared direct dependency,
with the lockfile's exact version when the lockfile has it. Problems become warnings on
``ctx``; local (path/workspace/sdk) dependencies are not documentation targets and are left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from docorbit_serve.workspace.ecosystems import cargo, composer, go, maven, npm, pub, pypi, rubygems
from docorbit_serve.workspace.model import Dependency
from docorbit_serve.workspace.scan_context import ScanContext

__all__ = ["READERS"]

Reader = Callable[[ScanContext, Path, frozenset[str]], Iterable[Dependency]]

READERS: tuple[Reader, ...] = (
    cargo.read,
    composer.read,
    go.read,
    maven.read,
    npm.read,
    pub.read,
    pypi.read,
    rubygems.read,
)
