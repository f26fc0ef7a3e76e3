"""URL and address policy for every network access of DocOrbit (SSRF guard).

Contract:

- ``check_url(url, policy) -> Target`` looks at the URL only (no DNS): scheme ``http``/``https``,
  no userinfo, no backslash or control characters, a well-formed host, a port in
  ``policy.ports`` (80, 443, 8080, 8443 by default). Numeric hosts in every legacy form
  (``127.1``, ``2130706433``, ``0x7f.1``, ``0177.0.0.1``) are parsed here, never sent to DNS, and
  classified as addresses. ``localhost``/``*.localhost`` and cloud metadata names are refused by
  name.
- ``resolve(target, policy, *, timeout=None) -> tuple[ip, ...]`` does ONE ``socket.getaddrinfo``
  call, waited for at most ``timeout`` seconds (``DNS_TIMEOUT_S`` by default; then
  ``ResolveTimeout``), and refuses the host if ANY answer is not public. The caller connects to one of the returned addresses and
  to nothing else (``secure_fetch`` does this at connect time, so the address checked is the
  address dialled: no second lookup, no DNS rebinding).
- ``classify_address(ip) -> reason | None`` is the explicit deny list (IANA special-purpose
  registries + cloud metadata addresses). It never consults the ``ipaddress`` ``is_*`` flags,
  whose verdicts differ between Python patch releases. IPv6 outside 2000::/3 is refused; IPv4
  embedded in IPv6 (mapped, compatible, NAT64, 6to4, Teredo) is unwrapped and re-checked.
- ``NetPolicy.allow_hosts`` holds explicit allowances, exact ``"HOST:PORT"`` strings (e.g.
  ``"127.0.0.1:8765"``, ``"docs.internal:8443"``, ``"[::1]:9000"``). An allowance bypasses the
  port and address checks for exactly that host and port; another port on the same address stays
  blocked. Metadata addresses and names are refused even when allowed.

Every refusal raises ``BlockedURL`` (code ``blocked_url``) with ``detail["reason"]`` one of
``REASONS``.
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

import httpx

from docorbit_serve.errors import BlockedURL, UsageError
from docorbit_serve.settings import LIMITS

__all__ = [
    "DEFAULT_PORTS",
    "METADATA_HOSTNAMES",
    "REASONS",
    "NetPolicy",
    "ResolveTimeout",
    "Target",
    "check_url",
    "classify_address",
    "parse_allowance",
    "resolve",
    "screen_url",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

DEFAULT_PORTS = tuple(LIMITS["ports"].default)  # 80, 443, 8080, 8443 (settings.LIMITS)

REASONS = (
    "credentials",
    "invalid_url",
    "ipv6_embedded",
    "link_local",
    "loopback",
    "metadata",
    "multicast",
    "port",
    "private",
    "reserved",
    "scheme",
    "unresolvable",
    "unspecified",
)

_HUMAN = {
    "credentials": "URLs with a user name or password (userinfo) are refused",
    "invalid_url": "the URL is malformed or ambiguous",
    "ipv6_embedded": "an IPv6 address that embeds a non-public IPv4 address",
    "link_local": "a link-local address",
    "loopback": "a loopback address (this machine)",
    "metadata": "a cloud metadata endpoint",
    "multicast": "a multicast address",
    "port": "a port outside the allowed web ports",
    "private": "a private-network address",
    "reserved": "a reserved / special-purpose address",
    "scheme": "only http and https URLs are fetched",
    "unresolvable": "the host name does not resolve",
    "unspecified": "the unspecified address (0.0.0.0 / ::)",
}

METADATA_HOSTNAMES = frozenset(
    {
        "metadata",
        "metadata.google.internal",
        "metadata.goog",
        "instance-data",
        "instance-data.ec2.internal",
        "metadata.azure.internal",
        "metadata.tencentyun.com",
        "metadata.platformequinix.com",
    }
)

_METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",  # AWS, GCP, Azure, DigitalOcean, OpenStack IMDS
        "169.254.170.2",  # AWS ECS task credentials
        "169.254.170.23",  # AWS EKS pod identity
        "169.254.169.253",  # AWS VPC DNS
        "192.0.0.192",  # Oracle Cloud IMDS
        "100.100.100.200",  # Alibaba Cloud IMDS
        "168.63.129.16",  # Azure WireServer (a public-looking address)
        "fd00:ec2::254",  # AWS IMDS over IPv6
        "fd00:ec2::23",  # AWS EKS pod identity over IPv6
        "fd20:ce::254",  # GCP metadata over IPv6
    )
)


def _nets(*pairs: tuple[str, str]) -> tuple[tuple[Any, str], ...]:
    return tuple((ipaddress.ip_network(n), r) for n, r in pairs)


# IANA IPv4 special-purpose registry plus multicast/reserved. First match wins.
_V4_DENY = _nets(
    ("0.0.0.0/8", "unspecified"),
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "private"),  # CGNAT (RFC 6598)
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link_local"),
    ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "reserved"),  # IETF protocol assignments
    ("192.0.2.0/24", "reserved"),  # TEST-NET-1
    ("192.31.196.0/24", "reserved"),  # AS112-v4
    ("192.52.193.0/24", "reserved"),  # AMT
    ("192.88.99.0/24", "reserved"),  # 6to4 relay anycast (deprecated)
    ("192.168.0.0/16", "private"),
    ("192.175.48.0/24", "reserved"),  # direct delegation AS112
    ("198.18.0.0/15", "reserved"),  # benchmarking
    ("198.51.100.0/24", "reserved"),  # TEST-NET-2
    ("203.0.113.0/24", "reserved"),  # TEST-NET-3
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),  # incl. 255.255.255.255 broadcast
)

# Inside 2000::/3 (the only IPv6 space allowed) these are still special-purpose.
_V6_GLOBAL_DENY = _nets(
    ("2001:db8::/32", "reserved"),  # documentation
    ("2001:2::/48", "reserved"),  # benchmarking
    ("2001:10::/28", "reserved"),  # ORCHID
    ("2001:20::/28", "reserved"),  # ORCHIDv2
    ("2001::/23", "reserved"),  # IETF protocol assignments (Teredo handled before)
    ("3fff::/20", "reserved"),  # documentation (RFC 9637)
)

# Outside 2000::/3, for a precise reason; anything else there is "reserved".
_V6_OTHER = _nets(
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("fc00::/7", "private"),  # unique local
    ("fe80::/10", "link_local"),
    ("fec0::/10", "reserved"),  # site-local, deprecated (RFC 3879): IANA "Reserved by IETF"
    ("ff00::/8", "multicast"),
)

_GLOBAL_V6 = ipaddress.ip_network("2000::/3")
_MAPPED = ipaddress.ip_network("::ffff:0:0/96")
_COMPAT = ipaddress.ip_network("::/96")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
_SIX_TO_FOUR = ipaddress.ip_network("2002::/16")
_TEREDO = ipaddress.ip_network("2001::/32")

_LABEL = re.compile(r"^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class NetPolicy:
    """Which URLs may be fetched. Off-by-default allowances are exact ``HOST:PORT`` strings."""

    allow_hosts: tuple[str, ...] = ()
    ports: tuple[int, ...] = DEFAULT_PORTS
    schemes: tuple[str, ...] = ("http", "https")
    _allowed: frozenset[tuple[str, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "_allowed", frozenset(parse_allowance(a) for a in self.allow_hosts)
        )

    def allows(self, host: str, port: int) -> bool:
        return (host, port) in self._allowed


@dataclass(frozen=True)
class Target:
    """A URL that passed ``check_url``: canonical host (ASCII, lower case, no trailing dot;
    dotted-quad / compressed IPv6 for literals) and effective port."""

    url: httpx.URL
    scheme: str
    host: str
    port: int
    literal: IPAddress | None
    allowed: bool

    @property
    def origin(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = {"http": 80, "https": 443}[self.scheme]
        return f"{self.scheme}://{host}" + ("" if self.port == default else f":{self.port}")

    @property
    def host_port(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def _blocked(reason: str, url: str, **detail: Any) -> BlockedURL:
    d = {"reason": reason, "url": url, **{k: v for k, v in detail.items() if v is not None}}
    hint = ""
    if reason in {"loopback", "private", "link_local", "port", "reserved"}:
        hint = " (for a private docs host, allow it explicitly with --allow-host HOST:PORT)"
    return BlockedURL(f"refused {url!r}: {_HUMAN.get(reason, reason)}{hint}", detail=d)


def parse_allowance(text: str) -> tuple[str, int]:
    """``"HOST:PORT"`` -> (canonical host, port). Raises ``UsageError`` when malformed."""
    m = re.fullmatch(r"\s*(\[[^\]]+\]|[^:\[\]\s]+):(\d{1,5})\s*", text)
    if not m or not 0 < int(m.group(2)) < 65536:
        raise UsageError(
            f"invalid allowance {text!r}: expected HOST:PORT, e.g. 127.0.0.1:8765 or [::1]:8765",
            detail={"allow_host": text},
        )
    host = m.group(1).strip("[]").lower().rstrip(".")
    with contextlib.suppress(ValueError):
        host = str(ipaddress.ip_address(host))
    return host, int(m.group(2))


def classify_address(ip: IPAddress) -> str | None:
    """The deny reason for an address, or None when it is public."""
    if ip in _METADATA_ADDRESSES:
        return "metadata"
    if isinstance(ip, ipaddress.IPv4Address):
        for net, reason in _V4_DENY:
            if ip in net:
                return reason
        return None
    embedded = _embedded_ipv4(ip)
    if embedded:
        bad = [a for a in embedded if classify_address(a) is not None]
        return "ipv6_embedded" if bad else None
    for net, reason in _V6_OTHER:
        if ip in net:
            return reason
    if ip not in _GLOBAL_V6:
        return "reserved"
    for net, reason in _V6_GLOBAL_DENY:
        if ip in net:
            return reason
    return None


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    """IPv4 addresses carried inside an IPv6 address (mapped, compatible, NAT64, 6to4, Teredo)."""
    n = int(ip)
    low32 = ipaddress.IPv4Address(n & 0xFFFFFFFF)
    if ip in _MAPPED or ip in _NAT64:
        return (low32,)
    if ip in _NAT64_LOCAL:  # RFC 8215 local-use prefix; address position varies: be strict
        return (low32, ipaddress.IPv4Address((n >> 40) & 0xFFFFFFFF))
    if ip in _COMPAT and n > 1:  # ::/128 and ::1 are classified as themselves
        return (low32,)
    if ip in _SIX_TO_FOUR:
        return (ipaddress.IPv4Address((n >> 80) & 0xFFFFFFFF),)
    if ip in _TEREDO:  # server IPv4 in bits 64-95, client IPv4 obfuscated (xor) in the low 32
        server = ipaddress.IPv4Address((n >> 64) & 0xFFFFFFFF)
        client = ipaddress.IPv4Address(~n & 0xFFFFFFFF)
        return (server, client)
    return ()


def _parse_ipv4_number(part: str) -> int | None:
    if part[:2] in ("0x", "0X"):
        digits = part[2:]
        if digits and not re.fullmatch(r"[0-9a-fA-F]+", digits):
            return None
        return int(digits or "0", 16)
    if len(part) > 1 and part.startswith("0"):
        return int(part, 8) if re.fullmatch(r"[0-7]+", part) else None
    return int(part) if re.fullmatch(r"[0-9]+", part) else None


def _ends_in_number(host: str) -> bool:
    last = host.split(".")[-1]
    return re.fullmatch(r"[0-9]+|0[xX][0-9a-fA-F]*", last) is not None


def _legacy_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """WHATWG IPv4 parsing (what inet_aton and browsers accept). None = not an IPv4 form;
    raises ValueError for a numeric host that overflows (never reduced modulo 2**32)."""
    if not _ends_in_number(host):
        return None
    parts = host.split(".")
    if len(parts) > 4 or any(p == "" for p in parts):
        raise ValueError("too many or empty parts")
    nums = [_parse_ipv4_number(p) for p in parts]
    if any(n is None for n in nums):
        raise ValueError("non-numeric part")
    values = [n for n in nums if n is not None]
    if any(v > 255 for v in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        raise ValueError("part out of range")
    number = values[-1]
    for i, v in enumerate(values[:-1]):
        number += v * 256 ** (3 - i)
    return ipaddress.IPv4Address(number)


def _canonical_host(raw_host: str, url: str) -> tuple[str, IPAddress | None]:
    host = raw_host.lower()
    if not host:
        raise _blocked("invalid_url", url, why="empty host")
    if ":" in host:  # IPv6 literal (httpx has already removed the brackets)
        addr, _, zone = host.partition("%")
        try:
            ip6 = ipaddress.IPv6Address(addr)
        except ValueError as e:
            raise _blocked("invalid_url", url, why="bad IPv6 literal") from e
        if zone:
            reason = classify_address(ip6) or "invalid_url"
            raise _blocked(reason, url, host=host, why="IPv6 zone id")
        return str(ip6), ip6
    if host.endswith("."):
        host = host[:-1]
    try:
        ip4 = _legacy_ipv4(host)
    except ValueError as e:
        raise _blocked("invalid_url", url, host=raw_host, why=f"bad numeric host: {e}") from e
    if ip4 is not None:
        return str(ip4), ip4
    labels = host.split(".")
    if len(host) > 253 or not all(_LABEL.match(lb) for lb in labels):
        raise _blocked("invalid_url", url, host=raw_host, why="bad host name")
    return host, None


def _fallback_reason(url: str) -> tuple[str, str | None]:
    """Reason for a URL httpx refuses to parse: a numeric host httpx rejects (``0177.0.0.1``)
    still gets its address class so reports say what it was; everything else is invalid_url."""
    try:
        host = urllib.parse.urlsplit(url).hostname or ""
        ip = _legacy_ipv4(host.rstrip("."))
    except ValueError:
        return "invalid_url", None
    if ip is None:
        return "invalid_url", None
    return classify_address(ip) or "invalid_url", str(ip)


def check_url(url: str | httpx.URL, policy: NetPolicy) -> Target:
    """Validate a URL without DNS. Raises ``BlockedURL``; returns the canonical ``Target``."""
    text = str(url)
    m = _SCHEME.match(text)
    if not m:
        raise _blocked("invalid_url", text, why="no scheme")
    if m.group(1).lower() not in policy.schemes:
        raise _blocked("scheme", text, scheme=m.group(1).lower())
    if _CONTROL.search(text):
        raise _blocked("invalid_url", text, why="control character")
    try:
        parsed = url if isinstance(url, httpx.URL) else httpx.URL(text)
        port = parsed.port
    except (httpx.InvalidURL, ValueError, UnicodeError) as e:
        reason, address = _fallback_reason(text)
        raise _blocked(reason, text, address=address, why=str(e)) from e
    if parsed.userinfo:
        raise _blocked("credentials", text)
    if "\\" in text.split("?", 1)[0].split("#", 1)[0]:
        raise _blocked("invalid_url", text, why="backslash")
    host, literal = _canonical_host(parsed.raw_host.decode("ascii", "replace"), text)
    scheme = parsed.scheme
    eff_port = port if port is not None else {"http": 80, "https": 443}[scheme]
    if not 0 <= eff_port <= 65535:
        raise _blocked("invalid_url", text, port=eff_port, why="port out of range")
    allowed = policy.allows(host, eff_port)
    if literal is not None:
        verdict = classify_address(literal)
        if verdict == "metadata" or (verdict and not allowed):
            raise _blocked(verdict, text, host=host, port=eff_port, address=host)
    else:
        if host in METADATA_HOSTNAMES:
            raise _blocked("metadata", text, host=host)
        if (host == "localhost" or host.endswith(".localhost")) and not allowed:
            raise _blocked("loopback", text, host=host)
    if not allowed and eff_port not in policy.ports:
        raise _blocked("port", text, host=host, port=eff_port, allowed_ports=list(policy.ports))
    return Target(parsed, scheme, host, eff_port, literal, allowed)


class ResolveTimeout(Exception):
    """The system resolver did not answer within the time given to ``resolve``."""


# getaddrinfo has no timeout of its own: each lookup runs on a daemon thread (one that never
# returns cannot hold up the process's exit) and is waited for at most the caller's time. At
# most _DNS_THREADS lookups are under way at once; past that a lookup waits for a slot within
# the same time, so a hung resolver costs a few threads, never unbounded time.
_DNS_THREADS = 8
_DNS_SLOTS = threading.BoundedSemaphore(_DNS_THREADS)
DNS_TIMEOUT_S = float(LIMITS["timeout"].default)


def _lookup(host: str, port: int, timeout: float) -> list[Any]:
    deadline = time.monotonic() + timeout
    late = ResolveTimeout(f"no DNS answer for {host} within {timeout:.1f} s")
    if not _DNS_SLOTS.acquire(timeout=max(0.001, timeout)):
        raise late
    box: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            box["answers"] = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM)
        except BaseException as e:  # handed to the waiting caller, raised there
            box["error"] = e
        finally:
            _DNS_SLOTS.release()
            done.set()

    threading.Thread(target=run, name="docorbit-dns", daemon=True).start()
    if not done.wait(max(0.001, deadline - time.monotonic())):
        raise late
    if "error" in box:
        raise box["error"]
    return list(box["answers"])


def resolve(
    target: Target, policy: NetPolicy | None = None, *, timeout: float | None = None
) -> tuple[IPAddress, ...]:
    """The addresses to dial for ``target``: one ``socket.getaddrinfo`` call, every answer
    checked; the host is refused if ANY answer is not public (unless allowed; metadata never).
    The lookup waits at most ``timeout`` seconds (default ``DNS_TIMEOUT_S``), then raises
    ``ResolveTimeout``."""
    if target.literal is not None:
        return (target.literal,)
    url = str(target.url)
    try:
        infos = _lookup(target.host, target.port, DNS_TIMEOUT_S if timeout is None else timeout)
    except (socket.gaierror, UnicodeError, OSError) as e:
        raise _blocked("unresolvable", url, host=target.host, why=str(e)) from e
    answers: list[IPAddress] = []
    for info in infos:
        try:
            ip = ipaddress.ip_address(info[4][0])
        except ValueError:
            continue
        if ip not in answers:
            answers.append(ip)
    if not answers:
        raise _blocked("unresolvable", url, host=target.host, why="no addresses")
    for ip in answers:
        verdict = classify_address(ip)
        if verdict == "metadata" or (verdict and not target.allowed):
            raise _blocked(
                verdict,
                url,
                host=target.host,
                port=target.port,
                address=str(ip),
                answers=[str(a) for a in answers],
            )
    return tuple(answers)


def screen_url(url: str | httpx.URL, policy: NetPolicy) -> tuple[Target, tuple[IPAddress, ...]]:
    """Classify a URL found in content (sitemap ``<loc>``, robots ``Sitemap:``, ``<base href>``,
    OpenAPI ``servers``): ``check_url`` + ``resolve``. Raises ``BlockedURL`` (a lookup that
    times out is ``unresolvable``: nothing vouches for the address); never connects."""
    target = check_url(url, policy)
    try:
        return target, resolve(target, policy)
    except ResolveTimeout as e:
        raise _blocked("unresolvable", str(target.url), host=target.host, why=str(e)) from e
