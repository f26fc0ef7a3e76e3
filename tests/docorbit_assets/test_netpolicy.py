"""The SSRF policy over the kit's 84 URLs and generated variants of the same kinds.

Every test runs under the socket tripwire and the stand-in resolver: nothing reaches a network.
"""

from __future__ import annotations

import ipaddress
import json

import httpx
import pytest

from docorbit_assets.lib.netpolicy import (
    NetPolicy,
    check_url,
    classify_address,
    parse_allowance,
    screen_url,
)
from docorbit_assets.lib.secure_fetch import FetchPolicy, SecureFetcher
from docorbit_serve.errors import BlockedURL, FetchError, UsageError
from tests.support.net import KIT, fake_dns, tripwire

ROWS = [json.loads(line) for line in (KIT / "ssrf_urls.jsonl").read_text().splitlines() if line]
POLICY = FetchPolicy(politeness_s=0, respect_robots=False, max_retries=0, deadline_s=2)


def _host(url: str) -> str | None:
    try:
        return httpx.URL(url).raw_host.decode().lower().rstrip(".")
    except httpx.InvalidURL:
        return None


def _table(row: dict) -> dict:
    host = _host(row["url"])
    return {host: row["resolves_to"]} if host and row["resolves_to"] is not None else {}


@pytest.fixture(scope="module")
def fetcher():
    with SecureFetcher(POLICY) as f:
        yield f


def _run_row(row: dict, fetcher: SecureFetcher) -> tuple[str, str | None, list[tuple[str, int]]]:
    """(outcome, reason, connect attempts) for one kit row, fetched for real (tripwired)."""
    with tripwire() as wire, fake_dns(_table(row)):
        if row["expect"] == "allow":  # classify only; never connect
            screen_url(row["url"], fetcher.policy.net)
            return "allow", None, wire.attempts
        try:
            fetcher.get(row["url"])
        except BlockedURL as e:
            return "deny", e.detail["reason"], wire.attempts
        except FetchError as e:
            return "fetch_error:" + e.code, e.detail.get("reason"), wire.attempts
        return "fetched", None, wire.attempts


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_kit_ssrf_row_behaves_as_its_row_says(row, fetcher):
    outcome, reason, attempts = _run_row(row, fetcher)
    if row["expect"] == "deny":
        assert (outcome, reason) == ("deny", row["reason"])
        assert attempts == []
    elif row["expect"] == "pin":
        # The first (public) answer is the one dialled (the tripwire refuses it); the second
        # answer (127.0.0.1) is never looked up for this connection, let alone dialled.
        assert outcome == "fetch_error:connect_error"
        assert attempts == [("93.184.215.14", 80)]
    else:
        assert outcome == "allow" and attempts == []


def test_kit_figures_all_rows_tried_none_connected_to_a_blocked_target(fetcher):
    outcomes = [(_run_row(r, fetcher), r) for r in ROWS]
    denied = [r for (o, _, _), r in outcomes if o == "deny"]
    blocked_attempts = [a for (o, _, att), r in outcomes if r["expect"] != "pin" for a in att]
    assert len(ROWS) == 84
    assert len(denied) == sum(r["expect"] == "deny" for r in ROWS) == 77
    assert blocked_attempts == []


def test_the_pin_row_looks_the_name_up_once_per_connection(fetcher):
    row = next(r for r in ROWS if r["expect"] == "pin")
    with tripwire() as wire, fake_dns(_table(row)) as dns:
        with pytest.raises(FetchError):
            fetcher.get(row["url"])
        assert dns.calls == {"rebind.docs.test": 1}
        assert "127.0.0.1" not in {ip for ip, _ in wire.attempts}


@pytest.mark.parametrize(
    "address, reason",
    [
        # the traps where ipaddress flags disagree between patch releases, pinned here
        ("::127.0.0.1", "ipv6_embedded"),
        ("64:ff9b::7f00:1", "ipv6_embedded"),
        ("2002:a9fe:a9fe::", "ipv6_embedded"),
        ("fec0::1", "reserved"),  # deprecated site-local: one reason vocabulary with the kit
        ("224.0.0.1", "multicast"),
        ("192.88.99.1", "reserved"),
        ("192.0.0.192", "metadata"),
        ("100.64.0.1", "private"),
        ("100.127.255.255", "private"),
        ("100.100.100.200", "metadata"),
        ("::ffff:127.0.0.1", "ipv6_embedded"),
        # range starts and ends
        ("0.0.0.0", "unspecified"),
        ("0.255.255.255", "unspecified"),
        ("10.255.255.255", "private"),
        ("127.255.255.254", "loopback"),
        ("169.254.0.1", "link_local"),
        ("172.31.255.255", "private"),
        ("192.0.2.255", "reserved"),
        ("198.19.255.255", "reserved"),
        ("203.0.113.7", "reserved"),
        ("239.255.255.255", "multicast"),
        ("240.0.0.1", "reserved"),
        ("168.63.129.16", "metadata"),
        ("fd00:ec2::254", "metadata"),
        ("fd20:ce::254", "metadata"),
        ("fdff:ffff::1", "private"),
        ("febf::1", "link_local"),
        ("ff0e::1", "multicast"),
        ("100::1", "reserved"),
        ("2001:db8::1", "reserved"),
        ("3fff::1", "reserved"),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "ipv6_embedded"),  # Teredo, client 192.0.2.45
        ("4000::1", "reserved"),  # outside 2000::/3
    ],
)
def test_deny_list_gives_the_precise_reason(address, reason):
    assert classify_address(ipaddress.ip_address(address)) == reason


@pytest.mark.parametrize(
    "address",
    [
        "93.184.215.14",
        "8.8.8.8",
        "1.1.1.1",
        "100.63.255.255",
        "100.128.0.0",
        "172.32.0.1",
        "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
        "2a00:1450:4001::1",
        "64:ff9b::5db8:d70e",  # NAT64 of a public IPv4 (IPv6-only networks use these)
        "::ffff:93.184.215.14",
        "2002:5db8:d70e::1",  # 6to4 of a public IPv4
    ],
)
def test_public_addresses_pass(address):
    assert classify_address(ipaddress.ip_address(address)) is None


_BLOCKED_V4 = [
    ("127.0.0.1", "loopback"),
    ("10.1.2.3", "private"),
    ("192.168.1.1", "private"),
    ("169.254.169.254", "metadata"),
    ("100.100.100.200", "metadata"),
    ("0.0.0.0", "unspecified"),
]


def _numeric_forms(ip: str) -> list[str]:
    a, b, c, d = (int(x) for x in ip.split("."))
    n = int(ipaddress.IPv4Address(ip))
    return [
        str(n),
        hex(n),
        "0" + oct(n)[2:],
        f"{a}.{(b << 16) | (c << 8) | d}",
        f"{a}.{b}.{(c << 8) | d}",
        ".".join(hex(x) for x in (a, b, c, d)),
        ".".join("0" + oct(x)[2:] for x in (a, b, c, d)),
        ip + ".",
    ]


@pytest.mark.parametrize("ip, reason", _BLOCKED_V4)
def test_every_numeric_spelling_of_a_blocked_address_is_refused_without_dns(ip, reason):
    with tripwire() as wire, fake_dns({}) as dns:
        for form in _numeric_forms(ip):
            with pytest.raises(BlockedURL) as e:
                check_url(f"http://{form}/", NetPolicy())
            assert e.value.detail["reason"] == reason, form
        assert dns.calls == {} and wire.attempts == []


@pytest.mark.parametrize("ip, reason", _BLOCKED_V4)
def test_every_ipv6_wrapping_of_a_blocked_address_is_unwrapped(ip, reason):
    n = int(ipaddress.IPv4Address(ip))
    forms = [
        ipaddress.IPv6Address((0xFFFF << 32) | n),  # mapped
        ipaddress.IPv6Address(int(ipaddress.IPv6Address("64:ff9b::")) | n),  # NAT64
        ipaddress.IPv6Address((0x2002 << 112) | (n << 80)),  # 6to4
    ]
    if n > 1:
        forms.append(ipaddress.IPv6Address(n))  # compatible
    for form in forms:
        with pytest.raises(BlockedURL) as e:
            check_url(f"http://[{form}]/", NetPolicy())
        assert e.value.detail["reason"] == "ipv6_embedded", str(form)


@pytest.mark.parametrize(
    "answers, reason",
    [
        (["93.184.215.14", "10.0.0.7"], "private"),
        (["2606:4700::1111", "::1"], "loopback"),
        (["93.184.215.14", "169.254.169.254"], "metadata"),
        (["fe80::1"], "link_local"),
    ],
)
def test_a_name_is_refused_when_any_answer_is_not_public(answers, reason):
    with tripwire() as wire, fake_dns({"docs.example.org": answers}):
        with pytest.raises(BlockedURL) as e:
            screen_url("https://docs.example.org/x", NetPolicy())
        assert e.value.detail["reason"] == reason
        assert wire.attempts == []


def test_allowance_names_exactly_one_host_and_port():
    policy = NetPolicy(allow_hosts=("127.0.0.1:8765", "Docs.Internal.:8443"))
    assert check_url("http://127.0.0.1:8765/x", policy).allowed
    with pytest.raises(BlockedURL) as other_port:
        check_url("http://127.0.0.1:8766/x", policy)
    assert other_port.value.detail["reason"] == "loopback"
    with pytest.raises(BlockedURL) as other_name:
        check_url("http://localhost:8765/x", policy)
    assert other_name.value.detail["reason"] == "loopback"
    with fake_dns({"docs.internal": ["10.20.0.5"]}):
        _, answers = screen_url("https://docs.internal:8443/guide", policy)
        assert [str(a) for a in answers] == ["10.20.0.5"]
        with pytest.raises(BlockedURL):
            screen_url("https://docs.internal:443/guide", policy)


def test_metadata_stays_blocked_even_when_allowed():
    policy = NetPolicy(allow_hosts=("169.254.169.254:80", "metadata.google.internal:80"))
    for url in ("http://169.254.169.254/latest/", "http://metadata.google.internal/"):
        with pytest.raises(BlockedURL) as e:
            check_url(url, policy)
        assert e.value.detail["reason"] == "metadata"


def test_ports_outside_the_default_set_are_refused_for_public_hosts():
    for port in (21, 25, 6379, 9200, 11211):
        with pytest.raises(BlockedURL) as e:
            check_url(f"http://docs.example.com:{port}/", NetPolicy())
        assert e.value.detail["reason"] == "port"
    assert check_url("http://docs.example.com:8080/", NetPolicy()).port == 8080


@pytest.mark.parametrize("text", ["127.0.0.1", "host:", ":80", "a:b", "h:70000", "h:0", "[::1:80"])
def test_malformed_allowance_is_a_usage_error(text):
    with pytest.raises(UsageError):
        parse_allowance(text)


def test_blocked_url_error_has_the_documented_code_and_suggests_the_fix():
    with pytest.raises(BlockedURL) as e:
        check_url("http://10.0.0.1/", NetPolicy())
    payload = e.value.to_json()["error"]
    assert payload["code"] == "blocked_url" and e.value.exit_code == 5
    assert payload["detail"]["reason"] == "private"
    assert "--allow-host" in payload["message"]


def test_every_refusal_reason_is_one_the_kit_names():
    """One reason vocabulary: a deny is told apart by the same words the kit's rows use (a
    deprecated site-local address is ``reserved``, as IANA lists it, not a reason of its own)."""
    from docorbit_assets.lib.netpolicy import REASONS

    assert set(REASONS) <= {r["reason"] for r in ROWS}
