"""Provider ``web`` (kind web): the source URL as an HTML site (title, canonical link, framework
markers, same-site navigation links); valid when it is an HTML page with a same-site link."""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from docorbit_assets.lib.probe import (
    Candidate,
    ProbeContext,
    Provider,
    Verdict,
    is_html,
    judge,
)
from docorbit_assets.lib.providers.page import (
    frameworks,
    page_info,
)

__all__ = ["PROVIDER"]


def _probe_web(ctx: ProbeContext) -> list[Candidate]:
    def validate(resp: Any) -> Verdict:
        if not is_html(resp.body, resp.content_type):
            return "invalid", 0.0, f"not an HTML page ({resp.content_type or 'no type'})", {}
        info = page_info(resp.body)
        links = set()
        for href, _, _ in info.anchors:
            url = urljoin(resp.final_url, href).split("#", 1)[0]
            if (
                url.startswith(("http://", "https://"))
                and ctx.same_site(url)
                and url != resp.final_url
            ):
                links.add(url)
        marks = frameworks(resp.body)
        meta = {
            "title": info.title[:200],
            "canonical": urljoin(resp.final_url, info.canonical) if info.canonical else "",
            "generator": info.generator[:100],
            "frameworks": marks,
            "nav_links": len(links),
        }
        if not links:
            return "invalid", 0.0, "HTML page without same-site links (nothing to crawl)", meta
        conf = 0.7 if marks else 0.5
        label = f" ({', '.join(marks)})" if marks else ""
        why = f"HTML docs site{label} '{info.title[:60]}' with {len(links)} same-site links"
        return "valid", conf, why, meta

    return [
        judge(ctx, ctx.location, "html", "root", validate, html_ok=True, machine_readable=False)
    ]


PROVIDER = Provider("web", frozenset({"web"}), _probe_web)
