"""Release detection: a tracked library's new release becomes a new version source beside the old.

A source opts in with ``track`` in ``docorbit.toml``:

- ``pypi:NAME``          — PyPI JSON API ``<pypi>/NAME/json``, ``info.version``;
- ``npm:NAME``           — npm registry metadata ``<npm>/NAME``, ``dist-tags.latest``;
- ``github:OWNER/REPO``  — GitHub releases ``<github>/repos/OWNER/REPO/releases/latest``,
  ``tag_name`` (a leading ``v`` dropped), else the first of ``…/tags``;
- ``url:URL``            — any document (an ``llms.txt``, a sitemap): its SHA-256, or for a
  sitemap its newest ``<lastmod>``. Not a version: a change means "refresh this source".

Feed base URLs default to the public registries and can be pointed elsewhere (a mirror, or a
loopback fixture in tests) with ``[settings] release_feeds = {pypi = "...", npm = "...",
github = "..."}``. Every request goes through the secure fetcher (``secure_fetch.http_get``)
with the registry's and the source's allow-hosts and limits.

Decision (docs/operations.md): a new release is a **new source entry** ``<library>-<version>``
(names allow ``[A-Za-z0-9._-]``, so not ``name@version``): same kind, location, filters and
limits, ``version = <release>``; ``track`` and ``refresh`` move to the new entry and the old
entry keeps its snapshots, published beside the new one, so version-aware search serves both
(``--version`` picks one). ``check_release(registry, cfg, cursor)`` returns what to do;
``apply_release(registry, action)`` edits and saves ``docorbit.toml``.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from typing import Any

from docorbit_assets.lib.secure_fetch import http_get
from docorbit_serve.errors import ConfigError, DocOrbitError, FetchError
from docorbit_serve.registry import Registry, SourceConfig, save_registry

__all__ = [
    "DEFAULT_FEEDS",
    "ReleaseAction",
    "apply_release",
    "check_release",
    "latest_release",
    "new_version_source",
]

DEFAULT_FEEDS = {
    "pypi": "https://pypi.org/pypi",
    "npm": "https://registry.npmjs.org",
    "github": "https://api.github.com",
}
_MAX_BYTES = 4 * 1024 * 1024
_LASTMOD = re.compile(rb"<lastmod>\s*([^<\s]+)\s*</lastmod>")
_SAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True)
class ReleaseAction:
    """What the sensor does for one tracked source (``kind``: none | new_version | refresh)."""

    source: str
    kind: str
    token: str
    new_source: SourceConfig | None = None
    reason: str = ""


def _feeds(registry: Registry) -> dict[str, str]:
    given = registry.settings.get("release_feeds", {}) or {}
    if not isinstance(given, dict):
        raise ConfigError("[settings] release_feeds must be a table of feed base URLs")
    return {**DEFAULT_FEEDS, **{str(k): str(v).rstrip("/") for k, v in given.items()}}


def _get_json(url: str, registry: Registry, cfg: SourceConfig) -> Any:
    r = http_get(
        url,
        max_bytes=_MAX_BYTES,
        allow_hosts=(*registry.allow_hosts, *cfg.allow_hosts),
        limits=cfg.limits,
        headers={"Accept": "application/json"},
    )
    if r.status != 200:
        raise FetchError(f"release feed {url} answered HTTP {r.status}", detail={"url": url})
    try:
        return json.loads(r.body)
    except ValueError as e:
        raise FetchError(f"release feed {url} is not JSON", detail={"url": url}) from e


def _get_body(url: str, registry: Registry, cfg: SourceConfig) -> bytes:
    r = http_get(
        url, max_bytes=_MAX_BYTES, allow_hosts=(*registry.allow_hosts, *cfg.allow_hosts),
        limits=cfg.limits,
    )  # fmt: skip
    if r.status != 200:
        raise FetchError(f"tracked document {url} answered HTTP {r.status}", detail={"url": url})
    return r.body


def latest_release(registry: Registry, cfg: SourceConfig) -> tuple[str, str]:
    """``(kind, token)``: ``("version", "1.2.3")`` for registry feeds, ``("content", "...")`` for
    ``url:`` tracks. Raises ``ConfigError`` for an unknown track, ``FetchError``/``BlockedURL``."""
    scheme, _, what = cfg.track.partition(":")
    feeds = _feeds(registry)
    if scheme == "pypi" and what:
        return "version", str(
            _get_json(f"{feeds['pypi']}/{what}/json", registry, cfg)["info"]["version"]
        )
    if scheme == "npm" and what:
        return "version", str(
            _get_json(f"{feeds['npm']}/{what}", registry, cfg)["dist-tags"]["latest"]
        )
    if scheme == "github" and what.count("/") == 1:
        return "version", _github_version(feeds["github"], what, registry, cfg)
    if scheme == "url" and what:
        body = _get_body(what, registry, cfg)
        stamps = sorted(m.decode("ascii", "replace") for m in _LASTMOD.findall(body))
        token = f"lastmod:{stamps[-1]}" if stamps else "sha256:" + hashlib.sha256(body).hexdigest()
        return "content", token
    raise ConfigError(
        f"source {cfg.name!r}: track must be pypi:NAME, npm:NAME, github:OWNER/REPO or url:URL, "
        f"got {cfg.track!r}",
        detail={"source": cfg.name, "track": cfg.track},
    )


def _github_version(base: str, repo: str, registry: Registry, cfg: SourceConfig) -> str:
    try:
        tag = _get_json(f"{base}/repos/{repo}/releases/latest", registry, cfg)["tag_name"]
    except (FetchError, KeyError, TypeError):
        tags = _get_json(f"{base}/repos/{repo}/tags", registry, cfg)
        tag = tags[0]["name"]
    return str(tag).removeprefix("v")


def new_version_source(registry: Registry, cfg: SourceConfig, version: str) -> SourceConfig | None:
    """The entry for ``version`` of ``cfg``'s library, or ``None`` when one exists already."""
    if any(s.library == cfg.library and s.version == version for s in registry.sources):
        return None
    name = _SAFE.sub("_", f"{cfg.library}-{version}")[:64]
    if any(s.name == name for s in registry.sources):
        return None
    return replace(cfg, name=name, version=version)


def check_release(registry: Registry, cfg: SourceConfig, last_token: str | None) -> ReleaseAction:
    """What to do for tracked source ``cfg`` given the token seen last (sensor cursor)."""
    try:
        kind, token = latest_release(registry, cfg)
    except DocOrbitError as e:
        return ReleaseAction(cfg.name, "none", last_token or "", reason=f"{e.code}: {e.message}")
    if kind == "content":
        if last_token is None or token == last_token:  # first sight: remember, no run
            return ReleaseAction(cfg.name, "none", token, reason="content unchanged")
        return ReleaseAction(cfg.name, "refresh", token, reason=f"content changed ({token})")
    if token == cfg.version:
        return ReleaseAction(cfg.name, "none", token, reason=f"{token} is the tracked version")
    new = new_version_source(registry, cfg, token)
    if new is None:
        return ReleaseAction(cfg.name, "none", token, reason=f"{token} is configured already")
    return ReleaseAction(cfg.name, "new_version", token, new, reason=f"new release {token}")


def apply_release(registry: Registry, action: ReleaseAction) -> SourceConfig:
    """Add the new version entry (tracking moves to it) and save ``docorbit.toml``."""
    assert action.new_source is not None
    old = registry.get(action.source)
    registry.add(replace(old, track="", refresh=""), replace=True)
    registry.add(action.new_source)
    save_registry(registry)
    return action.new_source
