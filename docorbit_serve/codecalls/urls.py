"""URL templates shared by the code parsers: split a literal or template URL into host and
path, and decide whether it can be read statically.

Contract:
- A template marks each unknown part as ``{name}``; ``split_url(template) -> (host, path,
  query_fields, url_kind)``: ``url_kind`` is ``literal`` (no unknown part), ``template``
  (unknown parts fill whole path segments or the host, e.g. ``{BASE}/pets/{id}``) or
  ``dynamic`` (the path itself is unknown: ``{base}{path}``, ``/v1/{what}s``, empty).
- The query string's keys are returned as fields; the path keeps no query or fragment.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

__all__ = ["PLACEHOLDER", "split_url"]

PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")


def _segments_ok(path: str) -> bool:
    for seg in path.strip("/").split("/"):
        if PLACEHOLDER.search(seg) and not PLACEHOLDER.fullmatch(seg):
            return False  # a placeholder inside a segment ('/{kind}s') cannot be matched
    return True


def split_url(url: str | None) -> tuple[str | None, str | None, list[str], str]:
    if not url:
        return None, None, [], "dynamic"
    host: str | None = None
    rest = url
    if _SCHEME.match(url):
        parts = urlsplit(url)
        host = parts.netloc or None
        rest = parts.path + (("?" + parts.query) if parts.query else "")
    elif url.startswith("{"):
        m = PLACEHOLDER.match(url)
        assert m is not None
        tail = url[m.end() :]
        if not tail.startswith("/"):
            return None, None, [], "dynamic"  # '{base}{path}': the path is unknown
        host, rest = m.group(0), tail
    elif not url.startswith("/"):
        return None, None, [], "dynamic"
    path, _, query = rest.partition("?")
    path = path.split("#", 1)[0] or "/"
    fields = sorted({k for k, _ in parse_qsl(query, keep_blank_values=True)})
    if not _segments_ok(path):
        return host, path, fields, "dynamic"
    unknown = bool(PLACEHOLDER.search(path)) or bool(host and PLACEHOLDER.search(host))
    return host, path, fields, "template" if unknown else "literal"
