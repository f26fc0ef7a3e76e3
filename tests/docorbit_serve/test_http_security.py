"""http_security: header parsing and the bind policy (the live server is in test_mcp_http.py)."""

from __future__ import annotations

import pytest

from docorbit_serve.errors import UsageError
from docorbit_serve.http_security import HttpPolicy, parse_host, parse_origin

PORT = 8765


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        ("127.0.0.1:8765", ("127.0.0.1", 8765)),
        ("LOCALHOST:8765", ("localhost", 8765)),
        ("[::1]:8765", ("::1", 8765)),
        ("[0:0::1]:8765", ("::1", 8765)),
        ("docs.internal", ("docs.internal", 80)),
        ("127.0.0.1:8765@evil.example", None),
        ("127.0.0.1:8765.evil.example", None),
        ("127.0.0.1:08765x", None),
        ("127.0.0.1:99999", None),
        ("127.0.0.1:0", None),
        ("127.1:8765", None),
        ("300.0.0.1:8765", None),
        ("localhost.:8765", None),
        ("[::1", None),
        ("[::1]x:8765", None),
        ("::1:8765", None),
        ("", None),
        (" 127.0.0.1:8765", None),
        ("evil.example/127.0.0.1:8765", None),
        ("xn--80ak6aa92e.com", ("xn--80ak6aa92e.com", 80)),
        ("lоcalhost:8765", None),  # Cyrillic o
    ],
)
def test_host_headers_parse_strictly(value, parsed):
    assert parse_host(value) == parsed


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        ("http://127.0.0.1:8765", ("http", "127.0.0.1", 8765)),
        ("HTTP://LocalHost:8765", ("http", "localhost", 8765)),
        ("https://docs.example", ("https", "docs.example", 443)),
        ("http://[::1]:8765", ("http", "::1", 8765)),
        ("null", None),
        ("file://", None),
        ("http://127.0.0.1:8765/", None),
        ("http://localhost:8765.evil.example", None),
        ("http://user@localhost:8765", None),
        ("chrome-extension://abc", None),
        ("http://", None),
    ],
)
def test_origin_headers_parse_strictly(value, parsed):
    assert parse_origin(value) == parsed


def test_loopback_policy_accepts_exactly_the_loopback_names_on_its_port():
    p = HttpPolicy.for_bind("127.0.0.1", PORT)
    assert all(p.host_ok(h) for h in ("127.0.0.1:8765", "localhost:8765", "[::1]:8765"))
    assert not any(p.host_ok(h) for h in ("127.0.0.1:8766", "127.0.0.1", "evil.example:8765", None))
    assert p.origin_ok(None) and p.origin_ok("http://localhost:8765")
    assert not p.origin_ok("https://localhost:8765") and not p.origin_ok("null")


def test_a_non_loopback_bind_needs_an_allow_list_and_then_accepts_only_it():
    with pytest.raises(UsageError, match="--allow-host"):
        HttpPolicy.for_bind("0.0.0.0", PORT)
    p = HttpPolicy.for_bind(
        "0.0.0.0", PORT, allow_hosts=["docs.lan", "10.0.0.5:9000"], allow_origins=["https://ui.lan"]
    )
    assert p.host_ok("docs.lan:8765") and p.host_ok("10.0.0.5:9000") and p.host_ok("127.0.0.1:8765")
    assert not p.host_ok("docs.lan:9000") and not p.host_ok("10.0.0.5:8765")
    assert p.origin_ok("https://ui.lan") and not p.origin_ok("http://ui.lan")
    assert p.notes == ("Host docs.lan", "Host 10.0.0.5:9000", "Origin https://ui.lan")
    with pytest.raises(UsageError):
        HttpPolicy.for_bind("127.0.0.1", PORT, allow_hosts=["a@b"])
