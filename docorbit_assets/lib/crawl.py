"""Bounded crawler over ``SecureFetcher``: breadth-first, same site, every limit reported.

Contract:

- ``crawl(start_url, fetcher, limits)`` fetches the start page, then follows ``<a href>``,
  ``<base href>`` and ``<meta http-equiv=refresh>`` links level by level (depth 0 = start) with
  up to ``concurrency`` requests in flight, within ``limits``: the source's
  ``settings.SourceLimits`` (``max_pages``, ``max_depth``, ``concurrency``,
  ``max_links_per_page``, ``max_total_bytes``, ``max_seconds``; defaults 50 pages, depth 3,
  concurrency 5, 1000 links per page, 200 MiB in total, 10 minutes).
- Scope: same origin as the start URL and a path under the start URL's folder. Every URL found
  in content passes ``netpolicy.check_url`` BEFORE it is queued; refusals are recorded in
  ``skipped`` with their reason (e.g. ``loopback``, ``scheme``), out-of-scope links as
  ``out_of_scope``, static assets as ``not_a_page``, a redirect onto a page already collected
  as ``duplicate``. Nothing is dropped silently.
- A refused start URL raises ``BlockedURL`` (the whole crawl is refused). Any later failure is
  recorded on its page (``error_code``) and the crawl goes on.
- ``complete`` is False when a limit stopped the crawl; ``limits_hit`` says which
  (``max_pages``, ``max_depth``, ``max_links``, ``max_total_bytes``, ``max_seconds``).
- Output is deterministic for a given site: pages sorted by (depth, url), skips by (url, reason).
- Re-crawl (refresh): ``stored={final_url: StoredPage}`` (the previous crawl's pages with their
  ``ETag`` / ``Last-Modified``) makes every request conditional for the URL each hop reaches
  (``SecureFetcher.get(validators=...)``: a link that redirects onto a stored page revalidates
  that page). A 304 stands for the stored page: its body is what the crawl follows links in,
  the page comes back with ``not_modified=True``, and no body is transferred — an unchanged
  site re-crawls as the same pages and skips with 304s only.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from typing import Any

import httpx

from docorbit_assets.lib.secure_fetch import FetchResult, SecureFetcher
from docorbit_serve.errors import BlockedURL, DocOrbitError
from docorbit_serve.settings import SourceLimits

__all__ = [
    "CrawlResult",
    "CrawledPage",
    "Skipped",
    "StoredPage",
    "crawl",
    "extract_links",
    "stderr_progress",
]

_HTML_TYPES = ("text/html", "application/xhtml+xml")
_ASSET_SUFFIXES = (
    ".css", ".js", ".mjs", ".map", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".webp",
    ".woff", ".woff2", ".ttf", ".eot", ".otf", ".pdf", ".zip", ".gz", ".tgz", ".tar", ".whl",
    ".mp4", ".webm", ".mp3", ".wasm",
)  # fmt: skip


@dataclass(frozen=True)
class CrawledPage:
    url: str
    final_url: str
    depth: int
    status: int | None
    content_type: str
    body: bytes
    truncated: bool
    error_code: str | None
    error_reason: str | None
    etag: str | None = None
    last_modified: str | None = None
    links: int = 0
    not_modified: bool = False  # answered 304: ``body`` is the stored page's


@dataclass(frozen=True)
class StoredPage:
    """A page of the previous crawl (by final URL): what a 304 to its validators stands for."""

    status: int
    content_type: str
    body: bytes
    etag: str = ""
    last_modified: str = ""


@dataclass(frozen=True)
class Skipped:
    url: str
    reason: str
    found_on: str


@dataclass(frozen=True)
class CrawlResult:
    start_url: str
    pages: tuple[CrawledPage, ...]
    skipped: tuple[Skipped, ...]
    complete: bool
    limits_hit: tuple[str, ...]

    @property
    def ok_pages(self) -> tuple[CrawledPage, ...]:
        return tuple(p for p in self.pages if p.error_code is None)


class _LinkParser(HTMLParser):
    def __init__(self, max_links: int) -> None:
        super().__init__(convert_charrefs=True)
        self.max_links = max_links
        self.links: list[str] = []
        self.base: str | None = None
        self.truncated = False

    def _add(self, url: str | None) -> None:
        if not url:
            return
        if len(self.links) >= self.max_links:
            self.truncated = True
            return
        self.links.append(url.strip())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        if tag == "a":
            self._add(a.get("href"))
        elif tag == "base" and self.base is None and a.get("href"):
            self.base = a["href"].strip()
        elif tag == "meta" and a.get("http-equiv", "").lower() == "refresh":
            _, _, rest = a.get("content", "").partition(";")
            key, _, value = rest.strip().partition("=")
            if key.strip().lower() == "url":
                self._add(value.strip().strip("'\""))


def extract_links(
    html: bytes, charset: str | None, *, max_links: int
) -> tuple[list[str], str | None, bool]:
    """(raw link strings, raw ``<base href>`` or None, truncated?) of an HTML page."""
    parser = _LinkParser(max_links)
    try:
        text = html.decode(charset or "utf-8", "replace")
    except LookupError:
        text = html.decode("utf-8", "replace")
    for i in range(0, len(text), 65536):  # fed in pieces so a link flood stops early
        parser.feed(text[i : i + 65536])
        if parser.truncated:
            break
    else:
        parser.close()
    return parser.links, parser.base, parser.truncated


def stderr_progress(event: Mapping[str, Any]) -> None:
    """Progress line on stderr (rewritten in place when stderr is a terminal)."""
    line = (
        f"crawl: {event['pages']} pages, {event['bytes'] // 1024} KiB, "
        f"{event['errors']} errors, {event['queued']} queued"
    )
    end = "\r" if sys.stderr.isatty() else "\n"
    print(line, end=end, file=sys.stderr, flush=True)


def _strip_fragment(url: httpx.URL) -> str:
    return str(url.copy_with(fragment=None))


def crawl(
    start_url: str,
    fetcher: SecureFetcher,
    limits: SourceLimits | None = None,
    *,
    progress: Callable[[Mapping[str, Any]], None] | None = None,
    stored: Mapping[str, StoredPage] | None = None,
) -> CrawlResult:
    """Crawl ``start_url``'s site within ``limits``. Raises ``BlockedURL`` for a refused start.
    ``stored``: the previous crawl's pages by final URL, revalidated (module docstring)."""
    lim = limits or SourceLimits()
    started = time.monotonic()
    start = fetcher.check(start_url)
    folder = start.url.path.rsplit("/", 1)[0] + "/"
    origin = start.origin

    seen: set[str] = {_strip_fragment(start.url)}
    collected: set[str] = set()  # final URLs of the pages kept
    skipped: dict[tuple[str, str], Skipped] = {}
    pages: list[CrawledPage] = []
    hit: set[str] = set()
    total = 0
    errors = 0
    frontier = [_strip_fragment(start.url)]

    known = {
        _strip_fragment(httpx.URL(u)): page
        for u, page in (stored or {}).items()
        if page.etag or page.last_modified
    }
    validators = {u: (page.etag, page.last_modified) for u, page in known.items()}

    def fetch(url: str) -> tuple[str, FetchResult | DocOrbitError]:
        try:
            res = fetcher.get(url, truncate=True, validators=validators)
        except DocOrbitError as e:
            return url, e
        if not res.not_modified:
            return url, res
        page = known.get(_strip_fragment(httpx.URL(res.final_url)))
        if page is None:  # a 304 for no page we stored (nothing was asked for): not a page
            return url, replace(res, not_modified=False, error="http_status")
        # 304: the stored page stands (its body, to follow its links)
        return url, replace(res, status=page.status, body=page.body, content_type=page.content_type)

    with ThreadPoolExecutor(max_workers=max(1, lim.concurrency)) as pool:
        depth = 0
        while frontier:
            room = lim.max_pages - len(pages)
            if room <= 0:
                hit.add("max_pages")
                break
            if time.monotonic() - started > lim.max_seconds:
                hit.add("max_seconds")
                break
            if total > lim.max_total_bytes:
                hit.add("max_total_bytes")
                break
            batch, rest = sorted(frontier)[:room], sorted(frontier)[room:]
            if rest:
                hit.add("max_pages")
            next_level: list[str] = []
            for url, out in pool.map(fetch, batch):
                if isinstance(out, BlockedURL) and depth == 0:
                    raise out
                if isinstance(out, DocOrbitError):
                    errors += 1
                    reason = out.detail.get("reason")
                    pages.append(
                        CrawledPage(url, url, depth, None, "", b"", False, out.code, reason)
                    )
                    continue
                if out.final_url in collected:  # a redirect to a page we already have
                    skipped[(url, "duplicate")] = Skipped(url, "duplicate", out.final_url)
                    continue
                collected.add(out.final_url)
                seen.add(out.final_url)
                total += len(out.body)
                links: list[str] = []
                if out.content_type in _HTML_TYPES and out.status == 200:
                    links = _links(out, lim, origin, folder, fetcher, skipped, hit)
                if out.error:
                    errors += 1
                pages.append(
                    CrawledPage(
                        url,
                        out.final_url,
                        depth,
                        out.status,
                        out.content_type,
                        out.body,
                        out.truncated,
                        out.error,
                        f"HTTP {out.status}" if out.error else None,
                        out.etag,
                        out.last_modified,
                        len(links),
                        out.not_modified,
                    )
                )
                for link in links:
                    if link not in seen:
                        seen.add(link)
                        if depth + 1 > lim.max_depth:
                            hit.add("max_depth")
                        else:
                            next_level.append(link)
                if progress:
                    progress(
                        {"pages": len(pages), "bytes": total, "errors": errors, "queued": len(rest)}
                    )
            frontier = rest + next_level
            depth += 1
    return CrawlResult(
        start_url=start_url,
        pages=tuple(sorted(pages, key=lambda p: (p.depth, p.url))),
        skipped=tuple(sorted(skipped.values(), key=lambda s: (s.url, s.reason))),
        complete=not hit,
        limits_hit=tuple(sorted(hit)),
    )


def _links(
    page: FetchResult,
    lim: SourceLimits,
    origin: str,
    folder: str,
    fetcher: SecureFetcher,
    skipped: dict[tuple[str, str], Skipped],
    hit: set[str],
) -> list[str]:
    raw, base_href, truncated = extract_links(
        page.body, page.charset, max_links=lim.max_links_per_page
    )
    if truncated:
        hit.add("max_links")
    base = httpx.URL(page.final_url)
    if base_href:
        try:
            candidate = base.join(base_href)
            fetcher.check(str(candidate))  # <base href> is a URL from content: same policy
            base = candidate
        except BlockedURL as e:
            skipped[(base_href, e.detail["reason"])] = Skipped(
                base_href, e.detail["reason"], page.final_url
            )
        except (httpx.InvalidURL, ValueError, UnicodeError):
            skipped[(base_href, "invalid_url")] = Skipped(base_href, "invalid_url", page.final_url)
    out: list[str] = []
    for href in raw:
        if href.startswith("#"):
            continue
        try:
            absolute = base.join(href)
        except (httpx.InvalidURL, ValueError, UnicodeError):
            skipped[(href, "invalid_url")] = Skipped(href, "invalid_url", page.final_url)
            continue
        url = _strip_fragment(absolute) if absolute.scheme in ("http", "https") else href
        try:
            target = fetcher.check(url)
        except BlockedURL as e:
            skipped[(url, e.detail["reason"])] = Skipped(url, e.detail["reason"], page.final_url)
            continue
        if target.origin != origin or not target.url.path.startswith(folder):
            skipped[(url, "out_of_scope")] = Skipped(url, "out_of_scope", page.final_url)
            continue
        if target.url.path.lower().endswith(_ASSET_SUFFIXES):
            skipped[(url, "not_a_page")] = Skipped(url, "not_a_page", page.final_url)
            continue
        if url not in out:
            out.append(url)
    return out
