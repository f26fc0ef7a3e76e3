"""npm: package.json, with package-lock.json / npm-shrinkwrap.json, pnpm-lock.yaml or yarn.lock.

The governing lockfile is the nearest one in the package's folder or above it (npm, pnpm and
yarn workspaces keep one lockfile at the workspace root). Versions are looked up the way Node
resolves modules: ``<pkg>/node_modules/<name>`` first, then each folder above, so two packages
of a monorepo that pin different versions keep their own. Workspace links, ``file:``, ``link:``
and ``workspace:`` dependencies are local code, not documentation targets, and are left out.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from docorbit_serve.workspace.ecosystems._common import make_dependency
from docorbit_serve.workspace.model import Dependency
from docorbit_serve.workspace.ranges import scheme
from docorbit_serve.workspace.scan_context import ScanContext

__all__ = ["read"]

LOCKFILES = ("npm-shrinkwrap.json", "package-lock.json", "pnpm-lock.yaml", "yarn.lock")
SECTIONS = (("dependencies", False), ("optionalDependencies", False), ("devDependencies", True))
_LOCAL_PREFIXES = ("file:", "link:", "workspace:", "portal:", "./", "../", "/", "~/")
_LINK = "\0link"


def read(ctx: ScanContext, folder: Path, names: frozenset[str]) -> list[Dependency]:
    if "package.json" not in names:
        return []
    manifest = folder / "package.json"
    data = ctx.load_mapping(manifest, "json", "a JSON object")
    if data is None:
        return []
    lock = ctx.find_up(folder, LOCKFILES)
    lookup = _lock_lookup(ctx, lock, folder) if lock else None
    deps = []
    seen: set[str] = set()
    for section, dev in SECTIONS:
        entries = data.get(section)
        if entries is None:
            continue
        if not isinstance(entries, dict):
            ctx.warn("parse_error", manifest, f"{section} is not an object")
            continue
        for name, spec in sorted(entries.items()):
            if not isinstance(spec, str):
                ctx.warn("invalid_spec", manifest, f"{name}: requirement is not a string")
                continue
            if name in seen or spec.startswith(_LOCAL_PREFIXES):
                continue
            seen.add(name)
            locked = lookup(name, spec) if lookup else None
            if locked == _LINK:
                continue
            if lookup and locked is None:
                ctx.not_in_lockfile(manifest, name, spec, lock)
            deps.append(
                make_dependency(
                    ctx,
                    ecosystem="npm",
                    name=name,
                    spec=spec,
                    locked=locked,
                    manifest=manifest,
                    lock=lock,
                    dev=dev,
                    check_spec=_looks_like_range(spec),
                )
            )
    return deps


def _looks_like_range(spec: str) -> bool:
    s = spec.strip()
    return not s or s[0] in "0123456789^~<>=*xXv" or "||" in s


def _lock_lookup(ctx: ScanContext, lock: Path, folder: Path):
    """A function (name, spec) -> version | _LINK | None for this package, or None."""
    rel = folder.relative_to(lock.parent).as_posix()
    rel = "" if rel == "." else rel
    if lock.name.endswith(".json"):
        data = ctx.load(lock, "json", lock=True)
        return _package_lock(data, rel) if isinstance(data, dict) else None
    if lock.name == "pnpm-lock.yaml":
        data = ctx.load(lock, "yaml", lock=True)
        return _pnpm_lock(data, rel or ".") if isinstance(data, dict) else None
    text = ctx.text(lock, lock=True)
    return _yarn_lock(text) if text is not None else None


def _package_lock(data: dict[str, Any], rel: str):
    packages = data.get("packages")
    if isinstance(packages, dict):
        if rel not in packages:
            return None  # this lockfile does not govern the package (not a workspace member)

        def find(name: str, spec: str) -> str | None:
            parts = rel.split("/") if rel else []
            while True:
                entry = packages.get("/".join([*parts, "node_modules", name]))
                if isinstance(entry, dict):
                    if entry.get("link"):
                        return _LINK
                    v = entry.get("version")
                    return v if isinstance(v, str) else None
                if not parts:
                    return None
                parts.pop()

        return find
    top = data.get("dependencies")  # lockfileVersion 1: nested tree, root only
    if isinstance(top, dict) and rel == "":

        def find_v1(name: str, spec: str) -> str | None:
            entry = top.get(name)
            v = entry.get("version") if isinstance(entry, dict) else None
            if not isinstance(v, str):
                return None
            if v.startswith("file:"):
                return _LINK
            return v.rsplit("@", 1)[-1] if v.startswith("npm:") else v

        return find_v1
    return None


def _clean_pnpm(v: Any) -> str | None:
    if not isinstance(v, str):
        return None
    if v.startswith(("link:", "file:", "workspace:")):
        return _LINK
    return re.split(r"[(_]", v, maxsplit=1)[0]


def _pnpm_lock(data: dict[str, Any], rel: str):
    importers = data.get("importers")
    if isinstance(importers, dict):
        imp = importers.get(rel)
    elif rel == ".":
        imp = data  # lockfile v5 without workspaces keeps the root's entries at the top
    else:
        imp = None
    if not isinstance(imp, dict):
        return None

    def find(name: str, spec: str) -> str | None:
        for section in ("dependencies", "devDependencies", "optionalDependencies"):
            entries = imp.get(section)
            if isinstance(entries, dict) and name in entries:
                e = entries[name]
                return _clean_pnpm(e.get("version") if isinstance(e, dict) else e)
        return None

    return find


_YARN_HEADER = re.compile(r"^(?!#)(\S.*):\s*$")
_YARN_VERSION = re.compile(r'^\s+version:?\s+"?([^"\s]+)"?\s*$')


def _yarn_lock(text: str):
    by_descriptor: dict[str, str] = {}
    current: list[str] = []
    for line in text.splitlines():
        m = _YARN_HEADER.match(line)
        if m:
            current = [d.strip().strip('"') for d in m.group(1).split(",")]
            continue
        m = _YARN_VERSION.match(line)
        if m and current:
            for d in current:
                by_descriptor[d] = m.group(1)
            current = []

    def find(name: str, spec: str) -> str | None:
        for d in (f"{name}@{spec}", f"{name}@npm:{spec}"):
            if d in by_descriptor:
                v = by_descriptor[d]
                return _LINK if spec.startswith("workspace:") or v == "0.0.0-use.local" else v
        versions = {v for d, v in by_descriptor.items() if d.rsplit("@", 1)[0] == name}
        return versions.pop() if len(versions) == 1 else None

    return find


# The version scheme this reader's specs and versions are read with (``ranges.SCHEMES``).
SCHEME = scheme("npm")
