"""Workspace version intelligence: what the workspace uses and which docs version serves it.

    scan_workspace(root) -> WorkspaceScan
    resolve_docs_version(dep, indexed_versions) -> Resolution
    resolve_workspace(root, indexed) -> WorkspaceResolution
    write_docs_lock(root, scan, resolutions, snapshot_info) -> Path

Never imports dagster or docorbit_assets. See docs/versions.md.
"""

from docorbit_serve.workspace.model import Dependency, ScanWarning, WorkspaceScan
from docorbit_serve.workspace.scan import scan_workspace

__all__ = ["Dependency", "ScanWarning", "WorkspaceScan", "scan_workspace"]
