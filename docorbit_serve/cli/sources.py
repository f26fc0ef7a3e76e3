"""Registry and pipeline commands: ``init``, ``add``, ``list``, ``remove``, ``inspect``, ``ingest``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from docorbit_serve import service
from docorbit_serve.cli._common import (
    _emit,
    _info,
    _State,
    cli,
    json_option,
)
from docorbit_serve.cli.versions import (
    _lock_workspace,
)
from docorbit_serve.errors import (
    BlockedURL,
    DocOrbitError,
    IngestError,
    InputError,
    NotFound,
    UsageError,
)
from docorbit_serve.registry import KINDS, load_registry, new_registry, save_registry
from docorbit_serve.settings import LIMITS

__all__: list[str] = []

_HOST_PORT = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$")

# --------------------------------------------------------------------------- registry commands


@cli.command()
@click.option("--hybrid/--lexical", "hybrid", default=None,
              help="Set [settings] hybrid: build dense vectors at ingest for hybrid search "
              "(better answers, ~20-45 ms of CPU per chunk) or not (default: leave as is; "
              "a new project starts hybrid).")  # fmt: skip
@json_option
@click.pass_obj
def init(state: _State, hybrid: bool | None) -> None:
    """Create docorbit.toml in the project root and the home folder (idempotent). In a folder
    with no project marker above it, that folder becomes the project (as `git init` does)."""
    home = state.home(init=True)
    new_project = (
        home.project_root == Path.cwd().resolve()
        and home.path == home.project_root / ".docorbit"
        and not home.config_path.exists()
        and not (state.home_opt or state.global_ or state.project)
    )
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
        save_registry(new_registry(home.config_path))
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
    data["project_created"] = new_project
    verb = "created" if config_created else "exists:"
    text = f"{verb} {home.config_path}\nhome: {home.path}"
    if new_project:
        text = f"initialized a DocOrbit project in {home.project_root}\n" + text
    text += "\nsearch: hybrid (dense vectors at ingest)" if reg.hybrid else ""
    if home.path == home.project_root / ".docorbit":  # a project: pin its docs versions
        data["docs_lock"] = _lock_workspace(home, home.project_root, require_dependencies=True)
        if data["docs_lock"]["written"]:
            text += f"\ndocs.lock: {data['docs_lock']['path']}"
    _emit(state, data, text)


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
@click.option(
    "--ref", default="", help="kind git: the branch, tag or commit to read (default HEAD)."
)
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
    ref: str,
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
    src, _added = service.register_source(
        home, path_or_url, library=library or "", version=version_, name=name, kind=kind,
        include=include, exclude=exclude, allow_hosts=allow_hosts, limits=_parse_limits(limits),
        ref=ref,
    )  # fmt: skip
    _info(f"run `docorbit ingest --source {src.name}` to fetch and publish it")
    data: dict[str, Any] = {"added": src.to_toml(), "config": str(home.config_path)}
    if resolution is not None:
        data["resolved"] = resolution
    _emit(state, data, f"added {src.name} ({src.kind} {src.location}) → {home.config_path}")


LIMIT_KEYS = tuple(LIMITS)  # exactly the keys the fetcher and crawler honour


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
            if key == "ports":  # ports=80,8443
                out[key] = [int(x) for x in raw.split(",")]
                continue
            value: float | int = float(raw) if "." in raw else int(raw)
        except ValueError as e:
            raise UsageError(f"--limit {key} wants a number, got {raw!r}") from e
        if value < 0:
            raise UsageError(f"--limit {key} must not be negative, got {raw!r}")
        out[key] = value
    return out


def _is_identifier(text: str) -> bool:
    """A package name (``httpx``, ``@scope/pkg``), not a URL and not an existing path."""
    if service.is_url(text) or Path(text).expanduser().exists() or "://" in text:
        return False
    return re.fullmatch(r"(@[a-z0-9][\w.-]*/)?[A-Za-z0-9][A-Za-z0-9._-]{0,213}", text) is not None


def _resolve_name(name: str, allow_hosts: tuple[str, ...]) -> dict[str, Any]:
    """Docs URL of package ``name`` or a ``NotFound`` / ambiguous ``UsageError``."""
    res = service.resolve_package(name, allow_hosts)
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


@cli.command(name="list")
@json_option
@click.pass_obj
def list_(state: _State) -> None:
    """List the configured sources and what is published for each (MCP list_sources)."""
    from docorbit_serve.cli._common import _catalog
    from docorbit_serve.service import list_sources

    home = state.home()
    result = list_sources(home, _catalog(home))
    if not result.sources:
        text = (
            f"no sources in {home.config_path}; add one with `docorbit add PATH_OR_URL --library L`"
        )
    else:
        lines = [
            "| name | kind | library | version | location | snapshot | fetched |",
            "|---" * 7 + "|",
        ]
        for r in result.sources:
            snap = r.snapshot or "(not published)"
            age = "never" if r.age_hours is None else f"{r.age_hours:.1f} h ago"
            fetched = f"STALE ({age})" if r.stale else age
            lines.append(
                f"| {r.name} | {r.kind} | {r.library} | {r.version or '-'} | {r.location} "
                f"| {snap} | {fetched} |"
            )
        text = "\n".join(lines)
    _emit(state, result.model_dump(mode="json"), text)


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
@click.argument("target", metavar="URL_OR_NAME_OR_PATH")
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
    candidates, their validity, and the recommended source per purpose; for a local folder or
    file, the files an ingest would take and those it leaves out. Stores nothing."""
    for h in allow_hosts:
        if not _HOST_PORT.match(h):
            raise UsageError(f"--allow-host wants HOST:PORT, got {h!r}", detail={"allow_host": h})
    try:
        settings_hosts = load_registry(state.home().config_path).allow_hosts
    except DocOrbitError:
        settings_hosts = ()
    hosts = (*settings_hosts, *allow_hosts)
    resolution = None
    if not service.is_url(target):
        service.refuse_other_scheme(target)
        if Path(target).expanduser().exists():
            data = _inspect_local(Path(target).expanduser().resolve())
            _emit(state, data, _inspect_local_text(data))
            return
        if not _is_identifier(target):
            raise UsageError(f"inspect wants an http(s) URL or a package name, not {target!r}")
        resolution = _resolve_name(target, hosts)
        target = resolution["chosen"]["url"]
    service.check_policy(target, hosts)
    found = service.discover_candidates(target, kind, hosts)
    data = {"url": target, "kind": kind, "resolved": resolution, **found}
    _emit(state, data, _inspect_text(data))


_PREVIEW_FILES = 50


def _inspect_local(path: Path) -> dict[str, Any]:
    """What ``docorbit add PATH`` + ``ingest`` would take from a local folder or file: the
    files the local reader selects (the first ``_PREVIEW_FILES``), their count and bytes, and
    the files it leaves out, counted by suffix. Reads names and sizes only."""
    if path.is_dir():
        kind, root = "local", path
        taken = service.local_files(path)
    else:
        kind, root, taken = "markdown", path.parent, [path.name]
    chosen = set(taken)
    skipped: dict[str, int] = {}
    if path.is_dir():
        for f in sorted(path.rglob("*")):
            rel = f.relative_to(path).as_posix()
            if f.is_file() and rel not in chosen and not rel.startswith("."):
                key = f.suffix.lower() or "(none)"
                skipped[key] = skipped.get(key, 0) + 1
    size = sum((root / rel).stat().st_size for rel in taken)
    return {
        "path": str(path),
        "kind": kind,
        "files": len(taken),
        "bytes": size,
        "sample": taken[:_PREVIEW_FILES],
        "truncated": len(taken) > _PREVIEW_FILES,
        "skipped": dict(sorted(skipped.items())),
        "ingest": {"kind": kind, "location": str(path)} if taken else None,
    }


def _inspect_local_text(data: dict[str, Any]) -> str:
    lines = [f"# {data['path']}", ""]
    if data["ingest"] is None:
        lines.append("nothing ingestible: no documents (.md, .mdx, .markdown, .html, .htm, .rst)")
    else:
        lines.append(f"ingest as: {data['kind']} · {data['files']} files · {data['bytes']:,} bytes")
        lines += ["", "## Files", ""] + [f"- {rel}" for rel in data["sample"]]
        if data["truncated"]:
            lines.append(f"- … and {data['files'] - len(data['sample'])} more")
    if data["skipped"]:
        lines += ["", "## Left out", ""]
        lines += [f"- {suffix}: {n}" for suffix, n in data["skipped"].items()]
    return "\n".join(lines)


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
    from docorbit_serve.ingest_lock import ingest_lock

    # The lock first: a second ingest is refused at once, not after importing Dagster (~2 s).
    with ingest_lock(home):
        report = service.run_ingest(
            home, [source] if source else None, progress=_info, allow_hosts=allow_hosts
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
        for w in e.get("warnings") or []:
            lines.append(f"    warning [{w.get('code')}] {w.get('message')}")
    return "\n".join(lines)
