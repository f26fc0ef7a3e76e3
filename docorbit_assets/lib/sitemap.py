"""Sitemaps (sitemaps.org): safe parsing and bounded collection (discovery's sitemap provider).

Contract:

- ``parse_sitemap(body) -> Sitemap`` parses with lxml configured with
  ``resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False`` and
  ``recover=False`` (a damaged or 256-deep document is an error, never a silently empty list).
  A gzip body (magic bytes) is decoded with ``secure_fetch.decode_bounded`` first. The root must be
  ``urlset`` or ``sitemapindex`` (any namespace); otherwise ``error`` = ``not_a_sitemap``. Other
  errors: ``xml_error`` (with libxml2's message), ``too_large``, ``decoding``. At most
  ``MAX_URLS`` (50,000) ``<loc>`` are read (``truncated`` True beyond).
- ``collect(url, get, check, *, scope, max_depth=2, max_urls=50_000) -> Collected`` fetches a
  sitemap and follows sitemap indexes breadth-first up to ``max_depth`` levels, each sitemap at
  most once (loops and self-references are recorded in ``loops``). Every ``<loc>`` (page or
  child sitemap) passes ``check(url) -> reason | None`` (the URL policy) BEFORE anything fetches
  it; refusals are counted in ``skipped`` by reason, as are locs outside ``scope(url)``
  (``out_of_scope``), relative locs (``relative``), locs over 2,048 characters (``too_long``) and
  duplicates (``duplicate``). Fragments are dropped. ``get(url) -> bytes`` raises
  ``DocOrbitError`` on failure; per-sitemap failures are recorded in ``errors``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

from lxml import etree

from docorbit_assets.lib.secure_fetch import decode_bounded
from docorbit_serve.errors import DocOrbitError

__all__ = ["MAX_URLS", "Collected", "Sitemap", "collect", "parse_sitemap"]

MAX_URLS = 50_000
MAX_BYTES = 50 * 1024 * 1024
MAX_LOC = 2048


@dataclass(frozen=True)
class Sitemap:
    kind: str  # "urlset" | "sitemapindex" | "" on error
    locs: tuple[str, ...]
    error: str = ""
    message: str = ""
    truncated: bool = False


@dataclass
class Collected:
    pages: list[str] = field(default_factory=list)
    sitemaps: list[str] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    errors: dict[str, str] = field(default_factory=dict)
    loops: list[str] = field(default_factory=list)
    depth_capped: bool = False
    truncated: bool = False


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        recover=False,
        remove_comments=True,
        remove_pis=True,
    )


def parse_sitemap(body: bytes) -> Sitemap:
    if body[:2] == b"\x1f\x8b":
        try:
            body, cut = decode_bounded(body, "gzip", MAX_BYTES)
        except DocOrbitError as e:
            return Sitemap("", (), "decoding", e.message)
        if cut:
            return Sitemap("", (), "too_large", f"decodes to more than {MAX_BYTES} bytes")
    if len(body) > MAX_BYTES:
        return Sitemap("", (), "too_large", f"{len(body)} bytes")
    try:
        root = etree.fromstring(body, _parser())
    except etree.XMLSyntaxError as e:
        return Sitemap("", (), "xml_error", str(e)[:300])
    if root is None:
        return Sitemap("", (), "not_a_sitemap", "empty document")
    kind = etree.QName(root).localname if isinstance(root.tag, str) else ""
    if kind not in ("urlset", "sitemapindex"):
        return Sitemap("", (), "not_a_sitemap", f"root element <{kind}>")
    child = "url" if kind == "urlset" else "sitemap"
    locs: list[str] = []
    truncated = False
    for el in root:
        if not isinstance(el.tag, str) or etree.QName(el).localname != child:
            continue
        for sub in el:
            if isinstance(sub.tag, str) and etree.QName(sub).localname == "loc":
                if len(locs) >= MAX_URLS:
                    truncated = True
                    break
                locs.append((sub.text or "").strip())
        if truncated:
            break
    return Sitemap(kind, tuple(locs), truncated=truncated)


def _clean(loc: str) -> tuple[str | None, str]:
    if not loc:
        return None, "empty"
    if len(loc) > MAX_LOC:
        return None, "too_long"
    parts = urlsplit(loc)
    if not parts.scheme:
        return None, "relative"
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", parts.query, "")), ""


def collect(
    url: str,
    get: Callable[[str], bytes],
    check: Callable[[str], str | None],
    *,
    scope: Callable[[str], bool],
    max_depth: int = 2,
    max_urls: int = MAX_URLS,
) -> Collected:
    out = Collected()
    seen_maps: set[str] = set()
    seen_pages: set[str] = set()
    level = [url]
    depth = 0
    while level:
        nxt: list[str] = []
        for sm_url in level:
            if sm_url in seen_maps:
                out.loops.append(sm_url)
                continue
            seen_maps.add(sm_url)
            out.sitemaps.append(sm_url)
            try:
                parsed = parse_sitemap(get(sm_url))
            except DocOrbitError as e:
                out.errors[sm_url] = e.code
                continue
            if parsed.error:
                out.errors[sm_url] = parsed.error
                continue
            out.truncated |= parsed.truncated
            for raw in parsed.locs:
                loc, why = _clean(raw)
                if loc is None:
                    out.skipped[why] += 1
                    continue
                reason = check(loc)
                if reason:
                    out.skipped[reason] += 1
                    continue
                if not scope(loc):
                    out.skipped["out_of_scope"] += 1
                    continue
                if parsed.kind == "sitemapindex":
                    if loc in seen_maps:
                        out.loops.append(loc)
                    elif depth + 1 > max_depth:
                        out.depth_capped = True
                    else:
                        nxt.append(loc)
                    continue
                if loc in seen_pages:
                    out.skipped["duplicate"] += 1
                    continue
                if len(out.pages) >= max_urls:
                    out.truncated = True
                    continue
                seen_pages.add(loc)
                out.pages.append(loc)
        level = nxt
        depth += 1
    return out
