"""Provider ``markdown`` (kinds ``web``, ``markdown``): the URL itself when it names a Markdown
file (always for kind ``markdown``); for a page URL its ``.md`` variants and the URL asked with
``Accept: text/markdown`` (valid only when the answer is declared ``text/markdown``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from docorbit_assets.lib.filefilter import MARKDOWN_SUFFIXES
from docorbit_assets.lib.probe import (
    Candidate,
    ProbeContext,
    Provider,
    Verdict,
    check_markdown,
    judge,
    text_validator,
)

__all__ = ["PROVIDER"]


def _markdown_check(text: str) -> Verdict:
    return check_markdown(text, "Markdown page")


def _probe_markdown(ctx: ProbeContext) -> list[Candidate]:
    """The URL itself when it names a Markdown file; for a page URL, its ``.md`` variants and
    the same URL asked with ``Accept: text/markdown`` (valid only if the answer is declared
    ``text/markdown``: content negotiation, not a guess)."""
    cfg, url = ctx.cfg, ctx.location
    path = urlsplit(url).path
    if cfg.kind == "markdown" or path.lower().endswith(MARKDOWN_SUFFIXES):
        return [judge(ctx, url, "markdown", "given_url", text_validator(_markdown_check))]
    parts = urlsplit(url)
    variants = (
        [path + "index.md"]
        if path.endswith("/") or not path
        else [path + ".md", path + "/index.md"]
    )
    out = []
    for v in variants:
        vurl = urlunsplit((parts.scheme, parts.netloc, v or "/index.md", "", ""))
        out.append(judge(ctx, vurl, "markdown", "md_variant", text_validator(_markdown_check)))

    def negotiated(resp: Any) -> Verdict:
        if "markdown" not in resp.content_type.lower():
            return (
                "invalid",
                0.0,
                f"answered {resp.content_type or 'no type'}, not text/markdown",
                {},
            )
        return text_validator(_markdown_check)(resp)

    cand = judge(
        ctx, url, "markdown", "accept_markdown", negotiated, headers={"Accept": "text/markdown"}
    )
    out.append(cand)
    return out


PROVIDER = Provider("markdown", frozenset({"web", "markdown"}), _probe_markdown)
