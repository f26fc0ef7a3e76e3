"""Index stage: ``search_index`` plans the publication and builds its index file to the side.

When the plan's ``publish_id`` is the one being served (nothing changed: same snapshots), the
served manifest and its index file are reused as they are (no rebuild; publish is a no-op).

With ``[settings] hybrid = true`` it also writes the publication's vectors file
(``lib/vectors.py``) and names it in the manifest's ``vectors`` entry; publish swaps both in
with ``published.json``.
"""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import time

import dagster as dg

from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.defs.snapshot import snapshots
from docorbit_assets.lib import index as lib_index
from docorbit_assets.lib import publish as lib_publish
from docorbit_assets.lib import vectors as lib_vectors
from docorbit_serve.errors import IngestError
from docorbit_serve.search.rerank import serves
from docorbit_serve.search.scoring import INDEX_FORMAT

__all__ = ["search_index"]


@dg.asset(group_name="index", kinds={"duckdb"}, deps=[snapshots])
def search_index(docorbit: DocOrbitResource) -> dg.Output[dict]:
    """The candidate manifest, with its index file complete under index/ (not yet published)."""
    home = docorbit.resolve()
    registry = docorbit.registry()
    manifest = lib_publish.plan_publication(home, registry)
    if not manifest["sources"]:
        raise IngestError("nothing to index: no configured source has a snapshot; run an ingest")
    current = lib_publish.current_manifest(home) or {}
    stage = registry.dense_stage if registry.hybrid else None
    if _reusable(home, current, manifest["publish_id"], stage):
        # Same snapshots as the publication being served: its index is complete and checked.
        return dg.Output(
            dict(current),
            metadata={
                "publish_id": current["publish_id"],
                "reused": True,
                "sources": len(manifest["sources"]),
            },
        )
    path = lib_index.build_index(home, manifest)
    manifest["index"] = path.relative_to(home.path).as_posix()
    metadata: dict = {
        "publish_id": manifest["publish_id"],
        "index_bytes": path.stat().st_size,
        "sources": len(manifest["sources"]),
        "hybrid": registry.hybrid,
    }
    if registry.hybrid:
        t0 = time.perf_counter()
        manifest["vectors"] = lib_vectors.build_vectors(
            home, manifest, path, progress=lib_vectors.stderr_progress, stage=stage or "rrf"
        )
        metadata["vector_rows"] = manifest["vectors"]["rows"]
        metadata["vectors_seconds"] = round(time.perf_counter() - t0, 2)
    return dg.Output(manifest, metadata=metadata)


def _reusable(home, current: dict, publish_id: str, stage: str | None) -> bool:
    """``stage``: the wanted dense stage, ``None`` without vectors (not hybrid)."""
    if current.get("publish_id") != publish_id or not current.get("index"):
        return False
    if not serves(current, stage):
        return False  # another dense stage, or vectors of another model: rebuilt
    path = home.path / current["index"]
    # An index of an older format (what search_docs stores) is rebuilt from the same snapshots.
    return path.is_file() and lib_index.index_format(path) == INDEX_FORMAT
