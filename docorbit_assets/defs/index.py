"""Index stage: ``search_index`` plans the publication and builds its index file to the side."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg

from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.defs.snapshot import snapshots
from docorbit_assets.lib import index as lib_index
from docorbit_assets.lib import publish as lib_publish
from docorbit_serve.errors import IngestError

__all__ = ["search_index"]


@dg.asset(group_name="index", kinds={"duckdb"}, deps=[snapshots])
def search_index(docorbit: DocOrbitResource) -> dg.Output[dict]:
    """The candidate manifest, with its index file complete under index/ (not yet published)."""
    home = docorbit.resolve()
    manifest = lib_publish.plan_publication(home, docorbit.registry())
    if not manifest["sources"]:
        raise IngestError("nothing to index: no configured source has a snapshot; run an ingest")
    path = lib_index.build_index(home, manifest)
    manifest["index"] = path.relative_to(home.path).as_posix()
    return dg.Output(
        manifest,
        metadata={
            "publish_id": manifest["publish_id"],
            "index_bytes": path.stat().st_size,
            "sources": len(manifest["sources"]),
        },
    )
