"""The ``docorbit`` command line (DESIGN.md §5): an API for agents and people.

Contract:
- ``main(argv=None) -> int`` runs one command and returns its exit code (console scripts
  ``docorbit`` and ``docorbit-serve``, and ``python -m docorbit_serve``).
- Global options go before the command: ``--home DIR``, ``-g/--global``, ``-p/--project DIR``
  (resolved by ``docorbit_serve.home.resolve_home``). ``--json`` is accepted before or after the
  command name.
- stdout carries data only: one JSON document with ``--json`` (JSON Lines for ``search
  --batch``), else concise Markdown/plain text. Diagnostics and progress go to stderr.
- Every ``DocOrbitError`` is caught here: with ``--json`` it is printed on stdout as
  ``{"error": {"code", "message", "detail"}}``, else as one line on stderr; the process exits
  with the error's ``exit_code`` (``EXIT_CODES``). Click usage errors become ``usage`` (2).
- Only ``ingest`` touches the pipeline: it imports ``docorbit_assets.ingest`` inside the command,
  so every other command (and ``docorbit mcp``) runs without loading Dagster. Commands that read
  the index import the catalog and search modules inside the command too, which keeps
  ``init``/``add``/``list`` fast.
"""

from docorbit_serve.cli import api, change, evaluate, export, ops, reading, sources, versions, web  # noqa: F401 - attach the commands
from docorbit_serve.cli._common import EXIT_CODES, cli, main

__all__ = ["EXIT_CODES", "cli", "main"]
