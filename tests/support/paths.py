"""Well-known paths for tests: the repository, its fixtures, and the team's shared real data.

The shared data lives beside the repository (``<repo>/../shared/data``) both on developer
machines and in the CI clone; it is never copied into the repository.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["FIXTURES", "FIXTURE_SITE", "REPO", "SHARED_DATA"]

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
FIXTURE_SITE = FIXTURES / "site"
SHARED_DATA = (REPO / ".." / "shared" / "data").resolve()
