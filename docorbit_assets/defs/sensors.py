"""The one sensor: keeps the ``source`` dynamic partitions in step with docorbit.toml."""

# No `from __future__ import annotations`: Dagster reads these signatures' annotations.

import dagster as dg

from docorbit_assets.defs.partitions import SOURCE_PARTITIONS, partition_requests
from docorbit_assets.defs.resources import DocOrbitResource

__all__ = ["source_partitions"]


@dg.sensor(
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Adds a partition per new docorbit.toml source and deletes removed ones.",
)
def source_partitions(context: dg.SensorEvaluationContext, docorbit: DocOrbitResource):
    names = [s.name for s in docorbit.registry().sources]
    existing = context.instance.get_dynamic_partitions(SOURCE_PARTITIONS.name or "source")
    requests = partition_requests(names, existing)
    if not requests:
        return dg.SkipReason(f"partitions match docorbit.toml ({len(names)} sources)")
    return dg.SensorResult(dynamic_partitions_requests=requests)
