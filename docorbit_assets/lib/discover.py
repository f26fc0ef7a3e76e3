"""The ``discovered`` stage: which endpoints of a source are worth ingesting, and in what order.

``discover(cfg, project_root) -> pa.Table`` (``DISCOVERED`` schema) runs every *provider* that
applies to the source's kind and ranks what they found. It never raises for an unusable source:
a missing folder, an unreachable site or an HTML page posing as ``llms.txt`` become rows with
``status`` ``invalid``/``unreachable`` and a one-line ``rationale``. The ``fetches`` stage turns
"no valid candidate" into a typed ``FetchError`` (see ``fetch.fetch_source``), so the failure
surfaces once, with the reason discovery recorded, and never as a crash here.

Providers (``PROVIDERS``; a later provider appends itself, nothing else changes):

- ``local``  (kind ``local``): one ``local`` row; valid when the folder exists and holds at least
  one Markdown file (``.md``/``.mdx``/``.markdown``) after include/exclude globs.
- ``llms``   (kinds ``web``, ``llms_txt``): probes ``<base>/llms-full.txt`` and
  ``<base>/llms.txt`` (``<base>`` = the URL's folder, the URL itself as a folder when its last
  segment has no dot, and the host root) and the
  URL itself when it names an ``llms*.txt`` file. Kind ``llms_txt`` probes only the URL itself.
- ``markdown`` (kinds ``web``, ``markdown``): the URL itself when it ends in ``.md`` (kind
  ``web``) or always (kind ``markdown``).

Validation: an ``llms.txt`` is UTF-8 Markdown with at least one link and is not HTML (whatever
the status code and content type say); ``llms-full.txt`` and Markdown pages are non-empty UTF-8
text that is not HTML. HTTP 4xx and failed validation give ``invalid``; connection errors,
timeouts and 5xx give ``unreachable``.

Ranking: valid candidates get ``rank`` 1, 2, … by ingestion preference (``INGEST_PRIORITY``:
local > llms-full.txt > llms.txt > single Markdown page; then confidence; then URL). Rows that
are not valid get ``rank`` 0. Rows are ordered by rank (valid first), then URL.

All network access goes through ``fetch.http_get`` (the one network function of the pipeline).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

import pyarrow as pa

from docorbit_serve.errors import BlockedURL, FetchError
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS, canonical_json

__all__ = [
    "INGEST_PRIORITY",
    "PURPOSES",
    "PURPOSE_WEIGHTS",
    "ProbeContext",
    "judge",
    "purpose_ranking",
    "MARKDOWN_SUFFIXES",
    "PROVIDERS",
    "Candidate",
    "LlmsEntry",
    "LlmsTxt",
    "Provider",
    "best_candidate",
    "discover",
    "glob_match",
    "is_html",
    "local_markdown_files",
    "parse_llms_txt",
    "with_allow_hosts",
]

MARKDOWN_SUFFIXES = (".md", ".mdx", ".markdown")

# Higher is preferred for ingestion. Providers added later register their types here.
INGEST_PRIORITY: dict[str, int] = {
    "local": 60,
    "llms_full_txt": 50,
    "llms_txt": 40,
    "markdown": 30,
    "sitemap": 20,
    "html": 10,
    "openapi": 5,  # ingested alone only when nothing else is valid (kind ``openapi``)
}

PURPOSES = ("navigation", "conceptual", "api", "examples", "implementation")
_ALL_PURPOSES = ("conceptual", "api", "examples")

# How well a candidate type serves each purpose (0 = not at all); times confidence and authority.
PURPOSE_WEIGHTS: dict[str, dict[str, float]] = {
    "local": {"conceptual": 1.0, "api": 0.6, "examples": 0.8, "navigation": 0.5},
    "llms_txt": {"navigation": 1.0, "conceptual": 0.5, "api": 0.3, "examples": 0.3},
    "llms_full_txt": {"conceptual": 1.0, "examples": 0.8, "api": 0.6, "navigation": 0.4},
    "markdown": {"conceptual": 0.8, "examples": 0.7, "api": 0.5},
    "sitemap": {"navigation": 0.9, "conceptual": 0.4},
    "html": {"navigation": 0.6, "conceptual": 0.6, "examples": 0.5, "api": 0.3},
    "openapi": {"api": 1.0, "examples": 0.3},
    "skill": {"examples": 0.6, "implementation": 0.5, "conceptual": 0.3},
    "github": {"implementation": 1.0, "examples": 0.6},
}
_AUTHORITY = {"official": 1.0, "community": 0.8, "third_party": 0.6}


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


# ---------------------------------------------------------------------------------------------
# Local folders


def glob_match(rel_path: str, pattern: str) -> bool:
    """Match a POSIX relative path against a glob: ``**`` spans folders, ``*``/``?`` do not.

    A pattern without ``/`` matches the file name in any folder (``*.md``); a pattern with
    ``/`` matches the whole relative path (``guide/**/*.md``).
    """
    if "/" not in pattern:
        return _glob_regex(pattern).fullmatch(PurePosixPath(rel_path).name) is not None
    return _glob_regex(pattern.lstrip("/")).fullmatch(rel_path) is not None


def _glob_regex(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def _selected(rel: str, include: Sequence[str], exclude: Sequence[str]) -> bool:
    if include and not any(glob_match(rel, p) for p in include):
        return False
    return not any(glob_match(rel, p) for p in exclude)


def local_markdown_files(
    root: Path, include: Sequence[str] = (), exclude: Sequence[str] = ()
) -> list[str]:
    """Markdown files under ``root`` as sorted POSIX paths relative to it.

    Hidden files and folders (name starting with ``.``) are skipped; symlinks that resolve
    outside ``root`` are skipped (a docs folder must not read files it does not contain).
    """
    root = root.resolve()
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if name.startswith(".") or not name.lower().endswith(MARKDOWN_SUFFIXES):
                continue
            full = Path(dirpath) / name
            if full.is_symlink() and not full.resolve().is_relative_to(root):
                continue
            rel = full.relative_to(root).as_posix()
            if _selected(rel, include, exclude):
                found.append(rel)
    return sorted(found)


def _probe_local(ctx: ProbeContext) -> list[Candidate]:
    cfg = ctx.cfg
    folder = Path(cfg.resolved_location(ctx.project_root))
    url = "file://" + folder.as_posix()
    base: dict[str, Any] = {
        "url": url,
        "type": "local",
        "discovered_by": "local",
        "purposes": _ALL_PURPOSES,
    }
    if not folder.exists():
        return [Candidate(**base, status="invalid", rationale=f"folder {folder} does not exist")]
    if not folder.is_dir():
        return [Candidate(**base, status="invalid", rationale=f"{folder} is not a folder")]
    files = local_markdown_files(folder, cfg.include, cfg.exclude)
    if not files:
        return [
            Candidate(
                **base,
                status="invalid",
                rationale=f"folder {folder} holds no Markdown files (.md, .mdx, .markdown)"
                + (" matching include/exclude" if cfg.include or cfg.exclude else ""),
            )
        ]
    return [
        Candidate(
            **base,
            status="valid",
            content_type="text/markdown",
            confidence=1.0,
            rationale=f"local folder with {len(files)} Markdown files",
            metadata={"files": len(files)},
        )
    ]


# ---------------------------------------------------------------------------------------------
# llms.txt parsing and content checks


@dataclass(frozen=True)
class LlmsEntry:
    title: str
    url: str  # as written (may be relative)
    description: str
    section: str  # the H2 it is listed under; "" before the first H2


@dataclass(frozen=True)
class LlmsTxt:
    title: str  # the first H1, "" when absent
    summary: str  # the first blockquote, joined
    sections: tuple[str, ...]  # H2 names in order
    entries: tuple[LlmsEntry, ...]  # list-item links, document order
    links: int  # every Markdown link outside code fences


_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_ITEM = re.compile(
    r"^\s*[-*+]\s+\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)\s*:?\s*(.*)$"
)
_FENCE = re.compile(r"^\s*(```|~~~)")


def parse_llms_txt(text: str) -> LlmsTxt:
    """Parse the llms.txt structure: H1 title, blockquote summary, H2 sections, link lists."""
    title, summary, sections, entries, links = "", [], [], [], 0
    section, in_fence, quote_done = "", False, False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        stripped = line.strip()
        if stripped.startswith("# ") and not title:
            title = stripped[2:].strip()
        elif stripped.startswith("## "):
            section = stripped[3:].strip()
            sections.append(section)
        elif stripped.startswith(">") and not quote_done:
            summary.append(stripped.lstrip(">").strip())
        elif summary:
            quote_done = True
        links += len(_LINK.findall(line))
        m = _ITEM.match(line)
        if m:
            entries.append(LlmsEntry(m.group(1).strip(), m.group(2), m.group(3).strip(), section))
    return LlmsTxt(title, " ".join(s for s in summary if s), tuple(sections), tuple(entries), links)


def is_html(body: bytes, content_type: str = "") -> bool:
    """True when a response is an HTML page (by content type or by its first bytes)."""
    if "html" in content_type.lower():
        return True
    head = body[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) or (
        b"<html" in head and b"</" in head
    )


def _decode(body: bytes) -> str | None:
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _headings(text: str) -> int:
    return sum(1 for line in text.splitlines() if re.match(r"^#{1,6}\s+\S", line))


def _check_llms_txt(text: str) -> tuple[str, float, str, dict[str, Any]]:
    doc = parse_llms_txt(text)
    meta = {
        "title": doc.title,
        "summary": doc.summary,
        "sections": list(doc.sections),
        "entries": len(doc.entries),
        "links": doc.links,
    }
    if doc.links == 0:
        return "invalid", 0.0, "llms.txt has no Markdown links", meta
    confidence = 0.5 + 0.2 * bool(doc.title) + 0.1 * bool(doc.summary)
    confidence += 0.1 * bool(doc.sections) + 0.05 * bool(doc.entries)
    label = f"'{doc.title}'" if doc.title else "without H1 title"
    why = f"llms.txt {label}: {len(doc.sections)} sections, {len(doc.entries)} entries"
    return "valid", round(min(confidence, 0.95), 2), why, meta


def _check_markdown(text: str, what: str) -> tuple[str, float, str, dict[str, Any]]:
    if not text.strip():
        return "invalid", 0.0, f"{what} is empty", {}
    heads = _headings(text)
    title = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), "")
    meta = {"title": title, "headings": heads}
    confidence = 0.9 if heads else 0.6
    return "valid", confidence, f"{what} with {heads} headings", meta


# ---------------------------------------------------------------------------------------------
# Web probes


@dataclass
class ProbeContext:
    """What a provider works with: the source, and one cached GET per (URL, headers)."""

    cfg: SourceConfig
    project_root: Path
    _cache: dict[tuple[str, tuple[tuple[str, str], ...]], Any] = field(default_factory=dict)

    def get(self, url: str, headers: dict[str, str] | None = None) -> Any:
        """The ``fetch.Response`` for ``url``, or the ``BlockedURL``/``FetchError`` it raised."""
        from docorbit_assets.lib.fetch import fetch_limits, http_get  # fetch imports this module

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
        from docorbit_assets.lib.fetch import source_fetcher

        try:
            source_fetcher(self.cfg).check(url)
        except BlockedURL as e:
            return str(e.detail.get("reason", "blocked"))
        return None

    def robots_sitemaps(self) -> tuple[str, ...]:
        from docorbit_assets.lib.fetch import source_fetcher

        try:
            return source_fetcher(self.cfg).robots(self.cfg.location).sitemaps
        except (BlockedURL, FetchError):
            return ()

    @property
    def location(self) -> str:
        return self.cfg.location

    def authority(self, url: str) -> str:
        return "official" if _same_host(url, self.cfg.location) else "third_party"

    def same_site(self, url: str) -> bool:
        return _same_host(url, self.cfg.location)


def _same_host(a: str, b: str) -> bool:
    sa, sb = urlsplit(a), urlsplit(b)
    return (sa.hostname, sa.port or _default_port(sa.scheme)) == (
        sb.hostname,
        sb.port or _default_port(sb.scheme),
    )


def _default_port(scheme: str) -> int:
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
        why = f"HTML page served with {resp.status}, not {_LABEL.get(ctype, ctype)}"
        return Candidate(**common, status="invalid", rationale=why, metadata=meta)
    status, conf, why, extra = validate(resp)
    return Candidate(
        **common, status=status, confidence=conf, rationale=why, metadata={**meta, **extra}
    )


def _text_validator(check: Callable[[str], Verdict]) -> Callable[[Any], Verdict]:
    def validate(resp: Any) -> Verdict:
        text = _decode(resp.body)
        if text is None:
            return "invalid", 0.0, "not UTF-8 text", {}
        return check(text)

    return validate


_LABEL = {
    "llms_full_txt": "llms-full.txt",
    "llms_txt": "llms.txt",
    "markdown": "Markdown",
    "openapi": "an OpenAPI document",
    "sitemap": "a sitemap",
    "skill": "a skill file",
}


def _llms_type(url: str) -> str | None:
    name = urlsplit(url).path.rsplit("/", 1)[-1].lower()
    if name == "llms-full.txt":
        return "llms_full_txt"
    if name.startswith("llms") and name.endswith(".txt"):
        return "llms_txt"
    return None


def _llms_validator(ctype: str) -> Callable[[Any], Verdict]:
    if ctype == "llms_txt":
        return _text_validator(_check_llms_txt)
    return _text_validator(lambda t: _check_markdown(t, _LABEL.get(ctype, ctype)))


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


def _markdown_check(text: str) -> Verdict:
    return _check_markdown(text, "Markdown page")


def _probe_markdown(ctx: ProbeContext) -> list[Candidate]:
    """The URL itself when it names a Markdown file; for a page URL, its ``.md`` variants and
    the same URL asked with ``Accept: text/markdown`` (valid only if the answer is declared
    ``text/markdown``: content negotiation, not a guess)."""
    cfg, url = ctx.cfg, ctx.location
    path = urlsplit(url).path
    if cfg.kind == "markdown" or path.lower().endswith(MARKDOWN_SUFFIXES):
        return [judge(ctx, url, "markdown", "given_url", _text_validator(_markdown_check))]
    parts = urlsplit(url)
    variants = (
        [path + "index.md"]
        if path.endswith("/") or not path
        else [path + ".md", path + "/index.md"]
    )
    out = []
    for v in variants:
        vurl = urlunsplit((parts.scheme, parts.netloc, v or "/index.md", "", ""))
        out.append(judge(ctx, vurl, "markdown", "md_variant", _text_validator(_markdown_check)))

    def negotiated(resp: Any) -> Verdict:
        if "markdown" not in resp.content_type.lower():
            return (
                "invalid",
                0.0,
                f"answered {resp.content_type or 'no type'}, not text/markdown",
                {},
            )
        return _text_validator(_markdown_check)(resp)

    cand = judge(
        ctx, url, "markdown", "accept_markdown", negotiated, headers={"Accept": "text/markdown"}
    )
    out.append(cand)
    return out


def _no_provider(cfg: SourceConfig) -> Candidate:
    return Candidate(
        url=cfg.location,
        type=cfg.kind if cfg.kind in INGEST_PRIORITY else "web",
        discovered_by="none",
        status="invalid",
        rationale=f"no discovery provider handles kind {cfg.kind!r} yet",
        machine_readable=False,
    )


# ---------------------------------------------------------------------------------------------
# Ranking and the table


def _scores(c: Candidate) -> dict[str, float]:
    if c.status != "valid":
        return {}
    w = PURPOSE_WEIGHTS.get(c.type, {})
    auth = _AUTHORITY.get(c.authority, 0.5)
    return {p: round(w[p] * c.confidence * auth, 4) for p in PURPOSES if w.get(p)}


def _rank(cands: Iterable[Candidate]) -> list[tuple[int, Candidate]]:
    unique: dict[tuple[str, str], Candidate] = {}
    for c in cands:  # a (URL, type) probed twice keeps the best verdict
        key = (c.url, c.type)
        old = unique.get(key)
        if old is None or (old.status != "valid" and c.status == "valid"):
            unique[key] = c
    valid = sorted(
        (c for c in unique.values() if c.status == "valid"),
        key=lambda c: (-INGEST_PRIORITY.get(c.type, 0), -c.confidence, c.url, c.type),
    )
    others = sorted(
        (c for c in unique.values() if c.status != "valid"),
        key=lambda c: (c.url, c.type, c.discovered_by),
    )
    return [(i + 1, c) for i, c in enumerate(valid)] + [(0, c) for c in others]


def purpose_ranking(discovered: pa.Table) -> dict[str, Any]:
    """Per purpose: the recommended candidate, the ranked list and a one-line rationale."""
    rows = discovered.to_pylist()
    out: dict[str, Any] = {}
    for purpose in PURPOSES:
        scored = []
        for r in rows:
            score = json.loads(r["metadata_json"]).get("purpose_scores", {}).get(purpose)
            if score:
                scored.append((score, r))
        scored.sort(key=lambda x: (-x[0], -INGEST_PRIORITY.get(x[1]["type"], 0), x[1]["url"]))
        ranked = [
            {"url": r["url"], "type": r["type"], "score": s, "authority": r["authority"]}
            for s, r in scored
        ]
        if scored:
            s, r = scored[0]
            why = (
                f"{purpose}: {_LABEL.get(r['type'], r['type'])} {r['url']} "
                f"({r['authority']}, {'machine-readable' if r['machine_readable'] else 'not machine-readable'}, "
                f"score {s:.2f}) - {r['rationale']}"
            )
            out[purpose] = {"recommended": ranked[0], "ranked": ranked, "rationale": why}
        else:
            out[purpose] = {
                "recommended": None,
                "ranked": [],
                "rationale": f"{purpose}: no valid candidate serves it",
            }
    return out


def discover(
    cfg: SourceConfig,
    project_root: Path,
    *,
    providers: Sequence[Provider] | None = None,
    allow_hosts: Sequence[str] = (),
) -> pa.Table:
    """Run the applicable providers and rank their candidates (one ``discovered`` table).

    ``allow_hosts`` (registry-wide and per-run allowances) are merged with ``cfg.allow_hosts``.
    """
    cfg = with_allow_hosts(cfg, allow_hosts)
    ctx = ProbeContext(cfg, project_root)
    found: list[Candidate] = []
    applicable = [p for p in (PROVIDERS if providers is None else providers) if cfg.kind in p.kinds]
    for provider in applicable:
        found.extend(provider.probe(ctx))
    if not applicable:
        found.append(_no_provider(cfg))
    ranked = _rank(found)
    best: dict[str, tuple[float, str, str]] = {}
    for _, c in ranked:
        for p, sc in _scores(c).items():
            if p not in best or sc > best[p][0]:
                best[p] = (sc, c.url, c.type)
    rows = []
    for rank, c in ranked:
        scores = _scores(c)
        chosen = [p for p in PURPOSES if p in best and best[p][1:] == (c.url, c.type)]
        meta = {**c.metadata}
        if scores:
            meta["purpose_scores"] = scores
        if chosen:
            meta["recommended_for"] = chosen
        rationale = c.rationale
        if chosen:
            rationale = f"recommended for {', '.join(chosen)}; {rationale}"
        rows.append(
            {
                "source": cfg.name,
                "url": c.url,
                "type": c.type,
                "discovered_by": c.discovered_by,
                "status": c.status,
                "content_type": c.content_type,
                "confidence": float(c.confidence),
                "authority": c.authority,
                "machine_readable": c.machine_readable,
                "purposes": sorted(scores, key=lambda p: -scores[p])
                if scores
                else list(c.purposes),
                "rank": rank,
                "rationale": rationale,
                "metadata_json": canonical_json(meta),
            }
        )
    return pa.Table.from_pylist(rows, schema=SCHEMAS["discovered"])


def with_allow_hosts(cfg: SourceConfig, extra: Sequence[str]) -> SourceConfig:
    """``cfg`` with ``extra`` allowances appended (order kept, duplicates dropped)."""
    if not extra:
        return cfg
    return replace(cfg, allow_hosts=tuple(dict.fromkeys((*cfg.allow_hosts, *extra))))


def best_candidate(discovered: pa.Table) -> dict[str, Any] | None:
    """The best valid row that can be ingested (lowest rank among ingestible types), or None."""
    valid = [
        r
        for r in discovered.to_pylist()
        if r["status"] == "valid" and r["rank"] > 0 and INGEST_PRIORITY.get(r["type"], 0) > 0
    ]
    return min(valid, key=lambda r: r["rank"]) if valid else None


from docorbit_assets.lib.providers import WEB_PROVIDERS  # noqa: E402  (they use this module)

PROVIDERS: list[Provider] = [
    Provider("local", frozenset({"local"}), _probe_local),
    Provider("llms", frozenset({"web", "llms_txt"}), _probe_llms),
    Provider("markdown", frozenset({"web", "markdown"}), _probe_markdown),
    *WEB_PROVIDERS,
]
