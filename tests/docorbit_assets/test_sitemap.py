"""Sitemaps: lxml without entities/DTD/network, typed errors, bounded index walking."""

from __future__ import annotations

from docorbit_assets.lib.sitemap import collect, parse_sitemap
from docorbit_serve.errors import FetchError
from tests.support.paths import KIT_DATA

XML = KIT_DATA / "badinputs" / "xml"
SITE = KIT_DATA / "site" / "httpx"


def test_hostile_xml_ends_in_typed_errors_never_an_empty_sitemap():
    verdicts = {
        name: parse_sitemap((XML / name).read_bytes()).error
        for name in (
            "billion_laughs.xml",
            "quadratic_blowup.xml",
            "deep_nesting_300.xml",
            "sitemap_invalid_utf8.xml",
            "sitemap_is_html.xml",
            "sitemap_wrong_root.xml",
        )
    }
    assert verdicts == {
        "billion_laughs.xml": "xml_error",
        "quadratic_blowup.xml": "xml_error",
        "deep_nesting_300.xml": "xml_error",
        "sitemap_invalid_utf8.xml": "xml_error",
        "sitemap_is_html.xml": "xml_error",
        "sitemap_wrong_root.xml": "not_a_sitemap",
    }


def test_xxe_entities_are_never_expanded():
    for name in ("xxe_file.xml", "xxe_network.xml", "xxe_external_dtd.xml"):
        got = parse_sitemap((XML / name).read_bytes())
        assert "root:" not in " ".join(got.locs)


def test_the_built_httpx_sitemap_and_its_gzip_twin_list_the_same_23_pages():
    plain = parse_sitemap((SITE / "sitemap.xml").read_bytes())
    gz = parse_sitemap((SITE / "sitemap.xml.gz").read_bytes())
    assert plain.kind == "urlset" and len(plain.locs) == 23 and plain.locs == gz.locs


def _kit_get(url: str) -> bytes:
    name = url.rsplit("/", 1)[1]
    path = XML / name
    if not path.exists():
        raise FetchError("missing", code="http_status")
    return path.read_bytes().replace(b"{base}", b"https://docs.example.test")


def _check(url: str) -> str | None:
    if not url.startswith(("http://", "https://")):
        return "scheme"
    if "@" in url.split("/")[2]:
        return "credentials"
    host = url.split("/")[2].rsplit(":", 1)[0]
    return "loopback" if host in ("127.0.0.1", "[::1]", "2130706433") else None


def _scope(url: str) -> bool:
    return url.startswith("https://docs.example.test/")


def test_bad_locs_are_checked_by_the_policy_and_counted_by_reason():
    got = collect(
        "https://docs.example.test/kit/xml/sitemap_bad_locs.xml", _kit_get, _check, scope=_scope
    )
    assert got.pages == [
        "https://docs.example.test/padded",
        "https://docs.example.test/dup",
        "https://docs.example.test/frag",
    ]
    assert got.skipped == {
        "scheme": 4,
        "loopback": 3,
        "relative": 1,
        "out_of_scope": 1,
        "credentials": 1,
        "too_long": 1,
        "duplicate": 1,
    }


def test_index_loops_terminate_and_still_collect_the_pages():
    got = collect(
        "https://docs.example.test/kit/xml/sitemap_index_loop_a.xml", _kit_get, _check, scope=_scope
    )
    assert len(got.pages) == 3 and got.loops
    self_loop = collect(
        "https://docs.example.test/kit/xml/sitemap_index_self_loop.xml",
        _kit_get,
        _check,
        scope=_scope,
    )
    assert self_loop.sitemaps == ["https://docs.example.test/kit/xml/sitemap_index_self_loop.xml"]
    assert self_loop.loops
