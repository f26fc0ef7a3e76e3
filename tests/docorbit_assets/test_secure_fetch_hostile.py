"""Every hostile route of the kit's server, plus the big cases generated at test time.

The kit's server runs as a subprocess on 127.0.0.1; the fetcher is allowed exactly its port, so
its canary port (same address) must stay unreached: canary hits 0 and the tripwire refused list
empty. Deadlines are small (2.5 s) and routes run concurrently to keep the suite quick.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import pytest

from docorbit_assets.lib.crawl import crawl
from docorbit_assets.lib.secure_fetch import FetchPolicy, FetchResult, SecureFetcher, decode_bounded
from docorbit_serve.errors import DocOrbitError
from docorbit_serve.settings import SourceLimits
from tests.support.net import KIT, hostile_server, serve_routes, tripwire

DEADLINE = 2.5
MiB = 1 << 20

# route -> (outcome code, detail reason or HTTP status). "ok" = fetched; the content checks
# (soft 404, wrong types, binary) belong to discovery/normalize, which get these bytes.
EXPECTED = {
    "/ok.html": ("ok", 200),
    "/llms.txt": ("ok", 200),
    "/soft404/": ("ok", 200),
    "/gzip-bomb": ("too_large", "decoded_bytes"),
    "/gzip-gzip-bomb": ("decoding", "stacked_encoding"),
    "/slowloris": ("timeout", "deadline"),
    "/slow-headers": ("timeout", "deadline"),
    "/redirect-loop-a": ("too_many_redirects", "loop"),
    "/redirect-loop-b": ("too_many_redirects", "loop"),
    "/redirect-chain/": ("too_many_redirects", "max_hops"),
    "/redirect-self": ("too_many_redirects", "loop"),
    "/redirect-to-loopback": ("blocked_url", "loopback"),
    "/redirect-to-localhost": ("blocked_url", "loopback"),
    "/redirect-to-decimal": ("blocked_url", "loopback"),
    "/redirect-to-mapped-v6": ("blocked_url", "ipv6_embedded"),
    "/redirect-to-file": ("blocked_url", "scheme"),
    "/redirect-to-gopher": ("blocked_url", "scheme"),
    "/redirect-userinfo": ("blocked_url", "credentials"),
    "/redirect-no-location": ("bad_redirect", None),
    "/wrong-ct/sitemap.xml": ("ok", 200),
    "/wrong-ct/page.html": ("ok", 200),
    "/wrong-ct/openapi.json": ("ok", 200),
    "/binary-as-html": ("ok", 200),
    "/cl-short": ("protocol_error", None),
    "/cl-long": ("ok", 200),
    "/cl-huge": ("too_large", "content_length"),
    "/cl-conflict": ("protocol_error", None),
    "/chunked-endless": ("too_large", "decoded_bytes"),
    "/chunked-bad": ("protocol_error", None),
    "/header-flood": ("protocol_error", None),
    "/header-huge": ("protocol_error", None),
    "/reset-mid-body": ("network_error", None),
    "/robots.txt": ("too_large", "content_length"),
    "/robots-503/robots.txt": ("ok", 503),
    "/infinite/": ("ok", 200),
    "/many-links.html": ("ok", 200),
    "/kit/": ("ok", 200),
}
TRICKLES = {"/slowloris", "/slow-headers"}
_SUFFIX = {
    "/soft404/": "abc",
    "/redirect-chain/": "0",
    "/infinite/": "0",
    "/kit/": "xml/sitemap_small.xml",
}


@pytest.fixture(scope="module")
def server():
    with hostile_server(seconds=120, bomb_mib=64) as info:
        # The server builds its bombs on first request, blocking its event loop meanwhile;
        # build them now so concurrent routes below are not slowed by that.
        with SecureFetcher(_policy(info, max_retries=0)) as f:
            for path in ("/gzip-bomb", "/gzip-gzip-bomb", "/robots.txt", "/many-links.html"):
                _outcome(f, info["base"] + path)
        yield info


def _policy(server, **kw) -> FetchPolicy:
    opts = {
        "deadline_s": DEADLINE,
        "politeness_s": 0,
        "respect_robots": False,
        "max_retries": 1,
        "backoff_s": 0,
    } | kw
    return FetchPolicy(allow_hosts=(f"127.0.0.1:{server['port']}",), **opts)


def _canary_hits(server) -> int:
    with SecureFetcher(_policy(server)) as f:
        return json.loads(f.get(f"{server['base']}/__canary_hits").body)["canary_hits"]


def _outcome(f: SecureFetcher, url: str) -> tuple[tuple[str, object], object]:
    try:
        res = f.get(url)
    except DocOrbitError as e:
        return (e.code, e.detail.get("reason")), e
    return ("ok", res.status), res


def test_every_route_of_the_kit_is_covered():
    routes = [b["path"] for b in json.loads((KIT / "http" / "behaviours.json").read_text())]
    assert sorted(routes) == sorted(EXPECTED)


def test_every_hostile_route_ends_with_its_typed_outcome_and_no_canary_hit(server):
    urls = {path: server["base"] + path + _SUFFIX.get(path, "") for path in EXPECTED}
    with (
        tripwire({("127.0.0.1", server["port"])}) as wire,
        SecureFetcher(_policy(server)) as short,
        SecureFetcher(_policy(server, deadline_s=20)) as roomy,
        ThreadPoolExecutor(max_workers=8) as pool,
    ):
        # Only the trickles need the deadline to end them; the rest get room on a busy CI box.
        def run(path: str):
            return _outcome(short if path in TRICKLES else roomy, urls[path])

        results = dict(zip(urls, pool.map(run, urls), strict=True))
    got = {path: outcome for path, (outcome, _) in results.items()}
    assert got == EXPECTED
    assert wire.refused() == []
    assert _canary_hits(server) == 0
    # nothing half-read is passed off as complete
    assert results["/cl-long"][1].body == b"0123456789"
    assert results["/reset-mid-body"][1].detail["attempts"] == 2  # retried once, then failed
    assert results["/slowloris"][1].detail["deadline_s"] == DEADLINE


def test_gzip_bomb_is_stopped_with_memory_near_the_cap(server):
    cap = 1 * MiB
    with SecureFetcher(_policy(server, max_bytes=cap)) as f:
        f.get(f"{server['base']}/ok.html")  # warm up imports and the pool outside the trace
        tracemalloc.start()
        try:
            outcome, _ = _outcome(f, f"{server['base']}/gzip-bomb")
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert outcome == ("too_large", "decoded_bytes")
    assert peak < 4 * cap  # the body inflates to 64 MiB; httpx's own decoder hands 64 MiB chunks


def test_oversized_robots_txt_is_parsed_up_to_500_kib_and_noted(server):
    with SecureFetcher(_policy(server, respect_robots=True)) as f:
        info = f.robots(server["base"] + "/")
        blocked = _outcome(f, f"{server['base']}/p0000001/page")[0]
        after = _outcome(f, f"{server['base']}/after-10mib/page")[0]
    assert info.state == "parsed" and info.truncated
    assert blocked == ("robots_disallowed", None)
    assert after == ("ok", 404)  # the rule after 10 MiB was never read


def test_crawl_of_the_infinite_link_space_stops_at_the_page_cap(server):
    limits = SourceLimits(max_pages=12, max_depth=50, concurrency=4)
    with tripwire({("127.0.0.1", server["port"])}) as wire, SecureFetcher(_policy(server)) as f:
        result = crawl(f"{server['base']}/infinite/0", f, limits)
    assert len(result.pages) == 12 and not result.complete
    assert "max_pages" in result.limits_hit
    assert wire.refused() == []


def test_crawl_caps_links_per_page_and_records_it(server):
    limits = SourceLimits(max_pages=3, max_depth=1, max_links_per_page=100)
    with SecureFetcher(_policy(server)) as f:
        result = crawl(f"{server['base']}/many-links.html", f, limits)
    assert "max_links" in result.limits_hit and not result.complete
    assert result.pages[0].links <= 100


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    out = tmp_path_factory.mktemp("big")
    cmd = [sys.executable, str(KIT / "make_badinputs.py"), "--big", str(out), "--scale", "0.05"]
    subprocess.run(cmd, check=True, capture_output=True, timeout=120)
    return out


def test_big_gzip_bombs_from_the_kit_are_refused_when_served(big):
    single = (big / "http" / "gzip_bomb_1gib.gz").read_bytes()
    double = (big / "http" / "gzip_gzip_bomb_1gib.gz").read_bytes()
    sitemap = (big / "xml" / "sitemap_bomb.xml.gz").read_bytes()
    routes = {
        "/single": (200, [("Content-Encoding", "gzip")], single),
        "/double": (200, [("Content-Encoding", "gzip, gzip")], double),
        "/double-as-one": (200, [("Content-Encoding", "gzip")], double),
        "/sitemap.xml": (200, [("Content-Encoding", "gzip")], sitemap),
    }
    with serve_routes(routes) as base:
        port = int(base.rsplit(":", 1)[1])
        policy = FetchPolicy(
            allow_hosts=(f"127.0.0.1:{port}",), politeness_s=0, respect_robots=False
        )
        with SecureFetcher(policy) as f:
            got = {p: _outcome(f, base + p)[0] for p in routes}
            once = f.get(base + "/double-as-one")
    assert got == {
        "/single": ("too_large", "decoded_bytes"),
        "/double": ("decoding", "stacked_encoding"),
        "/double-as-one": ("ok", 200),  # decoded ONCE: the inner gzip stays bytes
        "/sitemap.xml": ("too_large", "decoded_bytes"),
    }
    assert isinstance(once, FetchResult) and once.body[:2] == b"\x1f\x8b"


def test_a_gzipped_sitemap_file_decodes_only_up_to_the_cap(big):
    data = (big / "xml" / "sitemap_bomb.xml.gz").read_bytes()
    out, truncated = decode_bounded(data, "gzip", 10 * MiB)
    assert truncated and len(out) == 10 * MiB
    assert out.startswith(b"<?xml")
