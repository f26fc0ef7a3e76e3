"""Provider ``openapi`` (kinds web, openapi): spec files at the source's folder and host root and
spec links in its page; kind ``openapi`` probes only the URL (or a local file). Valid only when
``lib.openapi.inspect_spec`` accepts the document."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from docorbit_assets.lib import openapi as _openapi
from docorbit_assets.lib.probe import (
    Candidate,
    ProbeContext,
    Provider,
    Verdict,
    base_urls,
    judge,
)
from docorbit_assets.lib.providers.page import (
    source_page,
)

__all__ = ["PROVIDER"]

_SPEC_PATHS = ("openapi.json", "openapi.yaml", "swagger.json", "v3/api-docs")
_SPEC_LINK = re.compile(r"(openapi|swagger)[^/]*\.(json|ya?ml)$", re.I)


def _spec_validator(ctx: ProbeContext) -> Any:
    def validate(resp: Any) -> Verdict:
        info = _openapi.inspect_spec(
            resp.body, content_type=resp.content_type, url=resp.final_url, check=ctx.check
        )
        meta = {"spec": info.to_json()}
        if not info.valid:
            return "invalid", 0.0, f"not an OpenAPI document: {info.reason} ({info.message})", meta
        conf = 0.9 if info.operations or info.webhooks else 0.6
        return "valid", conf, info.message, meta

    return validate


_SPEC_MAX_BYTES = _openapi.MAX_BYTES


def _probe_local_spec(ctx: ProbeContext) -> Candidate:
    """Kind ``openapi`` with a file path: the file itself, validated like a fetched spec."""
    path = Path(ctx.cfg.resolved_location(ctx.project_root))
    base: dict[str, Any] = {
        "url": "file://" + path.as_posix(),
        "type": "openapi",
        "discovered_by": "local",
        "purposes": ("api", "examples"),
    }
    if not path.is_file():
        return Candidate(**base, status="invalid", rationale=f"file {path} does not exist")
    with path.open("rb") as f:
        body = f.read(_SPEC_MAX_BYTES + 1)
    info = _openapi.inspect_spec(body, url=base["url"], check=ctx.check)
    meta = {"spec": info.to_json()}
    if not info.valid:
        why = f"not an OpenAPI document: {info.reason} ({info.message})"
        return Candidate(**base, status="invalid", rationale=why, metadata=meta)
    conf = 0.9 if info.operations or info.webhooks else 0.6
    return Candidate(**base, status="valid", confidence=conf, rationale=info.message, metadata=meta)


def _probe_openapi(ctx: ProbeContext) -> list[Candidate]:
    if ctx.cfg.kind == "openapi":
        if not ctx.cfg.is_web:
            return [_probe_local_spec(ctx)]
        return [judge(ctx, ctx.location, "openapi", "given_url", _spec_validator(ctx))]
    targets: dict[str, str] = {}
    for base in base_urls(ctx.location):
        for path in _SPEC_PATHS:
            targets.setdefault(urljoin(base, path), f"probe:{path}")
    page = source_page(ctx)
    if page:
        resp, info = page
        hrefs = [
            *info.spec_links,
            *(h for h, _, _ in info.anchors if _SPEC_LINK.search(urlsplit(h).path)),
        ]
        for href in hrefs:
            url = urljoin(resp.final_url, href)
            if ctx.check(url) is None and url not in targets:
                targets[url] = "html_link"
    return [
        judge(ctx, u, "openapi", by, _spec_validator(ctx), html_ok=False)
        for u, by in sorted(targets.items())
    ]


PROVIDER = Provider("openapi", frozenset({"web", "openapi"}), _probe_openapi)
