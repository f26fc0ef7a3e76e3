"""Change intelligence (issue 15): what changed between two snapshots or versions
(``diff``), which API calls code makes (``docorbit_serve.codecalls``), whether they match the
served contract (``docorbit_serve.verify``) and which workspace lines a change touches
(``docorbit_serve.impact``). See docs/changes.md.
"""

from docorbit_serve.changes.diff import KINDS, diff, diff_tables

__all__ = ["KINDS", "diff", "diff_tables"]
