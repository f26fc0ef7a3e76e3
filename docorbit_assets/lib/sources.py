"""The ``sources`` stage: one configured source as a one-row ``sources`` table.

``source_table(cfg, project_root)`` returns the ``SOURCES`` schema with exactly one row:
``location`` is resolved (folders made absolute against the project root, URLs unchanged) and
``config_json`` is the canonical JSON (sorted keys) of the source entry exactly as configured in
``docorbit.toml``. Pure: reads no files and touches no network.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS, canonical_json

__all__ = ["source_table"]


def source_table(cfg: SourceConfig, project_root: Path) -> pa.Table:
    row = {
        "name": cfg.name,
        "kind": cfg.kind,
        "location": cfg.resolved_location(project_root),
        "library": cfg.library,
        "version": cfg.version,
        "include": list(cfg.include),
        "exclude": list(cfg.exclude),
        "config_json": canonical_json(cfg.identity()),
    }
    return pa.Table.from_pylist([row], schema=SCHEMAS["sources"])
