"""Version-aware answers: retrieval re-ranked for the versions the workspace actually uses.

A layer on top of ``docorbit_serve.search.search`` (it never reaches into the search
internals): it asks search for a larger candidate list, re-scores each hit by how its docs
version relates to the workspace's pin, drops the same section seen again in a worse-matching
version, and stamps every hit with ``version_match``.

Contract::

    workspace_root(home, project=None, cwd=None) -> Path | None     (find_workspace(cwd))
    indexed_versions(manifest) -> dict[library, list[label]]        (from published.json)
    workspace_pins(root, manifest) -> dict[library, Pin]
    pinned_versions(project_root, catalog) -> dict[library, Resolution]
    versioned_search(catalog, query, *, pins, library=None, version=None, limit=10,
                     offset=0, backend=None) -> VersionedResult
    version_report(root, manifest, libraries=()) -> dict            (``docorbit version``,
                                                                      MCP ``get_version``)
    render_version_report(report) -> str                            (Markdown)
    update_docs_lock(root, manifest, check=False) -> dict           (``init``/``update``)

``version_match`` (per hit, against the workspace's version of the hit's library):

    exact         the docs label states all three numbers of the pinned version
    major_minor   same major.minor                                  weight 1.25
    major         same compatibility line (major; 0.minor below 1)  weight 1.15
    range         no version known; the label meets the requirement weight 1.15
    unversioned   the label states no number ("", latest, ...)      weight 1.00 (neutral)
    unpinned      the workspace does not pin this library           weight 1.00 (neutral)
    other         another line than the pinned one                  weight 0.50

``exact`` weighs 1.25 too. The hit's ``score`` becomes ``search score x weight``; ties keep
search's order. An explicit ``version`` filter turns re-scoring off (the caller chose) but
hits are still stamped.

Per-library status (``Pin.status``, ``versions[lib]["status"]`` in results):

    available            docs for the pinned line are indexed (ladder level exact ..range)
    version_unavailable  the workspace pins a numbered version, numbered docs exist for the
                         library, none on its line: results are stamped ``other``, the answer
                         lists ``nearest`` and never calls them the pinned version
    unversioned_docs     only unversioned/latest docs exist for the library
    unpinned             the workspace uses the library but states no usable version

When a library appears in several packages of a monorepo, one dependency speaks for it: a
runtime (non-dev) one before dev, direct before indirect, locked before manifest-only, the
shallowest package, then the highest ladder confidence; the other versions are listed under
``conflicts``.

The pins are resolved live from the manifests and lockfiles (``workspace.resolve_workspace``,
well under 0.1 s on the shared monorepos); docs.lock is the reviewable record of the same
resolution (``docorbit update``), not an input here.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docorbit_serve.home import find_workspace, workspace_root
from docorbit_serve.search import MAX_RESULTS, Hit, SearchResult, search
from docorbit_serve.workspace import (
    DOCS_LOCK,
    Dependency,
    Resolution,
    read_docs_lock,
    resolve_workspace,
    write_docs_lock,
)
from docorbit_serve.workspace.lockfile import docs_lock_document
from docorbit_serve.workspace.resolve import label_allows, match_level, parse_label

__all__ = [
    "MATCH_WEIGHTS",
    "STATUSES",
    "Pin",
    "VersionedResult",
    "classify",
    "find_workspace",
    "indexed_versions",
    "notice",
    "pinned_versions",
    "render_version_report",
    "update_docs_lock",
    "version_report",
    "versioned_search",
    "workspace_pins",
    "workspace_root",
]

MATCH_WEIGHTS = {
    "exact": 1.25,
    "major_minor": 1.25,
    "major": 1.15,
    "range": 1.15,
    "unversioned": 1.0,
    "unpinned": 1.0,
    "other": 0.5,
}
STATUSES = ("available", "version_unavailable", "unversioned_docs", "unpinned")
_AVAILABLE = ("exact", "major_minor", "major", "range")
POOL = 60  # candidates asked from search per request (at least 3x the window)


# --------------------------------------------------------------------------- pins


def indexed_versions(manifest: Mapping[str, Any]) -> dict[str, list[str]]:
    """library -> sorted docs labels of the publication (``published.json`` sources)."""
    out: dict[str, set[str]] = {}
    for s in (manifest.get("sources") or {}).values():
        if isinstance(s, Mapping) and s.get("library"):
            out.setdefault(str(s["library"]), set()).add(str(s.get("version") or ""))
    return {lib: sorted(v) for lib, v in sorted(out.items())}


def _status(res: Resolution) -> str:
    if res.level in _AVAILABLE:
        return "available"
    wanted = parse_label(res.wanted or "")
    if wanted.kind != "numbered" or not wanted.parts:
        return "unpinned"
    if any(parse_label(n).kind == "numbered" for n in res.nearest):
        return "version_unavailable"
    return "unversioned_docs"


@dataclass(frozen=True)
class Pin:
    """The dependency that speaks for ``library`` in the workspace and its resolution."""

    library: str
    dependency: Dependency
    resolution: Resolution
    status: str
    conflicts: tuple[Dependency, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d, r = self.dependency, self.resolution
        return {
            "library": self.library,
            "status": self.status,
            "wanted": r.wanted,
            "spec": d.spec,
            "ecosystem": d.ecosystem,
            "dependency": d.name,
            "package_path": d.package_path,
            "source_file": d.source_file,
            "resolved_from": d.resolved_from,
            "docs_version": r.version,
            "level": r.level,
            "confidence": r.confidence,
            "nearest": list(r.nearest),
            "reason": r.reason,
            "conflicts": [
                {"package_path": c.package_path, "source_file": c.source_file, "version": c.version}
                for c in self.conflicts
            ],
        }


def _speaker_key(pair: tuple[Dependency, Resolution]) -> tuple:
    d, r = pair
    depth = 0 if d.package_path in ("", ".") else d.package_path.count("/") + 1
    return (d.dev, not d.direct, d.resolved_from != "lockfile", depth, -r.confidence, d.sort_key())


def workspace_pins(root: Path, manifest: Mapping[str, Any]) -> dict[str, Pin]:
    """Scan ``root`` and pick, per indexed library, the dependency that speaks for it."""
    indexed = indexed_versions(manifest)
    if not indexed:
        return {}
    res = resolve_workspace(Path(root), indexed)
    groups: dict[str, list[tuple[Dependency, Resolution]]] = {}
    for dep, r in zip(res.scan.dependencies, res.resolutions, strict=True):
        if r.library is not None:
            groups.setdefault(r.library, []).append((dep, r))
    pins = {}
    for lib, pairs in sorted(groups.items()):
        pairs.sort(key=_speaker_key)
        dep, r = pairs[0]
        others = tuple(
            d for d, _ in pairs[1:] if (d.version or d.spec) != (dep.version or dep.spec)
        )
        pins[lib] = Pin(lib, dep, r, _status(r), others)
    return pins


def pinned_versions(project_root: Path, catalog: Any) -> dict[str, Resolution]:
    """library -> Resolution (``wanted``: the workspace's version; ``version``: the docs label
    to serve; ``level``/``confidence``/``nearest``/``reason``) for every indexed library the
    workspace at ``project_root`` uses. Raises ``NotPublished`` when nothing is published."""
    return {
        lib: pin.resolution for lib, pin in workspace_pins(project_root, catalog.manifest()).items()
    }


# --------------------------------------------------------------------------- search


@dataclass
class VersionedResult(SearchResult):
    versions: dict[str, dict[str, Any]] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "versions": self.versions, "notices": list(self.notices)}


def classify(label: str, pin: Pin | None) -> str:
    """``version_match`` of a hit whose docs label is ``label`` (see module docstring)."""
    if pin is None or pin.status == "unpinned":
        return "unversioned" if parse_label(label).kind != "numbered" else "unpinned"
    wanted = pin.resolution.wanted
    if wanted and parse_label(wanted).kind == "numbered":
        level = match_level(wanted, label)
        return "unpinned" if level == "unknown" else level
    if parse_label(label).kind != "numbered":
        return "unversioned"
    return "range" if label_allows(pin.dependency, label) else "other"


def notice(pin: Pin) -> str:
    """One line that says what the workspace pins and what the results are."""
    r, d = pin.resolution, pin.dependency
    wanted = r.wanted or d.spec or "(no version)"
    where = d.source_file + (f" via {d.lock_file}" if d.lock_file else "")
    if pin.status == "available":
        return (
            f"{pin.library}: workspace uses {wanted} ({where}); docs {r.version} "
            f"match at {r.level} (confidence {r.confidence:.2f}); results ranked for it."
        )
    near = ", ".join(v or "(unversioned)" for v in r.nearest) or "(none)"
    if pin.status == "version_unavailable":
        return (
            f"version_unavailable: {pin.library} {wanted} is pinned ({where}) but no docs for "
            f"its line are indexed; nearest indexed: {near}. Answers come from those other "
            f"versions (each hit names its version), never from {wanted}."
        )
    if pin.status == "unversioned_docs":
        return (
            f"{pin.library}: workspace uses {wanted} ({where}); only unversioned docs are "
            f"indexed ({near}): they may not describe {wanted}."
        )
    return f"{pin.library}: the workspace states no version ({where}); results are not re-ranked."


def _versioned_hit(hit: Hit, match: str, score: float) -> Hit:
    return hit.model_copy(update={"score": round(score, 6), "version_match": match})


def versioned_search(
    catalog: Any,
    query: str,
    *,
    pins: Mapping[str, Pin],
    library: str | None = None,
    version: str | None = None,
    limit: int = 10,
    offset: int = 0,
    backend: str | None = None,
    hybrid: bool | None = None,
) -> VersionedResult:
    """``search`` re-ranked for ``pins`` (see module docstring); same errors as ``search``."""
    t0 = time.perf_counter()
    rescore = version is None and bool(pins)
    if rescore:
        pool = min(MAX_RESULTS, max(POOL, 3 * (offset + limit)))
        res = search(
            catalog, query, library=library, limit=pool, offset=0, backend=backend, hybrid=hybrid
        )
    else:
        res = search(
            catalog,
            query,
            library=library,
            version=version,
            limit=limit,
            offset=offset,
            backend=backend,
            hybrid=hybrid,
        )
    scored = []
    for rank, h in enumerate(res.hits):
        match = classify(h.version, pins.get(h.library))
        weight = MATCH_WEIGHTS.get(match, 1.0) if rescore else 1.0
        scored.append((-(h.score * weight), rank, _versioned_hit(h, match, h.score * weight)))
    scored.sort(key=lambda t: (t[0], t[1]))
    hits: list[Hit] = []
    seen: set[tuple[str, str, str]] = set()
    for _, _, vh in scored:
        key = (vh.library, vh.path, vh.anchor)
        if rescore and key in seen:  # the same section in a worse-matching version
            continue
        seen.add(key)
        hits.append(vh)
    if rescore:
        hits = hits[offset : offset + limit]
    libs = {h.library for h in hits} | ({library} if library else set())
    in_play = {lib: pins[lib] for lib in sorted(libs) if lib in pins}
    return VersionedResult(
        query=res.query,
        hits=hits,
        backend=res.backend,
        truncated=res.truncated,
        elapsed_ms=round((time.perf_counter() - t0) * 1000, 3),
        versions={lib: p.to_dict() for lib, p in in_play.items()},
        notices=[*res.notices, *(notice(p) for p in in_play.values())],
    )


# --------------------------------------------------------------------------- docs.lock


def update_docs_lock(
    root: Path,
    manifest: Mapping[str, Any] | None,
    *,
    check: bool = False,
    require_dependencies: bool = False,
) -> dict[str, Any]:
    """Resolve the workspace at ``root`` against the publication and write ``root/docs.lock``.

    ``manifest`` is published.json (``None``/empty when nothing is published: every
    dependency is then ``unresolved``). With ``check`` nothing is written, nor when
    ``require_dependencies`` and the scan finds none (``docorbit init``). Returns ``path``,
    ``changed`` (the content hash differs from the file's, or there is no file),
    ``snapshot_hash``, ``dependencies`` (count) and ``matched`` (dependencies with docs)."""
    manifest = manifest or {}
    res = resolve_workspace(Path(root), indexed_versions(manifest))
    info = {"publish_id": manifest.get("publish_id"), "sources": manifest.get("sources") or {}}
    doc = docs_lock_document(res.scan, res.resolutions, info)
    previous = read_docs_lock(Path(root))
    changed = not previous or previous.get("snapshot_hash") != doc["snapshot_hash"]
    path = Path(root) / DOCS_LOCK
    write = not check and (res.scan.dependencies or not require_dependencies)
    if write:
        path = write_docs_lock(Path(root), res.scan, res.resolutions, info)
    return {
        "path": str(path),
        "changed": changed,
        "written": bool(write),
        "snapshot_hash": doc["snapshot_hash"],
        "dependencies": len(res.scan.dependencies),
        "matched": sum(r.library is not None for r in res.resolutions),
        "warnings": len(res.scan.warnings),
    }


# --------------------------------------------------------------------------- report


def version_report(
    root: Path | None, manifest: Mapping[str, Any], libraries: Iterable[str] = ()
) -> dict[str, Any]:
    """What the workspace uses and what DocOrbit serves for it, per indexed library.

    ``libraries`` narrows the report; a named library the workspace does not use, or that is
    not indexed, is listed under ``missing`` with the indexed labels (if any)."""
    indexed = indexed_versions(manifest)
    pins = workspace_pins(root, manifest) if root is not None else {}
    wanted = list(dict.fromkeys(libraries))
    rows = [
        {**p.to_dict(), "notice": notice(p)}
        for lib, p in pins.items()
        if not wanted or lib in wanted
    ]
    missing = [
        {
            "library": lib,
            "indexed_versions": indexed.get(lib, []),
            "reason": (
                "the workspace does not use this library"
                if lib in indexed
                else "no docs are indexed for this library"
            ),
        }
        for lib in wanted
        if lib not in pins
    ]
    return {
        "project_root": str(root) if root is not None else None,
        "publish_id": manifest.get("publish_id"),
        "indexed": indexed,
        "libraries": rows,
        "missing": missing,
    }


def render_version_report(rep: Mapping[str, Any]) -> str:
    """``version_report`` as Markdown (workspace metadata and docs labels; no fetched text)."""
    pub = rep.get("publish_id") or "nothing published"
    lines = [f"workspace: {rep.get('project_root')} · publication: {pub}"]
    if rep["libraries"]:
        lines += [
            "",
            "| library | workspace uses | from | docs served | level | confidence | status |",
            "|---" * 7 + "|",
        ]
        for r in rep["libraries"]:
            docs = r["docs_version"] or "-"
            if r["status"] == "version_unavailable":
                docs = "none for this version (nearest: " + ", ".join(r["nearest"]) + ")"
            cells = [
                r["library"],
                r["wanted"] or r["spec"] or "-",
                r["source_file"],
                docs,
                r["level"],
                f"{r['confidence']:.2f}",
                r["status"],
            ]
            lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")
        lines += [""] + [r["notice"] for r in rep["libraries"]]
    else:
        lines.append("no indexed library is used by this workspace")
    for m in rep["missing"]:
        known = ", ".join(v or "(unversioned)" for v in m["indexed_versions"])
        lines.append(f"{m['library']}: {m['reason']}" + (f" (indexed: {known})" if known else ""))
    return "\n".join(lines) + "\n"
