"""Workspace version intelligence: what the workspace uses and which docs version serves it.

    scan_workspace(root) -> WorkspaceScan                       (scan.py, ecosystems/)
    satisfies(ecosystem, version, spec) -> bool                 (ranges.py)
    resolve_docs_version(dep, indexed_versions) -> Resolution   (resolve.py, the ladder)
    resolve_workspace(root, indexed) -> WorkspaceResolution     (resolve.py)
    write_docs_lock(root, scan, resolutions, snapshot_info)     (lockfile.py)

Never imports dagster or docorbit_assets. See docs/versions.md.
"""

from docorbit_serve.workspace.lockfile import DOCS_LOCK, read_docs_lock, write_docs_lock
from docorbit_serve.workspace.model import WARNING_CODES, Dependency, ScanWarning, WorkspaceScan
from docorbit_serve.workspace.ranges import InvalidSpec, compare_versions, exact_pin, satisfies
from docorbit_serve.workspace.resolve import (
    CONFIDENCE,
    LEVELS,
    Resolution,
    WorkspaceResolution,
    resolve_docs_version,
    resolve_workspace,
)
from docorbit_serve.workspace.scan import scan_workspace

__all__ = [
    "CONFIDENCE",
    "DOCS_LOCK",
    "LEVELS",
    "WARNING_CODES",
    "Dependency",
    "InvalidSpec",
    "Resolution",
    "ScanWarning",
    "WorkspaceResolution",
    "WorkspaceScan",
    "compare_versions",
    "exact_pin",
    "read_docs_lock",
    "resolve_docs_version",
    "resolve_workspace",
    "satisfies",
    "scan_workspace",
    "write_docs_lock",
]
