"""docs.lock: the documentation versions pinned for a workspace, byte-stable across runs.

    write_docs_lock(root, scan, resolutions, snapshot_info) -> Path    (root / "docs.lock")
    read_docs_lock(root) -> dict | None
    docs_lock_document(scan, resolutions, snapshot_info) -> dict       (content and its hash)

File format (JSON, keys sorted, 2-space indent, trailing newline, UTF-8)::

    {
      "content": {
        "dependencies": [ {ecosystem, name, package_path, source_file, lock_file, spec,
                           version, resolved_from, dev, direct,
                           docs: {library, version, level, confidence, nearest, reason}} ...],
        "publication": {"publish_id": "u_…", "sources": {name: {library, snapshot, version}}},
        "warnings": [ {code, file, message} ... ]
      },
      "docs_lock_version": 1,
      "retrieved_at": "2026-01-01T00:00:00Z",
      "snapshot_hash": "sha256:…"
    }

``snapshot_hash`` is SHA-256 over the canonical JSON of ``content`` alone; ``retrieved_at``
(when the publication was read) lives outside it. When the content is unchanged the previous
file's ``retrieved_at`` is carried forward, so two runs on unchanged input write identical
bytes, and the file is not rewritten at all. Nothing machine-specific enters the content: paths
are relative to the workspace root, source locations are left out.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from docorbit_serve.errors import InputError
from docorbit_serve.home import atomic_write_bytes
from docorbit_serve.workspace.model import WorkspaceScan
from docorbit_serve.workspace.resolve import Resolution

__all__ = [
    "DOCS_LOCK",
    "DOCS_LOCK_VERSION",
    "docs_lock_document",
    "read_docs_lock",
    "write_docs_lock",
]

DOCS_LOCK = "docs.lock"
DOCS_LOCK_VERSION = 1
_SOURCE_KEYS = ("library", "snapshot", "version")


def _canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def _render(doc: Mapping[str, Any]) -> bytes:
    return (json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _publication(snapshot_info: Mapping[str, Any]) -> dict[str, Any]:
    sources = snapshot_info.get("sources") or {}
    if not isinstance(sources, Mapping):
        raise InputError("snapshot_info['sources'] must be a mapping of source name to snapshot")
    return {
        "publish_id": snapshot_info.get("publish_id"),
        "sources": {
            str(name): {k: s.get(k) for k in _SOURCE_KEYS}
            for name, s in sorted(sources.items())
            if isinstance(s, Mapping)
        },
    }


def docs_lock_document(
    scan: WorkspaceScan,
    resolutions: Sequence[Resolution],
    snapshot_info: Mapping[str, Any],
    *,
    retrieved_at: str | None = None,
) -> dict[str, Any]:
    """The docs.lock document (content, its hash, and ``retrieved_at``)."""
    if len(resolutions) != len(scan.dependencies):
        raise InputError(
            "one resolution per scanned dependency is needed",
            detail={"dependencies": len(scan.dependencies), "resolutions": len(resolutions)},
        )
    entries = []
    for dep, res in sorted(
        zip(scan.dependencies, resolutions, strict=True), key=lambda p: p[0].sort_key()
    ):
        entry = dep.to_dict()
        entry["docs"] = res.to_dict()
        entries.append(entry)
    content = {
        "dependencies": entries,
        "publication": _publication(snapshot_info),
        "warnings": [w.to_dict() for w in sorted(scan.warnings)],
    }
    digest = "sha256:" + hashlib.sha256(_canonical(content)).hexdigest()
    return {
        "content": content,
        "docs_lock_version": DOCS_LOCK_VERSION,
        "retrieved_at": retrieved_at,
        "snapshot_hash": digest,
    }


def read_docs_lock(root: Path) -> dict[str, Any] | None:
    """The workspace's docs.lock, or None when it is missing or unreadable."""
    path = Path(root) / DOCS_LOCK
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def write_docs_lock(
    root: Path,
    scan: WorkspaceScan,
    resolutions: Sequence[Resolution],
    snapshot_info: Mapping[str, Any],
) -> Path:
    """Write ``root/docs.lock``; unchanged content keeps the earlier ``retrieved_at`` and bytes.

    ``snapshot_info``: ``publish_id`` and ``sources`` as in published.json, and optionally
    ``retrieved_at`` (an ISO-8601 UTC time; now when absent).
    """
    path = Path(root) / DOCS_LOCK
    doc = docs_lock_document(scan, resolutions, snapshot_info)
    previous = read_docs_lock(root)
    if (
        previous
        and previous.get("snapshot_hash") == doc["snapshot_hash"]
        and previous.get("retrieved_at")
    ):
        doc["retrieved_at"] = previous["retrieved_at"]
    else:
        doc["retrieved_at"] = str(
            snapshot_info.get("retrieved_at")
            or datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
        )
    data = _render(doc)
    try:
        unchanged = path.read_bytes() == data
    except OSError:
        unchanged = False
    if not unchanged:
        atomic_write_bytes(path, data)
    return path
