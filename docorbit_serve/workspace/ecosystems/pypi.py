"""PyPI: requirements*.txt and pyproject.toml, with uv.lock or poetry.lock where present.

pyproject.toml sections read: ``[project] dependencies`` and ``optional-dependencies``,
``[dependency-groups]`` (PEP 735) and ``[tool.uv] dev-dependencies`` (dev), Poetry's
``[tool.poetry.dependencies]`` and its groups (dev). The governing lock is the nearest uv.lock
(uv workspaces keep one at the root) or poetry.lock at or above the project. When the lock
holds one version of a name that is the version; when it holds several, the one the project's
own lock entry names, else the highest that meets the requirement. A requirements file's
``==`` pin is an exact version from the manifest. Names are PEP 503 normalized.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from docorbit_serve.workspace.ecosystems._common import make_dependency
from docorbit_serve.workspace.model import Dependency
from docorbit_serve.workspace.ranges import InvalidSpec, compare_versions, satisfies, scheme
from docorbit_serve.workspace.scan_context import ScanContext

__all__ = ["read"]

LOCKFILES = ("uv.lock", "poetry.lock")
_REQ_FILE = re.compile(r"^requirements.*\.txt$|^.*requirements\.txt$")
_DEV_WORDS = ("dev", "test", "lint", "doc", "ci", "type")


def read(ctx: ScanContext, folder: Path, names: frozenset[str]) -> list[Dependency]:
    req_files = sorted(n for n in names if _REQ_FILE.match(n))
    if folder.name == "requirements":
        req_files += sorted(n for n in names if n.endswith(".txt") and n not in req_files)
    has_pyproject = "pyproject.toml" in names
    if not req_files and not has_pyproject:
        return []
    lock = ctx.find_up(folder, LOCKFILES)
    project_name: str | None = None
    declared: list[tuple[Path, str, str, bool]] = []  # (manifest, line, context, dev)
    if has_pyproject:
        project_name, entries = _pyproject(ctx, folder / "pyproject.toml")
        declared += entries
    index = _lock_index(ctx, lock) if lock else None
    # a lock above the project governs only the workspace members it knows about
    if (
        index is not None
        and lock is not None
        and lock.parent != folder
        and (project_name is None or canonicalize_name(project_name) not in index["roots"])
    ):
        index = None
    for fname in req_files:
        declared += _requirements(
            ctx, folder / fname, dev=any(w in fname.lower() for w in _DEV_WORDS)
        )
    deps = []
    seen: set[tuple[str, str, bool]] = set()
    for manifest, text, _ctxname, dev in declared:
        try:
            req = Requirement(text)
        except InvalidRequirement as e:
            ctx.warn("invalid_spec", manifest, f"{text!r}: {' '.join(str(e).split())[:200]}")
            continue
        name = canonicalize_name(req.name)
        if project_name and name == canonicalize_name(project_name):
            continue  # self-reference such as "pkg[extra]"
        spec = str(req.specifier)
        key = (ctx.rel(manifest), name, dev)
        if key in seen:
            continue
        seen.add(key)
        locked = _locked_version(index, project_name, name, spec) if index else None
        if index and locked is None and req.url is None:
            ctx.not_in_lockfile(manifest, name, spec, lock)
        deps.append(
            make_dependency(
                ctx,
                ecosystem="pypi",
                name=name,
                spec=spec,
                locked=locked,
                manifest=manifest,
                lock=lock,
                dev=dev,
                check_spec=False,  # packaging already parsed it
            )
        )
    return deps


def _pyproject(
    ctx: ScanContext, manifest: Path
) -> tuple[str | None, list[tuple[Path, str, str, bool]]]:
    data = ctx.load(manifest, "toml")
    if not isinstance(data, dict):
        return None, []
    out: list[tuple[Path, str, str, bool]] = []

    def add(items: Any, where: str, dev: bool) -> None:
        if not isinstance(items, list):
            if items is not None:
                ctx.warn("parse_error", manifest, f"{where} is not a list")
            return
        for it in items:
            if isinstance(it, str):
                out.append((manifest, it, where, dev))
            elif not (isinstance(it, dict) and "include-group" in it):
                ctx.warn("invalid_spec", manifest, f"{where}: entry {it!r} is not a string")

    project: dict[str, Any] = data["project"] if isinstance(data.get("project"), dict) else {}
    name = project.get("name") if isinstance(project.get("name"), str) else None
    add(project.get("dependencies"), "project.dependencies", False)
    optional = project.get("optional-dependencies")
    if isinstance(optional, dict):
        for extra, items in sorted(optional.items()):
            add(items, f"project.optional-dependencies.{extra}", False)
    groups = data.get("dependency-groups")
    if isinstance(groups, dict):
        for group, items in sorted(groups.items()):
            add(items, f"dependency-groups.{group}", True)
    tool: dict[str, Any] = data["tool"] if isinstance(data.get("tool"), dict) else {}
    uv: dict[str, Any] = tool["uv"] if isinstance(tool.get("uv"), dict) else {}
    add(uv.get("dev-dependencies"), "tool.uv.dev-dependencies", True)
    poetry: dict[str, Any] = tool["poetry"] if isinstance(tool.get("poetry"), dict) else {}
    if poetry:
        name = name or (poetry.get("name") if isinstance(poetry.get("name"), str) else None)
        out += _poetry_section(manifest, poetry.get("dependencies"), False)
        out += _poetry_section(manifest, poetry.get("dev-dependencies"), True)
        pgroups = poetry.get("group")
        if isinstance(pgroups, dict):
            for _g, table in sorted(pgroups.items()):
                if isinstance(table, dict):
                    out += _poetry_section(manifest, table.get("dependencies"), True)
    return name, out


def _poetry_section(manifest: Path, table: Any, dev: bool) -> list[tuple[Path, str, str, bool]]:
    if not isinstance(table, dict):
        return []
    out = []
    for name, value in sorted(table.items()):
        if name.lower() == "python":
            continue
        spec = value.get("version", "") if isinstance(value, dict) else value
        if isinstance(value, dict) and ("path" in value or "git" in value or "url" in value):
            continue
        if not isinstance(spec, str):
            continue
        out.append((manifest, f"{name}{_poetry_to_pep440(spec)}", "tool.poetry", dev))
    return out


def _poetry_to_pep440(spec: str) -> str:
    """Poetry's ``^1.2`` / ``~1.2`` / ``*`` / bare ``1.2`` into PEP 440 specifiers."""
    out = []
    for part in [p.strip() for p in spec.split(",") if p.strip()]:
        m = re.fullmatch(r"([\^~])\s*(\d+(?:\.\d+)*)", part)
        if m:
            nums = [int(x) for x in m.group(2).split(".")]
            if m.group(1) == "^":
                i = next((k for k, n in enumerate(nums) if n != 0), len(nums) - 1)
            else:
                i = 0 if len(nums) == 1 else 1
            upper = nums[: i + 1]
            upper[-1] += 1
            out += [f">={m.group(2)}", "<" + ".".join(map(str, upper))]
        elif part == "*":
            continue
        elif re.fullmatch(r"\d+(?:\.\d+)*(?:\.\*)?", part):
            out.append(f"=={part}")
        else:
            out.append(part)
    return ",".join(out)


def _requirements(ctx: ScanContext, path: Path, *, dev: bool) -> list[tuple[Path, str, str, bool]]:
    text = ctx.text(path)
    if text is None:
        return []
    out = []
    for line in text.replace("\\\n", " ").splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        if not line or line.startswith("-") or "://" in line.split(";")[0] and "@" not in line:
            continue  # options (-r, -e, --index-url ...) and bare URLs
        if line.startswith((".", "/")):
            continue  # local paths
        line = re.split(r"\s+--", line, maxsplit=1)[0]  # per-requirement options (--hash)
        out.append((path, line, path.name, dev))
    return out


def _lock_index(ctx: ScanContext, lock: Path) -> dict[str, Any] | None:
    data = ctx.load(lock, "toml", lock=True)
    if not isinstance(data, dict):
        return None
    by_name: dict[str, list[str]] = {}
    roots: dict[str, dict[str, str]] = {}
    for p in data.get("package", []):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            continue
        name = canonicalize_name(p["name"])
        source = p.get("source")
        if isinstance(source, dict) and ({"editable", "virtual", "workspace"} & source.keys()):
            pinned: dict[str, str] = {}
            sections = [p.get("dependencies")]
            for key in ("optional-dependencies", "dev-dependencies"):
                if isinstance(p.get(key), dict):
                    sections += list(p[key].values())
            for section in sections:
                for d in section or []:
                    if isinstance(d, dict) and isinstance(d.get("version"), str):
                        pinned[canonicalize_name(d.get("name", ""))] = d["version"]
            roots[name] = pinned
            continue
        if isinstance(p.get("version"), str):
            by_name.setdefault(name, []).append(p["version"])
    return {"by_name": by_name, "roots": roots}


def _locked_version(index: dict[str, Any], project: str | None, name: str, spec: str) -> str | None:
    versions = index["by_name"].get(name, [])
    if len(versions) == 1:
        return versions[0]
    if not versions:
        return None
    pinned = index["roots"].get(canonicalize_name(project or ""), {}).get(name)
    if pinned:
        return pinned
    try:
        ok = [v for v in versions if satisfies("pypi", v, spec)]
    except InvalidSpec:
        return None
    best = None
    for v in ok:
        if best is None or compare_versions("pypi", v, best) > 0:
            best = v
    return best


# The version scheme this reader's specs and versions are read with (``ranges.SCHEMES``).
SCHEME = scheme("pypi")
