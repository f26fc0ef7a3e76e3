"""Thin Dagster wiring of the pipeline; the logic lives in ``docorbit_assets.lib``.

Modules follow the stages in order: ``discover``, ``fetch``, ``normalize``, ``slice``,
``extract``, ``postings``, ``snapshot``, ``index``, ``publish``; plus ``checks`` (quality gates),
``sensors``, ``partitions``, ``resources`` and ``io_manager``. ``docorbit_assets.definitions``
assembles them into the one ``Definitions`` object.

Graph (per ``source`` partition, then unpartitioned)::

    sources → discovered → fetches → pages → chunks → symbols, endpoints, examples, pitfalls,
    links → postings → snapshots → diffs; snapshots ⇢ search_index → published
"""

from __future__ import annotations

from docorbit_assets.defs.checks import BLOCKING_CHECKS
from docorbit_assets.defs.diffs import diffs
from docorbit_assets.defs.discover import discovered, sources
from docorbit_assets.defs.extract import endpoints, examples, links, pitfalls, symbols
from docorbit_assets.defs.fetch import fetches
from docorbit_assets.defs.index import search_index
from docorbit_assets.defs.normalize import pages
from docorbit_assets.defs.postings import postings
from docorbit_assets.defs.publish import published
from docorbit_assets.defs.sensors import source_partitions
from docorbit_assets.defs.slice import chunks
from docorbit_assets.defs.snapshot import snapshots

__all__ = [
    "ALL_ASSETS",
    "ALL_CHECKS",
    "PER_SOURCE_ASSETS",
    "PUBLISH_ASSETS",
    "SENSORS",
]

PER_SOURCE_ASSETS = [
    sources,
    discovered,
    fetches,
    pages,
    chunks,
    symbols,
    endpoints,
    examples,
    pitfalls,
    links,
    postings,
    snapshots,
    diffs,
]
PUBLISH_ASSETS = [search_index, published]
ALL_ASSETS = PER_SOURCE_ASSETS + PUBLISH_ASSETS
ALL_CHECKS = list(BLOCKING_CHECKS)
SENSORS = [source_partitions]
