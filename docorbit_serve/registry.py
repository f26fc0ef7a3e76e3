"""The source registry: ``docorbit.toml`` in the project root.

Format::

    [settings]                       # optional
    allow_hosts = ["docs.internal:8443"]
    hybrid = true                    # also build dense vectors at ingest (hybrid search)
    stale_after_hours = 48           # freshness: a source not fetched for longer is stale
    keep_snapshots = 3               # retention: snapshots kept per source (besides pinned)

    [[sources]]
    name = "httpx"                   # unique; the Dagster partition key
    kind = "local"                   # local | web | llms_txt | markdown | openapi | sitemap | git
    location = "docs"                # folder (relative to the project root) or URL
    library = "httpx"
    version = "0.28"                 # version label; "" when unversioned
    include = ["**/*.md"]            # optional globs (local) or URL path globs (web)
    exclude = []
    eval_queries = "queries.jsonl"   # optional: retrieval gate scored before publish
    eval_tolerance = 0.02            #   allowed MRR@10 drop vs the published index
    eval_min_mrr = 0.5               #   optional absolute floor
    refresh = "daily"                # optional: "hourly" | "daily" | "weekly" | a 5-field cron
    track = "pypi:httpx"             # optional: release feed (pypi:, npm:, github:, url:)
    [sources.limits]                 # optional crawl limits for web sources
    max_pages = 50

Reads with ``tomllib`` and validates every key against ``docorbit_serve.settings`` (an unknown
or misspelt key is a ``ConfigError`` naming it and the closest known key). Writes atomically
with ``tomlkit``, round-trip: ``add`` / ``remove`` keep the user's comments, key order and every
key they do not touch; a new file gets a header and its sources sorted by name. Names are restricted to ``[A-Za-z0-9._-]`` because they become folder
names and partition keys.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import AoT

from docorbit_serve.errors import ConfigError, SourceNotFound, UsageError
from docorbit_serve.home import atomic_write_bytes
from docorbit_serve.settings import LIMITS, SETTINGS, SOURCE_KEYS, TOP_LEVEL, check_table

__all__ = [
    "KINDS",
    "NEW_PROJECT_SETTINGS",
    "REFRESH_PRESETS",
    "Registry",
    "SourceConfig",
    "load_registry",
    "new_registry",
    "refresh_cron",
    "save_registry",
]

KINDS = ("local", "web", "llms_txt", "markdown", "openapi", "sitemap", "git")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
# Refresh cadence (operations: Dagster schedules, docs/operations.md): presets or 5-field cron.
REFRESH_PRESETS = {"hourly": "0 * * * *", "daily": "0 4 * * *", "weekly": "0 4 * * 1"}
_CRON_FIELD = re.compile(r"^[0-9*,/\-A-Za-z]+$")
# Operational keys: they say when and how to refresh, never what the content is.
_OPERATIONAL = ("eval_queries", "eval_tolerance", "eval_min_mrr", "refresh", "track")


def refresh_cron(value: str) -> str:
    """The cron string of a ``refresh`` value (a preset or 5-field cron); ``ConfigError`` else."""
    text = value.strip()
    if text in REFRESH_PRESETS:
        return REFRESH_PRESETS[text]
    fields = text.split()
    if len(fields) != 5 or not all(_CRON_FIELD.match(f) for f in fields):
        raise ConfigError(
            f"refresh must be hourly, daily, weekly or a 5-field cron, got {value!r}",
            detail={"refresh": value},
        )
    return " ".join(fields)


@dataclass(frozen=True)
class SourceConfig:
    name: str
    kind: str
    location: str
    library: str
    version: str = ""
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    limits: dict[str, Any] = field(default_factory=dict)
    allow_hosts: tuple[str, ...] = ()
    # kind = "git": the branch, tag or commit whose tree is read (empty: HEAD).
    ref: str = ""
    # Retrieval gate (the `retrieval_benchmark` check): a query file scored before publish.
    # Not part of the source's identity (see `identity()`).
    eval_queries: str = ""
    eval_tolerance: float | None = None
    eval_min_mrr: float | None = None
    # Operations (not identity either): refresh cadence and release feed to track.
    refresh: str = ""
    track: str = ""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise UsageError(
                f"invalid source name {self.name!r}: use letters, digits, '.', '_' or '-' (max 64)",
                detail={"name": self.name},
            )
        if self.kind not in KINDS:
            raise UsageError(
                f"unknown source kind {self.kind!r}; expected one of {', '.join(KINDS)}",
                detail={"kind": self.kind},
            )
        if not self.library:
            raise UsageError(
                "a source needs a library name (--library)", detail={"name": self.name}
            )
        if self.refresh:
            refresh_cron(self.refresh)

    @property
    def is_web(self) -> bool:
        return self.location.startswith(("http://", "https://"))

    def resolved_location(self, project_root: Path) -> str:
        """Folder sources resolved against the project root; URLs unchanged."""
        if self.is_web:
            return self.location
        p = Path(self.location).expanduser()
        return str(p if p.is_absolute() else (project_root / p).resolve())

    def to_toml(self) -> dict[str, Any]:
        d = asdict(self)
        d["include"] = list(self.include)
        d["exclude"] = list(self.exclude)
        d["allow_hosts"] = list(self.allow_hosts)
        for key in ("ref", "eval_queries", "refresh", "track"):
            if not d[key]:
                del d[key]
        return {k: v for k, v in d.items() if v not in ((), [], {}, None)}

    def identity(self) -> dict[str, Any]:
        """What the source's content depends on: everything but the evaluation settings.

        Snapshot ids hash this, so adding or tuning a query set never changes a snapshot id.
        """
        d = self.to_toml()
        for k in _OPERATIONAL:
            d.pop(k, None)
        return d

    @classmethod
    def from_toml(cls, d: dict[str, Any]) -> SourceConfig:
        try:
            return cls(
                name=str(d["name"]),
                kind=str(d.get("kind", "local")),
                location=str(d["location"]),
                library=str(d.get("library", d["name"])),
                version=str(d.get("version", "")),
                include=tuple(str(x) for x in d.get("include", ())),
                exclude=tuple(str(x) for x in d.get("exclude", ())),
                limits=dict(d.get("limits", {})),
                allow_hosts=tuple(str(x) for x in d.get("allow_hosts", ())),
                ref=str(d.get("ref", "")),
                eval_queries=str(d.get("eval_queries", "")),
                eval_tolerance=_opt_float(d.get("eval_tolerance")),
                eval_min_mrr=_opt_float(d.get("eval_min_mrr")),
                refresh=str(d.get("refresh", "")),
                track=str(d.get("track", "")),
            )
        except KeyError as e:
            raise ConfigError(f"source entry is missing {e.args[0]!r}", detail={"entry": d}) from e


def _opt_float(v: Any) -> float | None:
    if v is None:
        return None
    try:
        return float(v)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"expected a number, got {v!r}", detail={"value": repr(v)}) from e


@dataclass
class Registry:
    path: Path
    sources: list[SourceConfig] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def project_root(self) -> Path:
        return self.path.parent

    def get(self, name: str) -> SourceConfig:
        for s in self.sources:
            if s.name == name:
                return s
        raise SourceNotFound(
            f"no source named {name!r}; `docorbit list` shows the configured sources",
            detail={"name": name, "known": [s.name for s in self.sources]},
        )

    def add(self, source: SourceConfig, *, replace: bool = False) -> None:
        existing = [s for s in self.sources if s.name == source.name]
        if existing and not replace:
            raise UsageError(
                f"a source named {source.name!r} exists; remove it first or pick another --name",
                detail={"name": source.name},
            )
        self.sources = [s for s in self.sources if s.name != source.name] + [source]

    def remove(self, name: str) -> SourceConfig:
        src = self.get(name)
        self.sources = [s for s in self.sources if s.name != name]
        return src

    @property
    def allow_hosts(self) -> tuple[str, ...]:
        return tuple(str(x) for x in self.settings.get("allow_hosts", ()))

    @property
    def hybrid(self) -> bool:
        """``[settings] hybrid``: build vectors at ingest so search fuses a dense ranking."""
        value = self.settings.get("hybrid", False)
        if not isinstance(value, bool):
            raise ConfigError(
                f"[settings] hybrid must be true or false, got {value!r}",
                detail={"hybrid": repr(value)},
            )
        return value

    @property
    def dense_stage(self) -> str:
        """``[settings] dense_stage`` (default ``rerank``): what a hybrid search does with the
        dense model, ``rerank`` (re-score lexical candidates; the better of the two on the
        second question set, docs/retrieval.md) or ``rrf`` (fuse a dense top 50)."""
        value = self.settings.get("dense_stage", "rerank")
        if value not in ("rrf", "rerank"):
            raise ConfigError(
                f"[settings] dense_stage must be 'rrf' or 'rerank', got {value!r}",
                detail={"dense_stage": repr(value), "known": ["rerank", "rrf"]},
            )
        return str(value)

    @property
    def stale_after_hours(self) -> float:
        """``[settings] stale_after_hours`` (default 48): freshness limit since the last fetch."""
        return _positive(self.settings, "stale_after_hours", 48)

    @property
    def keep_snapshots(self) -> int:
        """``[settings] keep_snapshots`` (default 3): snapshots ``docorbit gc`` keeps per source."""
        return int(_positive(self.settings, "keep_snapshots", 3))


def _positive(settings: dict[str, Any], key: str, default: float) -> float:
    value = settings.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ConfigError(
            f"[settings] {key} must be a positive number, got {value!r}",
            detail={key: repr(value)},
        )
    return float(value)


# What a new ``docorbit.toml`` starts with (``docorbit init``, or the first ``add`` / MCP
# ``ingest_doc`` where none exists): hybrid search, since session 25 better than lexical search
# on every question set for one embedding per chunk at ingest (docs/retrieval.md). An existing
# file keeps what it says; a file without the key is lexical.
NEW_PROJECT_SETTINGS: dict[str, Any] = {"hybrid": True}


def new_registry(path: Path) -> Registry:
    """The registry of a project that has no ``docorbit.toml`` yet."""
    return Registry(path, [], dict(NEW_PROJECT_SETTINGS))


def load_registry(path: Path) -> Registry:
    """Read ``docorbit.toml``; a missing file is a new project's empty registry."""
    if not path.exists():
        return new_registry(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path} is not valid TOML: {e}", detail={"path": str(path)}) from e
    _check(data, path)
    sources = [SourceConfig.from_toml(d) for d in data.get("sources", [])]
    names = [s.name for s in sources]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ConfigError(
            f"duplicate source names in {path}: {', '.join(dupes)}", detail={"names": dupes}
        )
    return Registry(path, sources, dict(data.get("settings", {})))


def _check(data: dict[str, Any], path: Path) -> None:
    """Every key known (``settings``): a misspelt key is an error naming the right one."""
    check_table(data, TOP_LEVEL, str(path))
    check_table(data.get("settings", {}), SETTINGS, "[settings]")
    for i, entry in enumerate(data.get("sources", [])):
        where = f"[[sources]] #{i + 1} ({entry.get('name', '?')})"
        check_table(entry, SOURCE_KEYS, where)
        check_table(entry.get("limits", {}), LIMITS, f"{where} limits")


_HEADER = "# DocOrbit sources. Edit by hand or with `docorbit add` / `docorbit remove`.\n\n"


_EMPTY: tuple[Any, ...] = ("", None, [], {}, ())


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def _update_table(table: Any, new: dict[str, Any]) -> None:
    """Set ``new`` into a tomlkit table in place: changed keys set, gone keys removed, the
    others (and their comments, and the key order) untouched."""
    for k in [k for k in table if k not in new and _plain(table.get(k)) not in _EMPTY]:
        del table[k]
    for k, v in new.items():
        if k not in table and v in _EMPTY:  # a default the user did not write: leave it out
            continue
        old = table.get(k)
        if k not in table or _plain(old) != v:
            table[k] = v


def save_registry(reg: Registry) -> None:
    """Write ``reg`` back. An existing file is edited in place with ``tomlkit`` (comments, key
    order and untouched keys kept; a new source appended); a new file is written in full."""
    text = reg.path.read_text(encoding="utf-8") if reg.path.exists() else _HEADER
    doc = tomlkit.parse(text)
    if reg.settings:
        settings = doc.setdefault("settings", tomlkit.table())
        _update_table(settings, dict(reg.settings))
    elif "settings" in doc:
        del doc["settings"]
    wanted = {s.name: s.to_toml() for s in reg.sources}
    tables = doc.get("sources")
    if not isinstance(tables, AoT):  # absent, or an empty inline ``sources = []``
        if "sources" in doc:
            del doc["sources"]
        tables = tomlkit.aot()
        if wanted:
            doc.append("sources", tables)
    for i in reversed(range(len(tables))):  # in place: kept tables keep their comments
        name = tables[i].get("name")
        if name in wanted:
            _update_table(tables[i], wanted.pop(name))
        else:
            del tables[i]
    for name in sorted(wanted):
        tables.append(tomlkit.item(wanted[name]))
    if not reg.sources and "sources" in doc:
        del doc["sources"]
    atomic_write_bytes(reg.path, tomlkit.dumps(doc).encode("utf-8"))
