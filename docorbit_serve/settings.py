"""The typed configuration of ``docorbit.toml``: every key, its type, default and help text.

Contract:
- ``SETTINGS``: the ``[settings]`` keys; ``SOURCE_KEYS``: the keys of a ``[[sources]]`` entry;
  ``LIMITS``: the ``[sources.limits]`` keys, exactly those the fetcher and crawler honour
  (``docorbit add --limit KEY=VALUE`` accepts these and no others); ``ENV_VARS``: the
  environment variables DocOrbit reads. Each maps a name to a ``Key`` (type, default, help).
- ``check_table(table, known, where)``: an unknown key is a ``ConfigError`` (exit 1, code
  ``config``) that names the key and where it is, and suggests the closest known key
  (``hybird`` → ``hybrid``); a value of the wrong type is a ``ConfigError`` too.
- ``SourceLimits.from_table(limits)``: a source's ``[sources.limits]`` as one typed value
  object (every ``LIMITS`` key, its default when absent), checked like the file; the fetcher's
  ``fetch_limits`` returns it and the crawler takes it whole. ``LIMITS`` holds the one
  declaration of each default: ``FetchPolicy`` and ``netpolicy.DEFAULT_PORTS`` take theirs from
  it.
- ``Environment.read(environ=None)``: the environment variables DocOrbit reads (``ENV_VARS``,
  plus ``HOME``), typed and validated in one place (``os.environ`` is read here and nowhere
  else in ``docorbit_serve`` / ``docorbit_assets``; a test scans the code for it). An empty
  variable counts as unset. A log level that ``logging`` does not know, or a registry URL that
  is not http(s), is a ``ConfigError`` naming the variable. Callers read it at their entry
  point and pass the values down (``resolve_home``, ``resolve_identifier``, the log setup).
- ``child_environ(overrides)``: the environment for a subprocess DocOrbit starts (``docorbit
  ui``): this process's environment with ``overrides`` on top.
- ``docs/configuration.md`` documents every name here (a test checks it).
"""

from __future__ import annotations

import difflib
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from docorbit_serve.errors import ConfigError

__all__ = [
    "ENV_VARS",
    "LIMITS",
    "SETTINGS",
    "SOURCE_KEYS",
    "TOP_LEVEL",
    "Environment",
    "Key",
    "SourceLimits",
    "check_table",
    "child_environ",
]


@dataclass(frozen=True)
class Key:
    types: tuple[type, ...]
    default: Any
    help: str


_NUM = (int, float)
TOP_LEVEL = {
    "settings": Key((dict,), {}, "project-wide settings"),
    "sources": Key((list,), [], "the documentation sources, one [[sources]] table each"),
}
SETTINGS = {
    "allow_hosts": Key((list,), [], "HOST:PORT pairs the fetch policy allows (private docs)"),
    "hybrid": Key((bool,), False, "also build dense vectors at ingest (hybrid search)"),
    "dense_stage": Key(
        (str,), "rerank", "hybrid's dense stage: rerank (re-score) or rrf (fuse a dense top 50)"
    ),
    "stale_after_hours": Key(_NUM, 48, "a source older than this since its fetch is stale"),
    "keep_snapshots": Key((int,), 3, "snapshots `docorbit gc` keeps per source"),
    "release_feeds": Key((dict,), {}, "base URLs of the pypi/npm/github release feeds (track)"),
}
SOURCE_KEYS = {
    "name": Key((str,), None, "unique source name (letters, digits, . _ -)"),
    "kind": Key((str,), "local", "local | web | llms_txt | markdown | openapi | sitemap | git"),
    "location": Key((str,), None, "folder (relative to the project root) or URL"),
    "library": Key((str,), None, "the library the docs describe"),
    "version": Key((str,), "", "version label; empty when unversioned"),
    "include": Key((list,), [], "only these file or URL path globs"),
    "exclude": Key((list,), [], "skip these file or URL path globs"),
    "limits": Key((dict,), {}, "fetch and crawl limits ([sources.limits])"),
    "allow_hosts": Key((list,), [], "HOST:PORT pairs allowed for this source only"),
    "ref": Key((str,), "", "kind git: the branch, tag or commit whose tree is read (default HEAD)"),
    "eval_queries": Key((str,), "", "query file scored before publish (retrieval gate)"),
    "eval_tolerance": Key(_NUM, None, "allowed MRR@10 drop against the published index"),
    "eval_min_mrr": Key(_NUM, None, "absolute MRR@10 floor of the retrieval gate"),
    "refresh": Key((str,), "", "refresh schedule: hourly, daily, weekly or a 5-field cron"),
    "track": Key((str,), "", "release feed to watch for new versions"),
}
LIMITS = {
    "max_pages": Key((int,), 50, "pages fetched per source at most"),
    "max_depth": Key((int,), 3, "link depth the crawler follows from the start URL"),
    "max_bytes": Key((int,), 10 * 1024 * 1024, "bytes read per response at most"),
    "max_total_bytes": Key((int,), 200 * 1024 * 1024, "bytes read per crawl at most"),
    "max_links_per_page": Key((int,), 1000, "links taken from one page at most"),
    "max_seconds": Key(_NUM, 600.0, "wall-clock seconds per crawl at most"),
    "concurrency": Key((int,), 5, "requests in flight at once"),
    "politeness": Key(_NUM, 1.0, "seconds between two requests to one host"),
    "deadline": Key(_NUM, 30.0, "seconds per request, redirects and body included"),
    "timeout": Key(_NUM, 10.0, "seconds to connect"),
    "retries": Key((int,), 2, "retries of a failed request (429/5xx, connection errors)"),
    "ports": Key((list,), [80, 443, 8080, 8443], "ports the fetch policy allows for this source"),
}
ENV_VARS = {
    "DOCORBIT_HOME": Key((str,), "", "home folder (like --home)"),
    "DOCORBIT_PROJECT": Key((str,), "", "project folder the Dagster definitions serve"),
    "DOCORBIT_LOG_LEVEL": Key((str,), "WARNING", "log level of `docorbit mcp` / `dashboard`"),
    "DOCORBIT_PYPI_URL": Key((str,), "https://pypi.org", "PyPI base URL for package names"),
    "DOCORBIT_NPM_URL": Key((str,), "https://registry.npmjs.org", "npm registry base URL"),
    "DOCORBIT_INJECTION_CLASSIFIER": Key(
        (bool,), True, "0/false/off: ingest annotates with the rules alone (default on)"
    ),
    "HOME": Key(
        (str,), "", "the user's home folder (global home ~/.docorbit, project search stop)"
    ),
}


def _type_name(k: Key) -> str:
    return " or ".join({bool: "true/false", dict: "table", list: "list"}.get(t, t.__name__)
                       for t in k.types)  # fmt: skip


def check_table(table: Mapping[str, Any], known: Mapping[str, Key], where: str) -> None:
    """Refuse unknown keys (naming the closest known one) and values of the wrong type."""
    for name, value in table.items():
        key = known.get(name)
        if key is None:
            near = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
            hint = f"; did you mean {near[0]!r}?" if near else f"; known: {', '.join(known)}"
            raise ConfigError(
                f"unknown key {name!r} in {where}{hint}",
                detail={"key": name, "where": where, "suggestion": near[0] if near else None},
            )
        wrong_bool = isinstance(value, bool) and bool not in key.types
        if wrong_bool or not isinstance(value, key.types):
            raise ConfigError(
                f"{where} {name} must be {_type_name(key)}, got {value!r}",
                detail={"key": name, "where": where, "value": repr(value)},
            )


@dataclass(frozen=True)
class SourceLimits:
    """A source's ``[sources.limits]``, typed, with the ``LIMITS`` defaults."""

    max_pages: int = LIMITS["max_pages"].default
    max_depth: int = LIMITS["max_depth"].default
    max_bytes: int = LIMITS["max_bytes"].default
    max_total_bytes: int = LIMITS["max_total_bytes"].default
    max_links_per_page: int = LIMITS["max_links_per_page"].default
    max_seconds: float = LIMITS["max_seconds"].default
    concurrency: int = LIMITS["concurrency"].default
    politeness: float = LIMITS["politeness"].default
    deadline: float = LIMITS["deadline"].default
    timeout: float = LIMITS["timeout"].default
    retries: int = LIMITS["retries"].default
    ports: tuple[int, ...] = tuple(LIMITS["ports"].default)

    @classmethod
    def from_table(cls, table: Mapping[str, Any] | None) -> SourceLimits:
        """The limits of a ``[sources.limits]`` table (``ConfigError`` on an unknown key)."""
        table = dict(table or {})
        check_table(table, LIMITS, "[sources.limits]")
        if "ports" in table:
            table["ports"] = tuple(int(p) for p in table["ports"])
        return cls(**table)


_LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG", "NOTSET")


@dataclass(frozen=True)
class Environment:
    """The environment variables DocOrbit reads (``ENV_VARS``), typed; empty means unset."""

    home: str = ""  # DOCORBIT_HOME
    project: str = ""  # DOCORBIT_PROJECT
    log_level: str = ENV_VARS["DOCORBIT_LOG_LEVEL"].default  # DOCORBIT_LOG_LEVEL, upper case
    pypi_url: str = ENV_VARS["DOCORBIT_PYPI_URL"].default  # DOCORBIT_PYPI_URL, no trailing /
    npm_url: str = ENV_VARS["DOCORBIT_NPM_URL"].default  # DOCORBIT_NPM_URL, no trailing /
    user_home: str = ""  # HOME
    injection_classifier: bool = ENV_VARS["DOCORBIT_INJECTION_CLASSIFIER"].default

    VARIABLES: ClassVar[dict[str, str]] = {  # field -> variable
        "home": "DOCORBIT_HOME",
        "project": "DOCORBIT_PROJECT",
        "log_level": "DOCORBIT_LOG_LEVEL",
        "pypi_url": "DOCORBIT_PYPI_URL",
        "npm_url": "DOCORBIT_NPM_URL",
        "user_home": "HOME",
        "injection_classifier": "DOCORBIT_INJECTION_CLASSIFIER",
    }

    @classmethod
    def read(cls, environ: Mapping[str, str] | None = None) -> Environment:
        """The typed environment of ``environ`` (default: this process's), validated."""
        env = os.environ if environ is None else environ
        given = {f: env.get(var, "") for f, var in cls.VARIABLES.items()}
        values: dict[str, Any] = {f: v for f, v in given.items() if v}  # empty counts as unset
        if "log_level" in values:
            values["log_level"] = _log_level(values["log_level"])
        for f in ("pypi_url", "npm_url"):
            if f in values:
                values[f] = _base_url(cls.VARIABLES[f], values[f])
        if "injection_classifier" in values:
            values["injection_classifier"] = _switch(
                cls.VARIABLES["injection_classifier"], values["injection_classifier"]
            )
        return cls(**values)


def _switch(name: str, value: str) -> bool:
    word = value.strip().lower()
    if word in {"1", "true", "on", "yes"}:
        return True
    if word in {"0", "false", "off", "no"}:
        return False
    raise ConfigError(
        f"{name} must be 1/true/on or 0/false/off, got {value!r}",
        detail={"key": name, "where": "environment", "value": value},
    )


def _log_level(value: str) -> str:
    level = value.strip().upper()
    if level in logging.getLevelNamesMapping():
        return level
    raise ConfigError(
        f"DOCORBIT_LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}, got {value!r}",
        detail={"key": "DOCORBIT_LOG_LEVEL", "where": "environment", "value": value},
    )


def _base_url(name: str, value: str) -> str:
    url = value.strip().rstrip("/")
    if not url.lower().startswith(("http://", "https://")):
        raise ConfigError(
            f"{name} must be an http(s) URL, got {value!r}",
            detail={"key": name, "where": "environment", "value": value},
        )
    return url


def child_environ(overrides: Mapping[str, str]) -> dict[str, str]:
    """The environment of a subprocess DocOrbit starts: this process's, ``overrides`` on top."""
    return {**os.environ, **overrides}
