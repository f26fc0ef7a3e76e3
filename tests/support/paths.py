"""Well-known paths for tests: the repository, its fixtures, and the real-data kit.

- ``KIT_DATA`` (``fixtures/kit``): the small parts of the team's real-data kit that the suite
  reads, copied into the repository with the kit's relative paths and their provenance and
  licences (``fixtures/kit/PROVENANCE.md``). Tests read real data from here, so ``make test``
  passes on a fresh clone with nothing beside it.
- ``SHARED_DATA`` (``<repo>/../shared/data``): the whole kit, beside the checkout on developer
  machines. Only optional large evaluations read it (dev-set scoring, whole doc-set corpora,
  vendor specs), through ``shared_data(rel)``, which skips the test with one line when the kit
  is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

__all__ = ["FIXTURES", "FIXTURE_SITE", "KIT_DATA", "REPO", "SHARED_DATA", "shared_data"]

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
FIXTURE_SITE = FIXTURES / "site"
KIT_DATA = FIXTURES / "kit"
SHARED_DATA = (REPO / ".." / "shared" / "data").resolve()


def shared_data(rel: str) -> Path:
    """``SHARED_DATA / rel`` for an optional large evaluation; skips when the kit is absent."""
    path = SHARED_DATA / rel
    if not path.exists():
        pytest.skip(
            f"optional evaluation: {path} is absent (the full kit sits beside the checkout)"
        )
    return path
