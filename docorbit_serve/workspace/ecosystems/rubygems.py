"""RubyGems/Bundler: Gemfile with Gemfile.lock in the same folder.

The Gemfile is Ruby; it is read line by line, never evaluated: ``gem "name", "req", ...``
lines, the ``group ... do`` blocks (and ``group:``/``groups:`` options) that make a gem a
development or test gem, and ``path:`` options that make it local. Gemfile.lock gives the
exact versions (``GEM``/``GIT`` specs, platform suffixes such as ``-x86_64-linux`` dropped) and
its ``DEPENDENCIES`` list, whose entries the Gemfile reading missed (gems declared by
``gemspec`` or by Ruby the line reader cannot follow) are added from the lock.
"""

from __future__ import annotations

import re
from pathlib import Path

from docorbit_serve.workspace.ecosystems._common import make_dependency
from docorbit_serve.workspace.model import Dependency
from docorbit_serve.workspace.ranges import scheme
from docorbit_serve.workspace.scan_context import ScanContext

__all__ = ["parse_gemfile", "parse_gemfile_lock", "read"]

_GEM = re.compile(r"""^gem\s*\(?\s*["']([^"']+)["']\s*(.*)$""")
_STR = re.compile(r"""^\s*,\s*["']([^"']*)["']""")
_BLOCK_OPEN = re.compile(
    r"^(group|source|platforms?|install_if|git|path|github|env)\b.*\bdo\b\s*(\|[^|]*\|)?\s*$"
)
_GROUP_SYMS = re.compile(r":(\w+)|[\"'](\w+)[\"']")
_DEV_GROUPS = {"development", "test"}
_SPEC_LINE = re.compile(r"^    (\S+) \(([^)]+)\)$")
_DEP_LINE = re.compile(r"^  (\S+?)(!)?(?: \(([^)]*)\))?!?$")


def parse_gemfile(text: str) -> tuple[list[tuple[str, str, bool, bool]], list[str]]:
    """Gems as (name, requirement, dev, local) and the lines it could not follow."""
    gems: list[tuple[str, str, bool, bool]] = []
    stack: list[tuple[set[str], bool]] = []  # (groups, local) per open block
    bad: list[str] = []
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if _BLOCK_OPEN.match(line):
            kind = line.split()[0]
            groups = (
                {a or b for a, b in _GROUP_SYMS.findall(line.split("do")[0])}
                if kind == "group"
                else set()
            )
            stack.append((groups, kind == "path"))
            continue
        if re.match(r"^(if|unless|case|begin|while|until)\b", line) or re.search(
            r"\bdo\s*(\|[^|]*\|)?$", line
        ):
            stack.append((set(), False))
            continue
        if re.fullmatch(r"end\b.*", line):
            if stack:
                stack.pop()
            else:
                bad.append(line)
            continue
        m = _GEM.match(line)
        if not m:
            continue
        name, rest = m.group(1), m.group(2)
        reqs = []
        while True:
            s = _STR.match(rest)
            if not s:
                break
            reqs.append(s.group(1).strip())
            rest = rest[s.end() :]
        opt_groups = set()
        gm = re.search(r"\bgroups?:\s*(\[[^\]]*\]|:\w+|[\"']\w+[\"'])", rest)
        if gm:
            opt_groups = {a or b for a, b in _GROUP_SYMS.findall(gm.group(1))}
        block_groups = set().union(*(g for g, _ in stack)) if stack else set()
        groups = block_groups | opt_groups
        dev = bool(groups) and groups <= _DEV_GROUPS
        local = bool(re.search(r"\bpath:", rest)) or any(loc for _, loc in stack)
        gems.append((name, ", ".join(reqs), dev, local))
    if stack:
        bad.append(f"{len(stack)} block(s) not closed")
    return gems, bad


def parse_gemfile_lock(text: str) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """(locked versions by gem, DEPENDENCIES requirements by gem, gems from PATH sections)."""
    versions: dict[str, str] = {}
    dependencies: dict[str, str] = {}
    path_gems: set[str] = set()
    section = None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line.strip()
            continue
        if section in ("GEM", "GIT", "PATH"):
            m = _SPEC_LINE.match(line)
            if m:
                name, version = m.group(1), m.group(2).split("-", 1)[0]
                versions.setdefault(name, version)
                if section == "PATH":
                    path_gems.add(name)
        elif section == "DEPENDENCIES":
            m = _DEP_LINE.match(line)
            if m:
                dependencies[m.group(1)] = (m.group(3) or "").strip()
    return versions, dependencies, path_gems


def read(ctx: ScanContext, folder: Path, names: frozenset[str]) -> list[Dependency]:
    if "Gemfile" not in names and "gems.rb" not in names:
        return []
    manifest = folder / ("Gemfile" if "Gemfile" in names else "gems.rb")
    text = ctx.text(manifest)
    if text is None:
        return []
    gems, bad = parse_gemfile(text)
    for b in bad:
        ctx.warn("parse_error", manifest, f"Gemfile structure: {b[:120]}")
    lock = next((folder / n for n in ("Gemfile.lock", "gems.locked") if n in names), None)
    versions: dict[str, str] | None = None
    lock_deps: dict[str, str] = {}
    path_gems: set[str] = set()
    if lock:
        ltext = ctx.text(lock, lock=True)
        if ltext is not None:
            versions, lock_deps, path_gems = parse_gemfile_lock(ltext)
            if not versions and not lock_deps:
                ctx.warn("parse_error", lock, "no GEM specs or DEPENDENCIES found")
                versions = None
    declared = {name: (spec, dev, local) for name, spec, dev, local in gems}
    for name, spec in lock_deps.items():
        declared.setdefault(name, (spec, False, name in path_gems))
    deps = []
    for name, (spec, dev, local) in sorted(declared.items()):
        if local or name in path_gems:
            continue
        version = versions.get(name) if versions is not None else None
        if versions is not None and version is None:
            ctx.not_in_lockfile(manifest, name, spec, lock)
        deps.append(
            make_dependency(
                ctx,
                ecosystem="rubygems",
                name=name,
                spec=spec,
                locked=version,
                manifest=manifest,
                lock=lock,
                dev=dev,
            )
        )
    return deps


# The version scheme this reader's specs and versions are read with (``ranges.SCHEMES``).
SCHEME = scheme("rubygems")
