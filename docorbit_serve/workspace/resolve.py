"""The confidence ladder: which indexed docs version serves a dependency, and how sure we are.

    level            confidence   when
    exact               1.00      a docs label names the dependency's exact version
    major_minor         0.95      a docs label names its major.minor (``2.12``, or ``2.12.5`` for 2.12.3)
    major               0.90      a docs label names its major (``v2``, or another 2.x label)
    range               0.85      no exact version is known; a docs label meets the requirement
    latest_fallback     0.50      docs exist but none for this version (``latest``, unversioned, newest)
    unresolved          0.00      nothing is indexed for the library

Never more precision than the docs expose: a ``v2`` label matches 2.12.3 at ``major``, not
``exact``; ``2.12`` matches at ``major_minor``. For 0.x versions the minor is the breaking
line, so ``major`` needs the same 0.minor. ``nearest`` always lists up to three indexed labels
closest to the wanted version, so a surface can say which versions *are* available.
Labels are read leniently (``v1.10.26``, ``2.12``, ``v2``, ``2.x``, ``latest``, ``""``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from packaging.utils import canonicalize_name

from docorbit_serve.workspace.model import Dependency, WorkspaceScan
from docorbit_serve.workspace.ranges import InvalidSpec, exact_pin, satisfies
from docorbit_serve.workspace.scan import scan_workspace

__all__ = [
    "CONFIDENCE",
    "LEVELS",
    "Resolution",
    "WorkspaceResolution",
    "label_allows",
    "library_candidates",
    "match_level",
    "parse_label",
    "resolve_docs_version",
    "resolve_workspace",
]

LEVELS = ("exact", "major_minor", "major", "range", "latest_fallback", "unresolved")
CONFIDENCE = {
    "exact": 1.0,
    "major_minor": 0.95,
    "major": 0.90,
    "range": 0.85,
    "latest_fallback": 0.50,
    "unresolved": 0.0,
}
_LATEST = {"latest", "stable", "current", "main", "master", "dev", "next", "trunk", "nightly"}
_NUM = re.compile(r"^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?([-+._]?[0-9A-Za-z.+-]*)?$", re.I)


@dataclass(frozen=True)
class Resolution:
    version: str | None  # the indexed docs label to serve, as indexed
    level: str
    confidence: float
    nearest: list[str]
    reason: str
    library: str | None = None  # the indexed library this dependency was matched to
    wanted: str | None = None  # the version the workspace uses (lock or exact pin); not in to_dict

    def to_dict(self) -> dict:
        return {
            "confidence": self.confidence,
            "level": self.level,
            "library": self.library,
            "nearest": list(self.nearest),
            "reason": self.reason,
            "version": self.version,
        }


@dataclass(frozen=True)
class Label:
    raw: str
    parts: tuple[int, ...]  # the numbers the label states (0 to 3 of them)
    pre: str  # pre-release / suffix text, "" for none
    kind: str  # "numbered", "latest", "unversioned", "other"


def parse_label(raw: str) -> Label:
    s = (raw or "").strip()
    if not s:
        return Label(raw, (), "", "unversioned")
    if s.lower() in _LATEST:
        return Label(raw, (), "", "latest")
    m = _NUM.match(s)
    if not m:
        return Label(raw, (), "", "other")
    parts: list[int] = []
    for g in m.group(1, 2, 3):
        if g is None or not g.isdigit():
            break
        parts.append(int(g))
    pre = (m.group(4) or "").lstrip("-._")
    if pre.lower() in ("x", "*"):
        pre = ""
    return Label(raw, tuple(parts), pre.split("+", 1)[0], "numbered")


def _line(parts: tuple[int, ...]) -> tuple[int, ...]:
    """The compatibility line: the major, or 0.minor below 1.0."""
    if not parts:
        return ()
    if parts[0] == 0 and len(parts) > 1:
        return parts[:2]
    return parts[:1]


def _on_line(lab: Label, line: tuple[int, ...]) -> bool:
    """Whether the label's docs belong to the compatibility line (``v0`` covers every 0.x)."""
    n = min(len(lab.parts), len(line))
    return (
        n >= 1 and lab.parts[:n] == line[:n] and (len(lab.parts) >= len(line) or lab.parts == (0,))
    )


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    pa = (a + (0, 0, 0))[:3]
    pb = (b + (0, 0, 0))[:3]
    return tuple(abs(x - y) for x, y in zip(pa, pb, strict=True))


def _closeness(want: tuple[int, ...], lab: Label) -> tuple:
    """Sort key: same major first, longer shared prefix, then the closest below, then above."""
    w = (want + (0, 0, 0))[:3]
    p = (lab.parts + (0, 0, 0))[:3]
    prefix = next((i for i in range(3) if w[i] != p[i]), 3)
    below = p <= w
    return (abs(w[0] - p[0]), -prefix, not below, tuple(-x for x in p) if below else p, lab.raw)


def _nearest(want: tuple[int, ...], labels: list[Label], k: int = 3) -> list[str]:
    numbered = [lab for lab in labels if lab.kind == "numbered"]
    if not want:
        ordered = sorted(numbered, key=lambda lab: (lab.parts, lab.raw), reverse=True)
    else:
        ordered = sorted(numbered, key=lambda lab: _closeness(want, lab))
    out = [lab.raw for lab in ordered[:k]]
    others = [lab.raw for lab in labels if lab.kind != "numbered"]
    return out + sorted(others)[: max(0, k - len(out))]


def _best(want: tuple[int, ...], cands: list[Label]) -> Label:
    """Prefer the label stating fewest digits beyond what matched, then the closest version,
    the highest one not newer than wanted first."""

    def key(lab: Label):
        newer = (lab.parts + (0, 0, 0))[:3] > (want + (0, 0, 0))[:3]
        return (len(lab.parts), _distance(want, lab.parts), newer, lab.pre != "", lab.raw)

    return min(cands, key=key)


def _fallback(labels: list[Label], nearest: list[str], why: str) -> Resolution:
    if not labels:
        return Resolution(None, "unresolved", 0.0, [], "no docs are indexed for this library")
    for kind, note in (("latest", "a 'latest' docs set"), ("unversioned", "unversioned docs")):
        hit = [lab for lab in labels if lab.kind == kind]
        if hit:
            chosen = sorted(hit, key=lambda lab: lab.raw)[0]
            return Resolution(
                chosen.raw,
                "latest_fallback",
                CONFIDENCE["latest_fallback"],
                nearest,
                f"{why}; serving {note}",
            )
    numbered = [lab for lab in labels if lab.kind == "numbered" and not lab.pre] or [
        lab for lab in labels if lab.kind == "numbered"
    ]
    if numbered:
        chosen = max(numbered, key=lambda lab: ((lab.parts + (0, 0, 0))[:3], lab.raw))
    else:
        chosen = sorted(labels, key=lambda lab: lab.raw)[0]
    return Resolution(
        chosen.raw,
        "latest_fallback",
        CONFIDENCE["latest_fallback"],
        nearest,
        f"{why}; serving the newest indexed docs ({chosen.raw or 'unversioned'})",
    )


def match_level(wanted: str, label: str) -> str:
    """How a docs ``label`` relates to a ``wanted`` version, on the ladder's own terms.

    ``exact`` / ``major_minor`` / ``major`` as in the ladder; ``other`` for another line;
    ``unversioned`` for a label that states no number (``""``, ``latest``, ...); ``unknown``
    when ``wanted`` itself is not a numbered version.
    """
    w = parse_label(wanted)
    lab = parse_label(label)
    if w.kind != "numbered" or not w.parts:
        return "unknown"
    if lab.kind != "numbered" or not lab.parts:
        return "unversioned"
    want = w.parts
    if len(lab.parts) == 3 and lab.parts == (want + (0, 0))[:3] and lab.pre == w.pre:
        return "exact"
    if len(want) >= 2 and len(lab.parts) >= 2 and lab.parts[:2] == want[:2]:
        return "major_minor"
    if _on_line(lab, _line(want)):
        return "major"
    return "other"


def label_allows(dep: Dependency, label: str) -> bool:
    """Whether the docs ``label``'s version line meets ``dep.spec`` (False for unnumbered labels)."""
    lab = parse_label(label)
    return lab.kind == "numbered" and bool(lab.parts) and _label_allows(dep, lab)


def _label_allows(dep: Dependency, lab: Label) -> bool:
    """Whether a docs label's version line meets the dependency's requirement."""
    p = list(lab.parts)
    probes = [".".join(map(str, (p + [0, 0, 0])[:3]))]
    if len(p) < 3:  # a label for a whole line also covers its later releases
        probes.append(".".join(map(str, p + [999999] * (3 - len(p)))))
    if dep.ecosystem == "go":
        probes = ["v" + x for x in probes]
    for probe in probes:
        try:
            if satisfies(dep.ecosystem, probe, dep.spec):
                return True
        except InvalidSpec:
            return False
    return False


def resolve_docs_version(dep: Dependency, indexed_versions: list[str]) -> Resolution:
    """Walk the ladder for one dependency against the docs labels indexed for its library.

    The result's ``wanted`` is the version the workspace uses (locked, or the manifest's exact
    pin), ``None`` when only a requirement (or nothing) is known.
    """
    res = _ladder(dep, indexed_versions)
    return replace(
        res, wanted=dep.version or (exact_pin(dep.ecosystem, dep.spec) if dep.spec else None)
    )


def _ladder(dep: Dependency, indexed_versions: list[str]) -> Resolution:
    labels = [parse_label(v) for v in sorted(set(indexed_versions))]
    wanted = dep.version or (exact_pin(dep.ecosystem, dep.spec) if dep.spec else None)
    if wanted:
        w = parse_label(wanted)
        want = w.parts if w.kind == "numbered" else ()
        nearest = _nearest(want, labels)
        if not want:
            return _fallback(labels, nearest, f"version {wanted!r} is not numbered")
        numbered = [lab for lab in labels if lab.kind == "numbered"]
        exact = [
            lab
            for lab in numbered
            if len(lab.parts) == 3 and lab.parts == (want + (0, 0))[:3] and lab.pre == w.pre
        ]
        if exact:
            lab = _best(want, exact)
            return Resolution(lab.raw, "exact", 1.0, nearest, f"docs {lab.raw!r} are for {wanted}")
        if len(want) >= 2:
            mm = [lab for lab in numbered if len(lab.parts) >= 2 and lab.parts[:2] == want[:2]]
            if mm:
                lab = _best(want, mm)
                return Resolution(
                    lab.raw,
                    "major_minor",
                    0.95,
                    nearest,
                    f"docs {lab.raw!r} cover {want[0]}.{want[1]}, wanted {wanted}",
                )
        line = _line(want)
        major = [lab for lab in numbered if _on_line(lab, line)]
        if major:
            lab = _best(want, major)
            what = ".".join(map(str, line)) + ".x"
            return Resolution(
                lab.raw, "major", 0.90, nearest, f"docs {lab.raw!r} cover {what}, wanted {wanted}"
            )
        return _fallback(
            labels, nearest, f"no docs for the {'.'.join(map(str, line))}.x line of {wanted}"
        )
    spec = dep.spec.strip()
    if spec and spec not in ("*", "any", "latest"):
        fit = [lab for lab in labels if lab.kind == "numbered" and _label_allows(dep, lab)]
        nearest = _nearest((), fit or labels)
        if fit:
            lab = max(fit, key=lambda lab: ((lab.parts + (0, 0, 0))[:3], -len(lab.parts), lab.raw))
            return Resolution(
                lab.raw,
                "range",
                0.85,
                nearest,
                f"docs {lab.raw!r} meet {spec!r} (no exact version known)",
            )
        return _fallback(labels, nearest, f"no indexed docs meet {spec!r}")
    return _fallback(labels, _nearest((), labels), "no version is known for this dependency")


def library_candidates(dep: Dependency) -> list[str]:
    """Names an indexed library may carry for this dependency, most specific first."""
    name = dep.name
    out = [name, name.lower(), canonicalize_name(name)]
    if dep.ecosystem == "maven" and ":" in name:
        out.append(name.split(":", 1)[1])
    elif dep.ecosystem == "go":
        parts = [p for p in name.split("/") if not re.fullmatch(r"v\d+", p)]
        out.append(parts[-1])
    elif "/" in name:  # npm scopes, composer vendors
        out.append(name.rsplit("/", 1)[-1])
    seen: list[str] = []
    for c in out:
        if c and c not in seen:
            seen.append(c)
    return seen


def _match_library(dep: Dependency, indexed: Mapping[str, list[str]]) -> str | None:
    by_norm = {canonicalize_name(k): k for k in sorted(indexed)}
    for cand in library_candidates(dep):
        if cand in indexed:
            return cand
        if canonicalize_name(cand) in by_norm:
            return by_norm[canonicalize_name(cand)]
    return None


@dataclass
class WorkspaceResolution:
    scan: WorkspaceScan
    resolutions: list[Resolution]  # parallel to scan.dependencies


def resolve_workspace(root: Path, indexed: Mapping[str, list[str]]) -> WorkspaceResolution:
    """Scan ``root`` and resolve every dependency against ``indexed`` (library -> docs labels)."""
    scan = scan_workspace(root)
    out = []
    for dep in scan.dependencies:
        lib = _match_library(dep, indexed)
        if lib is None:
            res = Resolution(
                None,
                "unresolved",
                0.0,
                [],
                "no indexed library matches this dependency",
                wanted=dep.version or (exact_pin(dep.ecosystem, dep.spec) if dep.spec else None),
            )
        else:
            res = replace(resolve_docs_version(dep, list(indexed[lib])), library=lib)
        out.append(res)
    return WorkspaceResolution(scan=scan, resolutions=out)
