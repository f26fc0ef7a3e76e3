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
    "local": 40,
    "llms_full_txt": 30,
    "llms_txt": 20,
    "markdown": 10,
}

_ALL_PURPOSES = ("conceptual", "api", "examples")


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
    probe: Callable[[SourceConfig, Path], list[Candidate]]


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


def _probe_local(cfg: SourceConfig, project_root: Path) -> list[Candidate]:
    folder = Path(cfg.resolved_location(project_root))
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


def _probe_url(cfg: SourceConfig, url: str, ctype: str, by: str) -> Candidate:
    """GET ``url`` and judge it as a candidate of type ``ctype``."""
    from docorbit_assets.lib.fetch import fetch_limits, http_get  # fetch imports this module

    limits = fetch_limits(cfg)
    authority = "official" if _same_host(url, cfg.location) else "third_party"
    purposes = ("navigation",) if ctype == "llms_txt" else _ALL_PURPOSES
    base: dict[str, Any] = {
        "url": url,
        "type": ctype,
        "discovered_by": by,
        "authority": authority,
        "purposes": purposes,
    }
    try:
        resp = http_get(
            url,
            timeout=limits.timeout,
            deadline=limits.deadline,
            max_bytes=limits.max_bytes,
            allow_hosts=cfg.allow_hosts,
            limits=cfg.limits,
        )
    except BlockedURL as e:
        reason = e.detail.get("reason", "")
        return Candidate(
            **base,
            status="invalid",
            rationale=f"blocked_url ({reason}): {e.message}",
            metadata={"error_code": "blocked_url", "reason": reason},
        )
    except FetchError as e:
        return Candidate(
            **base,
            status="unreachable",
            rationale=f"{e.code}: {e.message}",
            metadata={"error_code": e.code},
        )
    meta: dict[str, Any] = {"http_status": resp.status, "bytes": len(resp.body)}
    if resp.final_url != url:
        meta["final_url"] = resp.final_url
    if resp.truncated:
        meta["truncated"] = True
    common = {**base, "content_type": resp.content_type}
    if resp.status >= 500:
        return Candidate(
            **common, status="unreachable", rationale=f"HTTP {resp.status}", metadata=meta
        )
    if resp.status >= 400:
        return Candidate(**common, status="invalid", rationale=f"HTTP {resp.status}", metadata=meta)
    if is_html(resp.body, resp.content_type):
        why = f"HTML page served with {resp.status}, not {'llms.txt' if ctype == 'llms_txt' else 'Markdown'}"
        return Candidate(**common, status="invalid", rationale=why, metadata=meta)
    text = _decode(resp.body)
    if text is None:
        return Candidate(**common, status="invalid", rationale="not UTF-8 text", metadata=meta)
    if ctype == "llms_txt":
        status, conf, why, extra = _check_llms_txt(text)
    else:
        status, conf, why, extra = _check_markdown(text, _LABEL[ctype])
    return Candidate(
        **common,
        status=status,
        confidence=conf,
        rationale=why,
        metadata={**meta, **extra},
    )


_LABEL = {"llms_full_txt": "llms-full.txt", "markdown": "Markdown page"}


def _llms_type(url: str) -> str | None:
    name = urlsplit(url).path.rsplit("/", 1)[-1].lower()
    if name == "llms-full.txt":
        return "llms_full_txt"
    if name.startswith("llms") and name.endswith(".txt"):
        return "llms_txt"
    return None


def _probe_llms(cfg: SourceConfig, project_root: Path) -> list[Candidate]:
    url = cfg.location
    own = _llms_type(url)
    if cfg.kind == "llms_txt":
        return [_probe_url(cfg, url, own or "llms_txt", "given_url")]
    targets: dict[str, tuple[str, str]] = {}
    if own:
        targets[url] = (own, "given_url")
    bases = [_folder_url(url), _folder_url(urljoin(url, "/"))]
    last = urlsplit(url).path.rsplit("/", 1)[-1]
    if last and "." not in last:  # ".../guide" usually means the folder ".../guide/"
        bases.insert(0, _folder_url(url + "/"))
    for base in dict.fromkeys(bases):
        for name, ctype in (("llms-full.txt", "llms_full_txt"), ("llms.txt", "llms_txt")):
            targets.setdefault(urljoin(base, name), (ctype, f"probe:{name}"))
    return [_probe_url(cfg, u, t, by) for u, (t, by) in sorted(targets.items())]


def _probe_markdown(cfg: SourceConfig, project_root: Path) -> list[Candidate]:
    url = cfg.location
    path = urlsplit(url).path.lower()
    if cfg.kind == "markdown" or path.endswith(MARKDOWN_SUFFIXES):
        return [_probe_url(cfg, url, "markdown", "given_url")]
    return []


def _no_provider(cfg: SourceConfig) -> Candidate:
    return Candidate(
        url=cfg.location,
        type=cfg.kind if cfg.kind in INGEST_PRIORITY else "web",
        discovered_by="none",
        status="invalid",
        rationale=f"no discovery provider handles kind {cfg.kind!r} yet",
        machine_readable=False,
    )


PROVIDERS: list[Provider] = [
    Provider("local", frozenset({"local"}), _probe_local),
    Provider("llms", frozenset({"web", "llms_txt"}), _probe_llms),
    Provider("markdown", frozenset({"web", "markdown"}), _probe_markdown),
]


# ---------------------------------------------------------------------------------------------
# Ranking and the table


def _rank(cands: Iterable[Candidate]) -> list[tuple[int, Candidate]]:
    unique = list({c.url: c for c in cands}.values())  # a URL probed twice keeps the last verdict
    valid = sorted(
        (c for c in unique if c.status == "valid"),
        key=lambda c: (-INGEST_PRIORITY.get(c.type, 0), -c.confidence, c.url),
    )
    others = sorted((c for c in unique if c.status != "valid"), key=lambda c: (c.url, c.type))
    return [(i + 1, c) for i, c in enumerate(valid)] + [(0, c) for c in others]


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
    found: list[Candidate] = []
    applicable = [p for p in (PROVIDERS if providers is None else providers) if cfg.kind in p.kinds]
    for provider in applicable:
        found.extend(provider.probe(cfg, project_root))
    if not applicable:
        found.append(_no_provider(cfg))
    rows = [
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
            "purposes": list(c.purposes),
            "rank": rank,
            "rationale": c.rationale,
            "metadata_json": canonical_json(c.metadata),
        }
        for rank, c in _rank(found)
    ]
    return pa.Table.from_pylist(rows, schema=SCHEMAS["discovered"])


def with_allow_hosts(cfg: SourceConfig, extra: Sequence[str]) -> SourceConfig:
    """``cfg`` with ``extra`` allowances appended (order kept, duplicates dropped)."""
    if not extra:
        return cfg
    return replace(cfg, allow_hosts=tuple(dict.fromkeys((*cfg.allow_hosts, *extra))))


def best_candidate(discovered: pa.Table) -> dict[str, Any] | None:
    """The rank-1 valid row of a ``discovered`` table, or ``None`` when nothing is usable."""
    for row in discovered.to_pylist():
        if row["status"] == "valid" and row["rank"] == 1:
            return row
    return None
