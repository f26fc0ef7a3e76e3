"""Provider ``llms`` (kinds ``web``, ``llms_txt``): ``<base>/llms-full.txt`` and ``<base>/llms.txt``
for every base of ``probe.base_urls``, ``/.well-known/llms.txt``, ``Link: rel="llms-txt"``
targets, and the URL itself when it names an ``llms*.txt`` file; kind ``llms_txt`` probes only
the URL. Validated by ``llms_txt.check_llms_txt`` (llms.txt) or ``probe.check_markdown``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin, urlsplit

from docorbit_assets.lib.llms_txt import check_llms_txt
from docorbit_assets.lib.probe import (
    LABELS,
    Candidate,
    ProbeContext,
    Provider,
    Verdict,
    base_urls,
    check_markdown,
    judge,
    text_validator,
)

__all__ = ["PROVIDER"]


def _llms_type(url: str) -> str | None:
    name = urlsplit(url).path.rsplit("/", 1)[-1].lower()
    if name == "llms-full.txt":
        return "llms_full_txt"
    if name.startswith("llms") and name.endswith(".txt"):
        return "llms_txt"
    return None


def _llms_validator(ctype: str) -> Callable[[Any], Verdict]:
    if ctype == "llms_txt":
        return text_validator(check_llms_txt)
    return text_validator(lambda t: check_markdown(t, LABELS.get(ctype, ctype)))


def _link_header_targets(ctx: ProbeContext) -> list[str]:
    """``Link: <…>; rel="llms-txt"`` on the source URL's own response."""
    resp = ctx.get(ctx.location)
    if isinstance(resp, Exception):
        return []
    out = []
    for part in resp.headers.get("link", "").split(","):
        m = re.match(r"\s*<([^>]+)>\s*;(.*)", part)
        if m and re.search(r'rel\s*=\s*"?[^";]*\bllms-txt\b', m.group(2), re.I):
            out.append(urljoin(resp.final_url, m.group(1).strip()))
    return out


def _probe_llms(ctx: ProbeContext) -> list[Candidate]:
    cfg, url = ctx.cfg, ctx.location
    own = _llms_type(url)
    if cfg.kind == "llms_txt":
        t = own or "llms_txt"
        return [judge(ctx, url, t, "given_url", _llms_validator(t))]
    targets: dict[str, tuple[str, str]] = {}
    if own:
        targets[url] = (own, "given_url")
    for base in base_urls(url):
        for name, ctype in (("llms-full.txt", "llms_full_txt"), ("llms.txt", "llms_txt")):
            targets.setdefault(urljoin(base, name), (ctype, f"probe:{name}"))
    targets.setdefault(urljoin(url, "/.well-known/llms.txt"), ("llms_txt", "probe:well-known"))
    for link in _link_header_targets(ctx):
        if ctx.check(link) is None:
            targets[link] = (_llms_type(link) or "llms_txt", "link_header")
    return [judge(ctx, u, t, by, _llms_validator(t)) for u, (t, by) in sorted(targets.items())]


PROVIDER = Provider("llms", frozenset({"web", "llms_txt"}), _probe_llms)
