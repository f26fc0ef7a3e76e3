"""The source page as the web providers read it: ``PageInfo`` (title, canonical link, links,
anchors), ``frameworks`` (site generator markers) and ``source_page`` (the source URL's HTML, cached
by the probe context)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from docorbit_assets.lib.probe import (
    ProbeContext,
    is_html,
)

__all__ = ["FRAMEWORKS", "PageInfo", "frameworks", "page_info", "source_page"]

# name -> patterns over the page's lower-cased head/markup (first 512 KiB)
FRAMEWORKS: dict[str, tuple[str, ...]] = {
    "mkdocs-material": (r'generator" content="mkdocs-[\d.]+, mkdocs-material', r'class="md-header'),
    "mkdocs": (r'generator" content="mkdocs',),
    "sphinx": (r"documentation_options\.js", r'generator" content="(docutils|sphinx)', r"searchindex\.js"),
    "docusaurus": (r'generator" content="docusaurus', r"__docusaurus"),
    "vitepress": (r'generator" content="vitepress', r"__vp_hash_map__", r'class="vpnav'),
    "mintlify": (r"mintlify", r"mintcdn\.com"),
    "gitbook": (r'generator" content="gitbook', r"gitbook\.io", r"gitbook-cdn"),
}  # fmt: skip


class PageInfo(HTMLParser):
    """Title, canonical, generator, spec / llms links, anchors and their labels of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.canonical = ""
        self.generator = ""
        self.spec_links: list[str] = []
        self.anchors: list[tuple[str, str, str]] = []  # (href, class+rel, text)
        self._in_title = False
        self._anchor: list[Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        if tag == "title":
            self._in_title = True
        elif tag == "link":
            rel = a.get("rel", "").lower()
            if "canonical" in rel.split() and not self.canonical:
                self.canonical = a.get("href", "")
            if "service-desc" in rel or "openapi" in a.get("type", "").lower():
                self.spec_links.append(a.get("href", ""))
        elif tag == "meta" and a.get("name", "").lower() == "generator":
            self.generator = a.get("content", "")
        elif tag == "a" and len(self.anchors) < 2000 and a.get("href"):
            self._anchor = [a["href"], f"{a.get('class', '')} {a.get('rel', '')}".lower(), ""]

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag == "a" and self._anchor is not None:
            self.anchors.append((self._anchor[0], self._anchor[1], self._anchor[2].strip()[:80]))
            self._anchor = None

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        if self._anchor is not None:
            self._anchor[2] += data


def page_info(body: bytes) -> PageInfo:
    info = PageInfo()
    text = body[: 2 * 1024 * 1024].decode("utf-8", "replace")
    for i in range(0, len(text), 65536):
        info.feed(text[i : i + 65536])
    info.title = " ".join(info.title.split())
    return info


def source_page(ctx: ProbeContext) -> tuple[Any, PageInfo] | None:
    resp = ctx.get(ctx.location)
    if (
        isinstance(resp, Exception)
        or resp.status != 200
        or not is_html(resp.body, resp.content_type)
    ):
        return None
    return resp, page_info(resp.body)


def frameworks(body: bytes) -> list[str]:
    low = body[: 512 * 1024].decode("utf-8", "replace").lower()
    found = [name for name, pats in FRAMEWORKS.items() if any(re.search(p, low) for p in pats)]
    if "mkdocs-material" in found and "mkdocs" not in found:
        found.append("mkdocs")
    return sorted(found)
