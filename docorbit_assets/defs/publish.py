"""Publish stage: ``published`` swaps published.json to the candidate ``search_index`` built."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg

from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib import publish as lib_publish

__all__ = ["published"]


@dg.asset(group_name="publish", kinds={"json"})
def published(
    context: dg.AssetExecutionContext, docorbit: DocOrbitResource, search_index: dict
) -> dg.MaterializeResult:
    """published.json: which snapshot of each source and which index file are served."""
    home = docorbit.resolve()
    current = lib_publish.current_manifest(home)
    latest = lib_publish.plan_publication(home, docorbit.registry())
    behind = lib_publish.superseded(search_index, current, latest)
    if behind and current:  # an overlapping publish run served newer snapshots meanwhile
        context.log.warning(
            f"not publishing {search_index['publish_id']}: planned before newer snapshots of "
            f"{', '.join(behind)} (served: {current['publish_id']})"
        )
        return dg.MaterializeResult(
            metadata={
                "publish_id": current["publish_id"],
                "superseded": search_index["publish_id"],
                "rolled_back_sources": ", ".join(behind),
            }
        )
    manifest = lib_publish.publish(home, search_index)
    return dg.MaterializeResult(
        metadata={
            "publish_id": manifest["publish_id"],
            "index": manifest["index"],
            "snapshots": ", ".join(f"{k}={v['snapshot']}" for k, v in manifest["sources"].items()),
        }
    )
