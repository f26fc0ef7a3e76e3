"""Version commands: ``version`` and ``update`` (the workspace's versions and docs.lock)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from docorbit_serve import service
from docorbit_serve.cli._common import (
    _emit,
    _info,
    _State,
    cli,
    json_option,
)
from docorbit_serve.errors import (
    DocOrbitError,
    UsageError,
)
from docorbit_serve.home import Home
from docorbit_serve.manifest import BadManifest, read_manifest

__all__: list[str] = []

# --------------------------------------------------------------------------- versions


def _published_manifest(home: Home) -> dict[str, Any]:
    """published.json, or {} when nothing is published (versions still show what is used)."""
    try:
        return read_manifest(home.published_path) or {}
    except BadManifest as e:
        _info(f"warning: cannot read {home.published_path}: {e}")
        return {}


def _workspace_dir(state: _State, home: Home, workspace: str | None) -> Path | None:
    return service.workspace_dir(home, workspace or state.project)


def _lock_workspace(home: Home, root: Path, **kw: Any) -> dict[str, Any]:
    from docorbit_serve.versioned import update_docs_lock

    return update_docs_lock(root, _published_manifest(home), **kw)


@cli.command(name="version")
@click.argument("libraries", nargs=-1)
@click.option("--workspace", metavar="DIR", help="Workspace to read (default: -p or the project).")
@json_option
@click.pass_obj
def version_(state: _State, libraries: tuple[str, ...], workspace: str | None) -> None:
    """What the workspace uses and which docs DocOrbit serves for it (with confidence)."""
    from docorbit_serve.versioned import render_version_report

    home = state.home()
    root = _workspace_dir(state, home, workspace)
    if root is None:
        raise UsageError("no workspace found here; run inside a project or pass --workspace DIR")
    rep = service.version_report(home, root, libraries).model_dump(mode="json")
    _emit(state, rep, render_version_report(rep).rstrip("\n"))


@cli.command()
@click.option("--workspace", metavar="DIR", help="Workspace to lock (default: -p or the project).")
@click.option("--check", is_flag=True, help="Write nothing; fail (exit 1) if docs.lock is stale.")
@json_option
@click.pass_obj
def update(state: _State, workspace: str | None, check: bool) -> None:
    """Pin the workspace's docs versions in docs.lock (project root) against the publication."""
    home = state.home()
    root = _workspace_dir(state, home, workspace)
    if root is None:
        raise UsageError("no workspace found here; run inside a project or pass --workspace DIR")
    out = _lock_workspace(home, root, check=check)
    if check and out["changed"]:
        raise DocOrbitError(
            f"{out['path']} is missing or out of date; run `docorbit update`",
            detail=out,
            code="docs_lock_stale",
        )
    word = "stale" if out["changed"] and check else ("written" if out["changed"] else "unchanged")
    text = (
        f"docs.lock {word}: {out['path']} · {out['dependencies']} dependencies, "
        f"{out['matched']} with indexed docs · {out['snapshot_hash']}"
    )
    _emit(state, out, text)
