"""The ``release_watch`` sensor: new releases of tracked libraries become new version snapshots.

Every 6 hours (and on demand from the UI) it checks each source with ``track`` in
``docorbit.toml`` (``lib/releases.py``: PyPI, npm, GitHub releases/tags, or a tracked
document's hash / sitemap lastmod, all through the secure fetcher):

- a new version → a new source entry ``<library>-<version>`` written to ``docorbit.toml``, its
  partition added, and a ``refresh_all`` run of it requested (a source without a snapshot is
  discovered and ingested in full); ``publish_after_ingest`` then publishes it beside the old
  version, whose snapshots stay published;
- a changed tracked document → a ``refresh_all`` run of that source;
- otherwise a skip with the reason per source.

The cursor (JSON ``{source: last token}``) makes each change trigger once; a feed error is
reported in the skip reason and retried at the next tick.
"""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import json

import dagster as dg

from docorbit_assets.defs.jobs import MODE_TAG, REFRESH_ALL
from docorbit_assets.defs.partitions import SOURCE_PARTITIONS
from docorbit_assets.defs.resources import DocOrbitResource
from docorbit_assets.lib.releases import apply_release, check_release

__all__ = ["release_watch"]

RELEASE_TAG = "docorbit/release"


@dg.sensor(
    name="release_watch",
    job=REFRESH_ALL,
    minimum_interval_seconds=6 * 3600,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="New releases of tracked libraries (track = pypi:/npm:/github:/url:) become new "
    "version sources, ingested beside the old ones; changed tracked documents are refreshed.",
)
def release_watch(context: dg.SensorEvaluationContext, docorbit: DocOrbitResource):
    registry = docorbit.registry()
    cursor: dict[str, str] = json.loads(context.cursor or "{}")
    runs: list[dg.RunRequest] = []
    added: list[str] = []
    notes: list[str] = []
    for cfg in [s for s in registry.sources if s.track]:
        action = check_release(registry, cfg, cursor.get(cfg.name))
        cursor[cfg.name] = action.token
        notes.append(f"{cfg.name}: {action.reason}")
        if action.kind == "new_version":
            new = apply_release(registry, action)
            cursor[new.name] = action.token
            added.append(new.name)
            tags = {MODE_TAG: "ingest", RELEASE_TAG: action.token}
            runs.append(
                dg.RunRequest(run_key=f"release-{new.name}", partition_key=new.name, tags=tags)
            )
        elif action.kind == "refresh":
            key = f"refresh-{cfg.name}-{action.token}"
            runs.append(dg.RunRequest(run_key=key, partition_key=cfg.name))
    if not runs:
        return dg.SensorResult(
            skip_reason="; ".join(notes) or "no source has track set", cursor=json.dumps(cursor)
        )
    requests = [SOURCE_PARTITIONS.build_add_request(added)] if added else []
    return dg.SensorResult(
        run_requests=runs, cursor=json.dumps(cursor), dynamic_partitions_requests=requests
    )
