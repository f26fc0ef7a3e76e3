"""The probe kit every discovery provider uses (``providers/``).

Contract:
- ``Candidate``: one discovered endpoint (url, type, discovered_by, status ``valid`` /
  ``invalid`` / ``unreachable``, rationale, confidence, authority, purposes, metadata).
  ``Provider(name, kinds, probe)``: ``probe(ctx) -> list[Candidate]`` for sources of ``kinds``.
- ``ProbeContext(cfg, project_root)``: one cached GET per (URL, headers) through the network door
  (``secure_fetch.http_get``; a refusal or transport failure is returned, not raised),
  ``check(url)`` (the URL policy, no I/O), ``robots_sitemaps()``, ``authority(url)`` and
  ``same_site(url)`` (``same_host``: host and port, default ports filled in: the one "same host").
- ``judge(ctx, url, type, by, validate, ...)``: GET and turn the answer into a candidate (policy
  refusal ``invalid`` with ``error_code`` ``blocked_url``; transport failures and 5xx
  ``unreachable``; 4xx ``invalid``; HTML ``invalid`` unless ``html_ok``; else ``validate``).
- Text checks: ``is_html``, ``decode_text``, ``check_markdown``, ``text_validator``; URL helpers
  ``base_urls``, ``same_host``.
Imports only the network door and the file filter, so providers and ``discover`` never import
each other's modules in a circle.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

from docorbit_assets.lib.secure_fetch import fetch_limits, http_get, source_fetcher
from docorbit_serve.errors import BlockedURL, FetchError
from docorbit_serve.registry import SourceConfig

__all__ = [
    "ALL_PURPOSES",
    "LABELS",
    "PURPOSES",
    "PURPOSE_WEIGHTS",
    "Candidate",
    "ProbeContext",
    "Provider",
    "Verdict",
    "base_urls",
    "check_markdown",
    "decode_text",
    "is_html",
    "judge",
    "row_error_code",
    "same_host",
    "text_validator",
]

PURPOSES = ("navigation", "conceptual", "api", "examples", "implementation")
ALL_PURPOSES = ("conceptual", "api", "examples")

# How well a candidate type serves each purpose (0 = not at all); times confidence and authority.
PURPOSE_WEIGHTS: dict[str, dict[str, float]] = {
    "local": {"conceptual": 1.0, "api": 0.6, "examples": 0.8, "navigation": 0.5},
    "git": {"conceptual": 1.0, "api": 0.6, "examples": 0.8, "navigation": 0.5},
    "llms_txt": {"navigation": 1.0, "conceptual": 0.5, "api": 0.3, "examples": 0.3},
    "llms_full_txt": {"conceptual": 1.0, "examples": 0.8, "api": 0.6, "navigation": 0.4},
    "markdown": {"conceptual": 0.8, "examples": 0.7, "api": 0.5},
    "sitemap": {"navigation": 0.9, "conceptual": 0.4},
    "html": {"navigation": 0.6, "conceptual": 0.6, "examples": 0.5, "api": 0.3},
    "openapi": {"api": 1.0, "examples": 0.3},
    "skill": {"examples": 0.6, "implementation": 0.5, "conceptual": 0.3},
    "github": {"implementation": 1.0, "examples": 0.6},
}


@dataclass(frozen=True)
class Candidate:
    """One discovered endpoint; becomes one ``discovered`` row once ranked."""

    url: str
    type: str
    discovered_by: str
    status: str  # valid | invalid | unreachable
    rationale: str
    content_type: str = ""
    confidence: float = 0.0
    authority: str = "official"
    machine_readable: bool = True
    purposes: tuple[str, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Provider:
    """A discovery strategy: ``probe`` returns candidates for sources whose kind is in ``kinds``."""

    name: str
    kinds: frozenset[str]
    probe: Callable[[ProbeContext], list[Candidate]]


def is_html(body: bytes, content_type: str = "") -> bool:
    """True when a response is an HTML page (by content type or by its first bytes)."""
    if "html" in content_type.lower():
        return True
    head = body[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) or (
        b"<html" in head and b"</" in head
    )


def decode_text(body: bytes) -> str | None:
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _headings(text: str) -> int:
    return sum(1 for line in text.splitlines() if re.match(r"^#{1,6}\s+\S", line))


def check_markdown(text: str, what: str) -> tuple[str, float, str, dict[str, Any]]:
    if not text.strip():
        return "invalid", 0.0, f"{what} is empty", {}
    heads = _headings(text)
    title = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), "")
    meta = {"title": title, "headings": heads}
    confidence = 0.9 if heads else 0.6
    return "valid", confidence, f"{what} with {heads} headings", meta


@dataclass
class ProbeContext:
    """What a provider works with: the source, and one cached GET per (URL, headers)."""

    cfg: SourceConfig
    project_root: Path
    _cache: dict[tuple[str, tuple[tuple[str, str], ...]], Any] = field(default_factory=dict)

    def get(self, url: str, headers: dict[str, str] | None = None) -> Any:
        """The ``secure_fetch.Response`` for ``url``, or the ``BlockedURL``/``FetchError`` it raised."""
        key = (url, tuple(sorted((headers or {}).items())))
        if key not in self._cache:
            lim = fetch_limits(self.cfg)
            try:
                self._cache[key] = http_get(
                    url,
                    timeout=lim.timeout,
                    deadline=lim.deadline,
                    max_bytes=lim.max_bytes,
                    headers=headers,
                    allow_hosts=self.cfg.allow_hosts,
                    limits=self.cfg.limits,
                )
            except (BlockedURL, FetchError) as e:
                self._cache[key] = e
        return self._cache[key]

    def check(self, url: str) -> str | None:
        """The policy's refusal reason for a URL found in content, or None (no DNS, no I/O)."""
        try:
            source_fetcher(self.cfg).check(url)
        except BlockedURL as e:
            return str(e.detail.get("reason", "blocked"))
        return None

    def robots_sitemaps(self) -> tuple[str, ...]:
        try:
            return source_fetcher(self.cfg).robots(self.cfg.location).sitemaps
        except (BlockedURL, FetchError):
            return ()

    @property
    def location(self) -> str:
        return self.cfg.location

    def authority(self, url: str) -> str:
        return "official" if same_host(url, self.cfg.location) else "third_party"

    def same_site(self, url: str) -> bool:
        return same_host(url, self.cfg.location)


def same_host(a: str, b: str) -> bool:
    sa, sb = urlsplit(a), urlsplit(b)
    return (sa.hostname, sa.port or default_port(sa.scheme)) == (
        sb.hostname,
        sb.port or default_port(sb.scheme),
    )


def default_port(scheme: str) -> int:
    return 443 if scheme == "https" else 80


def _folder_url(url: str) -> str:
    parts = urlsplit(url)
    path = parts.path or "/"
    if not path.endswith("/"):
        path = path.rsplit("/", 1)[0] + "/"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def base_urls(url: str) -> list[str]:
    """Folders to probe for well-known files: the URL's folder (the URL itself when its last
    segment has no dot), then the host root."""
    bases = [_folder_url(url), _folder_url(urljoin(url, "/"))]
    last = urlsplit(url).path.rsplit("/", 1)[-1]
    if last and "." not in last:  # ".../guide" usually means the folder ".../guide/"
        bases.insert(0, _folder_url(url + "/"))
    return list(dict.fromkeys(bases))


Verdict = tuple[str, float, str, dict[str, Any]]  # status, confidence, rationale, metadata


def judge(
    ctx: ProbeContext,
    url: str,
    ctype: str,
    by: str,
    validate: Callable[[Any], Verdict],
    *,
    headers: dict[str, str] | None = None,
    html_ok: bool = False,
    machine_readable: bool = True,
) -> Candidate:
    """GET ``url`` (cached) and turn the answer into a candidate of type ``ctype``.

    Policy refusals are ``invalid`` (``error_code`` ``blocked_url``); transport failures and
    5xx are ``unreachable``; 4xx are ``invalid``; an HTML page is ``invalid`` unless
    ``html_ok`` (soft 404s: sites answer every path with their home page and 200); otherwise
    ``validate(response)`` decides.
    """
    base: dict[str, Any] = {
        "url": url,
        "type": ctype,
        "discovered_by": by,
        "authority": ctx.authority(url),
        "machine_readable": machine_readable,
        "purposes": tuple(p for p in PURPOSES if PURPOSE_WEIGHTS.get(ctype, {}).get(p)),
    }
    resp = ctx.get(url, headers)
    if isinstance(resp, BlockedURL):
        reason = resp.detail.get("reason", "")
        return Candidate(
            **base,
            status="invalid",
            rationale=f"blocked_url ({reason}): {resp.message}",
            metadata={"error_code": "blocked_url", "reason": reason},
        )
    if isinstance(resp, FetchError):
        return Candidate(
            **base,
            status="unreachable",
            rationale=f"{resp.code}: {resp.message}",
            metadata={"error_code": resp.code},
        )
    meta: dict[str, Any] = {"http_status": resp.status, "bytes": len(resp.body)}
    if resp.final_url != url:
        meta["final_url"] = resp.final_url
    if resp.truncated:
        meta["truncated"] = True
    common = {**base, "content_type": resp.content_type}
    if resp.status >= 500 or resp.status == 429:
        return Candidate(
            **common, status="unreachable", rationale=f"HTTP {resp.status}", metadata=meta
        )
    if resp.status >= 400:
        return Candidate(**common, status="invalid", rationale=f"HTTP {resp.status}", metadata=meta)
    if not html_ok and is_html(resp.body, resp.content_type):
        why = f"HTML page served with {resp.status}, not {LABELS.get(ctype, ctype)}"
        return Candidate(**common, status="invalid", rationale=why, metadata=meta)
    status, conf, why, extra = validate(resp)
    return Candidate(
        **common, status=status, confidence=conf, rationale=why, metadata={**meta, **extra}
    )


def text_validator(check: Callable[[str], Verdict]) -> Callable[[Any], Verdict]:
    def validate(resp: Any) -> Verdict:
        text = decode_text(resp.body)
        if text is None:
            return "invalid", 0.0, "not UTF-8 text", {}
        return check(text)

    return validate


LABELS = {
    "llms_full_txt": "llms-full.txt",
    "llms_txt": "llms.txt",
    "markdown": "Markdown",
    "openapi": "an OpenAPI document",
    "sitemap": "a sitemap",
    "skill": "a skill file",
}


def row_error_code(row: Mapping[str, Any]) -> str:
    """The ``error_code`` a ``discovered`` row's metadata records ("" when none), read from the
    parsed metadata (never a substring search in its JSON text)."""
    meta = json.loads(row.get("metadata_json") or "{}")
    return str(meta.get("error_code") or "") if isinstance(meta, dict) else ""
