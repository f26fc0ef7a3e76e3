"""SecureFetcher behaviours against small loopback servers (127.0.0.1, exact-port allowances)."""

from __future__ import annotations

import gzip
import socket
import threading
import zlib

import pytest

from docorbit_assets.lib.secure_fetch import FetchPolicy, SecureFetcher, decode_bounded
from docorbit_serve.errors import BlockedURL, FetchError
from tests.support.net import fake_dns, serve_routes, tripwire

HTML = [("Content-Type", "text/html; charset=utf-8")]


class FakeTime:
    """Clock + sleep for politeness and backoff: sleeping advances the clock, nothing waits."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 3))
        self.now += seconds


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def _fetcher(base: str, t: FakeTime | None = None, **kw) -> SecureFetcher:
    opts = {"politeness_s": 0, "respect_robots": False, "deadline_s": 5, "backoff_s": 0} | kw
    policy = FetchPolicy(allow_hosts=(f"127.0.0.1:{_port(base)}",), **opts)
    t = t or FakeTime()
    return SecureFetcher(policy, sleep=t.sleep, clock=t.clock)


def test_fetch_connects_to_the_checked_address_and_keeps_the_host_header():
    seen = {}

    def echo(h):
        seen["host"] = h.headers["Host"]
        return 200, HTML, b"<p>hi</p>"

    with serve_routes({"/page": echo}) as base:
        port = _port(base)
        policy = FetchPolicy(
            allow_hosts=(f"docs.test:{port}",), politeness_s=0, respect_robots=False
        )
        with (
            fake_dns({"docs.test": ["127.0.0.1"]}) as dns,
            tripwire({("127.0.0.1", port)}) as wire,
            SecureFetcher(policy) as f,
        ):
            res = f.get(f"http://docs.test:{port}/page")
    assert (res.status, res.body, res.address) == (200, b"<p>hi</p>", "127.0.0.1")
    assert seen["host"] == f"docs.test:{port}"
    assert dns.calls == {"docs.test": 1}
    assert wire.attempts == [("127.0.0.1", port)]


def test_fetch_refuses_redirect_to_another_port_of_the_same_address():
    with (
        serve_routes({}) as other,
        serve_routes({"/go": (302, [("Location", f"{other}/stolen")], b"")}) as base,
        tripwire({("127.0.0.1", _port(base))}) as wire,
        _fetcher(base) as f,
        pytest.raises(BlockedURL) as e,
    ):
        f.get(f"{base}/go")
    assert e.value.detail["reason"] == "loopback" and e.value.detail["hop"] == 1
    assert wire.refused() == []


def test_redirects_are_followed_by_hand_and_recorded():
    routes = {
        "/a": (301, [("Location", "/b")], b""),
        "/b": (308, [("Location", "c")], b""),
        "/c": (200, HTML, b"done"),
    }
    with serve_routes(routes) as base, _fetcher(base) as f:
        res = f.get(f"{base}/a")
    assert res.body == b"done" and res.final_url == f"{base}/c"
    assert [(h.status, h.location) for h in res.hops] == [(301, "/b"), (308, "c")]


def test_conditional_get_turns_304_into_not_modified():
    seen = {}

    def cond(h):
        seen.update(inm=h.headers.get("If-None-Match"), ims=h.headers.get("If-Modified-Since"))
        return 304, [("ETag", '"v1"')], b""

    with serve_routes({"/doc": cond}) as base, _fetcher(base) as f:
        res = f.get(f"{base}/doc", etag='"v1"', last_modified="Wed, 01 Jan 2025 00:00:00 GMT")
    assert res.not_modified and res.status == 304 and res.body == b"" and res.ok
    assert seen == {"inm": '"v1"', "ims": "Wed, 01 Jan 2025 00:00:00 GMT"}


def test_retries_503_honouring_retry_after_then_succeeds():
    calls = []

    def flaky(h):
        calls.append(1)
        if len(calls) < 3:
            return 503, [("Retry-After", "7")], b"busy"
        return 200, HTML, b"ok"

    t = FakeTime()
    with serve_routes({"/x": flaky}) as base, _fetcher(base, t, max_retries=2) as f:
        res = f.get(f"{base}/x")
    assert (res.status, res.attempts, t.sleeps) == (200, 3, [7.0, 7.0])


def test_retry_after_beyond_the_cap_is_not_waited_for():
    t = FakeTime()
    routes = {"/x": (429, [("Retry-After", "3600")], b"slow down")}
    with serve_routes(routes) as base, _fetcher(base, t, max_retry_after_s=30) as f:
        res = f.get(f"{base}/x")
    assert (res.status, res.error, res.attempts, t.sleeps) == (429, "http_status", 1, [])
    with pytest.raises(FetchError) as e:
        res.raise_for_status()
    assert e.value.code == "http_status"


def test_client_errors_are_not_retried():
    calls = []

    def gone(h):
        calls.append(1)
        return 404, HTML, b"no"

    with serve_routes({"/x": gone}) as base, _fetcher(base, max_retries=3) as f:
        res = f.get(f"{base}/x")
    assert (res.status, res.error, len(calls)) == (404, "http_status", 1)


def test_robots_disallow_is_respected_and_crawl_delay_slows_requests():
    robots = b"User-agent: *\nDisallow: /private/\nCrawl-delay: 4\nSitemap: /sitemap.xml\n"
    routes = {
        "/robots.txt": (200, [("Content-Type", "text/plain")], robots),
        "/private/x": (200, HTML, b"secret"),
        "/public": (200, HTML, b"open"),
    }
    t = FakeTime()
    with serve_routes(routes) as base, _fetcher(base, t, respect_robots=True) as f:
        with pytest.raises(FetchError) as e:
            f.get(f"{base}/private/x")
        assert f.get(f"{base}/public").body == b"open"
        assert f.get(f"{base}/public").body == b"open"
        info = f.robots(f"{base}/")
    assert e.value.code == "robots_disallowed"
    assert info.state == "parsed" and info.crawl_delay == 4.0
    assert info.sitemaps == ("/sitemap.xml",)
    assert 4.0 in t.sleeps


@pytest.mark.parametrize(
    "status, allowed",
    [(404, True), (410, True), (503, False), (500, False)],
)
def test_robots_status_rules_follow_rfc9309(status, allowed):
    routes = {"/robots.txt": (status, [], b""), "/page": (200, HTML, b"x")}
    with serve_routes(routes) as base, _fetcher(base, respect_robots=True, max_retries=0) as f:
        if allowed:
            assert f.get(f"{base}/page").body == b"x"
        else:
            with pytest.raises(FetchError) as e:
                f.get(f"{base}/page")
            # disallow-all (RFC 9309 §2.3.1.4), reported as what it is: an unavailable robots.txt
            assert e.value.code == "robots_unavailable"
            assert e.value.detail["robots_status"] == status and str(status) in e.value.message


def test_an_unreachable_host_reads_as_a_connection_error_not_a_robots_refusal():
    with serve_routes({"/page": (200, HTML, b"x")}) as base:
        dead = base  # the server is gone once the block ends: connections are refused
    with _fetcher(dead, respect_robots=True, max_retries=0) as f, pytest.raises(FetchError) as e:
        f.get(f"{dead}/page")
    assert e.value.code == "connect_error"
    assert e.value.detail["robots"] == "unreachable"
    assert "robots.txt disallows" not in e.value.message


def test_requests_to_one_host_are_spaced_by_the_politeness_delay():
    t = FakeTime()
    with serve_routes({"/p": (200, HTML, b"p")}) as base, _fetcher(base, t, politeness_s=2) as f:
        for _ in range(3):
            f.get(f"{base}/p")
    assert t.sleeps == [2.0, 2.0]


@pytest.mark.parametrize(
    "coding, payload",
    [
        ("gzip", gzip.compress(b"<p>docs</p>" * 100)),
        ("deflate", zlib.compress(b"<p>docs</p>" * 100)),
        ("deflate", zlib.compress(b"<p>docs</p>" * 100)[2:-4]),  # raw deflate, no zlib header
    ],
)
def test_one_content_coding_is_decoded(coding, payload):
    routes = {"/z": (200, [*HTML, ("Content-Encoding", coding)], payload)}
    with serve_routes(routes) as base, _fetcher(base) as f:
        res = f.get(f"{base}/z")
    assert res.body == b"<p>docs</p>" * 100 and res.raw_bytes == len(payload)


def test_stacked_or_unknown_codings_are_refused():
    routes = {
        "/two": (200, [("Content-Encoding", "gzip, gzip")], gzip.compress(gzip.compress(b"x"))),
        "/br": (200, [("Content-Encoding", "br")], b"\x00"),
        "/bad": (200, [("Content-Encoding", "gzip")], b"not gzip at all"),
    }
    with serve_routes(routes) as base, _fetcher(base) as f:
        codes = {}
        for path in routes:
            with pytest.raises(FetchError) as e:
                f.get(base + path)
            codes[path] = (e.value.code, e.value.detail.get("reason"))
    assert codes == {
        "/two": ("decoding", "stacked_encoding"),
        "/br": ("decoding", "unsupported_encoding"),
        "/bad": ("decoding", None),
    }


def test_byte_cap_counts_decoded_bytes_and_truncate_mode_flags_the_cut():
    bomb = gzip.compress(b"\0" * (4 << 20))
    routes = {"/bomb": (200, [("Content-Encoding", "gzip")], bomb)}
    with serve_routes(routes) as base, _fetcher(base, max_bytes=1 << 20) as f:
        with pytest.raises(FetchError) as e:
            f.get(f"{base}/bomb")
        cut = f.get(f"{base}/bomb", truncate=True)
    assert e.value.code == "too_large" and e.value.detail["reason"] == "decoded_bytes"
    assert len(cut.body) == 1 << 20 and cut.truncated and cut.truncated_reason == "max_bytes"


def test_decode_bounded_stops_at_the_cap():
    data = gzip.compress(b"a" * (3 << 20))
    out, truncated = decode_bounded(data, "gzip", 1 << 20)
    assert (len(out), truncated) == (1 << 20, True)
    assert decode_bounded(gzip.compress(b"abc"), "gzip", 10) == (b"abc", False)
    with pytest.raises(FetchError) as e:
        decode_bounded(b"junk", "gzip", 10)
    assert e.value.code == "decoding"


def test_credentials_are_dropped_when_a_redirect_changes_origin():
    seen = {}

    def final(h):
        seen["auth"] = h.headers.get("Authorization")
        return 200, HTML, b"ok"

    with (
        serve_routes({"/final": final}) as other,
        serve_routes({"/go": (302, [("Location", f"{other}/final")], b"")}) as base,
    ):
        ports = (f"127.0.0.1:{_port(base)}", f"127.0.0.1:{_port(other)}")
        policy = FetchPolicy(allow_hosts=ports, politeness_s=0, respect_robots=False)
        with SecureFetcher(policy) as f:
            res = f.get(f"{base}/go", headers={"Authorization": "Bearer t"})
    assert res.body == b"ok" and seen == {"auth": None}


def test_policy_reads_a_sources_limits_table_with_the_fetch_stage_names():
    policy = FetchPolicy.from_limits(
        {"deadline": 12, "timeout": 3, "max_bytes": 1024, "max_pages": 9, "politeness": 0},
        allow_hosts=("127.0.0.1:8765",),
    )
    assert (policy.deadline_s, policy.connect_timeout_s, policy.max_bytes) == (12, 3, 1024)
    assert policy.politeness_s == 0 and policy.allow_hosts == ("127.0.0.1:8765",)


def _hanging_resolver(monkeypatch: pytest.MonkeyPatch, name: str) -> threading.Event:
    """``getaddrinfo`` that never answers for ``name`` until the returned event is set (a DNS
    server that drops the query: no real resolver fault can be made on loopback)."""
    release = threading.Event()
    real = socket.getaddrinfo

    def gai(host, *args, **kwargs):
        if host == name:
            release.wait(60)
            raise socket.gaierror(socket.EAI_AGAIN, "released")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", gai)
    return release


def test_a_resolver_that_never_answers_ends_within_the_request_deadline(monkeypatch):
    release = _hanging_resolver(monkeypatch, "hang.docs.test")
    outcome: dict[str, Exception] = {}
    policy = FetchPolicy(politeness_s=0, respect_robots=False, max_retries=0, deadline_s=0.5)

    def fetch() -> None:
        try:
            f.get("http://hang.docs.test/guide")
        except (FetchError, BlockedURL) as e:
            outcome["error"] = e

    with tripwire() as wire, SecureFetcher(policy) as f:
        worker = threading.Thread(target=fetch)
        worker.start()
        worker.join(20)  # far above the deadline: only a hang would reach it
        hung = worker.is_alive()
        release.set()
        worker.join(5)
    assert not hung, "the DNS lookup was not bounded by the request deadline"
    err = outcome["error"]
    assert isinstance(err, FetchError) and err.code == "timeout", err
    assert wire.attempts == []


def test_a_url_found_in_content_whose_lookup_hangs_is_refused_as_unresolvable(monkeypatch):
    from docorbit_assets.lib import netpolicy

    release = _hanging_resolver(monkeypatch, "hang.docs.test")
    monkeypatch.setattr(netpolicy, "DNS_TIMEOUT_S", 0.3)
    try:
        with tripwire() as wire, pytest.raises(BlockedURL) as e:
            netpolicy.screen_url("https://hang.docs.test/sitemap.xml", netpolicy.NetPolicy())
    finally:
        release.set()
    assert e.value.detail["reason"] == "unresolvable" and "no DNS answer" in e.value.detail["why"]
    assert wire.attempts == []
