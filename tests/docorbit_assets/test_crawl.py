"""Loopback crawls of the real built httpx MkDocs site, and links from content under the policy."""

from __future__ import annotations

import pytest

from docorbit_assets.lib.crawl import crawl, extract_links
from docorbit_assets.lib.secure_fetch import FetchPolicy, SecureFetcher
from docorbit_serve.errors import BlockedURL
from docorbit_serve.settings import SourceLimits
from tests.support.net import KIT_DATA, serve_directory, serve_routes, tripwire

SITE = KIT_DATA / "site" / "httpx"
# every page of the built site: the folders holding an index.html
SITE_PAGES = sorted(
    "/" if (rel := p.parent.relative_to(SITE).as_posix()) == "." else f"/{rel}/"
    for p in SITE.rglob("index.html")
)


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def _policy(*allow: str, **kw) -> FetchPolicy:
    return FetchPolicy(allow_hosts=allow, politeness_s=0, deadline_s=10, **kw)


def test_loopback_crawl_with_an_allowance_collects_every_page_of_the_site():
    with serve_directory(SITE) as base:
        port = _port(base)
        with (
            tripwire({("127.0.0.1", port)}) as wire,
            SecureFetcher(_policy(f"127.0.0.1:{port}")) as f,
        ):
            result = crawl(f"{base}/", f, SourceLimits(max_pages=50, max_depth=3, concurrency=5))
    paths = sorted(p.final_url[len(base) :] for p in result.ok_pages)
    assert len(SITE_PAGES) == 23
    assert paths == SITE_PAGES
    assert result.complete and result.limits_hit == ()
    assert all(b"<html" in p.body[:500].lower() for p in result.ok_pages)
    # off-site links (github.com, pypi.org, fonts) were screened and recorded, never fetched
    off_site = {s.url for s in result.skipped if s.reason == "out_of_scope"}
    assert "https://github.com/encode/httpx/" in off_site
    # links without the trailing slash redirect onto pages already collected
    assert {s.reason for s in result.skipped} == {"out_of_scope", "duplicate"}
    assert wire.refused() == []


def test_the_same_crawl_without_the_allowance_is_refused_as_blocked_url():
    with (
        serve_directory(SITE) as base,
        tripwire() as wire,
        SecureFetcher(_policy()) as f,
        pytest.raises(BlockedURL) as e,
    ):
        crawl(f"{base}/", f)
    assert e.value.code == "blocked_url" and e.value.detail["reason"] == "loopback"
    assert wire.attempts == []


def test_an_allowance_for_another_port_does_not_open_the_site():
    with serve_directory(SITE) as base, tripwire() as wire:
        other = f"127.0.0.1:{_port(base) + 1 if _port(base) < 65535 else 1024}"
        with SecureFetcher(_policy(other)) as f, pytest.raises(BlockedURL):
            crawl(f"{base}/", f)
    assert wire.attempts == []


def test_page_and_depth_limits_stop_the_crawl_and_say_so():
    with serve_directory(SITE) as base, SecureFetcher(_policy(f"127.0.0.1:{_port(base)}")) as f:
        capped = crawl(f"{base}/", f, SourceLimits(max_pages=5, concurrency=2))
        shallow = crawl(f"{base}/", f, SourceLimits(max_depth=0))
    assert len(capped.pages) == 5 and not capped.complete and "max_pages" in capped.limits_hit
    assert [p.depth for p in shallow.pages] == [0] and shallow.limits_hit == ("max_depth",)


def test_urls_found_in_content_pass_the_policy_before_anything_fetches_them():
    hostile = b"""<html><head><base href="http://10.0.0.1/">
    <meta http-equiv="refresh" content="0; url=http://169.254.169.254/latest/"></head><body>
    <a href="http://127.0.0.1:1/admin">a</a> <a href="file:///etc/passwd">b</a>
    <a href="javascript:alert(1)">c</a> <a href="http://user:pw@docs.example.com/">d</a>
    <a href="gopher://127.0.0.1:6379/_x">e</a> <a href="/next.html">ok</a></body></html>"""
    routes = {
        "/start.html": (200, [("Content-Type", "text/html")], hostile),
        "/next.html": (200, [("Content-Type", "text/html")], b"<p>next</p>"),
    }
    with serve_routes(routes) as base:
        port = _port(base)
        with (
            tripwire({("127.0.0.1", port)}) as wire,
            SecureFetcher(_policy(f"127.0.0.1:{port}", respect_robots=False)) as f,
        ):
            result = crawl(f"{base}/start.html", f)
    reasons = {s.url: s.reason for s in result.skipped}
    assert reasons["http://10.0.0.1/"] == "private"
    assert reasons["http://169.254.169.254/latest/"] == "metadata"
    assert reasons["http://127.0.0.1:1/admin"] == "loopback"
    assert reasons["file:///etc/passwd"] == "scheme"
    assert reasons["javascript:alert(1)"] == "scheme"
    assert reasons["http://user:pw@docs.example.com/"] == "credentials"
    assert reasons["gopher://127.0.0.1:6379/_x"] == "scheme"
    # the refused <base href> is ignored, so the relative link resolves against the page
    assert [p.final_url for p in result.ok_pages] == [f"{base}/start.html", f"{base}/next.html"]
    assert wire.refused() == []


def test_failed_pages_are_recorded_not_dropped():
    routes = {
        "/a.html": (200, [("Content-Type", "text/html")], b'<a href="/gone.html">x</a>'),
        "/gone.html": (404, [("Content-Type", "text/html")], b"no"),
    }
    with serve_routes(routes) as base:
        policy = _policy(f"127.0.0.1:{_port(base)}", respect_robots=False, max_retries=0)
        with SecureFetcher(policy) as f:
            result = crawl(f"{base}/a.html", f)
    gone = [p for p in result.pages if p.url.endswith("/gone.html")]
    assert [(p.status, p.error_code) for p in gone] == [(404, "http_status")]


def test_extract_links_reads_anchors_base_and_meta_refresh():
    html = b'<base href="/docs/"><meta http-equiv="Refresh" content="5;URL=\'/moved\'"><a href="x">x</a>'
    links, base, truncated = extract_links(html, None, max_links=10)
    assert (links, base, truncated) == (["/moved", "x"], "/docs/", False)


def test_a_recrawl_with_the_stored_pages_is_answered_by_304s_and_yields_the_same_pages(tmp_path):
    import shutil

    from docorbit_assets.lib.crawl import StoredPage
    from tests.support.http import serve_directory as serve_logged

    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    answers: list[tuple[str, int]] = []
    limits = SourceLimits(max_pages=50, max_depth=3, concurrency=5)
    with serve_logged(site, responses=answers) as base:
        allow = f"127.0.0.1:{_port(base.rstrip('/'))}"
        with SecureFetcher(_policy(allow)) as f:
            first = crawl(base, f, limits)
        stored = {
            p.final_url: StoredPage(
                p.status or 0, p.content_type, p.body, "", p.last_modified or ""
            )
            for p in first.ok_pages
        }
        answers.clear()
        with SecureFetcher(_policy(allow)) as f:
            again = crawl(base, f, limits, stored=stored)
        recrawled = list(answers)
        (site / "async" / "index.html").write_bytes(
            (site / "async" / "index.html")
            .read_bytes()
            .replace(b"</article>", b"<p>new</p></article>")
        )
        answers.clear()
        with SecureFetcher(_policy(allow)) as f:
            edited = crawl(base, f, limits, stored=stored)
    assert {status for _, status in recrawled} <= {301, 304, 404}  # no page body sent again
    assert sum(status == 304 for _, status in recrawled) >= len(first.ok_pages)
    key = [(p.url, p.final_url, p.depth, p.body) for p in first.pages]
    assert [(p.url, p.final_url, p.depth, p.body) for p in again.pages] == key
    assert again.skipped == first.skipped and all(p.not_modified for p in again.ok_pages)
    assert [p for p, status in answers if status == 200] == ["/async/"]
    changed = [p.final_url for p in edited.ok_pages if not p.not_modified]
    assert changed == [f"{base}async/"]


def test_a_304_to_a_request_that_asked_for_none_is_an_error_not_an_empty_page():
    with (
        serve_routes({"/docs/": (304, [], b"")}) as base,
        SecureFetcher(_policy(f"127.0.0.1:{_port(base)}")) as f,
    ):
        result = crawl(f"{base}/docs/", f)
    (page,) = result.pages
    assert page.error_code == "http_status" and not page.not_modified and result.ok_pages == ()
