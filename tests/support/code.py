"""The parsed source of both packages, for the static layout tests (parsed once per session).

``package_modules()`` -> ``{"docorbit_serve/x.py": ast.Module, ...}`` over every ``*.py`` file
of ``docorbit_serve`` and ``docorbit_assets``, sorted by path.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

__all__ = ["REPO", "package_modules"]

REPO = Path(__file__).resolve().parents[2]


@functools.cache
def package_modules() -> dict[str, ast.Module]:
    files = sorted(
        p for pkg in ("docorbit_assets", "docorbit_serve") for p in (REPO / pkg).rglob("*.py")
    )
    return {str(p.relative_to(REPO)): ast.parse(p.read_text(encoding="utf-8")) for p in files}
