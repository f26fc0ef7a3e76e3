"""The one ``Definitions`` object of DocOrbit (``workspace.yaml`` loads it).

Nothing is resolved at import: the ``docorbit`` resource finds the home when a run or sensor tick
needs it (``DOCORBIT_HOME``, ``DOCORBIT_PROJECT`` or the working directory's project; see
``defs/resources.py``). Demo (from the repository root; ``DAGSTER_HOME`` must exist, and is the
instance ``docorbit ingest`` records its runs in, so they show up in the UI)::

    mkdir -p /path/to/project/.docorbit/dagster
    DOCORBIT_PROJECT=/path/to/project DAGSTER_HOME=/path/to/project/.docorbit/dagster \\
        .venv/bin/dagster dev -w workspace.yaml -h 127.0.0.1 -p 3000

The ``source_partitions`` sensor (running by default) adds a partition per source within ~30 s;
materialize a source's partition, then ``search_index`` and ``published``.
"""

from __future__ import annotations

import dagster as dg

from docorbit_assets.defs import ALL_ASSETS, ALL_CHECKS, SENSORS
from docorbit_assets.defs.resources import build_resources

__all__ = ["defs"]

defs = dg.Definitions(
    assets=ALL_ASSETS,
    asset_checks=ALL_CHECKS,
    sensors=SENSORS,
    resources=build_resources(),
)
