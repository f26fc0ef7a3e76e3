"""Version schemes are types registered per ecosystem, not if-chains over names (issue 12)."""

from __future__ import annotations

import importlib

import pytest

from docorbit_serve.workspace import ecosystems
from docorbit_serve.workspace.ranges import SCHEMES, InvalidSpec, exact_pin, satisfies, scheme

ECOSYSTEMS = ("cargo", "composer", "go", "maven", "npm", "pub", "pypi", "rubygems")


def test_every_ecosystem_reader_names_its_registered_scheme():
    assert len(ecosystems.READERS) == len(ECOSYSTEMS)
    for name in ECOSYSTEMS:
        module = importlib.import_module(f"docorbit_serve.workspace.ecosystems.{name}")
        assert module.SCHEME is SCHEMES[name] and module.SCHEME.name == name
    assert set(SCHEMES) == set(ECOSYSTEMS)


@pytest.mark.parametrize(
    ("eco", "version", "spec", "pin"),
    [
        ("pypi", "1.4.2", "==1.4.2", "1.4.2"),
        ("npm", "2.1.0", "2.1.0", "2.1.0"),
        ("cargo", "0.5.1", "=0.5.1", "0.5.1"),
        ("go", "v1.3.0", "v1.3.0", "v1.3.0"),
        ("maven", "3.2", "[3.2]", "3.2"),
        ("rubygems", "7.0.1", "= 7.0.1", "7.0.1"),
    ],
)
def test_a_pin_allows_its_version_and_only_it(eco, version, spec, pin):
    s = scheme(eco)
    assert exact_pin(eco, spec) == pin
    assert satisfies(eco, version, spec) and s.satisfies(version, spec)
    assert s.compare(version, version) == 0


def test_an_unknown_ecosystem_is_a_typed_error():
    with pytest.raises(InvalidSpec, match="unknown ecosystem 'hex'"):
        satisfies("hex", "1.0.0", "~> 1.0")
    assert exact_pin("hex", "1.0.0") is None
