"""Helpers shared by the ecosystem readers."""

from __future__ import annotations

from pathlib import Path

from docorbit_serve.workspace.model import Dependency
from docorbit_serve.workspace.ranges import exact_pin, is_valid_spec
from docorbit_serve.workspace.scan_context import ScanContext

__all__ = ["make_dependency"]


def make_dependency(
    ctx: ScanContext,
    *,
    ecosystem: str,
    name: str,
    spec: str,
    locked: str | None,
    manifest: Path,
    lock: Path | None,
    dev: bool,
    direct: bool = True,
    check_spec: bool = True,
) -> Dependency:
    """A Dependency: the lockfile's version when ``locked`` is set, else the manifest's pin."""
    if check_spec and spec and not is_valid_spec(ecosystem, spec):
        ctx.warn(
            "invalid_spec", manifest, f"{name}: {spec!r} is not a valid {ecosystem} requirement"
        )
    version: str | None
    if locked:
        version, source, lock_rel = locked, "lockfile", ctx.rel(lock) if lock else None
    else:
        version, source, lock_rel = exact_pin(ecosystem, spec) if spec else None, "manifest", None
    return Dependency(
        ecosystem=ecosystem,
        name=name,
        spec=spec,
        version=version,
        resolved_from=source,  # type: ignore[arg-type]
        package_path=ctx.rel(manifest.parent),
        source_file=ctx.rel(manifest),
        dev=dev,
        lock_file=lock_rel,
        direct=direct,
    )
