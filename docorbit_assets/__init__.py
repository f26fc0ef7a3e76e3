"""DocOrbit's pipeline: plain stage functions in ``lib/``, thin Dagster wiring in ``defs/``,
the one ``Definitions`` in ``definitions.py`` and ``ingest.run_ingest``, the hand-over point the
CLI and MCP server call. Importing this package does not import Dagster; its submodules may.
"""
