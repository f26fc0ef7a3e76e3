"""Fetched documentation as inert HTML for the dashboard.

Contract: ``to_html(markdown) -> markupsafe.Markup`` renders untrusted Markdown with
markdown-it-py (CommonMark, ``html=False``) so raw HTML in the source (``<script>``, ``<img
onerror>``, ``<iframe>`` …) comes out as escaped text, never as elements. On top of that:

- images are never loaded: each ``![alt](src)`` becomes a text marker ``[image: alt]`` followed
  by the address as an external link (remote images would leak the reader's IP and time);
- links keep only ``http``, ``https``, ``mailto`` and in-page ``#`` targets (markdown-it already
  refuses ``javascript:``, ``vbscript:``, ``file:`` and most ``data:``); other targets are shown
  as text; every absolute link gets ``rel="noopener noreferrer nofollow"``,
  ``target="_blank"``, the class ``external`` and a visible ``↗`` marker;
- output size is bounded: the input is cut at ``MAX_CHARS`` characters first.

The page that shows it also sends a Content-Security-Policy without ``script-src`` (see
``web.app``), so even a rendering bug could not run a script.
"""

from __future__ import annotations

from typing import Any

from markdown_it import MarkdownIt
from markupsafe import Markup, escape

__all__ = ["MAX_CHARS", "highlight", "to_html"]

MAX_CHARS = 400_000
_SAFE_SCHEMES = ("http://", "https://", "mailto:")
_REL = "noopener noreferrer nofollow"


def _is_safe(href: str) -> bool:
    low = href.strip().lower()
    return low.startswith(_SAFE_SCHEMES) or low.startswith("#")


def _render_link_open(self: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    href = str(token.attrGet("href") or "")
    if not _is_safe(href):
        token.attrs.pop("href", None)
        token.attrSet("class", "unsafe-link")
        token.attrSet("title", "link removed: not an http(s) address")
        return str(self.renderToken(tokens, idx, options, env)).replace("<a", "<span", 1)
    if not href.startswith("#"):
        token.attrSet("rel", _REL)
        token.attrSet("target", "_blank")
        token.attrSet("class", "external")
    return str(self.renderToken(tokens, idx, options, env))


def _render_link_close(self: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
    # find the matching opener to know whether it became a <span>
    level = tokens[idx].level
    for j in range(idx - 1, -1, -1):
        t = tokens[j]
        if t.type == "link_open" and t.level == level:
            if "href" not in t.attrs:
                return "</span>"
            if not str(t.attrGet("href")).startswith("#"):
                return '<span class="ext-marker" aria-label="external link">↗</span></a>'
            break
    return "</a>"


def _render_image(self: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    alt = "".join(c.content for c in (token.children or [])) or token.content
    label = f'<span class="image-marker">[image: {escape(alt or "untitled")}]</span>'
    if src.lower().startswith(("http://", "https://")):
        return (
            f'{label} <a class="external" rel="{_REL}" target="_blank" href="{escape(src)}">'
            f'{escape(src)}<span class="ext-marker" aria-label="external link">↗</span></a>'
        )
    return label


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.add_render_rule("link_open", _render_link_open)
    md.add_render_rule("link_close", _render_link_close)
    md.add_render_rule("image", _render_image)
    return md


_MD = _parser()


def to_html(markdown: str) -> Markup:
    """Untrusted Markdown → inert HTML (see the module docstring)."""
    return Markup(_MD.render((markdown or "")[:MAX_CHARS]))  # noqa: S704 - escaped by markdown-it


def highlight(text: str, terms: list[str], limit: int = 600) -> Markup:
    """Plain ``text`` (escaped, cut to ``limit`` chars) with each query term wrapped in <mark>."""
    import re

    snippet = (text or "")[:limit]
    words = sorted({t for t in terms if len(t) > 1}, key=len, reverse=True)[:20]
    if not words:
        return Markup(escape(snippet))
    pattern = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    out, pos = [], 0
    for m in pattern.finditer(snippet):
        out.append(str(escape(snippet[pos : m.start()])))
        out.append(f"<mark>{escape(m.group(0))}</mark>")
        pos = m.end()
    out.append(str(escape(snippet[pos:])))
    return Markup("".join(out))  # noqa: S704 - every piece escaped above
