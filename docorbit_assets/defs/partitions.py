"""Sources as Dagster dynamic partitions: one partition key per ``docorbit.toml`` source name.

``partition_requests(configured, existing)`` is the one diff between the registry and the
instance's partitions; the sensor (``sensors.py``) and ``run_ingest`` both apply it.
"""

from __future__ import annotations

from collections.abc import Iterable

import dagster as dg

__all__ = ["SOURCE_PARTITIONS", "partition_requests", "sync_partitions"]

SOURCE_PARTITIONS = dg.DynamicPartitionsDefinition(name="source")


def partition_requests(
    configured: Iterable[str], existing: Iterable[str]
) -> list[dg.AddDynamicPartitionsRequest | dg.DeleteDynamicPartitionsRequest]:
    """Requests that make the partitions equal to ``configured`` (adds first; sorted keys)."""
    configured, existing = set(configured), set(existing)
    requests: list[dg.AddDynamicPartitionsRequest | dg.DeleteDynamicPartitionsRequest] = []
    if configured - existing:
        requests.append(SOURCE_PARTITIONS.build_add_request(sorted(configured - existing)))
    if existing - configured:
        requests.append(SOURCE_PARTITIONS.build_delete_request(sorted(existing - configured)))
    return requests


def sync_partitions(
    instance: dg.DagsterInstance, configured: Iterable[str]
) -> dict[str, list[str]]:
    """Apply ``partition_requests`` to ``instance`` directly; returns the keys added and deleted."""
    name = SOURCE_PARTITIONS.name
    assert name is not None
    done: dict[str, list[str]] = {"added": [], "deleted": []}
    for req in partition_requests(configured, instance.get_dynamic_partitions(name)):
        if isinstance(req, dg.AddDynamicPartitionsRequest):
            instance.add_dynamic_partitions(name, list(req.partition_keys))
            done["added"] = list(req.partition_keys)
        else:
            for key in req.partition_keys:
                instance.delete_dynamic_partition(name, key)
            done["deleted"] = list(req.partition_keys)
    return done
