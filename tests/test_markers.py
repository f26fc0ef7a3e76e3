"""The quick run's deselection lists (tests/conftest.py) name real things: a renamed test left in
``SLOW_TESTS`` would silently slip back into ``make test-quick``."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import E2E_MODULES, SLOW_TESTS

TESTS = Path(__file__).resolve().parent


def _test_sources() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in TESTS.rglob("test_*.py")}


def test_every_slow_test_name_is_a_test_function():
    defined = set()
    for text in _test_sources().values():
        defined |= set(re.findall(r"^(?:async )?def (test_\w+)\(", text, re.M))
    assert SLOW_TESTS - defined == set(), "renamed or removed: update tests/conftest.py"


def test_every_e2e_module_exists():
    assert E2E_MODULES - set(_test_sources()) == set()
