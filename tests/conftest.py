"""Repository-wide pytest options.

``--update-goldens`` (or the environment variable ``DOCORBIT_UPDATE_GOLDENS=1``) makes golden
tests rewrite their expected files (``fixtures/golden/**``) from the current output instead of
comparing; review the diff afterwards. Registered here, at the root, so it works whichever test
folder or file pytest is pointed at (``pytest --update-goldens tests/docorbit_assets/test_slice.py``).
"""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite golden files (fixtures/golden/**) from the current output",
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    """True when golden files are to be rewritten instead of compared."""
    flag = bool(request.config.getoption("--update-goldens", default=False))
    return flag or os.environ.get("DOCORBIT_UPDATE_GOLDENS") == "1"
