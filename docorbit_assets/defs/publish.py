"""Publish stage: ``published`` swaps published.json to the candidate ``search_index`` built."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg

from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib import publish as lib_publish

__all__ = ["published"]


@dg.asset(group_name="publish", kinds={"json"})
def published(docorbit: DocOrbitResource, search_index: dict) -> dg.MaterializeResult:
    """published.json: which snapshot of each source and which index file are served."""
    manifest = lib_publish.publish(docorbit.resolve(), search_index)
    return dg.MaterializeResult(
        metadata={
            "publish_id": manifest["publish_id"],
            "index": manifest["index"],
            "snapshots": ", ".join(f"{k}={v['snapshot']}" for k, v in manifest["sources"].items()),
        }
    )
