"""pub (Dart/Flutter): pubspec.yaml with pubspec.lock in the same folder.

SDK packages (``flutter: {sdk: flutter}``) and path dependencies are not documentation
targets of their own and are left out; git and hosted dependencies are kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docorbit_serve.workspace.ecosystems._common import make_dependency
from docorbit_serve.workspace.model import Dependency
from docorbit_serve.workspace.ranges import scheme
from docorbit_serve.workspace.scan_context import ScanContext

__all__ = ["read"]


def read(ctx: ScanContext, folder: Path, names: frozenset[str]) -> list[Dependency]:
    if "pubspec.yaml" not in names:
        return []
    manifest = folder / "pubspec.yaml"
    data = ctx.load_mapping(manifest, "yaml", "a mapping")
    if data is None:
        return []
    lock = folder / "pubspec.lock" if "pubspec.lock" in names else None
    locked: dict[str, str] | None = None
    if lock:
        ldata = ctx.load(lock, "yaml", lock=True)
        if isinstance(ldata, dict) and isinstance(ldata.get("packages"), dict):
            locked = {
                n: str(p["version"])
                for n, p in ldata["packages"].items()
                if isinstance(p, dict) and p.get("version") is not None and p.get("source") != "sdk"
            }
        elif ldata is not None:
            ctx.warn("parse_error", lock, "pubspec.lock has no packages mapping")
    deps = []
    for section, dev in (("dependencies", False), ("dev_dependencies", True)):
        entries = data.get(section)
        if entries is None:
            continue
        if not isinstance(entries, dict):
            ctx.warn("parse_error", manifest, f"{section} is not a mapping")
            continue
        for name, value in sorted(entries.items(), key=lambda kv: str(kv[0])):
            spec = _spec(value)
            if spec is None:
                continue
            version = locked.get(str(name)) if locked is not None else None
            if locked is not None and version is None:
                ctx.not_in_lockfile(manifest, name, spec, lock)
            deps.append(
                make_dependency(
                    ctx,
                    ecosystem="pub",
                    name=str(name),
                    spec=spec,
                    locked=version,
                    manifest=manifest,
                    lock=lock,
                    dev=dev,
                )
            )
    return deps


def _spec(value: Any) -> str | None:
    """The version constraint, or None for sdk/path dependencies."""
    if value is None:
        return "any"
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, dict):
        if "sdk" in value or "path" in value:
            return None
        v = value.get("version")
        return str(v) if v is not None else "any"
    return None


# The version scheme this reader's specs and versions are read with (``ranges.SCHEMES``).
SCHEME = scheme("pub")
