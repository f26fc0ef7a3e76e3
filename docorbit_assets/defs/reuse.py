"""Incremental refresh for the stage assets: the reference snapshot and reuse metadata.

``previous_snapshot(docorbit, source)`` is ``lib.refresh.Previous.load`` for the run's home;
every stage asset from ``pages`` on asks it and reuses what did not change
(``docorbit_assets/lib/refresh.py``); ``reuse_metadata(stats)`` is what they attach
(``reused`` / ``computed`` counts, visible per materialization in the UI).
"""

from __future__ import annotations

from typing import Any

from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib.refresh import Previous

__all__ = ["previous_snapshot", "reuse_metadata"]


def previous_snapshot(docorbit: DocOrbitResource, source: str) -> Previous | None:
    home = docorbit.resolve()
    return Previous.load(home, docorbit.source(source), home.project_root)


def reuse_metadata(stats: dict[str, int]) -> dict[str, Any]:
    return {"rows_reused": stats.get("reused", 0), "rows_computed": stats.get("computed", 0)}
