"""The ``docorbit`` command line (DESIGN.md §5): an API for agents and people.

Contract:
- ``main(argv=None) -> int`` runs one command and returns its exit code (console scripts
  ``docorbit`` and ``docorbit-serve``, and ``python -m docorbit_serve``).
- Global options go before the command: ``--home DIR``, ``-g/--global``, ``-p/--project DIR``
  (resolved by ``docorbit_serve.home.resolve_home``). ``--json`` is accepted before or after the
  command name.
- stdout carries data only: one JSON document with ``--json`` (JSON Lines for ``search
  --batch``), else concise Markdown/plain text. Diagnostics and progress go to stderr.
- Every ``DocOrbitError`` is caught here: with ``--json`` it is printed on stdout as
  ``{"error": {"code", "message", "detail"}}``, else as one line on stderr; the process exits
  with the error's ``exit_code`` (``EXIT_CODES``). Click usage errors become ``usage`` (2).
- Only ``ingest`` touches the pipeline: it imports ``docorbit_assets.ingest`` inside the command,
  so every other command (and ``docorbit mcp``) runs without loading Dagster. Commands that read
  the index import the catalog and search modules inside the command too, which keeps
  ``init``/``add``/``list`` fast.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import re
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from docorbit_serve import render
from docorbit_serve.errors import (
    BlockedURL,
    DocOrbitError,
    IngestError,
    InputError,
    NotFound,
    UsageError,
)
from docorbit_serve.home import Home, resolve_home, workspace_root
from docorbit_serve.registry import KINDS, Registry, SourceConfig, load_registry, save_registry

__all__ = ["EXIT_CODES", "cli", "main"]

EXIT_CODES = {
    0: "ok",
    1: "error (configuration, search or unexpected failure)",
    2: "usage (bad command line or arguments)",
    3: "not found (unknown id, source or library) or nothing published yet",
    5: "blocked_url (a URL refused by the fetch policy)",
    6: "fetch_error (a source could not be fetched)",
    7: "bad_input (an invalid file, path, cursor or query)",
    8: "ingest_failed (the pipeline run failed; the previous publication is still served)",
    130: "interrupted (Ctrl-C)",
}
_EPILOG = "\b\nExit codes:\n" + "\n".join(f"  {k:>3}  {v}" for k, v in EXIT_CODES.items())
_URL_KINDS = ("web", "llms_txt", "sitemap")
_HOST_PORT = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$")


@dataclasses.dataclass
class _State:
    home_opt: str | None = None
    global_: bool = False
    project: str | None = None
    json: bool = False

    def home(self) -> Home:
        given = [x for x in (self.home_opt, self.project) if x] + (["-g"] if self.global_ else [])
        if len(given) > 1:
            raise UsageError("--home, -g/--global and -p/--project are alternatives: give one")
        return resolve_home(home=self.home_opt, global_=self.global_, project=self.project)


def _set_json(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.ensure_object(_State).json = True
    return value


def json_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--json`` after the command name (same effect as before it)."""
    return click.option(
        "--json",
        "json_",
        is_flag=True,
        expose_value=False,
        callback=_set_json,
        help="Print data as JSON on stdout.",
    )(f)


def _emit(state: _State, data: Any, text: str) -> None:
    if state.json:
        click.echo(json.dumps(data, sort_keys=True, ensure_ascii=False))
    else:
        click.echo(text.rstrip("\n"))


def _info(msg: str) -> None:
    click.echo(msg, err=True)


class _DocOrbitGroup(click.Group):
    """A group whose ``main`` applies DocOrbit's error contract (also under click's CliRunner)."""

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> int:
        code = _run(
            self, list(sys.argv[1:] if args is None else args), prog_name or "docorbit", **extra
        )
        if standalone_mode:
            sys.exit(code)
        return code


@click.group(
    cls=_DocOrbitGroup,
    epilog=_EPILOG,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option("--home", "home_opt", metavar="DIR", help="Home folder (also DOCORBIT_HOME).")
@click.option("-g", "--global", "global_", is_flag=True, help="Use the global home ~/.docorbit.")
@click.option("-p", "--project", metavar="DIR", help="Use DIR/.docorbit and DIR/docorbit.toml.")
@click.option("--json", "json_", is_flag=True, help="Print data as JSON on stdout.")
@click.version_option(package_name="docorbit", prog_name="docorbit")
@click.pass_context
def cli(
    ctx: click.Context, home_opt: str | None, global_: bool, project: str | None, json_: bool
) -> None:
    """DocOrbit: versioned, searchable, safe documentation for AI coding agents.

    stdout carries data only (JSON with --json, else Markdown); diagnostics go to stderr.
    """
    state = ctx.ensure_object(_State)
    state.home_opt, state.global_, state.project = home_opt, global_, project
    state.json = state.json or json_


# --------------------------------------------------------------------------- registry commands


@cli.command()
@click.option("--hybrid/--lexical", "hybrid", default=None,
              help="Set [settings] hybrid: build dense vectors at ingest for hybrid search "
              "(better answers, ~20-45 ms of CPU per chunk) or not (default: leave as is; "
              "a new project starts lexical).")  # fmt: skip
@json_option
@click.pass_obj
def init(state: _State, hybrid: bool | None) -> None:
    """Create docorbit.toml in the project root and the home folder (idempotent)."""
    home = state.home()
    if home.project_root != home.path and not home.project_root.is_dir():
        raise InputError(
            f"project folder {home.project_root} does not exist; create it or pass another -p",
            detail={"project_root": str(home.project_root)},
        )
    home_created = not home.path.exists()
    home.path.mkdir(parents=True, exist_ok=True)
    if home.path != home.project_root and not (home.path / ".gitignore").exists():
        # a project home holds data, not sources: keep it out of the project's git
        (home.path / ".gitignore").write_text("*\n", encoding="utf-8")
    config_created = not home.config_path.exists()
    if config_created:
        save_registry(Registry(home.config_path))
    reg = load_registry(home.config_path)
    if hybrid is not None and reg.settings.get("hybrid") is not hybrid:
        reg.settings["hybrid"] = hybrid
        save_registry(reg)
    data: dict[str, Any] = {
        **home.to_json(),
        "config": str(home.config_path),
        "config_created": config_created,
        "home_created": home_created,
        "hybrid": reg.hybrid,
    }
    verb = "created" if config_created else "exists:"
    text = f"{verb} {home.config_path}\nhome: {home.path}"
    text += "\nsearch: hybrid (dense vectors at ingest)" if reg.hybrid else ""
    if home.path == home.project_root / ".docorbit":  # a project: pin its docs versions
        data["docs_lock"] = _lock_workspace(home, home.project_root, require_dependencies=True)
        if data["docs_lock"]["written"]:
            text += f"\ndocs.lock: {data['docs_lock']['path']}"
    _emit(state, data, text)


def _is_url(s: str) -> bool:
    return s.startswith(("http://", "https://"))


def _location(path_or_url: str, kind: str | None, project_root: Path) -> tuple[str, str]:
    """(kind, location as stored): folders inside the project root are stored relative to it."""
    if _is_url(path_or_url):
        kind = kind or "web"
        if kind == "local":
            raise UsageError(
                "kind 'local' needs a folder, not a URL", detail={"location": path_or_url}
            )
        return kind, path_or_url
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", path_or_url):
        raise InputError(
            f"unsupported URL scheme in {path_or_url!r}: use http(s) URLs or a local folder",
            detail={"location": path_or_url},
        )
    p = Path(path_or_url).expanduser().resolve()
    if not p.exists():
        raise InputError(f"no such file or folder: {p}", detail={"location": str(p)})
    kind = kind or ("local" if p.is_dir() else "markdown")
    if kind in _URL_KINDS:
        raise UsageError(f"kind {kind!r} needs an http(s) URL", detail={"location": str(p)})
    if kind == "local" and not p.is_dir():
        raise InputError(f"kind 'local' needs a folder; {p} is a file", detail={"location": str(p)})
    try:
        return kind, p.relative_to(project_root.resolve()).as_posix() or "."
    except ValueError:
        return kind, str(p)


@cli.command()
@click.argument("path_or_url")
@click.option("--name", help="Unique source name (default: the library, plus -VERSION if given).")
@click.option("--library", help="Library the docs describe, e.g. httpx (default: a package NAME).")
@click.option("--version", "version_", default="", help="Version label, e.g. 0.28 (default: none).")
@click.option(
    "--kind", type=click.Choice(KINDS), help="Source kind (default: folder → local, URL → web)."
)
@click.option(
    "--include", multiple=True, metavar="GLOB", help="Only these files/URL paths (repeatable)."
)
@click.option(
    "--exclude", multiple=True, metavar="GLOB", help="Skip these files/URL paths (repeatable)."
)
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="HOST:PORT",
              help="Allow this otherwise refused host (e.g. a private docs server), repeatable.")  # fmt: skip
@click.option("--limit", "limits", multiple=True, metavar="KEY=VALUE",
              help="Crawl limit stored in [sources.limits], e.g. max_pages=20, politeness=0 (repeatable).")  # fmt: skip
@json_option
@click.pass_obj
def add(
    state: _State,
    path_or_url: str,
    name: str | None,
    library: str,
    version_: str,
    kind: str | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    allow_hosts: tuple[str, ...],
    limits: tuple[str, ...],
) -> None:
    """Register a documentation source (a folder, a URL, or a package NAME) in docorbit.toml.

    A NAME that is neither a URL nor an existing path is resolved to its docs URL (installed
    package metadata first, then the PyPI / npm registries); an ambiguous NAME is refused with
    the alternatives (pass the URL instead)."""
    home = state.home()
    for h in allow_hosts:
        if not _HOST_PORT.match(h):
            raise UsageError(f"--allow-host wants HOST:PORT, got {h!r}", detail={"allow_host": h})
    reg = load_registry(home.config_path)
    resolution = None
    if _is_identifier(path_or_url):
        resolution = _resolve_name(path_or_url, (*reg.allow_hosts, *allow_hosts))
        library = library or path_or_url.rsplit("/", 1)[-1]
        path_or_url = resolution["chosen"]["url"]
    kind, location = _location(path_or_url, kind, home.project_root)
    if _is_url(location):
        _check_policy(location, (*reg.allow_hosts, *allow_hosts))
    src = SourceConfig(
        name=name or (f"{library}-{version_}" if version_ else library),
        kind=kind,
        location=location,
        library=library or "",
        version=version_,
        include=tuple(include),
        exclude=tuple(exclude),
        allow_hosts=tuple(allow_hosts),
        limits=_parse_limits(limits),
    )
    reg.add(src)
    save_registry(reg)
    _info(f"run `docorbit ingest --source {src.name}` to fetch and publish it")
    data: dict[str, Any] = {"added": src.to_toml(), "config": str(home.config_path)}
    if resolution is not None:
        data["resolved"] = resolution
    _emit(state, data, f"added {src.name} ({src.kind} {src.location}) → {home.config_path}")


LIMIT_KEYS = ("max_pages", "max_depth", "max_bytes", "concurrency", "politeness", "deadline",
              "timeout", "retries")  # fmt: skip


def _parse_limits(items: tuple[str, ...]) -> dict[str, Any]:
    """``("max_pages=20", "politeness=0")`` → ``{"max_pages": 20, "politeness": 0}``."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or key not in LIMIT_KEYS:
            raise UsageError(
                f"--limit wants KEY=VALUE with KEY one of {', '.join(LIMIT_KEYS)}; got {item!r}",
                detail={"limit": item},
            )
        try:
            value: float | int = float(raw) if "." in raw else int(raw)
        except ValueError as e:
            raise UsageError(f"--limit {key} wants a number, got {raw!r}") from e
        if value < 0:
            raise UsageError(f"--limit {key} must not be negative, got {raw!r}")
        out[key] = value
    return out


def _is_identifier(text: str) -> bool:
    """A package name (``httpx``, ``@scope/pkg``), not a URL and not an existing path."""
    if _is_url(text) or Path(text).expanduser().exists() or "://" in text:
        return False
    return re.fullmatch(r"(@[a-z0-9][\w.-]*/)?[A-Za-z0-9][A-Za-z0-9._-]{0,213}", text) is not None


def _resolve_name(name: str, allow_hosts: tuple[str, ...]) -> dict[str, Any]:
    """Docs URL of package ``name`` or a ``NotFound`` / ambiguous ``UsageError``."""
    from docorbit_assets.lib.fetch import fetcher_for  # light: no Dagster
    from docorbit_assets.lib.identify import resolve_identifier

    fetcher = fetcher_for(None, allow_hosts)

    def get(url: str) -> bytes:
        return fetcher.get(url, robots=False).raise_for_status().body

    res = resolve_identifier(name, get=get).to_json()
    if res["chosen"] is None:
        detail = {"resolution": res}
        if res["ambiguous"]:
            raise UsageError(
                f"{name!r} is ambiguous: {res['reason']}; pass one of the URLs instead",
                detail=detail,
                code="ambiguous_identifier",
            )
        raise NotFound(
            f"{name!r} is not a folder, a URL or a package with a documentation URL "
            f"({res['reason']}; registries: {res['errors'] or 'ok'})",
            detail=detail,
        )
    _info(f"{name}: {res['chosen']['url']} ({res['reason']})")
    return res


def _check_policy(url: str, allow_hosts: tuple[str, ...]) -> None:
    """Refuse a URL the fetch policy blocks (``BlockedURL``, exit 5), without any network I/O."""
    from docorbit_assets.lib.netpolicy import NetPolicy, check_url  # light: no Dagster

    check_url(url, NetPolicy(allow_hosts=tuple(allow_hosts)))


def _published_sources(home: Home) -> dict[str, Any]:
    return dict(_published_manifest(home).get("sources") or {})


@cli.command(name="list")
@json_option
@click.pass_obj
def list_(state: _State) -> None:
    """List the configured sources and what is published for each."""
    home = state.home()
    reg = load_registry(home.config_path)
    published = _published_sources(home)
    rows = []
    for s in sorted(reg.sources, key=lambda s: s.name):
        pub = published.get(s.name) or {}
        rows.append(
            {
                **{k: v for k, v in s.to_toml().items()},
                "version": s.version,
                "published": bool(pub),
                "snapshot": pub.get("snapshot", ""),
                "published_at": pub.get("created_at", ""),
            }
        )
    if not rows:
        text = (
            f"no sources in {home.config_path}; add one with `docorbit add PATH_OR_URL --library L`"
        )
    else:
        lines = ["| name | kind | library | version | location | snapshot |", "|---" * 6 + "|"]
        for r in rows:
            snap = r["snapshot"] or "(not published)"
            lines.append(
                f"| {r['name']} | {r['kind']} | {r['library']} | {r['version'] or '-'} | {r['location']} | {snap} |"
            )
        text = "\n".join(lines)
    _emit(state, {"config": str(home.config_path), "home": str(home.path), "sources": rows}, text)


@cli.command()
@click.argument("name")
@json_option
@click.pass_obj
def remove(state: _State, name: str) -> None:
    """Remove a source from docorbit.toml (its published data goes at the next ingest)."""
    home = state.home()
    reg = load_registry(home.config_path)
    src = reg.remove(name)
    save_registry(reg)
    _info("the published snapshot still serves it until the next `docorbit ingest`")
    _emit(state, {"removed": src.to_toml(), "config": str(home.config_path)}, f"removed {name}")


@cli.command()
@click.argument("target", metavar="URL_OR_NAME")
@click.option(
    "--kind",
    type=click.Choice(["web", "llms_txt", "markdown", "openapi", "sitemap"]),
    default="web",
    show_default=True,
    help="How to read URL.",
)
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="HOST:PORT",
              help="Allow this otherwise refused host (e.g. a private docs server), repeatable.")  # fmt: skip
@json_option
@click.pass_obj
def inspect(state: _State, target: str, kind: str, allow_hosts: tuple[str, ...]) -> None:
    """Show what discovery finds at a URL (or a package NAME's docs URL): every provider's
    candidates, their validity, and the recommended source per purpose. Stores nothing."""
    for h in allow_hosts:
        if not _HOST_PORT.match(h):
            raise UsageError(f"--allow-host wants HOST:PORT, got {h!r}", detail={"allow_host": h})
    try:
        settings_hosts = load_registry(state.home().config_path).allow_hosts
    except DocOrbitError:
        settings_hosts = ()
    hosts = (*settings_hosts, *allow_hosts)
    resolution = None
    if not _is_url(target):
        if not _is_identifier(target):
            raise UsageError(f"inspect wants an http(s) URL or a package name, not {target!r}")
        resolution = _resolve_name(target, hosts)
        target = resolution["chosen"]["url"]
    _check_policy(target, hosts)
    from docorbit_assets.lib.discover import best_candidate, discover, purpose_ranking

    cfg = SourceConfig(name="inspect", kind=kind, location=target, library="inspect")
    table = discover(cfg, Path.cwd(), allow_hosts=hosts)
    rows = table.to_pylist()
    if rows and all('"error_code":"blocked_url"' in r["metadata_json"] for r in rows):
        raise BlockedURL(
            f"{target} is refused by the fetch policy: {rows[0]['rationale']}",
            detail={"url": target, "candidates": len(rows)},
        )
    candidates = [
        {**{k: v for k, v in r.items() if k not in ("source", "metadata_json")},
         "metadata": json.loads(r["metadata_json"])}
        for r in rows
    ]  # fmt: skip
    best = best_candidate(table)
    ranking = purpose_ranking(table)
    data = {
        "url": target,
        "kind": kind,
        "resolved": resolution,
        "ingest": {"url": best["url"], "type": best["type"]} if best else None,
        "purposes": ranking,
        "candidates": candidates,
    }
    _emit(state, data, _inspect_text(data))


def _inspect_text(data: dict[str, Any]) -> str:
    lines = [f"# {data['url']}", ""]
    ing = data["ingest"]
    lines.append(f"ingest through: {ing['type']} {ing['url']}" if ing else "nothing ingestible")
    lines += ["", "## Recommended per purpose", ""]
    lines += [f"- {v['rationale']}" for v in data["purposes"].values()]
    lines += [
        "",
        "## Candidates",
        "",
        "| rank | status | type | url | rationale |",
        "|---" * 5 + "|",
    ]
    for c in data["candidates"]:
        lines.append(
            f"| {c['rank'] or '-'} | {c['status']} | {c['type']} | {c['url']} | {c['rationale']} |"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- pipeline


@cli.command()
@click.option("--source", "source", metavar="NAME", help="Only this source (default: all).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="HOST:PORT",
              help="Allow this otherwise refused host for this run only, repeatable.")  # fmt: skip
@json_option
@click.pass_obj
def ingest(state: _State, source: str | None, allow_hosts: tuple[str, ...]) -> None:
    """Fetch, process and publish the sources (runs the Dagster asset graph in-process)."""
    home = state.home()
    for h in allow_hosts:
        if not _HOST_PORT.match(h):
            raise UsageError(f"--allow-host wants HOST:PORT, got {h!r}", detail={"allow_host": h})
    reg = load_registry(home.config_path)
    if source:
        reg.get(source)  # SourceNotFound with the known names
    elif not reg.sources:
        raise UsageError(
            f"no sources in {home.config_path}; add one with `docorbit add PATH_OR_URL --library L`"
        )
    from docorbit_assets.ingest import run_ingest  # the one hand-over to the pipeline

    report = run_ingest(
        home, sources=[source] if source else None, progress=_info, allow_hosts=allow_hosts
    )
    if not report.get("ok"):
        if _all_blocked(report):
            raise BlockedURL(_ingest_failure(report), detail=report)
        raise IngestError(_ingest_failure(report), detail=report)
    _emit(state, report, _ingest_text(report))


def _all_blocked(report: dict[str, Any]) -> bool:
    """True when every failed source failed because the fetch policy refused its URL."""
    failed = [e for e in (report.get("sources") or {}).values() if e.get("status") != "ok"]
    codes = [
        {s.get("code") for s in ((e.get("error") or {}).get("detail") or {}).get("steps", [])}
        for e in failed
    ]
    return bool(failed) and all("blocked_url" in c for c in codes)


def _ingest_failure(report: dict[str, Any]) -> str:
    failed = [
        f"{name}: {(e.get('error') or {}).get('message', 'failed')}"
        for name, e in sorted((report.get("sources") or {}).items())
        if e.get("status") != "ok"
    ]
    pub = report.get("publish") or {}
    if pub.get("status") == "failed":
        failed.append(f"publish: {(pub.get('error') or {}).get('message', 'failed')}")
    served = (
        f"published {report.get('publish_id')} without the failed sources"
        if report.get("published")
        else "the previous publication (if any) is still served"
    )
    return "ingest failed: " + "; ".join(failed or ["see detail"]) + f" ({served})"


def _ingest_text(report: dict[str, Any]) -> str:
    lines = [f"published {report.get('publish_id')}"]
    for name, e in sorted((report.get("sources") or {}).items()):
        rows = e.get("rows") or {}
        lines.append(
            f"  {name}: snapshot {e.get('snapshot')} · {rows.get('pages', 0)} pages · "
            f"{rows.get('chunks', 0)} chunks · {e.get('seconds', 0):.1f} s"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- reading


def _catalog(home: Home) -> Any:
    from docorbit_serve.catalog import Catalog

    return Catalog(home)


def _batch_lines(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read batch file {path}: {e}", detail={"path": path}) from e
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            raise InputError(f"{path}:{n}: not JSON: {e}", detail={"line": n}) from e
        if not isinstance(obj, dict) or "id" not in obj or not isinstance(obj.get("query"), str):
            raise InputError(
                f'{path}:{n}: each line needs {{"id": ..., "query": "..."}} (optional "library", "version", "limit")',
                detail={"line": n},
            )
        yield n, obj


@cli.command()
@click.argument("query", required=False)
@click.option("--library", help="Only this library.")
@click.option("--version", "version_", help="Only this version label.")
@click.option("--limit", type=click.IntRange(1, 100), default=10, show_default=True)
@click.option(
    "--backend", type=click.Choice(["bm25", "fts"]), help="Search backend (default: the index's)."
)
@click.option(
    "--batch",
    metavar="FILE.jsonl",
    help='Queries, one JSON object a line ({"id","query","library"?}); "-" = stdin.',
)
@click.option("--project-aware/--no-project-aware", "project_aware", default=True,
              help="Rank for the versions the workspace pins and stamp each hit (default: on; "
              "no effect without a workspace, with --version or --batch).")  # fmt: skip
@click.option("--workspace", metavar="DIR", help="Workspace to read versions from (default: -p or the project).")  # fmt: skip
@click.option("--hybrid/--lexical", "hybrid", default=None,
              help="Fuse a dense ranking (needs [settings] hybrid = true at ingest) or search "
              "lexically only (default: hybrid when the published index has vectors).")  # fmt: skip
@json_option
@click.pass_obj
def search(
    state: _State,
    query: str | None,
    library: str | None,
    version_: str | None,
    limit: int,
    backend: str | None,
    batch: str | None,
    project_aware: bool,
    workspace: str | None,
    hybrid: bool | None,
) -> None:
    """Search the published documentation.

    With --batch the output is JSON Lines, one {"id", "results"} line per query (a query that
    fails gets "results": [] and an "error" object).
    """
    if (query is None) == (batch is None):
        raise UsageError("give either a QUERY or --batch FILE.jsonl")
    from docorbit_serve.search import search as run_search

    catalog = _catalog(state.home())
    if batch is not None:
        lines = list(_batch_lines(batch))
        catalog.manifest()  # nothing published: fail once, before any output
        for _n, obj in lines:
            out: dict[str, Any] = {"id": obj["id"]}
            try:
                res = run_search(
                    catalog,
                    obj["query"],
                    library=obj.get("library") or library,
                    version=obj.get("version") or version_,
                    limit=int(obj.get("limit") or limit),
                    backend=backend,
                    hybrid=hybrid,
                )
                out["results"] = [render.hit_dict(h) for h in res.hits]
            except DocOrbitError as e:
                out["results"] = []
                out.update(e.to_json())
            click.echo(json.dumps(out, sort_keys=True, ensure_ascii=False))
        return
    assert query is not None  # one of the two is given (checked above)
    if not query.strip():
        raise InputError("the query is empty; say what you are looking for")
    aware = project_aware and version_ is None
    kw: dict[str, Any] = {"library": library, "limit": limit, "backend": backend, "hybrid": hybrid}
    if aware and _search_versioned(state, catalog, query, workspace=workspace, **kw):
        return
    res = run_search(catalog, query, version=version_, **kw)
    hits = [render.hit_dict(h) for h in res.hits]
    data = {
        "query": res.query,
        "backend": res.backend,
        "hybrid": res.hybrid,
        "truncated": res.truncated,
        "elapsed_ms": res.elapsed_ms,
        "results": hits,
    }
    _emit(state, data, render.render_hits(query, hits))


@cli.command()
@click.argument("chunk_id", required=False)
@click.option(
    "--mode", type=click.Choice(["chunk", "section", "page"]), default="chunk", show_default=True
)
@click.option("--max-tokens", type=click.IntRange(1, 20000), default=2000, show_default=True)
@click.option("--cursor", help="Continue where the previous call stopped (its next_cursor).")
@json_option
@click.pass_obj
def get(
    state: _State, chunk_id: str | None, mode: str, max_tokens: int, cursor: str | None
) -> None:
    """Read a chunk, its section or its whole page (CHUNK_ID from search; a p_… id reads a page)."""
    if not chunk_id and not cursor:
        raise UsageError("give a CHUNK_ID (from `docorbit search`) or --cursor")
    from docorbit_serve.reader import get_doc

    doc = get_doc(
        _catalog(state.home()), chunk_id=chunk_id, mode=mode, max_tokens=max_tokens, cursor=cursor
    )
    _emit(state, doc, render.render_doc(doc))


@cli.command()
@click.argument("task")
@click.option("--budget", type=click.IntRange(50, 200000), default=2000, show_default=True,
              help="Token budget (cl100k, headers included); never exceeded.")  # fmt: skip
@click.option("--library", help="Only this library.")
@click.option("--version", "version_", help="Only this version label.")
@click.option("--cursor", help="next_cursor of a previous context call (same TASK) to continue.")
@json_option
@click.pass_obj
def context(
    state: _State,
    task: str,
    budget: int,
    library: str | None,
    version_: str | None,
    cursor: str | None,
) -> None:
    """Pack the documentation most relevant to TASK into a token budget (docs/retrieval.md)."""
    from docorbit_serve.context import pack_context

    pack = pack_context(
        _catalog(state.home()),
        task,
        budget=budget,
        library=library,
        version=version_,
        cursor=cursor,
    )
    data = pack.to_json()
    lines = [pack.text] if pack.items else ["(no relevant documentation found)"]
    lines.append(f"\n<!-- {pack.tokens_used}/{pack.budget} tokens · {len(pack.omitted)} omitted")
    if pack.next_cursor:
        lines[-1] += f" · more: --cursor {pack.next_cursor}"
    lines[-1] += " -->"
    _emit(state, data, "\n".join(lines))


@cli.command(name="map")
@click.option("--library", help="Only this library.")
@click.option("--version", "version_", help="Only this version label.")
@click.option("--source", help="Only this source name.")
@click.option("--max-pages", type=click.IntRange(1, 200), default=50, show_default=True)
@click.option("--sections-per-page", type=click.IntRange(0, 200), default=40, show_default=True)
@click.option("--cursor", help="Continue where the previous call stopped (its next_cursor).")
@json_option
@click.pass_obj
def map_(
    state: _State,
    library: str | None,
    version_: str | None,
    source: str | None,
    max_pages: int,
    sections_per_page: int,
    cursor: str | None,
) -> None:
    """Outline of the published docs: sources → pages → sections (MCP get_documentation_map)."""
    from docorbit_serve.reader import documentation_map

    data = documentation_map(
        _catalog(state.home()),
        library=library,
        version=version_,
        source=source,
        max_pages=max_pages,
        sections_per_page=sections_per_page,
        cursor=cursor,
    )
    _emit(state, data, render.render_map(data))


@cli.command()
@click.option("--http", is_flag=True, help="Serve streamable HTTP at /mcp instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP bind address.")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="HOST[:PORT]",
              help="Also accept this Host header (required to bind beyond loopback), repeatable.")  # fmt: skip
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
              help="Also accept this browser Origin (scheme://host[:port]), repeatable.")  # fmt: skip
@click.option("--json-response", is_flag=True, help="HTTP: answer with JSON instead of SSE.")
@json_option
@click.pass_obj
def mcp(
    state: _State,
    http: bool,
    host: str,
    port: int,
    allow_hosts: tuple[str, ...],
    allow_origins: tuple[str, ...],
    json_response: bool,
) -> None:
    """Serve the published documentation to agents over MCP (stdio, or HTTP with --http)."""
    ctx = click.get_current_context()
    http_only = [
        n for n in ("host", "port", "allow_hosts", "allow_origins", "json_response")
        if ctx.get_parameter_source(n) == click.core.ParameterSource.COMMANDLINE
    ]  # fmt: skip
    if http_only and not http:
        raise UsageError(f"--{http_only[0].replace('_', '-').rstrip('s')} needs --http")
    home = state.home()
    logging.basicConfig(
        stream=sys.stderr, level=os.environ.get("DOCORBIT_LOG_LEVEL", "WARNING").upper()
    )
    if http:
        from docorbit_serve.mcp_http import serve_http

        def ready(policy: Any) -> None:
            where = f"[{host}]" if ":" in host else host
            _info(f"docorbit mcp: serving {home.path} at http://{where}:{port}/mcp")
            if policy.notes:
                _info("docorbit mcp: also accepting " + ", ".join(policy.notes))

        serve_http(
            home,
            host=host,
            port=port,
            allow_hosts=allow_hosts,
            allow_origins=allow_origins,
            json_response=json_response,
            on_ready=ready,
        )
        _info("docorbit mcp: stopped")
        return
    from docorbit_serve.mcp_server import build_server

    server = build_server(home)
    _info(f"docorbit mcp: serving {home.path} on stdio")
    # Ctrl-C ends the server at once. Left to asyncio, SIGINT only cancels the main task, which
    # then waits for the thread blocked reading stdin, i.e. until the client closes it. The
    # server holds no state worth a graceful stop (publications are immutable; an ingest killed
    # midway leaves the previous publication in place), so exit right away.
    signal.signal(signal.SIGINT, _exit_interrupted)
    try:
        server.run("stdio")
    except KeyboardInterrupt:
        _info("docorbit mcp: interrupted")


def _exit_interrupted(signum: int, frame: Any) -> None:
    _info("docorbit mcp: interrupted")
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    os._exit(0)


# --------------------------------------------------------------------------- versions


def _published_manifest(home: Home) -> dict[str, Any]:
    """published.json, or {} when nothing is published (versions still show what is used)."""
    try:
        data = json.loads(home.published_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        _info(f"warning: cannot read {home.published_path}: {e}")
        return {}
    return data if isinstance(data, dict) else {}


def _workspace_dir(state: _State, home: Home, workspace: str | None) -> Path | None:
    root = workspace_root(home, workspace or state.project)
    if root is not None and not root.is_dir():
        raise InputError(f"workspace folder {root} does not exist", detail={"workspace": str(root)})
    return root


def _lock_workspace(home: Home, root: Path, **kw: Any) -> dict[str, Any]:
    from docorbit_serve.versioned import update_docs_lock

    return update_docs_lock(root, _published_manifest(home), **kw)


def _search_versioned(
    state: _State, catalog: Any, query: str, *, workspace: str | None, **kw: Any
) -> bool:
    """Run and print a version-aware search; False (nothing printed) when no pin applies."""
    root = _workspace_dir(state, catalog.home, workspace)
    if root is None:  # no workspace: the scanners (versioned, workspace) are never imported
        return False
    from docorbit_serve.versioned import render_notices, versioned_search, workspace_pins

    pins = workspace_pins(root, catalog.manifest())
    if not pins:
        return False
    res = versioned_search(catalog, query, pins=pins, **kw)
    hits = [render.hit_dict(h) for h in res.hits]
    data = {
        "query": res.query,
        "backend": res.backend,
        "truncated": res.truncated,
        "elapsed_ms": res.elapsed_ms,
        "results": hits,
        "versions": res.versions,
        "notices": res.notices,
        "workspace": str(root),
    }
    _emit(state, data, render_notices(res) + render.render_hits(query, hits))
    return True


@cli.command(name="version")
@click.argument("libraries", nargs=-1)
@click.option("--workspace", metavar="DIR", help="Workspace to read (default: -p or the project).")
@json_option
@click.pass_obj
def version_(state: _State, libraries: tuple[str, ...], workspace: str | None) -> None:
    """What the workspace uses and which docs DocOrbit serves for it (with confidence)."""
    from docorbit_serve.versioned import render_version_report, version_report

    home = state.home()
    root = _workspace_dir(state, home, workspace)
    if root is None:
        raise UsageError("no workspace found here; run inside a project or pass --workspace DIR")
    rep = version_report(root, _published_manifest(home), libraries)
    _emit(state, rep, render_version_report(rep).rstrip("\n"))


@cli.command()
@click.option("--workspace", metavar="DIR", help="Workspace to lock (default: -p or the project).")
@click.option("--check", is_flag=True, help="Write nothing; fail (exit 1) if docs.lock is stale.")
@json_option
@click.pass_obj
def update(state: _State, workspace: str | None, check: bool) -> None:
    """Pin the workspace's docs versions in docs.lock (project root) against the publication."""
    home = state.home()
    root = _workspace_dir(state, home, workspace)
    if root is None:
        raise UsageError("no workspace found here; run inside a project or pass --workspace DIR")
    out = _lock_workspace(home, root, check=check)
    if check and out["changed"]:
        raise DocOrbitError(
            f"{out['path']} is missing or out of date; run `docorbit update`",
            detail=out,
            code="docs_lock_stale",
        )
    word = "stale" if out["changed"] and check else ("written" if out["changed"] else "unchanged")
    text = (
        f"docs.lock {word}: {out['path']} · {out['dependencies']} dependencies, "
        f"{out['matched']} with indexed docs · {out['snapshot_hash']}"
    )
    _emit(state, out, text)


# --------------------------------------------------------------------------- entry point


def _print_error(err: DocOrbitError, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(err.to_json(), sort_keys=True, ensure_ascii=False, default=str))
    else:
        click.echo(f"error [{err.code}]: {err.message}", err=True)


def _wants_json(args: list[str]) -> bool:
    return "--json" in (args[: args.index("--")] if "--" in args else args)


def _run(group: click.Group, args: list[str], prog_name: str, **extra: Any) -> int:
    as_json = _wants_json(args)
    try:
        rv = click.Group.main(group, args=args, prog_name=prog_name, standalone_mode=False, **extra)
        return rv if isinstance(rv, int) else 0
    except DocOrbitError as e:
        _print_error(e, as_json)
        return e.exit_code
    except click.UsageError as e:
        if as_json:
            _print_error(UsageError(e.format_message()), True)
        else:
            e.show()
        return 2
    except click.ClickException as e:
        _print_error(DocOrbitError(e.format_message()), as_json)
        return e.exit_code or 1
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        return 130
    except Exception as e:  # top-level handler: report, never a bare traceback on stdout
        traceback.print_exc(file=sys.stderr)
        _print_error(DocOrbitError(f"unexpected {type(e).__name__}: {e}", code="internal"), as_json)
        return 1


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (see ``EXIT_CODES``)."""
    return cli.main(args=argv, standalone_mode=False)
