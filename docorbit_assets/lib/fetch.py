"""The ``fetches`` stage.

This module opens no connection: every request goes through the network door in
``secure_fetch`` (``http_get``, ``source_fetcher``: ``SecureFetcher`` with URL and address
policy, connect-time pinning, redirects re-checked, one deadline, byte cap, robots.txt,
politeness, retries), the only module of DocOrbit that talks to the network (a test checks the
imports). HTTP error statuses are returned; refusals raise ``BlockedURL`` and transport
failures ``FetchError`` with a stable ``code``.

``fetch_source(cfg, discovered, project_root, *, allow_hosts=()) -> pa.Table`` (``FETCHES``)
fetches the source from its rank-1 valid ``discovered`` candidate and raises ``FetchError``
when there is none (the message carries discovery's rationale). Strategies by candidate type:

- ``local``: every document under the folder (``local_files.local_document_files``: Markdown,
  ``.html``/``.htm``, ``.rst``; ``.txt`` when an include glob names it, else a row with
  ``error_code`` ``skipped_text``; build artifacts of a Sphinx/MkDocs output skipped),
  sorted by relative path; ``url`` = ``file://<abs path>``, ``status`` 0, ``fetched_at`` = the
  file's mtime (UTC), so the table is a pure function of the folder. HTML is stored as read
  (``text/html``, converted by the normalizer like a web page), rST converted to Markdown, text
  decoded to UTF-8 (``local_files.prepare``). An unreadable file is a row with ``ok`` False and
  ``error_code`` ``read_error``; a binary, undecodable or control-character file is refused the
  same way with ``binary_file``, ``not_utf8`` or ``control_characters``.
- ``git``: the same rows for the documents of the commit discovery resolved
  (``git_tree.read_tree``, the tree read from the object store, never the working tree);
  ``fetched_at`` is the commit's time and ``etag`` its id, so the table is a pure function of
  the commit.
- ``llms_full_txt`` / ``markdown``: one row for the URL.
- ``llms_txt``: a row for the llms.txt itself, then one row per distinct linked entry on the
  same host (fragment dropped, include/exclude globs applied to the URL path), sorted by URL.
  Entries past ``max_pages`` are rows with ``error_code`` ``page_limit``; entries that are not
  Markdown (no ``.md`` suffix and not ``text/markdown``, or HTML) are ``not_markdown``; HTTP
  4xx/5xx are ``http_error``. Off-host links are not fetched and not recorded here.

- ``openapi``: the spec (URL, or the local file discovery validated: ``url`` ``file://…``,
  content type from the suffix). And for any other best candidate, the valid ``openapi``
  candidates discovery ranked (at most ``MAX_SPECS_BESIDE``) are fetched beside the docs
  (``_specs_beside``): their rows hold the spec, ``ok`` False on failure (never raised).

Contract for the normalizer: every row with ``ok`` True holds Markdown (or an OpenAPI
document, which ``normalize`` recognises by its content), whatever the served
content type (llms.txt and llms-full.txt are often ``text/plain``). A body cut at the byte cap is
``ok`` True with ``error_code`` ``truncated``. A failure of the primary document (the llms.txt,
llms-full.txt or single page) raises ``FetchError``: the source keeps its previous snapshot.

Limits come from ``cfg.limits``: ``max_pages`` (50), ``max_bytes`` (10 MiB per response),
``timeout`` (10 s per phase), ``deadline`` (30 s per request).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

import pyarrow as pa

from docorbit_assets.lib.discover import best_candidate, with_allow_hosts
from docorbit_assets.lib.filefilter import MARKDOWN_SUFFIXES, selected_url
from docorbit_assets.lib.git_tree import read_tree
from docorbit_assets.lib.llms_txt import parse_llms_txt
from docorbit_assets.lib.local_files import (
    NotText,
    local_document_files,
    prepare,
    skipped_text_files,
)
from docorbit_assets.lib.probe import ProbeContext, is_html, row_error_code, same_host
from docorbit_assets.lib.providers import sitemap_pages
from docorbit_assets.lib.secure_fetch import Response, fetch_limits, http_get, source_fetcher
from docorbit_serve.errors import BlockedURL, FetchError
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS

__all__ = ["MAX_SPECS_BESIDE", "fetch_source"]


# ---------------------------------------------------------------------------------------------
# Rows


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _row(source: str, url: str, **kw: Any) -> dict[str, Any]:
    body: bytes = kw.pop("body", b"")
    row = {
        "source": source,
        "url": url,
        "final_url": url,
        "status": 0,
        "ok": False,
        "content_type": "",
        "bytes": len(body),
        "content_hash": hashlib.sha256(body).hexdigest() if body else "",
        "etag": "",
        "last_modified": "",
        "error_code": "",
        "error_message": "",
        "fetched_at": "",
        "body": body,
    }
    row.update(kw)
    return row


def _fetch_local(cfg: SourceConfig, cand: dict[str, Any], project_root: Path) -> list[dict]:
    root = Path(cfg.resolved_location(project_root))
    cap = fetch_limits(cfg).max_bytes
    rows = []
    for rel in local_document_files(root, cfg.include, cfg.exclude):
        path = root / rel
        url = "file://" + path.as_posix()
        try:
            st = path.stat()
            with path.open("rb") as f:
                body = f.read(cap + 1)
        except OSError as e:
            rows.append(
                _row(
                    cfg.name, url, error_code="read_error", error_message=f"{type(e).__name__}: {e}"
                )
            )
            continue
        when = datetime.fromtimestamp(st.st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        rows.append(_document_row(cfg.name, url, rel, body[:cap], len(body) > cap, when))
    base = "file://" + root.as_posix() + "/"
    rows += [
        _skipped_text(cfg.name, base, rel)
        for rel in skipped_text_files(root, cfg.include, cfg.exclude)
    ]
    rows.sort(key=lambda r: r["url"])
    return rows


def _document_row(
    source: str, url: str, rel: str, body: bytes, cut: bool, fetched_at: str, etag: str = ""
) -> dict[str, Any]:
    """The row of one local or git document (``body`` already cut at the cap when ``cut``)."""
    try:
        data, content_type = prepare(rel, body, truncated=cut)
    except NotText as e:  # binary, undecodable or control characters: refused, reported
        return _row(source, url, error_code=e.code, error_message=f"{rel}: {e}")
    return _row(
        source,
        url,
        ok=True,
        body=data,
        content_type=content_type,
        etag=etag,
        error_code="truncated" if cut else "",
        error_message=f"body cut at {len(body)} bytes" if cut else "",
        fetched_at=fetched_at,
    )


def _skipped_text(source: str, base: str, rel: str) -> dict[str, Any]:
    message = f"{rel}: plain-text file not read (add include = ['*.txt'] to read .txt files)"
    return _row(source, base + rel, error_code="skipped_text", error_message=message)


@dataclass
class _Job:
    """One ``fetch_source`` call: the source, its previous rows (conditional GET) and counters."""

    cfg: SourceConfig
    project_root: Path
    previous: dict[str, dict[str, Any]]
    unchanged: int = 0

    def get(self, url: str, **kw: Any) -> Response:
        lim = fetch_limits(self.cfg)
        return http_get(
            url,
            timeout=lim.timeout,
            deadline=lim.deadline,
            max_bytes=lim.max_bytes,
            allow_hosts=self.cfg.allow_hosts,
            limits=self.cfg.limits,
            **kw,
        )


def _web_row(
    job: _Job,
    url: str,
    *,
    markdown_only: bool,
    html_ok: bool = False,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    cfg = job.cfg
    lim = fetch_limits(cfg)
    fetched_at = _now()
    before = job.previous.get(url)
    cond = {}
    if before and before["ok"] and (before["etag"] or before["last_modified"]):
        cond = {"etag": before["etag"], "last_modified": before["last_modified"]}
    try:
        r = job.get(url, headers=headers, **cond)
    except (FetchError, BlockedURL) as e:
        return _row(
            cfg.name, url, error_code=e.code, error_message=e.message, fetched_at=fetched_at
        )
    if r.not_modified and before is not None:
        job.unchanged += 1  # 304: the stored page stands, byte for byte
        return {**before, "fetched_at": fetched_at}
    meta = {
        "final_url": r.final_url,
        "status": r.status,
        "content_type": r.content_type,
        "etag": r.headers.get("etag", ""),
        "last_modified": r.headers.get("last-modified", ""),
        "fetched_at": fetched_at,
    }
    if r.status >= 400 or r.status == 304:
        return _row(
            cfg.name, url, **meta, error_code="http_status", error_message=f"HTTP {r.status}"
        )
    declared_md = "markdown" in r.content_type.lower()
    named_md = urlsplit(r.final_url).path.lower().endswith(MARKDOWN_SUFFIXES)
    html = is_html(r.body, r.content_type)
    if (html and not html_ok) or (markdown_only and not (declared_md or named_md)):
        return _row(
            cfg.name,
            url,
            **meta,
            error_code="not_markdown",
            error_message=f"not Markdown ({r.content_type or 'no content type'})",
        )
    return _row(
        cfg.name,
        url,
        **meta,
        ok=True,
        body=r.body,
        error_code="truncated" if r.truncated else "",
        error_message=f"body cut at {lim.max_bytes} bytes" if r.truncated else "",
    )


def _primary(job: _Job, url: str, *, html_ok: bool = False) -> dict[str, Any]:
    row = _web_row(job, url, markdown_only=False, html_ok=html_ok)
    if not row["ok"]:
        detail = {"source": job.cfg.name, "url": url, "error_code": row["error_code"]}
        message = f"could not fetch {url} for source {job.cfg.name!r}: {row['error_message']}"
        if row["error_code"] == "blocked_url":
            raise BlockedURL(message, detail=detail)
        raise FetchError(message, detail=detail)
    return row


def _fetch_single(job: _Job, cand: dict[str, Any]) -> list[dict]:
    if cand["discovered_by"] == "accept_markdown":  # content negotiation: ask the same way
        row = _web_row(job, cand["url"], markdown_only=True, headers={"Accept": "text/markdown"})
        if not row["ok"]:
            return [_primary(job, cand["url"])]  # raises with the reason
        return [row]
    return [_primary(job, cand["url"])]


def _selected_url(cfg: SourceConfig, url: str) -> bool:
    return selected_url(url, cfg.include, cfg.exclude)


def _fetch_sitemap(job: _Job, cand: dict[str, Any]) -> list[dict]:
    """Every page the sitemap lists on the source's site (indexes followed, policy-checked),
    include/exclude applied, up to ``max_pages``; HTML pages are kept as HTML for normalize."""
    ctx = ProbeContext(job.cfg, job.project_root)
    got = sitemap_pages(ctx, cand["url"])
    if not got.pages:
        raise FetchError(
            f"sitemap {cand['url']} lists no page for source {job.cfg.name!r}",
            detail={"source": job.cfg.name, "url": cand["url"], "errors": got.errors},
        )
    urls = sorted(u for u in got.pages if _selected_url(job.cfg, u))
    rows = _page_rows(job, urls, markdown_only=False, html_ok=True)
    return sorted(rows, key=lambda r: r["url"])


def _fetch_crawl(job: _Job, cand: dict[str, Any]) -> list[dict]:
    """Crawl the HTML site from the candidate URL (``crawl.crawl``: same origin and folder,
    ``[sources.limits]`` max_pages / max_depth / concurrency ...). One row per page; links the
    policy refused are rows with ``blocked_url`` (nothing dropped silently)."""
    from docorbit_assets.lib.crawl import StoredPage, crawl, stderr_progress

    cfg = job.cfg
    lim = fetch_limits(cfg)
    # A refresh re-crawls conditionally: each stored page (by final URL) is revalidated, and a
    # 304 keeps its row (body included), as ``_web_row`` does for single documents.
    by_final = {
        r["final_url"] or r["url"]: r
        for r in job.previous.values()
        if r["ok"] and (r["etag"] or r["last_modified"])
    }
    stored = {
        u: StoredPage(r["status"], r["content_type"], r["body"], r["etag"], r["last_modified"])
        for u, r in by_final.items()
    }
    result = crawl(cand["url"], source_fetcher(cfg), lim, progress=stderr_progress, stored=stored)
    fetched_at = _now()
    rows = []
    for p in result.pages:
        if not _selected_url(cfg, p.url) and p.url != cand["url"]:
            continue
        kept = by_final.get(p.final_url) if p.not_modified else None
        if kept is not None:
            job.unchanged += 1  # 304: the stored page stands, byte for byte
            rows.append({**kept, "url": p.url, "fetched_at": fetched_at})
            continue
        meta = {
            "final_url": p.final_url,
            "status": p.status or 0,
            "content_type": p.content_type,
            "etag": p.etag or "",
            "last_modified": p.last_modified or "",
            "fetched_at": fetched_at,
        }
        if p.error_code:
            code = "http_status" if p.status else p.error_code
            rows.append(
                _row(cfg.name, p.url, **meta, error_code=code, error_message=p.error_reason or code)
            )
            continue
        rows.append(
            _row(
                cfg.name,
                p.url,
                **meta,
                ok=True,
                body=p.body,
                error_code="truncated" if p.truncated else "",
                error_message="body cut at the byte cap" if p.truncated else "",
            )
        )
    from docorbit_assets.lib.netpolicy import REASONS

    for sk in result.skipped:
        if sk.reason in REASONS:
            rows.append(
                _row(
                    cfg.name,
                    sk.url,
                    error_code="blocked_url",
                    error_message=f"refused by the URL policy ({sk.reason}), found on {sk.found_on}",
                    fetched_at=fetched_at,
                )
            )
    if not any(r["ok"] for r in rows):
        raise FetchError(
            f"crawl of {cand['url']} collected no page for source {cfg.name!r}",
            detail={"source": cfg.name, "url": cand["url"]},
        )
    unique = {r["url"]: r for r in rows}
    return sorted(unique.values(), key=lambda r: r["url"])


def _entry_urls(cfg: SourceConfig, index_url: str, text: str) -> list[str]:
    urls = set()
    for entry in parse_llms_txt(text).entries:
        parts = urlsplit(urljoin(index_url, entry.url))
        if parts.scheme not in ("http", "https"):
            continue
        url = urlunsplit((parts.scheme, parts.netloc, parts.path or "/", parts.query, ""))
        if url == index_url or not same_host(url, index_url):
            continue
        if _selected_url(cfg, url):
            urls.add(url)
    return sorted(urls)


def _page_rows(job: _Job, urls: Sequence[str], **kw: Any) -> list[dict]:
    max_pages = fetch_limits(job.cfg).max_pages
    rows = []
    for i, url in enumerate(urls):
        if i >= max_pages:
            rows.append(
                _row(
                    job.cfg.name,
                    url,
                    error_code="page_limit",
                    error_message=f"not fetched: max_pages ({max_pages}) reached",
                )
            )
            continue
        rows.append(_web_row(job, url, **kw))
    return rows


def _fetch_llms_index(job: _Job, cand: dict[str, Any]) -> list[dict]:
    index = _primary(job, cand["url"])
    text = index["body"].decode("utf-8-sig", errors="replace")
    rows = [
        index,
        *_page_rows(job, _entry_urls(job.cfg, index["final_url"], text), markdown_only=True),
    ]
    return sorted(rows, key=lambda r: r["url"])


def _fetch_local_job(job: _Job, cand: dict[str, Any]) -> list[dict]:
    return _fetch_local(job.cfg, cand, job.project_root)


def _fetch_git(job: _Job, cand: dict[str, Any]) -> list[dict]:
    """The documents of the commit discovery resolved (``metadata.commit``), as ``local`` rows:
    ``url`` ``file://<folder>/<rel>`` (the folder the source names), ``fetched_at`` the commit's
    time, ``etag`` the commit id; the working tree is never read (``git_tree``)."""
    cfg = job.cfg
    commit = json.loads(cand.get("metadata_json") or "{}").get("commit") or cfg.ref
    tree = read_tree(
        cfg.resolved_location(job.project_root),
        commit,
        include=cfg.include,
        exclude=cfg.exclude,
        max_bytes=fetch_limits(cfg).max_bytes,
    )
    base = "file://" + tree.root.as_posix() + "/"
    rows = [
        _document_row(cfg.name, base + f.rel, f.rel, f.body, f.truncated, tree.committed_at,
                      tree.commit)
        for f in tree.files
    ]  # fmt: skip
    rows += [_skipped_text(cfg.name, base, rel) for rel in tree.skipped_text]
    return sorted(rows, key=lambda r: r["url"])


def _fetch_openapi(job: _Job, cand: dict[str, Any]) -> list[dict]:
    """A spec from its URL, or read from the local file discovery validated."""
    url = cand["url"]
    if not url.startswith("file://"):
        return [_primary(job, url)]
    path = Path(url[len("file://") :])
    cap = fetch_limits(job.cfg).max_bytes
    try:
        st = path.stat()
        with path.open("rb") as f:
            body = f.read(cap + 1)
    except OSError as e:
        raise FetchError(
            f"could not read {path} for source {job.cfg.name!r}: {e}",
            detail={"source": job.cfg.name, "url": url, "error_code": "read_error"},
        ) from e
    cut = len(body) > cap
    ctype = "application/json" if path.suffix.lower() == ".json" else "application/yaml"
    return [
        _row(
            job.cfg.name,
            url,
            ok=True,
            body=body[:cap],
            content_type=ctype,
            error_code="truncated" if cut else "",
            error_message=f"body cut at {cap} bytes" if cut else "",
            fetched_at=datetime.fromtimestamp(st.st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        )
    ]


MAX_SPECS_BESIDE = 3


def _specs_beside(job: _Job, discovered: pa.Table, best: dict[str, Any]) -> list[dict]:
    """The valid OpenAPI documents discovery found for a source whose docs come from another
    candidate: fetched beside the docs (at most ``MAX_SPECS_BESIDE``, best rank first), so an
    API product yields both prose and endpoints. A failure is a row with ``ok`` False."""
    if best["type"] == "openapi":
        return []
    specs = sorted(
        (
            r
            for r in discovered.to_pylist()
            if r["type"] == "openapi" and r["status"] == "valid" and r["rank"] > 0
        ),
        key=lambda r: r["rank"],
    )
    return [_web_row(job, r["url"], markdown_only=False) for r in specs[:MAX_SPECS_BESIDE]]


_STRATEGIES: dict[str, Callable[[_Job, dict[str, Any]], list[dict]]] = {
    "local": _fetch_local_job,
    "git": _fetch_git,
    "llms_full_txt": _fetch_single,
    "markdown": _fetch_single,
    "llms_txt": _fetch_llms_index,
    "sitemap": _fetch_sitemap,
    "html": _fetch_crawl,
    "openapi": _fetch_openapi,
}


def fetch_source(
    cfg: SourceConfig,
    discovered: pa.Table,
    project_root: Path,
    *,
    allow_hosts: Sequence[str] = (),
    previous: pa.Table | None = None,
) -> pa.Table:
    """Fetch ``cfg`` from its best discovered candidate; raises ``FetchError`` when none is valid
    (``BlockedURL`` when the policy refused the source's own URLs).

    ``allow_hosts`` (registry-wide and per-run allowances) are merged with ``cfg.allow_hosts``.
    ``previous`` is the last ``fetches`` table of this source: its ETag / Last-Modified are sent
    as a conditional GET and a 304 keeps its row (body included) unchanged.
    """
    cfg = with_allow_hosts(cfg, allow_hosts)
    prev = {r["url"]: r for r in previous.to_pylist()} if previous is not None else {}
    job = _Job(cfg, project_root, prev)
    best = best_candidate(discovered)
    if best is None:
        rows = discovered.to_pylist()
        reasons = "; ".join(f"{r['url']}: {r['rationale']}" for r in rows if r["rationale"])
        message = (
            f"source {cfg.name!r} has nothing valid to fetch ({reasons or 'nothing discovered'})"
        )
        detail = {"source": cfg.name, "location": cfg.location}
        blocked = [r for r in rows if row_error_code(r) == "blocked_url"]
        if blocked and len(blocked) == sum(r["status"] != "valid" for r in rows):
            raise BlockedURL(message, detail={**detail, "urls": [r["url"] for r in blocked]})
        raise FetchError(message, detail=detail)
    strategy = _STRATEGIES.get(best["type"])
    if strategy is None:
        raise FetchError(
            f"no fetch strategy for candidate type {best['type']!r} ({best['url']})",
            detail={"source": cfg.name, "type": best["type"]},
        )
    rows = strategy(job, best)
    fetched = {r["url"] for r in rows}
    rows += [r for r in _specs_beside(job, discovered, best) if r["url"] not in fetched]
    return pa.Table.from_pylist(rows, schema=SCHEMAS["fetches"])
