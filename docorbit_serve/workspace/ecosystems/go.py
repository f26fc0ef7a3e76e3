"""Go: go.mod (``require``, ``replace``), checked against go.sum.

go.mod names the exact selected version of every module in the build list (Go >= 1.17 lists
indirect ones too, marked ``// indirect``; they are kept with ``direct=False``). Pseudo-versions
(``v0.0.0-20240604190554-fc45aab8b7f8``) are versions like any other. A ``replace`` with a
module version swaps the version; a ``replace`` with a local path makes the module local code.
``resolved_from`` is ``lockfile`` when go.sum records that module version, else ``manifest``.
"""

from __future__ import annotations

import re
from pathlib import Path

from docorbit_serve.workspace.model import Dependency
from docorbit_serve.workspace.ranges import exact_pin, scheme
from docorbit_serve.workspace.scan_context import ScanContext

__all__ = ["parse_go_mod", "read"]

_LINE = re.compile(r"^(\S+)\s+(v\S+)\s*(//.*)?$")
_REPLACE = re.compile(r"^(\S+)(?:\s+(v\S+))?\s*=>\s*(\S+)(?:\s+(v\S+))?\s*(?://.*)?$")


def parse_go_mod(
    text: str,
) -> tuple[list[tuple[str, str, bool]], dict[str, tuple[str, str | None]], list[str]]:
    """(requires as (module, version, indirect), replaces module -> (target, version), bad lines)."""
    requires: list[tuple[str, str, bool]] = []
    replaces: dict[str, tuple[str, str | None]] = {}
    bad: list[str] = []
    block: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        if block:
            if line == ")":
                block = None
                continue
            body = line
        else:
            m = re.match(
                r"^(require|replace|exclude|retract|tool|godebug|ignore)\s*(\(?)\s*(.*)$", line
            )
            if not m:
                continue  # module, go, toolchain
            if m.group(2) == "(":
                block = m.group(1)
                continue
            block_kind, body = m.group(1), m.group(3)
            _handle(block_kind, body, requires, replaces, bad)
            continue
        _handle(block, body, requires, replaces, bad)
    if block:
        bad.append(f"unclosed {block} block")
    return requires, replaces, bad


def _handle(kind, body, requires, replaces, bad) -> None:
    if kind == "require":
        m = _LINE.match(body)
        if not m:
            bad.append(body)
            return
        indirect = bool(m.group(3) and "indirect" in m.group(3))
        requires.append((m.group(1).strip('"'), m.group(2), indirect))
    elif kind == "replace":
        m = _REPLACE.match(body)
        if not m:
            bad.append(body)
            return
        replaces[m.group(1)] = (m.group(3), m.group(4))


def read(ctx: ScanContext, folder: Path, names: frozenset[str]) -> list[Dependency]:
    if "go.mod" not in names:
        return []
    manifest = folder / "go.mod"
    text = ctx.text(manifest)
    if text is None:
        return []
    requires, replaces, bad = parse_go_mod(text)
    for b in bad:
        ctx.warn("parse_error", manifest, f"unreadable go.mod line: {b[:120]!r}")
    sums: set[tuple[str, str]] = set()
    gosum = folder / "go.sum"
    if "go.sum" in names:
        sum_text = ctx.text(gosum, lock=True)
        for line in (sum_text or "").splitlines():
            parts = line.split()
            if len(parts) >= 2:
                sums.add((parts[0], parts[1].removesuffix("/go.mod")))
    deps = []
    for module, version, indirect in sorted(requires):
        if exact_pin("go", version) is None:
            ctx.warn("invalid_spec", manifest, f"{module}: {version!r} is not a Go module version")
            continue
        chosen = version
        if module in replaces:
            target, target_version = replaces[module]
            if target.startswith((".", "/")):
                continue  # replaced by local code
            chosen = target_version or version
        in_sum = (module, chosen) in sums or (replaces.get(module, (module,))[0], chosen) in sums
        deps.append(
            Dependency(
                ecosystem="go",
                name=module,
                spec=version,
                version=chosen,
                resolved_from="lockfile" if in_sum else "manifest",
                package_path=ctx.rel(folder),
                source_file=ctx.rel(manifest),
                dev=False,
                lock_file=ctx.rel(gosum) if in_sum else None,
                direct=not indirect,
            )
        )
    return deps


# The version scheme this reader's specs and versions are read with (``ranges.SCHEMES``).
SCHEME = scheme("go")
