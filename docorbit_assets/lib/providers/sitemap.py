"""Provider ``sitemap`` (kinds web, sitemap): ``/sitemap.xml`` at the folder and root and the
``Sitemap:`` lines of robots.txt, indexes followed (``lib.sitemap.collect``); valid when it lists a
page on the source's site. ``sitemap_pages`` is what ``fetch`` reads a sitemap source with."""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from docorbit_assets.lib import sitemap as _sitemap
from docorbit_assets.lib.probe import (
    Candidate,
    ProbeContext,
    Provider,
    Verdict,
    base_urls,
    judge,
)
from docorbit_serve.errors import BlockedURL, FetchError

__all__ = ["PROVIDER", "sitemap_pages"]


def _scope(ctx: ProbeContext) -> Any:
    return ctx.same_site


def _sitemap_get(ctx: ProbeContext) -> Any:
    def get(url: str) -> bytes:
        resp = ctx.get(url)
        if isinstance(resp, (BlockedURL, FetchError)):
            raise resp
        if resp.status >= 400:
            raise FetchError(f"HTTP {resp.status}", code="http_status", detail={"url": url})
        return bytes(resp.body)

    return get


def sitemap_pages(ctx: ProbeContext, url: str) -> _sitemap.Collected:
    """Pages listed by the sitemap at ``url`` (indexes followed), policy-checked, on this site."""
    return _sitemap.collect(url, _sitemap_get(ctx), ctx.check, scope=_scope(ctx), max_depth=2)


def _sitemap_candidate(ctx: ProbeContext, url: str, by: str) -> Candidate:
    def validate(resp: Any) -> Verdict:
        parsed = _sitemap.parse_sitemap(resp.body)
        if parsed.error:
            return "invalid", 0.0, f"not a sitemap: {parsed.error} ({parsed.message})", {}
        got = sitemap_pages(ctx, url)
        meta = {
            "kind": parsed.kind,
            "pages": len(got.pages),
            "sample": got.pages[:5],
            "sitemaps": got.sitemaps,
            "skipped": dict(sorted(got.skipped.items())),
            "errors": got.errors,
            "loops": got.loops,
            "depth_capped": got.depth_capped,
        }
        if not got.pages:
            return "invalid", 0.0, "sitemap lists no page on this site", meta
        return "valid", 0.85, f"sitemap ({parsed.kind}) with {len(got.pages)} pages", meta

    return judge(ctx, url, "sitemap", by, validate)


def _probe_sitemap(ctx: ProbeContext) -> list[Candidate]:
    if ctx.cfg.kind == "sitemap":
        return [_sitemap_candidate(ctx, ctx.location, "given_url")]
    targets: dict[str, str] = {}
    for base in base_urls(ctx.location):
        targets.setdefault(urljoin(base, "sitemap.xml"), "probe:sitemap.xml")
    for sm in ctx.robots_sitemaps():
        if ctx.check(sm) is None and ctx.same_site(sm):
            targets[sm] = "robots.txt"
    return [_sitemap_candidate(ctx, u, by) for u, by in sorted(targets.items())]


PROVIDER = Provider("sitemap", frozenset({"web", "sitemap"}), _probe_sitemap)
