"""Plan and swap publications: which snapshot of each source is served (ARCHITECTURE.md).

``plan_publication(home, registry) -> dict`` returns the candidate manifest (the
``published.json`` format): every configured source that has a complete frozen snapshot, the
latest one per source. The latest snapshot of a source is the 1-row ``snapshots`` table that
the ``snapshots`` asset last staged at ``staging/snapshots/source=<s>/part-0.parquet`` (the
pointer moves only when a source's run got through its blocking checks and ``freeze``); when
that pointer is missing or names an incomplete snapshot, the source keeps the snapshot the
current publication serves, if any. Sources no longer in ``docorbit.toml`` drop out.

``publish_id`` = ``"u_"`` + 20 hex digits of SHA-256 over the schema version and the sorted
(source, snapshot) pairs, so an unchanged corpus plans the same id; the plan then reuses the
current ``created_at`` and ``publish`` leaves ``published.json`` byte-identical.

``publish(home, manifest, index_path=None)`` checks the manifest against the one model
(``docorbit_serve.manifest.check_manifest``: ``IngestError`` when it fails) and that the index
file (and the vectors file a hybrid manifest names) exists, then replaces ``published.json`` in
one ``os.replace`` (``home.atomic_write_json``): readers see the old publication or the new
one, never a mix. Call it only after the index is complete.

``superseded(candidate, current, latest) -> [source]``: the sources a candidate planned earlier
would roll back — set to a snapshot that is neither the one served now nor the latest. Two
publish runs can overlap (the daemon runs one per finished ``refresh_all``, in parallel): the
one planned first may finish last, and swapping it then would serve an older snapshot than the
publication already out. The ``published`` asset re-plans just before the swap and leaves
``published.json`` alone when this is non-empty (the run that moved the snapshot on publishes
it, or already did).

No garbage collection: old snapshot folders and old index files stay on disk (a reader may still
hold the previous index open, and snapshots are the history ``diff`` works on). Deleting them is
a separate, explicit maintenance step.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from docorbit_serve.catalog import vectors_file
from docorbit_serve.errors import IngestError
from docorbit_serve.home import Home, atomic_write_json
from docorbit_serve.manifest import BadManifest, check_manifest, published_manifest
from docorbit_serve.registry import Registry
from docorbit_serve.schemas import SCHEMA_VERSION, canonical_json

__all__ = [
    "current_manifest",
    "latest_snapshot",
    "plan_publication",
    "publish",
    "publish_id",
    "superseded",
]

_PART = "part-0.parquet"


def current_manifest(home: Home) -> dict[str, Any] | None:
    """The manifest in ``published.json`` (checked by ``manifest.read_manifest``), or ``None``
    when nothing readable and valid is published."""
    return published_manifest(home.published_path) or None


def _complete(home: Home, source: str, snapshot: str) -> bool:
    return (home.table_dir("snapshots", source, snapshot) / _PART).is_file()


def latest_snapshot(home: Home, source: str) -> dict[str, Any] | None:
    """The snapshots row the pipeline last staged for ``source``, if it names a complete snapshot."""
    path = home.staging_file("snapshots", source)
    try:
        rows = pq.read_table(path).to_pylist()
    except (FileNotFoundError, pa.ArrowException, OSError):
        return None
    if len(rows) != 1 or not _complete(home, source, str(rows[0].get("id") or "")):
        return None
    return rows[0]


def _frozen_row(home: Home, source: str, snapshot: str) -> dict[str, Any] | None:
    if not _complete(home, source, snapshot):
        return None
    rows = pq.read_table(home.table_dir("snapshots", source, snapshot) / _PART).to_pylist()
    return rows[0] if rows else None


def publish_id(pairs: dict[str, str]) -> str:
    """``u_`` + hash of the sorted (source, snapshot) pairs and the schema version."""
    body = canonical_json({"schema_version": SCHEMA_VERSION, "sources": sorted(pairs.items())})
    return "u_" + hashlib.sha256(body.encode("utf-8")).hexdigest()[:20]


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def plan_publication(home: Home, registry: Registry) -> dict[str, Any]:
    """The candidate manifest (see module docstring); ``sources`` may be empty."""
    current = current_manifest(home) or {}
    served = current.get("sources") or {}
    sources: dict[str, dict[str, Any]] = {}
    for cfg in sorted(registry.sources, key=lambda s: s.name):
        row = latest_snapshot(home, cfg.name)
        if row is None and cfg.name in served:
            row = _frozen_row(home, cfg.name, str(served[cfg.name].get("snapshot") or ""))
        if row is None:
            continue
        sources[cfg.name] = {
            "snapshot": row["id"],
            "library": row["library"],
            "version": row["version"],
            "kind": row["kind"],
            "location": row["location"],
            "created_at": row["created_at"],
        }
    pid = publish_id({name: s["snapshot"] for name, s in sources.items()})
    created = current.get("created_at") if current.get("publish_id") == pid else None
    return {
        "publish_id": pid,
        "created_at": created or _now(),
        "schema_version": SCHEMA_VERSION,
        "index": f"index/{pid}.duckdb",
        "sources": sources,
    }


def publish(home: Home, manifest: dict[str, Any], index_path: Path | None = None) -> dict[str, Any]:
    """Make ``manifest`` the publication (atomic swap of ``published.json``); returns it."""
    if not manifest.get("sources"):
        raise IngestError("nothing to publish: no configured source has a snapshot yet")
    manifest = dict(manifest)
    index = Path(index_path) if index_path is not None else home.path / manifest["index"]
    if not index.is_file():
        raise IngestError(
            f"refusing to publish {manifest['publish_id']}: index {index} does not exist",
            detail={"publish_id": manifest["publish_id"], "index": str(index)},
        )
    try:
        manifest["index"] = index.resolve().relative_to(home.path.resolve()).as_posix()
    except ValueError as e:
        raise IngestError(f"index {index} is not under home {home.path}") from e
    vectors = manifest.get("vectors")
    if vectors and not vectors_file(vectors, index.parent).is_file():
        raise IngestError(
            f"refusing to publish {manifest['publish_id']}: its vectors file "
            f"{vectors.get('path')!r} does not exist beside the index",
            detail={"publish_id": manifest["publish_id"], "vectors": vectors},
        )
    try:
        check_manifest(manifest)  # one model for what is written and what is read
    except BadManifest as e:
        raise IngestError(
            f"refusing to publish: {e}", detail={"publish_id": manifest.get("publish_id")}
        ) from e
    if current_manifest(home) != manifest:  # unchanged: keep the file (and its bytes) as it is
        atomic_write_json(home.published_path, manifest)
    return manifest


def superseded(
    candidate: dict[str, Any], current: dict[str, Any] | None, latest: dict[str, Any]
) -> list[str]:
    """Sources ``candidate`` would set to a snapshot neither served (``current``) nor latest
    (``latest``, a plan made now): swapping it would roll them back (module docstring)."""

    def snaps(manifest: dict[str, Any] | None) -> dict[str, str]:
        return {k: str(v["snapshot"]) for k, v in ((manifest or {}).get("sources") or {}).items()}

    served, now = snaps(current), snaps(latest)
    return sorted(
        name
        for name, snap in snaps(candidate).items()
        if snap not in (served.get(name), now.get(name))
    )
