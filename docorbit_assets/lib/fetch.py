"""The ``fetches`` stage, and ``http_get``: the pipeline's one door to the network.

``http_get(url, *, timeout, deadline, max_bytes, headers, allow_hosts) -> Response`` is the only
function in DocOrbit that opens a network connection (discovery and fetching both call it; the
secure-fetcher work replaces its body, not its callers). Today it enforces:

- explicit httpx timeouts (connect/read/write/pool = ``timeout``) and a total wall-clock
  ``deadline`` checked between streamed chunks and redirect hops;
- a byte cap: streamed bytes are counted and reading stops at ``max_bytes``; the response is then
  marked ``truncated`` (content-encodings gzip/deflate are decoded with the same bound);
- redirects followed by hand, at most ``MAX_REDIRECTS`` hops, http/https only;
- the User-Agent ``USER_AGENT``; proxies from the environment are ignored (``trust_env=False``).

It does NOT yet guard against SSRF: ``allow_hosts`` is accepted and ignored until the secure
fetcher lands. HTTP error statuses are returned, not raised; transport failures raise
``FetchError`` with a stable ``code`` (``timeout``, ``connect_error``, ``too_many_redirects``,
``bad_redirect``, ``bad_url``, ``protocol_error``, ``unsupported_encoding``).

``fetch_source(cfg, discovered, project_root, *, allow_hosts=()) -> pa.Table`` (``FETCHES``)
fetches the source from its rank-1 valid ``discovered`` candidate and raises ``FetchError``
when there is none (the message carries discovery's rationale). Strategies by candidate type:

- ``local``: every Markdown file under the folder (see ``discover.local_markdown_files``),
  sorted by relative path; ``url`` = ``file://<abs path>``, ``status`` 0, ``fetched_at`` = the
  file's mtime (UTC), so the table is a pure function of the folder. An unreadable file is a row
  with ``ok`` False and ``error_code`` ``read_error``.
- ``llms_full_txt`` / ``markdown``: one row for the URL.
- ``llms_txt``: a row for the llms.txt itself, then one row per distinct linked entry on the
  same host (fragment dropped, include/exclude globs applied to the URL path), sorted by URL.
  Entries past ``max_pages`` are rows with ``error_code`` ``page_limit``; entries that are not
  Markdown (no ``.md`` suffix and not ``text/markdown``, or HTML) are ``not_markdown``; HTTP
  4xx/5xx are ``http_error``. Off-host links are not fetched and not recorded here.

Contract for the normalizer: every row with ``ok`` True holds Markdown, whatever the served
content type (llms.txt and llms-full.txt are often ``text/plain``). A body cut at the byte cap is
``ok`` True with ``error_code`` ``truncated``. A failure of the primary document (the llms.txt,
llms-full.txt or single page) raises ``FetchError``: the source keeps its previous snapshot.

Limits come from ``cfg.limits``: ``max_pages`` (50), ``max_bytes`` (10 MiB per response),
``timeout`` (10 s per phase), ``deadline`` (30 s per request).
"""

from __future__ import annotations

import functools
import hashlib
import ssl
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

import certifi
import httpx
import pyarrow as pa

from docorbit_assets.lib.discover import (
    MARKDOWN_SUFFIXES,
    best_candidate,
    glob_match,
    is_html,
    local_markdown_files,
    parse_llms_txt,
)
from docorbit_serve.errors import FetchError
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS

__all__ = [
    "MAX_REDIRECTS",
    "USER_AGENT",
    "FetchLimits",
    "Response",
    "fetch_limits",
    "fetch_source",
    "http_get",
]

USER_AGENT = "DocOrbit/0.1 (+docs ingestion)"
MAX_REDIRECTS = 5
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class FetchLimits:
    max_pages: int = 50
    max_bytes: int = 10 * 1024 * 1024
    timeout: float = 10.0
    deadline: float = 30.0


def fetch_limits(cfg: SourceConfig) -> FetchLimits:
    d = FetchLimits()
    lim = cfg.limits
    return FetchLimits(
        max_pages=int(lim.get("max_pages", d.max_pages)),
        max_bytes=int(lim.get("max_bytes", d.max_bytes)),
        timeout=float(lim.get("timeout", d.timeout)),
        deadline=float(lim.get("deadline", d.deadline)),
    )


@dataclass(frozen=True)
class Response:
    url: str  # as requested
    final_url: str  # after redirects
    status: int
    headers: dict[str, str]  # lower-cased names
    body: bytes  # decoded content, at most max_bytes
    truncated: bool  # the body was cut at max_bytes
    redirects: int

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")


# ---------------------------------------------------------------------------------------------
# The network function


def http_get(
    url: str,
    *,
    timeout: float = 10.0,
    deadline: float = 30.0,
    max_bytes: int = 10 * 1024 * 1024,
    headers: dict[str, str] | None = None,
    allow_hosts: Sequence[str] = (),  # noqa: ARG001 - honoured by the secure fetcher (later issue)
) -> Response:
    """GET ``url`` with timeouts, a total deadline, a byte cap and at most 5 redirects."""
    end = time.monotonic() + deadline
    send = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate", **(headers or {})}
    current = url
    with httpx.Client(
        timeout=httpx.Timeout(timeout, connect=timeout, read=timeout, write=timeout, pool=timeout),
        follow_redirects=False,
        trust_env=False,
        verify=_ssl_context(),
    ) as client:
        for hop in range(MAX_REDIRECTS + 1):
            _check_url(current)
            resp = _get_once(client, current, send, end, max_bytes)
            location = resp.headers.get("location")
            if resp.status not in (301, 302, 303, 307, 308) or not location:
                return Response(
                    url, current, resp.status, resp.headers, resp.body, resp.truncated, hop
                )
            current = urljoin(current, location)
        raise FetchError(
            f"more than {MAX_REDIRECTS} redirects from {url}",
            code="too_many_redirects",
            detail={"url": url, "last": current},
        )


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    # Building a context loads the CA bundle (~50 ms); one per process is enough.
    return ssl.create_default_context(cafile=certifi.where())


def _check_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError(
            f"only http(s) URLs with a host can be fetched, not {url!r}",
            code="bad_url",
            detail={"url": url},
        )


def _get_once(
    client: httpx.Client, url: str, headers: dict[str, str], end: float, max_bytes: int
) -> Response:
    if time.monotonic() >= end:
        raise FetchError(f"deadline passed before {url}", code="timeout", detail={"url": url})
    try:
        with client.stream("GET", url, headers=headers) as r:
            hdrs = {k.lower(): v for k, v in r.headers.items()}
            body, cut = _read_capped(r, hdrs.get("content-encoding", ""), end, max_bytes, url)
            return Response(url, url, r.status_code, hdrs, body, cut, 0)
    except httpx.TimeoutException as e:
        raise FetchError(f"timed out fetching {url}", code="timeout", detail={"url": url}) from e
    except httpx.ConnectError as e:
        raise FetchError(
            f"could not connect to {url}: {e}", code="connect_error", detail={"url": url}
        ) from e
    except httpx.HTTPError as e:
        raise FetchError(
            f"HTTP protocol error from {url}: {e}", code="protocol_error", detail={"url": url}
        ) from e


def _read_capped(
    r: httpx.Response, encoding: str, end: float, max_bytes: int, url: str
) -> tuple[bytes, bool]:
    decoder = _decoder(encoding.strip().lower(), url)
    buf = bytearray()
    for raw in r.iter_raw(_CHUNK):
        if time.monotonic() >= end:
            raise FetchError(f"deadline passed reading {url}", code="timeout", detail={"url": url})
        room = max_bytes - len(buf)
        piece = decoder(raw, room + 1) if decoder else raw[: room + 1]
        buf.extend(piece)
        if len(buf) > max_bytes:
            return bytes(buf[:max_bytes]), True
    return bytes(buf), False


def _decoder(encoding: str, url: str) -> Callable[[bytes, int], bytes] | None:
    if encoding in ("", "identity"):
        return None
    if encoding not in ("gzip", "x-gzip", "deflate"):
        raise FetchError(
            f"{url} uses content-encoding {encoding!r}; only gzip and deflate are accepted",
            code="unsupported_encoding",
            detail={"url": url, "encoding": encoding},
        )
    # wbits 47 = auto-detect gzip/zlib headers; max_length bounds memory per step (no bombs).
    d = zlib.decompressobj(47 if encoding != "deflate" else 15)

    def step(data: bytes, limit: int) -> bytes:
        try:
            return d.decompress(data, max(limit, 1))
        except zlib.error as e:
            raise FetchError(
                f"corrupt {encoding} body from {url}", code="protocol_error", detail={"url": url}
            ) from e

    return step


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
    for rel in local_markdown_files(root, cfg.include, cfg.exclude):
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
        cut = len(body) > cap
        rows.append(
            _row(
                cfg.name,
                url,
                ok=True,
                body=body[:cap],
                content_type="text/markdown",
                error_code="truncated" if cut else "",
                error_message=f"body cut at {cap} bytes" if cut else "",
                fetched_at=datetime.fromtimestamp(st.st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            )
        )
    return rows


def _web_row(cfg: SourceConfig, url: str, *, markdown_only: bool) -> dict[str, Any]:
    lim = fetch_limits(cfg)
    fetched_at = _now()
    try:
        r = http_get(
            url,
            timeout=lim.timeout,
            deadline=lim.deadline,
            max_bytes=lim.max_bytes,
            allow_hosts=cfg.allow_hosts,
        )
    except FetchError as e:
        return _row(
            cfg.name, url, error_code=e.code, error_message=e.message, fetched_at=fetched_at
        )
    meta = {
        "final_url": r.final_url,
        "status": r.status,
        "content_type": r.content_type,
        "etag": r.headers.get("etag", ""),
        "last_modified": r.headers.get("last-modified", ""),
        "fetched_at": fetched_at,
    }
    if r.status >= 400:
        return _row(
            cfg.name, url, **meta, error_code="http_error", error_message=f"HTTP {r.status}"
        )
    declared_md = "markdown" in r.content_type.lower()
    named_md = urlsplit(r.final_url).path.lower().endswith(MARKDOWN_SUFFIXES)
    if is_html(r.body, r.content_type) or (markdown_only and not (declared_md or named_md)):
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


def _primary(cfg: SourceConfig, url: str) -> dict[str, Any]:
    row = _web_row(cfg, url, markdown_only=False)
    if not row["ok"]:
        raise FetchError(
            f"could not fetch {url} for source {cfg.name!r}: {row['error_message']}",
            detail={"source": cfg.name, "url": url, "error_code": row["error_code"]},
        )
    return row


def _fetch_single(cfg: SourceConfig, cand: dict[str, Any], project_root: Path) -> list[dict]:
    return [_primary(cfg, cand["url"])]


def _entry_urls(cfg: SourceConfig, index_url: str, text: str) -> list[str]:
    urls = set()
    for entry in parse_llms_txt(text).entries:
        parts = urlsplit(urljoin(index_url, entry.url))
        if parts.scheme not in ("http", "https"):
            continue
        url = urlunsplit((parts.scheme, parts.netloc, parts.path or "/", parts.query, ""))
        if url == index_url or not _same_origin(url, index_url):
            continue
        rel = parts.path.lstrip("/")
        if cfg.include and not any(glob_match(rel, p) for p in cfg.include):
            continue
        if any(glob_match(rel, p) for p in cfg.exclude):
            continue
        urls.add(url)
    return sorted(urls)


def _same_origin(a: str, b: str) -> bool:
    pa_, pb = urlsplit(a), urlsplit(b)
    return (pa_.hostname, pa_.port) == (pb.hostname, pb.port)


def _fetch_llms_index(cfg: SourceConfig, cand: dict[str, Any], project_root: Path) -> list[dict]:
    index = _primary(cfg, cand["url"])
    text = index["body"].decode("utf-8-sig", errors="replace")
    max_pages = fetch_limits(cfg).max_pages
    rows = [index]
    for i, url in enumerate(_entry_urls(cfg, index["final_url"], text)):
        if i >= max_pages:
            rows.append(
                _row(
                    cfg.name,
                    url,
                    error_code="page_limit",
                    error_message=f"not fetched: max_pages ({max_pages}) reached",
                )
            )
            continue
        rows.append(_web_row(cfg, url, markdown_only=True))
    return sorted(rows, key=lambda r: r["url"])


_STRATEGIES: dict[str, Callable[[SourceConfig, dict[str, Any], Path], list[dict]]] = {
    "local": _fetch_local,
    "llms_full_txt": _fetch_single,
    "markdown": _fetch_single,
    "llms_txt": _fetch_llms_index,
}


def fetch_source(
    cfg: SourceConfig,
    discovered: pa.Table,
    project_root: Path,
    *,
    allow_hosts: Sequence[str] = (),
) -> pa.Table:
    """Fetch ``cfg`` from its best discovered candidate; raises ``FetchError`` when none is valid.

    ``allow_hosts`` (registry-wide, merged with ``cfg.allow_hosts``) is passed to ``http_get``
    for the SSRF guard that a later issue adds; it changes nothing today.
    """
    if allow_hosts:
        cfg = _with_hosts(cfg, allow_hosts)
    best = best_candidate(discovered)
    if best is None:
        reasons = "; ".join(
            f"{r['url']}: {r['rationale']}" for r in discovered.to_pylist() if r["rationale"]
        )
        raise FetchError(
            f"source {cfg.name!r} has nothing valid to fetch ({reasons or 'nothing discovered'})",
            detail={"source": cfg.name, "location": cfg.location},
        )
    strategy = _STRATEGIES.get(best["type"])
    if strategy is None:
        raise FetchError(
            f"no fetch strategy for candidate type {best['type']!r} ({best['url']})",
            detail={"source": cfg.name, "type": best["type"]},
        )
    rows = strategy(cfg, best, project_root)
    return pa.Table.from_pylist(rows, schema=SCHEMAS["fetches"])


def _with_hosts(cfg: SourceConfig, extra: Sequence[str]) -> SourceConfig:
    from dataclasses import replace

    hosts = tuple(dict.fromkeys((*cfg.allow_hosts, *extra)))
    return replace(cfg, allow_hosts=hosts)
