"""cURL command lines -> API calls (issue 15 point 2).

Contract: ``curl_calls(text, file="") -> list[ApiCall]``: every command line that starts with
``curl`` (optionally after a ``$ `` prompt), with backslash-continued lines joined; the line
number is the first line's. Flags read: ``-X/--request``, ``-d/--data/--data-raw/--data-binary/
--data-urlencode/--json`` (JSON body keys, or ``k=v`` form keys), ``-F/--form``, ``-H/--header``
(names, lower-cased), ``-G/--get`` (data goes to the query), ``-I/--head``, ``-u/--user``
(an ``authorization`` header). Without ``-X`` the method is ``POST`` when there is a body,
``HEAD`` with ``-I``, else ``GET``. Shell variables in the URL (``$HOST``, ``${ID}``) become
``{HOST}``/``{ID}``; a line the shell could not split, or a body read from a file (``@f``), is
marked in ``dynamic``.
"""

from __future__ import annotations

import json
import re
import shlex

from docorbit_serve.codecalls.urls import split_url
from docorbit_serve.models.change import ApiCall

__all__ = ["curl_calls"]

_START = re.compile(r"^\s*(?:\$\s+)?curl\s")
_VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
_DATA = {
    "-d",
    "--data",
    "--data-raw",
    "--data-binary",
    "--data-ascii",
    "--data-urlencode",
    "--json",
}
_WITH_VALUE = {"-o", "--output", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "-c",
               "--cookie-jar", "-m", "--max-time", "--connect-timeout", "-w", "--write-out",
               "--retry", "-x", "--proxy", "--cacert", "--cert", "--key", "-K", "--config",
               "--limit-rate", "-T", "--upload-file"}  # fmt: skip


def _commands(text: str) -> list[tuple[int, str, str]]:
    """(first line number, joined command, first line as written)."""
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        if not _START.match(lines[i]):
            i += 1
            continue
        start, parts = i, [lines[i]]
        while parts[-1].rstrip().endswith("\\") and i + 1 < len(lines):
            parts[-1] = parts[-1].rstrip()[:-1]
            i += 1
            parts.append(lines[i])
        out.append((start + 1, " ".join(parts).strip().removeprefix("$").strip(), lines[start]))
        i += 1
    return out


def _body_keys(value: str, dynamic: list[str]) -> list[str]:
    if value.startswith("@"):
        dynamic.append("body")
        return []
    try:
        doc = json.loads(value)
    except ValueError:
        doc = None
    if isinstance(doc, dict):
        return sorted(doc)
    if doc is not None:
        return []
    return sorted({kv.split("=", 1)[0] for kv in value.split("&") if "=" in kv})


def _parse(line: int, cmd: str, first: str, file: str) -> ApiCall | None:
    dynamic: list[str] = []
    try:
        argv = shlex.split(cmd)
    except ValueError:
        argv, dynamic = cmd.split(), ["command"]
    method: str | None = None
    url: str | None = None
    data: list[str] = []
    forms: list[str] = []
    headers: list[str] = []
    get = head = False
    it = iter(argv[1:])
    for arg in it:
        flag, eq, inline = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        value = inline if eq else None
        short = re.match(r"^-([XdHFu])(.+)$", arg)  # -XPOST, -H'…'
        if short:
            flag, value = "-" + short.group(1), short.group(2)
        if flag in ("-X", "--request"):
            method = (value or next(it, "")).upper() or None
        elif flag in _DATA:
            data += _body_keys(value if value is not None else next(it, ""), dynamic)
            if flag == "--json":
                headers.append("content-type")
        elif flag in ("-F", "--form"):
            forms.append((value if value is not None else next(it, "")).split("=", 1)[0])
        elif flag in ("-H", "--header"):
            h = value if value is not None else next(it, "")
            headers.append(h.split(":", 1)[0].strip().lower())
        elif flag in ("-u", "--user"):
            next(it, None) if value is None else None
            headers.append("authorization")
        elif flag in ("-G", "--get"):
            get = True
        elif flag in ("-I", "--head"):
            head = True
        elif flag in _WITH_VALUE:
            next(it, None) if value is None else None
        elif flag == "--url":
            url = value if value is not None else next(it, "")
        elif not arg.startswith("-") and url is None:
            url = arg
    if url is None:
        return None
    has_body = bool(data or forms) and not get
    method = method or ("HEAD" if head else "POST" if has_body else "GET")
    template = _VAR.sub(lambda m: "{" + m.group(1) + "}", url)
    if "://" not in template and not template.startswith(("/", "{")):
        template = "http://" + template
    host, path, qfields, kind = split_url(template)
    if kind == "dynamic":
        dynamic.append("url")
    return ApiCall(
        file=file,
        line=line,
        language="shell",
        client="curl",
        snippet=first.strip()[:240],
        method=method,
        url=template,
        path=path,
        host=host,
        url_kind=kind,  # type: ignore[arg-type]
        query_fields=sorted(set(qfields) | (set(data) if get else set())),
        body_fields=sorted(set(forms) | (set() if get else set(data))),
        headers=sorted(set(headers)),
        dynamic=sorted(set(dynamic)),
    )


def curl_calls(text: str, file: str = "") -> list[ApiCall]:
    out = []
    for line, cmd, first in _commands(text):
        call = _parse(line, cmd, first, file)
        if call is not None:
            out.append(call)
    return out
