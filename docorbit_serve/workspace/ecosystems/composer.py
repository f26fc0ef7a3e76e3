"""Composer: composer.json (``require``, ``require-dev``) with composer.lock in the same folder.

Platform requirements (``php``, ``ext-*``, ``lib-*``, ``composer-plugin-api`` ...) are not
packages and are left out. Locked versions are kept as Composer records them (``v5.4.47``).
"""

from __future__ import annotations

import re
from pathlib import Path

from docorbit_serve.workspace.ecosystems._common import make_dependency
from docorbit_serve.workspace.model import Dependency
from docorbit_serve.workspace.ranges import scheme
from docorbit_serve.workspace.scan_context import ScanContext

__all__ = ["read"]

_PLATFORM = re.compile(
    r"^(php(-64bit|-ipv6|-zts|-debug)?|hhvm|ext-.+|lib-.+|composer(-plugin-api|-runtime-api)?)$",
    re.I,
)


def read(ctx: ScanContext, folder: Path, names: frozenset[str]) -> list[Dependency]:
    if "composer.json" not in names:
        return []
    manifest = folder / "composer.json"
    data = ctx.load_mapping(manifest, "json", "a JSON object")
    if data is None:
        return []
    lock = folder / "composer.lock" if "composer.lock" in names else None
    locked: dict[str, str] | None = None
    if lock:
        ldata = ctx.load(lock, "json", lock=True)
        if isinstance(ldata, dict):
            locked = {}
            for section in ("packages", "packages-dev"):
                for p in ldata.get(section) or []:
                    if (
                        isinstance(p, dict)
                        and isinstance(p.get("name"), str)
                        and isinstance(p.get("version"), str)
                    ):
                        locked[p["name"].lower()] = p["version"]
    deps = []
    for section, dev in (("require", False), ("require-dev", True)):
        entries = data.get(section)
        if entries is None:
            continue
        if not isinstance(entries, dict):
            ctx.warn("parse_error", manifest, f"{section} is not an object")
            continue
        for name, spec in sorted(entries.items()):
            if _PLATFORM.match(name):
                continue
            if not isinstance(spec, str):
                ctx.warn("invalid_spec", manifest, f"{name}: requirement is not a string")
                continue
            version = locked.get(name.lower()) if locked is not None else None
            if locked is not None and version is None:
                ctx.not_in_lockfile(manifest, name, spec, lock)
            deps.append(
                make_dependency(
                    ctx,
                    ecosystem="composer",
                    name=name.lower(),
                    spec=spec,
                    locked=version,
                    manifest=manifest,
                    lock=lock,
                    dev=dev,
                )
            )
    return deps


# The version scheme this reader's specs and versions are read with (``ranges.SCHEMES``).
SCHEME = scheme("composer")
