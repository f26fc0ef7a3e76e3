"""Identifier resolution: installed metadata first, then registries (a loopback stand-in)."""

from __future__ import annotations

import json

from docorbit_assets.lib.identify import resolve_identifier
from docorbit_assets.lib.secure_fetch import fetcher_for
from tests.support.http import FAST_LIMITS, Route, allowance, serve_routes


def _getter(base: str):
    fetcher = fetcher_for(FAST_LIMITS, (allowance(base),))

    def get(url: str) -> bytes:
        return fetcher.get(url, robots=False).raise_for_status().body

    return get


def _pypi(docs: str) -> Route:
    info = {"info": {"project_urls": {"Documentation": docs, "Source": "https://github.com/o/r"}}}
    return Route(body=json.dumps(info).encode(), content_type="application/json")


def test_installed_metadata_answers_offline_before_any_registry():
    calls: list[str] = []
    res = resolve_identifier("httpx", get=lambda url: calls.append(url) or b"{}")
    assert res.chosen is not None and res.chosen.url == "https://www.python-httpx.org"
    assert (res.chosen.origin, res.chosen.kind, res.ambiguous) == ("installed", "docs", False)
    assert calls == []  # offline: the installed Project-URL was enough


def test_registry_metadata_is_used_through_the_secure_fetcher_with_alternatives():
    routes = {"/pypi/zzdemo/json": _pypi("https://zzdemo.example.org/docs/")}
    with serve_routes(routes) as base:
        res = resolve_identifier("zzdemo", get=_getter(base), pypi_url=base, npm_url=base + "npm")
    assert res.chosen is not None and res.chosen.url == "https://zzdemo.example.org/docs/"
    assert res.chosen.origin == "pypi" and res.chosen.confidence == 0.9
    assert [a.kind for a in res.alternatives] == ["docs", "github"]
    assert res.errors == {"npm": "http_status"}  # no such npm package: recorded, not raised


def test_the_same_name_in_two_ecosystems_is_reported_as_ambiguous_not_picked():
    npm = Route(
        body=b'{"homepage": "https://zzdemo-js.example.org/"}', content_type="application/json"
    )
    routes = {"/pypi/zzdemo/json": _pypi("https://zzdemo.example.org/docs/"), "/npm/zzdemo": npm}
    with serve_routes(routes) as base:
        res = resolve_identifier("zzdemo", get=_getter(base), pypi_url=base, npm_url=base + "npm")
    assert res.ambiguous and res.chosen is None
    assert {a.url for a in res.alternatives} >= {
        "https://zzdemo.example.org/docs/",
        "https://zzdemo-js.example.org/",
    }
    assert "pypi" in res.reason and "npm" in res.reason


def test_an_unreachable_registry_is_an_error_entry_and_nothing_is_chosen():
    with serve_routes({}) as base:
        pass  # the port is closed now
    res = resolve_identifier("zzdemo", get=_getter(base), pypi_url=base, npm_url=base)
    assert res.chosen is None and not res.ambiguous
    assert res.errors == {"npm": "connect_error", "pypi": "connect_error"}
