"""Identifier resolution: a package name -> its documentation URL, with confidence and alternatives.

Contract: ``resolve_identifier(name, *, get=None, pypi_url=..., npm_url=...) -> Resolution``.

1. **Installed metadata first (offline)**: ``importlib.metadata`` of the distribution ``name``:
   ``Project-URL`` entries labelled Documentation / Docs (confidence 0.95), Homepage / Home-page
   (0.7; 0.4 when it is a GitHub repository), Source / Repository (GitHub: kept as ``github``).
   A Documentation URL found here ends the search.
2. **Registries when reachable**: PyPI JSON ``{pypi_url}/pypi/{name}/json`` (``project_urls``,
   ``docs_url``, ``home_page``) and npm ``{npm_url}/{name}`` (``homepage``, ``repository``),
   fetched with ``get(url) -> bytes`` (the CLI passes the secure fetcher: policy, caps,
   deadline; robots.txt is not consulted for these API look-ups, they are not crawling). The
   base URLs come from the arguments, else ``DOCORBIT_PYPI_URL`` / ``DOCORBIT_NPM_URL`` (read
   through ``settings.Environment``), else the public registries. A registry that fails is
   recorded in ``errors`` (never raised).
3. **Ambiguity is reported, never resolved silently**: when the best docs URLs of different
   ecosystems differ (a PyPI and an npm package of the same name), or the best candidates tie
   on confidence with different URLs, ``ambiguous`` is True and ``chosen`` is None;
   ``alternatives`` lists every candidate, best first.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from docorbit_serve.errors import DocOrbitError
from docorbit_serve.settings import Environment

__all__ = ["IDENTIFIER", "Resolution", "UrlCandidate", "resolve_identifier"]

IDENTIFIER = re.compile(r"^(@[a-z0-9][\w.-]*/)?[A-Za-z0-9][A-Za-z0-9._-]{0,213}$")
_GITHUB = re.compile(r"^https?://(www\.)?github\.com/[^/]+/[^/]+", re.I)


@dataclass(frozen=True)
class UrlCandidate:
    url: str
    kind: str  # docs | homepage | github
    origin: str  # installed | pypi | npm
    label: str
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "kind": self.kind,
            "origin": self.origin,
            "label": self.label,
            "confidence": self.confidence,
        }


@dataclass
class Resolution:
    name: str
    chosen: UrlCandidate | None = None
    ambiguous: bool = False
    alternatives: list[UrlCandidate] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "chosen": self.chosen.to_json() if self.chosen else None,
            "ambiguous": self.ambiguous,
            "alternatives": [a.to_json() for a in self.alternatives],
            "errors": dict(sorted(self.errors.items())),
            "reason": self.reason,
        }


def _classify(label: str, url: str, origin: str) -> UrlCandidate | None:
    if not url.startswith(("http://", "https://")):
        return None
    low = label.lower().replace("-", "").replace("_", "").replace(" ", "")
    if _GITHUB.match(url) and low not in ("documentation", "docs"):
        if low in ("homepage", "home", "source", "sourcecode", "repository", "code", "github"):
            return UrlCandidate(url, "github", origin, label, 0.5)
        return None
    if low in ("documentation", "docs", "docsurl"):
        return UrlCandidate(url, "docs", origin, label, 0.95 if origin == "installed" else 0.9)
    if low in ("homepage", "home", "homepageurl"):
        return UrlCandidate(url, "homepage", origin, label, 0.7 if origin == "installed" else 0.6)
    return None


def _installed(name: str) -> list[UrlCandidate]:
    try:
        meta = md.metadata(name)
    except md.PackageNotFoundError:
        return []
    out = []
    for entry in meta.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        c = _classify(label.strip(), url.strip(), "installed")
        if c:
            out.append(c)
    home = meta.get("Home-page")  # type: ignore[attr-defined]  # email.Message API
    if home:
        c = _classify("Homepage", home.strip(), "installed")
        if c:
            out.append(c)
    return out


def _pypi(data: dict[str, Any]) -> list[UrlCandidate]:
    info = data.get("info") if isinstance(data, dict) else None
    if not isinstance(info, dict):
        return []
    out = []
    raw_urls = info.get("project_urls")
    urls: dict[str, Any] = raw_urls if isinstance(raw_urls, dict) else {}
    for label, url in sorted(urls.items()):
        c = _classify(str(label), str(url), "pypi")
        if c:
            out.append(c)
    for label, key in (("Documentation", "docs_url"), ("Homepage", "home_page")):
        if isinstance(info.get(key), str) and info[key]:
            c = _classify(label, info[key], "pypi")
            if c:
                out.append(c)
    return out


def _npm(data: dict[str, Any]) -> list[UrlCandidate]:
    if not isinstance(data, dict):
        return []
    out = []
    if isinstance(data.get("homepage"), str):
        c = _classify("Homepage", data["homepage"], "npm")
        if c:
            out.append(c)
    repo = data.get("repository")
    url = repo.get("url") if isinstance(repo, dict) else repo
    if isinstance(url, str):
        url = re.sub(r"^git\+", "", url).removesuffix(".git")
        c = _classify("Repository", url, "npm")
        if c:
            out.append(c)
    return out


def _dedupe(cands: list[UrlCandidate]) -> list[UrlCandidate]:
    best: dict[str, UrlCandidate] = {}
    for c in cands:
        key = c.url.rstrip("/")
        if key not in best or c.confidence > best[key].confidence:
            best[key] = c
    rank = {"docs": 0, "homepage": 1, "github": 2}
    return sorted(best.values(), key=lambda c: (-c.confidence, rank[c.kind], c.origin, c.url))


def resolve_identifier(
    name: str,
    *,
    get: Callable[[str], bytes] | None = None,
    pypi_url: str | None = None,
    npm_url: str | None = None,
) -> Resolution:
    res = Resolution(name)
    local = _dedupe(_installed(name))
    if local and local[0].kind == "docs":
        res.chosen, res.alternatives = local[0], local
        res.reason = f"Documentation URL from the installed distribution {name!r}"
        return res
    found: dict[str, list[UrlCandidate]] = {}
    if local:
        found["installed"] = local
    if get is not None:
        env = Environment.read()
        pypi = (pypi_url or env.pypi_url).rstrip("/")
        npm = (npm_url or env.npm_url).rstrip("/")
        sources: list[tuple[str, str, Callable[[Any], list[UrlCandidate]]]] = [
            ("pypi", f"{pypi}/pypi/{quote(name)}/json", _pypi),
            ("npm", f"{npm}/{quote(name, safe='@')}", _npm),
        ]
        for origin, url, parse in sources:
            try:
                data = json.loads(get(url))
            except DocOrbitError as e:
                res.errors[origin] = e.code
                continue
            except ValueError:
                res.errors[origin] = "bad_json"
                continue
            got = _dedupe(parse(data))
            if got:
                found[origin] = got
    res.alternatives = _dedupe([c for cs in found.values() for c in cs])
    if not res.alternatives:
        res.reason = f"no documentation URL found for {name!r}"
        return res
    tops = {o: cs[0] for o, cs in found.items() if o != "installed" and cs[0].kind != "github"}
    distinct = {c.url.rstrip("/") for c in tops.values()}
    top = res.alternatives[0]
    ties = [
        c
        for c in res.alternatives
        if c.confidence == top.confidence and c.url.rstrip("/") != top.url.rstrip("/")
    ]
    if len(distinct) > 1:
        res.ambiguous = True
        res.reason = (
            f"{name!r} names packages in {', '.join(sorted(tops))} with different docs: "
            + ", ".join(sorted(distinct))
        )
    elif ties:
        res.ambiguous = True
        res.reason = f"{len(ties) + 1} candidates tie at confidence {top.confidence}"
    else:
        res.chosen = top
        res.reason = f"{top.kind} URL from {top.origin} metadata ({top.label})"
    return res
