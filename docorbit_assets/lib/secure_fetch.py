"""The one fetch layer: every network access of DocOrbit goes through ``SecureFetcher.get``.

Contract (see ``docs/security.md`` for the policy and the figures):

- **Policy before bytes.** Each hop's URL passes ``netpolicy.check_url`` (scheme, userinfo,
  host form, port). At connect time the host is resolved ONCE with ``socket.getaddrinfo``,
  every answer is checked (``netpolicy.resolve``) and the socket dials one of those checked
  addresses, never a second lookup. Host header and TLS SNI/certificate checks keep the name.
  Proxies from the environment are ignored (a proxy would defeat the pin).
- **Redirects by hand**: at most ``max_redirects`` (5) hops, each re-validated; loops detected;
  credentials headers dropped when the origin changes.
- **One wall-clock deadline** per attempt covering connect, TLS, headers and body of every hop:
  every socket operation gets ``min(timeout, time left)`` and every read checks the clock, so
  neither a trickle (1 byte/s) nor slow headers can hold a request past it.
- **Byte cap on decoded bytes** (10 MiB default): the raw stream is decoded here with
  ``zlib.decompressobj().decompress(buf, max_length)``, so no call ever inflates more than the
  room left; at most one ``Content-Encoding`` (gzip / deflate), anything else is refused.
  A declared ``Content-Length`` above the cap is refused before the body is read.
  ``truncate=True`` returns the first ``max_bytes`` with ``truncated=True`` instead of failing.
- **Retries** only for this GET on 429/5xx and on a connection reset mid-body, with
  exponential backoff, honouring ``Retry-After`` up to ``max_retry_after_s`` (a longer wait is
  not retried: the 429/5xx result is returned).
- **Conditional GET**: ``etag=`` / ``last_modified=`` send ``If-None-Match`` /
  ``If-Modified-Since``; a 304 comes back as ``not_modified=True`` (keep the stored page).
  ``validators={url: (etag, last_modified)}`` sends them per hop instead, for the hop's own
  URL (a crawler revalidating a link that redirects onto a page it stored: the final hop
  carries that page's validators, the redirecting hop none).
- **robots.txt** (RFC 9309, parsed with protego, first 500 KiB): 2xx parsed, 4xx allow all,
  5xx / unreachable disallow all (RFC 9309 §2.3.1.4: a crawler MUST assume complete disallow
  when robots.txt is unreachable because of server or network errors); ``Crawl-delay`` raises
  the per-host politeness delay. The refusal names its real cause: a page refused because its
  robots.txt could not be fetched raises the robots fetch's own error (``connect_error``,
  ``timeout``, ``network_error``, …, with ``detail["robots"] = "unreachable"``), and a 5xx/429
  robots.txt raises ``robots_unavailable`` naming the status; only rules that really disallow
  the page raise ``robots_disallowed``.
- **Politeness**: requests to one host:port start at least ``politeness_s`` apart.

Errors (``docorbit_serve.errors``): ``BlockedURL`` (code ``blocked_url``, ``detail["reason"]``
from ``netpolicy.REASONS``; ``detail["hop"]`` > 0 when a redirect was refused) and
``FetchError`` with ``code`` one of ``FETCH_CODES``. HTTP error statuses are NOT raised: the
result carries ``status`` and ``error == "http_status"``; ``raise_for_status()`` raises.
"""

from __future__ import annotations

import contextvars
import email.utils
import functools
import random
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import httpcore
import httpx
from protego import Protego

from docorbit_assets.lib.netpolicy import (
    DEFAULT_PORTS,
    NetPolicy,
    ResolveTimeout,
    Target,
    check_url,
    resolve,
)
from docorbit_serve.errors import BlockedURL, FetchError
from docorbit_serve.registry import SourceConfig
from docorbit_serve.settings import LIMITS, SourceLimits

__all__ = [
    "FETCH_CODES",
    "FetchPolicy",
    "FetchResult",
    "Hop",
    "RobotsInfo",
    "SecureFetcher",
    "decode_bounded",
]

FETCH_CODES = (
    "bad_redirect",
    "connect_error",
    "decoding",
    "http_status",
    "network_error",
    "protocol_error",
    "robots_disallowed",
    "robots_unavailable",
    "timeout",
    "too_large",
    "too_many_redirects",
)

# names used in ``[sources.limits]`` -> FetchPolicy fields
_LIMIT_ALIASES = {
    "deadline": "deadline_s",
    "timeout": "connect_timeout_s",
    "politeness": "politeness_s",
    "retries": "max_retries",
}
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_SENSITIVE = frozenset({"authorization", "cookie", "proxy-authorization"})
_RESERVED_HEADERS = frozenset({"host", "accept-encoding", "connection", "content-length"})


@dataclass(frozen=True)
class FetchPolicy:
    """Limits of one fetcher. ``allow_hosts`` are exact ``HOST:PORT`` allowances (off by default)."""

    allow_hosts: tuple[str, ...] = ()
    ports: tuple[int, ...] = DEFAULT_PORTS
    deadline_s: float = LIMITS["deadline"].default
    connect_timeout_s: float = LIMITS["timeout"].default
    max_bytes: int = LIMITS["max_bytes"].default
    max_redirects: int = 5
    max_retries: int = LIMITS["retries"].default
    backoff_s: float = 0.5
    max_retry_after_s: float = 30.0
    respect_robots: bool = True
    robots_max_bytes: int = 500 * 1024
    politeness_s: float = LIMITS["politeness"].default
    max_crawl_delay_s: float = 10.0
    max_connections: int = 10
    user_agent: str = "DocOrbit/0.1 (documentation indexer)"
    robots_agent: str = "DocOrbit"

    @property
    def net(self) -> NetPolicy:
        return NetPolicy(allow_hosts=tuple(self.allow_hosts), ports=tuple(self.ports))

    @classmethod
    def from_limits(
        cls, limits: Mapping[str, Any] | None = None, allow_hosts: Iterable[str] = (), **kw: Any
    ) -> FetchPolicy:
        """Build from a source's ``[sources.limits]`` table (known keys only) + allowances."""
        names = set(cls.__dataclass_fields__)
        raw = {_LIMIT_ALIASES.get(k, k): v for k, v in dict(limits or {}).items()}
        known = {k: v for k, v in raw.items() if k in names}
        known.update(kw)
        known["allow_hosts"] = tuple(allow_hosts) + tuple(known.get("allow_hosts", ()))
        return cls(**known)


def _with_validators(headers: dict[str, str], pair: tuple[str, str] | None) -> dict[str, str]:
    """``headers`` plus the conditional headers of one hop's stored page (when there is one)."""
    if pair is None:
        return headers
    etag, modified = pair
    out = dict(headers)
    if etag:
        out["If-None-Match"] = etag
    if modified:
        out["If-Modified-Since"] = modified
    return out


@dataclass(frozen=True)
class Hop:
    url: str
    status: int
    location: str | None


@dataclass(frozen=True)
class FetchResult:
    url: str
    final_url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    content_type: str
    charset: str | None
    truncated: bool = False
    truncated_reason: str | None = None
    hops: tuple[Hop, ...] = ()
    elapsed_s: float = 0.0
    attempts: int = 1
    raw_bytes: int = 0
    not_modified: bool = False
    error: str | None = None
    address: str | None = None

    def header(self, name: str) -> str | None:
        name = name.lower()
        values = [v for k, v in self.headers if k == name]
        return values[-1] if values else None

    @property
    def etag(self) -> str | None:
        return self.header("etag")

    @property
    def last_modified(self) -> str | None:
        return self.header("last-modified")

    @property
    def ok(self) -> bool:
        return self.error is None

    def raise_for_status(self) -> FetchResult:
        if self.error == "http_status":
            raise FetchError(
                f"{self.final_url} answered HTTP {self.status}",
                code="http_status",
                detail={"url": self.url, "final_url": self.final_url, "status": self.status},
            )
        return self


@dataclass(frozen=True)
class RobotsInfo:
    origin: str
    state: str  # "parsed" | "allow_all" | "disallow_all"
    status: int | None = None
    sitemaps: tuple[str, ...] = ()
    crawl_delay: float | None = None
    truncated: bool = False
    error: str | None = None
    message: str = ""  # why robots.txt could not be read (the fetch error's message)
    parser: Protego | None = field(default=None, repr=False, compare=False)

    def allows(self, url: str, agent: str) -> bool:
        if self.state == "allow_all":
            return True
        if self.state == "disallow_all" or self.parser is None:
            return False
        return bool(self.parser.can_fetch(url, agent))


# --------------------------------------------------------------------------------------------
# Connect-time pinning and the deadline
# --------------------------------------------------------------------------------------------
_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("deadline", default=None)
_TARGET: contextvars.ContextVar[Target | None] = contextvars.ContextVar("target", default=None)


def _bounded(timeout: float | None, exc: type[Exception]) -> float | None:
    deadline = _DEADLINE.get()
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise exc("deadline exceeded")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """Every socket operation bounded by the time left before the request's deadline."""

    def __init__(self, inner: httpcore.NetworkStream, address: str) -> None:
        self._inner = inner
        self.address = address  # the checked address that was dialled

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _bounded(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _bounded(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        t = _bounded(timeout, httpcore.ConnectTimeout)
        return _DeadlineStream(self._inner.start_tls(ssl_context, server_hostname, t), self.address)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _PinnedBackend(httpcore.NetworkBackend):
    """Resolves and checks at connect time, then dials only the checked addresses."""

    def __init__(self, net: NetPolicy) -> None:
        self._net = net
        self._sync = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        target = _TARGET.get()
        if target is None or (target.host, target.port) != (host, port):
            # Only SecureFetcher drives this pool; anything else is a programming error.
            raise httpcore.ConnectError(f"connect to {host}:{port} without a checked target")
        try:  # raises BlockedURL; the only lookup, bounded by the request's deadline
            addresses = resolve(target, self._net, timeout=_bounded(None, httpcore.ConnectTimeout))
        except ResolveTimeout as e:
            raise httpcore.ConnectTimeout(str(e)) from e
        last: Exception | None = None
        for ip in addresses:
            t = _bounded(timeout, httpcore.ConnectTimeout)
            try:
                stream = self._sync.connect_tcp(str(ip), port, t, local_address, socket_options)
            except httpcore.ConnectError as e:
                last = e
                continue
            return _DeadlineStream(stream, str(ip))
        raise last or httpcore.ConnectError(f"no address for {host}")

    def connect_unix_socket(self, *args: Any, **kwargs: Any) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("unix sockets are not allowed")

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


# --------------------------------------------------------------------------------------------
# Bounded decoding
# --------------------------------------------------------------------------------------------
class _Decoder:
    """Incremental, bounded decoder for zero or one content coding."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self._z: Any = None
        self._sniffing = coding == "deflate"  # zlib-wrapped or raw? decided on the first bytes
        if coding in ("gzip", "x-gzip"):
            self._z = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif coding == "deflate":
            self._z = zlib.decompressobj(zlib.MAX_WBITS)

    def feed(self, data: bytes, room: int) -> tuple[bytes, bool]:
        """Decode ``data``; return (at most ``room + 1`` bytes, input fully consumed?)."""
        if self._z is None:
            return data[: room + 1], len(data) <= room + 1
        if self._sniffing and data:
            self._sniffing = False
            try:
                return self._inflate(data, room)
            except zlib.error:
                # "deflate" is often sent raw, without the zlib header: start over in raw mode.
                self._z = zlib.decompressobj(-zlib.MAX_WBITS)
        return self._inflate(data, room)

    def _inflate(self, data: bytes, room: int) -> tuple[bytes, bool]:
        out = bytearray()
        while data and not self._z.eof:
            # max_length bounds every call: a bomb never inflates more than the room left.
            out += self._z.decompress(data, room + 1 - len(out))
            data = self._z.unconsumed_tail
            if len(out) > room:
                return bytes(out), False
        return bytes(out), True

    def finish(self) -> None:
        if self._z is not None and not self._z.eof:
            raise zlib.error("compressed stream ended early")


def decode_bounded(data: bytes, coding: str, max_bytes: int) -> tuple[bytes, bool]:
    """Decode a gzip/deflate payload (e.g. ``sitemap.xml.gz``) to at most ``max_bytes``.

    Returns (decoded, truncated). Raises ``FetchError(code="decoding")`` on corrupt data."""
    dec = _Decoder(coding)
    try:
        out, complete = dec.feed(data, max_bytes)
        if complete:
            dec.finish()
    except zlib.error as e:
        raise FetchError(f"cannot decode {coding} data: {e}", code="decoding") from e
    return out[:max_bytes], not complete


# --------------------------------------------------------------------------------------------
# The fetcher
# --------------------------------------------------------------------------------------------
def _content_type(value: str | None) -> tuple[str, str | None]:
    if not value:
        return "", None
    main, *params = value.split(";")
    charset = None
    for p in params:
        k, _, v = p.partition("=")
        if k.strip().lower() == "charset":
            charset = v.strip().strip('"').lower() or None
    return main.strip().lower(), charset


def _retry_after(value: str | None, now: float) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


def _raise_unreadable_robots(info: RobotsInfo, url: str) -> None:
    """Raise the real cause when ``info`` disallows everything because robots.txt could not be
    read (network error or 5xx/429); return when its rules were read (or it was refused)."""
    if info.state != "disallow_all" or info.error in (None, "blocked_redirect"):
        return
    why = "nothing of the site is fetched while its robots.txt cannot be read (RFC 9309)"
    if info.error == "http_status":
        raise _fetch_error(
            "robots_unavailable",
            f"{info.origin}/robots.txt answered HTTP {info.status}; {why}: try again later",
            url,
            robots="unavailable",
            robots_status=info.status,
        )
    raise _fetch_error(
        info.error,
        f"{info.message or 'robots.txt could not be fetched'} ({why})",
        url,
        robots="unreachable",
    )


def _fetch_error(code: str, message: str, url: str, **detail: Any) -> FetchError:
    d = {"url": url, **{k: v for k, v in detail.items() if v is not None}}
    return FetchError(message, code=code, detail=d)


@dataclass
class _Response:
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    raw_bytes: int
    truncated: bool
    address: str | None


class SecureFetcher:
    """Thread-safe fetcher. Use one per ingest run (it caches robots.txt and keeps politeness
    state per host). ``sleep``/``clock`` drive politeness and retry backoff (tests pass fakes);
    the request deadline always uses the real monotonic clock."""

    def __init__(
        self,
        policy: FetchPolicy | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.policy = policy or FetchPolicy()
        self._net = self.policy.net
        self._sleep = sleep
        self._clock = clock
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False),
            max_connections=self.policy.max_connections,
            max_keepalive_connections=self.policy.max_connections,
            keepalive_expiry=5.0,
            http1=True,
            http2=False,
            retries=0,
            network_backend=_PinnedBackend(self._net),
        )
        self._lock = threading.Lock()
        self._next_slot: dict[str, float] = {}
        self._robots: dict[str, RobotsInfo] = {}
        self._robots_locks: dict[str, threading.Lock] = {}

    # -- lifecycle ---------------------------------------------------------------------------
    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> SecureFetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- public ------------------------------------------------------------------------------
    def check(self, url: str) -> Target:
        """Policy check without DNS or network (for URLs found in content)."""
        return check_url(url, self._net)

    def get(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        etag: str | None = None,
        last_modified: str | None = None,
        truncate: bool = False,
        max_bytes: int | None = None,
        robots: bool | None = None,
        validators: Mapping[str, tuple[str, str]] | None = None,
    ) -> FetchResult:
        """GET ``url`` under the policy. Raises ``BlockedURL`` / ``FetchError``."""
        p = self.policy
        cap = p.max_bytes if max_bytes is None else max_bytes
        use_robots = p.respect_robots if robots is None else robots
        send = {k: v for k, v in (headers or {}).items() if k.lower() not in _RESERVED_HEADERS}
        if etag:
            send["If-None-Match"] = etag
        if last_modified:
            send["If-Modified-Since"] = last_modified
        started = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            try:
                res = self._chain(url, send, cap, truncate, use_robots, validators or {})
            except FetchError as e:
                e.detail["attempts"] = attempt
                if e.code == "network_error" and attempt <= p.max_retries:
                    self._sleep(self._backoff(attempt))
                    continue
                raise
            retryable = res.status == 429 or 500 <= res.status <= 599
            if retryable and attempt <= p.max_retries:
                wait = _retry_after(res.header("retry-after"), time.time())
                if wait is None:
                    wait = self._backoff(attempt)
                if wait <= p.max_retry_after_s:
                    self._sleep(wait)
                    continue
            return replace(res, attempts=attempt, elapsed_s=time.monotonic() - started)

    def robots(self, url: str) -> RobotsInfo:
        """robots.txt of ``url``'s origin (fetched once per fetcher, under the same policy)."""
        target = check_url(url, self._net)
        return self._robots_for(target)

    # -- internals ---------------------------------------------------------------------------
    def _backoff(self, attempt: int) -> float:
        base = self.policy.backoff_s * (2 ** (attempt - 1))
        return min(self.policy.max_retry_after_s, base + random.uniform(0, base / 2))

    def _chain(
        self,
        url: str,
        headers: dict[str, str],
        cap: int,
        truncate: bool,
        use_robots: bool,
        validators: Mapping[str, tuple[str, str]],
    ) -> FetchResult:
        p = self.policy
        deadline = time.monotonic() + p.deadline_s
        hops: list[Hop] = []
        seen: set[str] = set()
        current = url
        origin: str | None = None
        for hop in range(p.max_redirects + 1):
            try:
                target = check_url(current, self._net)
            except BlockedURL as e:
                if hop:
                    e.detail.update(hop=hop, from_url=url)
                raise
            if origin is not None and target.origin != origin:
                headers = {k: v for k, v in headers.items() if k.lower() not in _SENSITIVE}
            origin = target.origin
            seen.add(str(target.url.copy_with(fragment=None)))
            if use_robots:
                info = self._robots_for(target)
                if not info.allows(str(target.url), p.robots_agent):
                    _raise_unreadable_robots(info, current)
                    raise _fetch_error(
                        "robots_disallowed",
                        f"robots.txt of {target.origin} disallows {current}",
                        current,
                        robots_state=info.state,
                        robots_status=info.status,
                    )
            self._polite(target)
            send = _with_validators(
                headers, validators.get(str(target.url.copy_with(fragment=None)))
            )
            try:
                resp = self._request(target, send, cap, truncate, deadline, hop)
            except BlockedURL as e:
                if hop:
                    e.detail.update(hop=hop, from_url=url)
                raise
            if resp.status in _REDIRECTS:
                location = next((v for k, v in resp.headers if k == "location"), None)
                hops.append(Hop(str(target.url), resp.status, location))
                if not location:
                    raise _fetch_error(
                        "bad_redirect", f"HTTP {resp.status} without Location", current, hop=hop
                    )
                try:
                    nxt = target.url.join(location.strip())
                except (httpx.InvalidURL, ValueError, UnicodeError):
                    check_url(location, self._net)  # raises the precise BlockedURL
                    raise _fetch_error("bad_redirect", "unusable Location", current) from None
                if str(nxt.copy_with(fragment=None)) in seen:
                    raise _fetch_error(
                        "too_many_redirects",
                        f"redirect loop at {nxt}",
                        url,
                        reason="loop",
                        hops=[h.url for h in hops],
                    )
                current = str(nxt)
                continue
            return self._result(url, target, resp, hops)
        raise _fetch_error(
            "too_many_redirects",
            f"more than {p.max_redirects} redirects",
            url,
            reason="max_hops",
            hops=[h.url for h in hops],
        )

    def _result(self, url: str, target: Target, resp: _Response, hops: list[Hop]) -> FetchResult:
        ct, charset = _content_type(next((v for k, v in resp.headers if k == "content-type"), None))
        return FetchResult(
            url=url,
            final_url=str(target.url),
            status=resp.status,
            headers=tuple(resp.headers),
            body=resp.body,
            content_type=ct,
            charset=charset,
            truncated=resp.truncated,
            truncated_reason="max_bytes" if resp.truncated else None,
            hops=tuple(hops),
            raw_bytes=resp.raw_bytes,
            not_modified=resp.status == 304,
            error="http_status" if resp.status >= 400 else None,
            address=resp.address,
        )

    def _polite(self, target: Target) -> None:
        delay = self.policy.politeness_s
        info = self._robots.get(target.origin)
        if info is not None and info.crawl_delay:
            delay = max(delay, min(info.crawl_delay, self.policy.max_crawl_delay_s))
        if delay <= 0:
            return
        with self._lock:
            now = self._clock()
            slot = max(now, self._next_slot.get(target.host_port, now))
            self._next_slot[target.host_port] = slot + delay
        if slot > now:
            self._sleep(slot - now)

    def _request(
        self,
        target: Target,
        headers: dict[str, str],
        cap: int,
        truncate: bool,
        deadline: float,
        hop: int,
    ) -> _Response:
        url = str(target.url)
        host_header = target.url.netloc.decode("ascii")
        req_headers = [
            ("Host", host_header),
            ("User-Agent", self.policy.user_agent),
            ("Accept", "*/*"),
            ("Accept-Encoding", "gzip, deflate"),
            *[(k, v) for k, v in headers.items() if k.lower() != "user-agent"],
        ]
        core_url = httpcore.URL(
            scheme=target.scheme.encode(),
            host=target.host.encode("ascii"),
            port=target.port,
            target=target.url.raw_path,
        )
        t_dead = _DEADLINE.set(deadline)
        t_target = _TARGET.set(target)
        left = max(0.001, deadline - time.monotonic())
        timeouts = {
            "connect": min(self.policy.connect_timeout_s, left),
            "read": left,
            "write": left,
            "pool": left,
        }
        try:
            with self._pool.stream(
                "GET", core_url, headers=req_headers, extensions={"timeout": timeouts}
            ) as r:
                return self._read(r, url, cap, truncate, deadline)
        except httpcore.TimeoutException as e:
            reason = "deadline" if time.monotonic() >= deadline - 0.05 else type(e).__name__
            raise _fetch_error(
                "timeout",
                f"{url} did not complete within {self.policy.deadline_s:g} s",
                url,
                reason=reason,
                deadline_s=self.policy.deadline_s,
                hop=hop or None,
            ) from e
        except httpcore.ConnectError as e:
            raise _fetch_error("connect_error", f"cannot connect to {url}: {e}", url) from e
        except (httpcore.ReadError, httpcore.WriteError) as e:
            raise _fetch_error("network_error", f"connection failed for {url}: {e}", url) from e
        except (httpcore.RemoteProtocolError, httpcore.LocalProtocolError) as e:
            raise _fetch_error("protocol_error", f"invalid HTTP from {url}: {e}", url) from e
        except httpcore.UnsupportedProtocol as e:  # pragma: no cover - check_url forbids it
            raise _fetch_error("protocol_error", str(e), url) from e
        finally:
            _TARGET.reset(t_target)
            _DEADLINE.reset(t_dead)

    def _read(
        self, r: httpcore.Response, url: str, cap: int, truncate: bool, deadline: float
    ) -> _Response:
        headers = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in r.headers]
        stream = r.extensions.get("network_stream")
        address = stream.address if isinstance(stream, _DeadlineStream) else None
        if r.status in _REDIRECTS or r.status == 304 or r.status < 200:
            return _Response(r.status, headers, b"", 0, False, address)
        codings = [
            c.strip().lower()
            for k, v in headers
            if k == "content-encoding"
            for c in v.split(",")
            if c.strip() and c.strip().lower() != "identity"
        ]
        if len(codings) > 1:
            raise _fetch_error(
                "decoding",
                f"{url} stacks content codings {codings}; at most one is accepted",
                url,
                reason="stacked_encoding",
                codings=codings,
            )
        if codings and codings[0] not in ("gzip", "x-gzip", "deflate"):
            raise _fetch_error(
                "decoding",
                f"unsupported content coding {codings[0]!r}",
                url,
                reason="unsupported_encoding",
            )
        length = next((v for k, v in headers if k == "content-length"), None)
        if length and length.strip().isdigit() and int(length) > cap and not truncate:
            raise _fetch_error(
                "too_large",
                f"{url} declares {int(length)} bytes, over the {cap}-byte cap",
                url,
                reason="content_length",
                max_bytes=cap,
                declared=int(length),
            )
        decoder = _Decoder(codings[0] if codings else "")
        body = bytearray()
        raw = 0
        complete = True
        try:
            for chunk in r.iter_stream():
                raw += len(chunk)
                out, complete = decoder.feed(chunk, cap - len(body))
                body += out
                if len(body) > cap or not complete:
                    complete = False
                    break
                if time.monotonic() >= deadline:
                    raise httpcore.ReadTimeout("deadline exceeded")
            if complete:
                decoder.finish()
        except zlib.error as e:
            raise _fetch_error(
                "decoding", f"corrupt {decoder.coding} body from {url}: {e}", url
            ) from e
        if not complete:
            if not truncate:
                raise _fetch_error(
                    "too_large",
                    f"{url} decodes to more than the {cap}-byte cap",
                    url,
                    reason="decoded_bytes",
                    max_bytes=cap,
                    raw_bytes=raw,
                )
            del body[cap:]
        return _Response(r.status, headers, bytes(body), raw, not complete, address)

    def _robots_for(self, target: Target) -> RobotsInfo:
        origin = target.origin
        with self._lock:
            lock = self._robots_locks.setdefault(origin, threading.Lock())
        with lock:
            if origin not in self._robots:
                self._robots[origin] = self._load_robots(origin)
            return self._robots[origin]

    def _load_robots(self, origin: str) -> RobotsInfo:
        url = origin + "/robots.txt"
        p = self.policy
        try:
            attempt = self._chain(url, {}, p.robots_max_bytes, True, False, {})
        except BlockedURL as e:
            if not e.detail.get("hop"):
                raise  # the origin itself is refused: so is the page
            return RobotsInfo(origin, "disallow_all", error="blocked_redirect")
        except FetchError as e:
            return RobotsInfo(origin, "disallow_all", error=e.code, message=e.message)
        if attempt.status >= 500 or attempt.status == 429:
            return RobotsInfo(origin, "disallow_all", status=attempt.status, error="http_status")
        if attempt.status >= 400:
            return RobotsInfo(origin, "allow_all", status=attempt.status)
        text = attempt.body.decode("utf-8", "replace").lstrip("\ufeff")
        parser = Protego.parse(text)
        delay = parser.crawl_delay(p.robots_agent)
        return RobotsInfo(
            origin,
            "parsed",
            status=attempt.status,
            sitemaps=tuple(parser.sitemaps),
            crawl_delay=float(delay) if delay is not None else None,
            truncated=attempt.truncated,
            parser=parser,
        )


# ---------------------------------------------------------------------------------------------
# The network door: the pipeline's one way to the network (discovery, fetching, crawling and
# package-name resolution all come through here), a thin face over ``SecureFetcher`` with one
# cached fetcher per policy (robots.txt and politeness state shared within a process).


def fetch_limits(cfg: SourceConfig) -> SourceLimits:
    """A source's limits, typed (``settings.SourceLimits``: the one reading); each request
    through the door applies ``max_bytes``, ``timeout`` and ``deadline``, the stage
    ``max_pages``."""
    return SourceLimits.from_table(cfg.limits)


@dataclass(frozen=True)
class Response:
    url: str  # as requested
    final_url: str  # after redirects
    status: int
    headers: dict[str, str]  # lower-cased names
    body: bytes  # decoded content, at most max_bytes
    truncated: bool  # the body was cut at max_bytes
    redirects: int
    not_modified: bool = False  # 304 to a conditional GET: keep the stored body

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")


def http_get(
    url: str,
    *,
    timeout: float = 10.0,
    deadline: float = 30.0,
    max_bytes: int = 10 * 1024 * 1024,
    headers: dict[str, str] | None = None,
    allow_hosts: Sequence[str] = (),
    limits: Mapping[str, Any] | None = None,
    etag: str | None = None,
    last_modified: str | None = None,
) -> Response:
    """GET ``url`` through the secure fetcher (policy, pinning, deadline, cap, robots, retries).

    Raises ``BlockedURL`` (policy) or ``FetchError`` (typed ``code``); HTTP error statuses are
    returned. A body over ``max_bytes`` is cut and marked ``truncated``.
    """
    fetcher = fetcher_for(
        limits, allow_hosts, deadline_s=float(deadline), connect_timeout_s=float(timeout)
    )
    r = fetcher.get(
        url,
        headers=headers,
        etag=etag or None,
        last_modified=last_modified or None,
        truncate=True,
        max_bytes=max_bytes,
    )
    hdrs: dict[str, str] = {}
    for k, v in r.headers:
        hdrs[k] = v
    return Response(
        url, r.final_url, r.status, hdrs, r.body, r.truncated, len(r.hops), r.not_modified
    )


def source_fetcher(cfg: SourceConfig) -> SecureFetcher:
    """The fetcher ``http_get`` uses for this source's limits and allowances (same instance)."""
    lim = fetch_limits(cfg)
    return fetcher_for(
        cfg.limits,
        cfg.allow_hosts,
        deadline_s=float(lim.deadline),
        connect_timeout_s=float(lim.timeout),
    )


def fetcher_for(
    limits: Mapping[str, Any] | None = None, allow_hosts: Iterable[str] = (), **kw: Any
) -> SecureFetcher:
    """The process-wide ``SecureFetcher`` for this policy (robots and politeness state shared)."""
    policy = FetchPolicy.from_limits(
        {
            k: tuple(v) if isinstance(v, list) else v
            for k, v in dict(limits or {}).items()
            if k not in _NOT_POLICY
        },
        tuple(dict.fromkeys(allow_hosts)),
        **kw,
    )
    return _cached_fetcher(policy)


_NOT_POLICY = frozenset({"max_pages", "max_bytes"})  # per-call or per-stage, not fetcher state


@functools.lru_cache(maxsize=16)
def _cached_fetcher(policy: FetchPolicy) -> SecureFetcher:
    return SecureFetcher(policy)
