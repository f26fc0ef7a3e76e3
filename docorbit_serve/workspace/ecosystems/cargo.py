"""Cargo: Cargo.toml (incl. ``[workspace.dependencies]`` inheritance) with Cargo.lock.

The governing Cargo.lock is the nearest one at or above the crate (a workspace keeps one at
its root; ``fuzz/`` style side crates keep their own). The exact version comes from the crate's
own ``[[package]]`` entry in the lock, whose ``dependencies`` name the version when the lock
holds several; otherwise from the only locked version of that name, or the highest locked
version that meets the requirement. Path dependencies (workspace members) are local code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docorbit_serve.workspace.ecosystems._common import make_dependency
from docorbit_serve.workspace.model import Dependency
from docorbit_serve.workspace.ranges import InvalidSpec, compare_versions, satisfies, scheme
from docorbit_serve.workspace.scan_context import ScanContext

__all__ = ["read"]

_SECTIONS = (("dependencies", False), ("build-dependencies", False), ("dev-dependencies", True))


def read(ctx: ScanContext, folder: Path, names: frozenset[str]) -> list[Dependency]:
    if "Cargo.toml" not in names:
        return []
    manifest = folder / "Cargo.toml"
    data = ctx.load(manifest, "toml")
    if not isinstance(data, dict):
        return []
    package: dict[str, Any] = data["package"] if isinstance(data.get("package"), dict) else {}
    crate = package.get("name") if isinstance(package.get("name"), str) else None
    ws_deps = _workspace_deps(ctx, folder, data)
    declared: dict[tuple[str, bool], tuple[str, str]] = {}  # (key, dev) -> (package name, spec)
    for table in _dependency_tables(data):
        for section, dev in _SECTIONS:
            entries = table.get(section)
            if not isinstance(entries, dict):
                continue
            for key, value in entries.items():
                got = _requirement(key, value, ws_deps)
                if got is None:
                    continue
                if got == "invalid":
                    ctx.warn("invalid_spec", manifest, f"{key}: unreadable dependency entry")
                    continue
                if isinstance(got, tuple):
                    declared.setdefault((key, dev), got)
    lock = ctx.find_up(folder, ("Cargo.lock",))
    locked = _lock_index(ctx, lock) if lock else None
    deps = []
    for (_key, dev), (pkg_name, spec) in sorted(declared.items()):
        version = _locked_version(locked, crate, pkg_name, spec) if locked else None
        if locked and version is None:
            ctx.not_in_lockfile(manifest, pkg_name, spec, lock)
        deps.append(
            make_dependency(
                ctx,
                ecosystem="cargo",
                name=pkg_name,
                spec=spec,
                locked=version,
                manifest=manifest,
                lock=lock,
                dev=dev,
            )
        )
    return deps


def _dependency_tables(data: dict[str, Any]) -> list[dict[str, Any]]:
    tables = [data]
    targets = data.get("target")
    if isinstance(targets, dict):
        tables += [t for _, t in sorted(targets.items()) if isinstance(t, dict)]
    return tables


def _workspace_deps(ctx: ScanContext, folder: Path, data: dict[str, Any]) -> dict[str, Any]:
    """``[workspace.dependencies]`` of this manifest or of the nearest workspace root above."""
    d = folder
    while True:
        cand = data if d == folder else None
        if cand is None and (d / "Cargo.toml").is_file():
            cand = ctx.load(d / "Cargo.toml", "toml")
        ws = cand.get("workspace") if isinstance(cand, dict) else None
        if isinstance(ws, dict):
            wd = ws.get("dependencies")
            return wd if isinstance(wd, dict) else {}
        if d == ctx.root or ctx.root not in d.parents:
            return {}
        d = d.parent


def _requirement(key: str, value: Any, ws_deps: dict[str, Any]) -> tuple[str, str] | str | None:
    """(package name, requirement), None for a local path dependency, 'invalid' if unreadable."""
    if isinstance(value, str):
        return key, value
    if not isinstance(value, dict):
        return "invalid"
    if value.get("workspace") is True:
        inherited = ws_deps.get(key)
        if inherited is None:
            return "invalid"
        return _requirement(key, inherited, {})
    name = value.get("package", key)
    if "path" in value:
        return None
    version = value.get("version", "" if "git" in value else "*")
    if not isinstance(name, str) or not isinstance(version, str):
        return "invalid"
    return name, version


def _lock_index(ctx: ScanContext, lock: Path) -> dict[str, Any] | None:
    data = ctx.load(lock, "toml", lock=True)
    if not isinstance(data, dict):
        return None
    by_name: dict[str, list[str]] = {}
    local_deps: dict[str, list[str]] = {}
    for p in data.get("package", []):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            continue
        if "source" not in p:  # a workspace member / path crate
            local_deps[p["name"]] = [d for d in p.get("dependencies", []) if isinstance(d, str)]
        elif isinstance(p.get("version"), str):
            by_name.setdefault(p["name"], []).append(p["version"])
    return {"by_name": by_name, "local_deps": local_deps}


def _locked_version(index: dict[str, Any], crate: str | None, name: str, spec: str) -> str | None:
    versions = index["by_name"].get(name, [])
    if not versions:
        return None
    if len(versions) == 1:
        return versions[0]
    for entry in index["local_deps"].get(crate or "", []):
        parts = entry.split()
        if parts[0] == name and len(parts) >= 2:
            return parts[1]
    try:
        ok = [v for v in versions if not spec or satisfies("cargo", v, spec)]
    except InvalidSpec:
        ok = []
    if not ok:
        return None
    best = ok[0]
    for v in ok[1:]:
        if compare_versions("cargo", v, best) > 0:
            best = v
    return best


# The version scheme this reader's specs and versions are read with (``ranges.SCHEMES``).
SCHEME = scheme("cargo")
