"""The service layer: what every face (CLI, MCP, REST, dashboard) calls, and the one door to the
pipeline.

Contract:
- Each function takes a ``Catalog`` (reads) or a ``Home`` (registry, ingest), validates its
  arguments, raises ``DocOrbitError`` subclasses with stable codes, and returns a shared model
  from ``docorbit_serve.models.core``. Faces only parse their input, call one function, and
  print ``model.model_dump(mode="json")`` (JSON) or ``render.*`` (Markdown).
- Reading: ``search_docs`` (search with the workspace's version pins and cursor paging),
  ``context_pack``, ``read_doc``, ``doc_map``, ``list_sources``, ``version_report``.
- Sources: ``register_source`` (``docorbit add`` and MCP ``ingest_doc`` alike: one set of rules,
  one answer for a refused scheme, ``blocked_url``), ``resolve_package``, ``check_policy``,
  ``discover_candidates`` (``docorbit inspect``), ``run_ingest`` and ``ingest_document``.
- This is the only module of ``docorbit_serve`` that imports ``docorbit_assets`` (the pipeline),
  always lazily inside a function, so reading never loads Dagster. The import contract in
  ``pyproject.toml`` (import-linter, ``make lint``) enforces it.
- Cursors are the one codec of ``docorbit_serve.cursors``; a cursor names the request and the
  publication it belongs to, and a new publication invalidates it (``bad_input``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from docorbit_serve import errors
from docorbit_serve import manifest as manifest_file
from docorbit_serve.cursors import decode_cursor, encode_cursor
from docorbit_serve.errors import (
    BlockedURL,
    DocOrbitError,
    IngestError,
    InputError,
    NotPublished,
    UsageError,
)
from docorbit_serve.home import Home, workspace_root
from docorbit_serve.models.core import (
    ContextPack,
    Doc,
    DocMap,
    IngestResult,
    SearchPage,
    SourceInfo,
    SourceList,
    VersionReport,
)
from docorbit_serve.registry import SourceConfig, load_registry, save_registry
from docorbit_serve.tokens import truncate_to_tokens

__all__ = [
    "MAX_HIT_TOKENS",
    "URL_KINDS",
    "check_policy",
    "context_pack",
    "discover_candidates",
    "doc_map",
    "ingest_document",
    "is_url",
    "list_sources",
    "local_files",
    "read_doc",
    "register_source",
    "refuse_other_scheme",
    "resolve_location",
    "resolve_package",
    "prepare_dagster",
    "run_gc",
    "run_ingest",
    "schedules",
    "search_docs",
    "version_report",
    "workspace_dir",
]

URL_KINDS = ("web", "llms_txt", "sitemap")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
INGEST_PROGRESS_STEPS = 4  # source started, source done, index build, publish done

# --------------------------------------------------------------------------- reading


def workspace_dir(home: Home, workspace: str | Path | None = None) -> Path | None:
    """The workspace whose versions count (``home.workspace_root``); it must exist if named."""
    root = workspace_root(home, workspace)
    if root is not None and not root.is_dir():
        raise InputError(f"workspace folder {root} does not exist", detail={"workspace": str(root)})
    return root


def _pins(root: Path | None, manifest: dict[str, Any]) -> dict[str, Any]:
    """The workspace's pins; {} without a workspace (the scanners are then never imported)."""
    if root is None:
        return {}
    from docorbit_serve.versioned import workspace_pins

    return workspace_pins(root, manifest)


def _search_offset(
    cursor: str | None, request: list[Any], publish_id: Any
) -> int:  # fmt: skip
    if not cursor:
        return 0
    state = decode_cursor(
        cursor,
        "invalid cursor: pass back next_cursor of the previous call unchanged",
        fields=("o",),
    )
    if [state.get("q"), state.get("l"), state.get("ver")] != request:
        raise InputError(
            "this cursor belongs to another search; drop it or repeat it",
            detail={"cursor": cursor[:200]},
        )
    if state.get("u") != publish_id:
        raise InputError(
            "a new snapshot was published since; search again without cursor",
            detail={"cursor": cursor[:200]},
        )
    return int(state["o"])


# A search hit carries at most this many tokens of content (a chunk is at most slice.MAX_TOKENS
# of prose, but one holding a huge fence is not): the rest is read with get_doc.
MAX_HIT_TOKENS = 2000


def _bounded(hit: Any) -> Any:
    if hit.tokens <= MAX_HIT_TOKENS:  # the slicer's count of this text
        return hit
    head = truncate_to_tokens(hit.content, MAX_HIT_TOKENS).rstrip("\ufffd")
    return hit.model_copy(update={"content": head, "truncated": True})


def search_docs(
    catalog: Any,
    query: str,
    *,
    library: str | None = None,
    version: str | None = None,
    limit: int = 10,
    cursor: str | None = None,
    backend: str | None = None,
    hybrid: bool | None = None,
    root: Path | None = None,
) -> SearchPage:
    """Ranked hits for ``query``; ranked for the pins of workspace ``root`` when no ``version``
    is asked; ``next_cursor`` continues (same query, library, version and publication)."""
    from docorbit_serve.search import search

    if not isinstance(query, str) or not query.strip():
        raise InputError("the query is empty; say what you are looking for, e.g. 'set a timeout'")
    manifest = catalog.manifest()
    publish_id = manifest.get("publish_id")
    offset = _search_offset(cursor, [query, library, version], publish_id)
    pins = _pins(root, manifest) if version is None else {}
    kw: dict[str, Any] = {"library": library, "limit": limit + 1, "offset": offset}
    kw.update(backend=backend, hybrid=hybrid)
    if pins:
        from docorbit_serve.versioned import versioned_search

        res: Any = versioned_search(catalog, query, pins=pins, **kw)
    else:
        res = search(catalog, query, version=version, **kw)
    state = {"v": 1, "q": query, "l": library, "ver": version, "o": offset + limit}
    more = len(res.hits) > limit
    return SearchPage(
        query=res.query,
        backend=res.backend,
        hybrid=res.hybrid,
        truncated=res.truncated,
        elapsed_ms=res.elapsed_ms,
        hits=[_bounded(h) for h in res.hits[:limit]],
        next_cursor=encode_cursor({**state, "u": publish_id}) if more else None,
        versions=dict(getattr(res, "versions", {}) or {}),
        notices=list(getattr(res, "notices", []) or []),
        workspace=str(root) if pins else None,
    )


def context_pack(
    catalog: Any,
    task: str,
    *,
    budget: int = 2000,
    library: str | None = None,
    version: str | None = None,
    cursor: str | None = None,
    root: Path | None = None,
) -> ContextPack:
    """A token-budgeted pack for ``task`` (``context.pack_context``); with a ``library`` and no
    ``version``, the docs version the workspace ``root`` pins is packed and its notice given."""
    from docorbit_serve.context import pack_context

    pin = None
    if library and version is None and root is not None:
        pin = _pins(root, catalog.manifest()).get(library)
        if pin is not None and pin.status == "available" and pin.resolution.version:
            version = pin.resolution.version
    pack = pack_context(
        catalog, task, budget=budget, library=library, version=version, cursor=cursor
    )
    if pin is not None and library is not None:
        from docorbit_serve.versioned import notice

        pack.versions = {library: pin.to_dict()}
        pack.notices = [notice(pin)]
    return pack


def read_doc(catalog: Any, **kw: Any) -> Doc:
    """A chunk, section or page in parts (``reader.get_doc``; same keyword arguments)."""
    from docorbit_serve.reader import get_doc

    return Doc.model_validate(get_doc(catalog, **kw))


def doc_map(catalog: Any, **kw: Any) -> DocMap:
    """The documentation map (``reader.documentation_map``; same keyword arguments)."""
    from docorbit_serve.reader import documentation_map

    return DocMap.model_validate(documentation_map(catalog, **kw))


def _published(catalog: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The manifest and the published sources with counts; ({}, []) when nothing is published."""
    from docorbit_serve.reader import list_sources as published_sources

    try:
        return catalog.manifest(), published_sources(catalog)
    except NotPublished:
        return {}, []


def list_sources(home: Home, catalog: Any) -> SourceList:
    """Every source configured in ``docorbit.toml`` or published, with what is served for it."""
    manifest, rows = _published(catalog)
    published = {r["name"]: r for r in rows}
    out: dict[str, SourceInfo] = {}
    if home.config_path.exists():
        for s in load_registry(home.config_path).sources:
            pub = published.get(s.name) or {}
            out[s.name] = SourceInfo(**{**s.to_toml(), **pub, "version": s.version},
                                     published=bool(pub))  # fmt: skip
    for name, pub in published.items():
        if name not in out:
            out[name] = SourceInfo(**pub, configured=False, published=True)
    _add_freshness(home, out)
    return SourceList(
        config=str(home.config_path),
        home=str(home.path),
        publish_id=manifest.get("publish_id"),
        sources=[out[k] for k in sorted(out)],
    )


def _add_freshness(home: Home, sources: dict[str, SourceInfo]) -> None:
    """``fetched_at`` / ``age_hours`` / ``stale`` of each source (``docorbit_serve.freshness``)."""
    from docorbit_serve.freshness import source_freshness

    try:
        limit = load_registry(home.config_path).stale_after_hours
    except DocOrbitError:
        limit = 48.0
    for name, info in sources.items():
        fresh = source_freshness(home, name, limit)
        info.fetched_at, info.age_hours, info.stale = (
            fresh["fetched_at"],
            fresh["age_hours"],
            fresh["stale"],
        )


def published_manifest(home: Home) -> dict[str, Any]:
    """``published.json``, or {} when nothing (readable and valid) is published."""
    return manifest_file.published_manifest(home.published_path)


def version_report(home: Home, root: Path | None, libraries: Sequence[str] = ()) -> VersionReport:
    """What workspace ``root`` uses and which docs are served for it (``versioned``)."""
    from docorbit_serve.versioned import version_report as report

    return VersionReport.model_validate(report(root, published_manifest(home), list(libraries)))


# --------------------------------------------------------------------------- sources


def is_url(s: str) -> bool:
    return s.lower().startswith(("http://", "https://"))  # schemes are case-insensitive


def check_policy(url: str, allow_hosts: Sequence[str]) -> None:
    """Refuse a URL the fetch policy blocks (``BlockedURL``, exit 5), without any network I/O."""
    from docorbit_assets.lib.netpolicy import NetPolicy, check_url  # light: no Dagster

    check_url(url, NetPolicy(allow_hosts=tuple(allow_hosts)))


def refuse_other_scheme(text: str) -> None:
    """A ``scheme:`` that is not http(s) and not an existing path (``ws:``, ``view-source:``,
    ``file:``, ``javascript:``) is refused like any other URL: ``BlockedURL`` (``blocked_url``,
    exit 5, ``detail.reason == "scheme"``), the fetch policy's own refusal."""
    if _SCHEME.match(text) and not is_url(text) and not Path(text).expanduser().exists():
        check_policy(text, ())
        raise BlockedURL(  # pragma: no cover - the policy refuses every other scheme
            f"refused {text!r}: only http(s) URLs or local paths can be sources",
            detail={"reason": "scheme", "url": text},
        )


def resolve_location(
    location: str, kind: str | None, project_root: Path, allow_hosts: Sequence[str]
) -> tuple[str, str]:
    """(kind, location as stored): a URL screened by the fetch policy (no DNS), a folder inside
    the project root stored relative to it. Any other scheme is ``blocked_url``."""
    if is_url(location):
        kind = kind or "web"
        if kind in ("local", "git"):
            clone = " (clone the repository and pass its folder)" if kind == "git" else ""
            raise UsageError(
                f"kind {kind!r} needs a folder, not a URL{clone}", detail={"location": location}
            )
        check_policy(location, allow_hosts)  # before anything is written
        return kind, location
    refuse_other_scheme(location)
    p = Path(location).expanduser().resolve()
    if not p.exists():
        raise InputError(
            f"no such file or folder: {p}; pass an existing path or an http(s) URL",
            detail={"location": str(p)},
        )
    kind = kind or ("local" if p.is_dir() else "markdown")
    if kind in URL_KINDS:
        raise UsageError(f"kind {kind!r} needs an http(s) URL", detail={"location": str(p)})
    if kind in ("local", "git") and not p.is_dir():
        raise InputError(
            f"kind {kind!r} needs a folder; {p} is a file", detail={"location": str(p)}
        )
    try:
        return kind, p.relative_to(project_root.resolve()).as_posix() or "."
    except ValueError:
        return kind, str(p)


def register_source(
    home: Home,
    location: str,
    *,
    library: str,
    version: str = "",
    name: str | None = None,
    kind: str | None = None,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    allow_hosts: Sequence[str] = (),
    limits: dict[str, Any] | None = None,
    ref: str = "",
    reuse: bool = False,
) -> tuple[SourceConfig, bool]:
    """Add a source to ``docorbit.toml``; returns (source, added). With ``reuse`` an identical
    source of that name is kept (added False); otherwise a taken name is a ``UsageError``."""
    if not library.strip():
        raise UsageError("a source needs a library name (--library)", detail={"name": name})
    name = name or (f"{library}-{version}" if version else library)
    if not _NAME.match(name):
        raise InputError(
            f"source name {name!r}: use letters, digits, '.', '_' or '-' (at most 64)",
            detail={"name": name},
        )
    reg = load_registry(home.config_path)
    hosts = (*reg.allow_hosts, *allow_hosts)
    kind, stored = resolve_location(location.strip(), kind, home.project_root, hosts)
    if ref and kind != "git":
        raise UsageError(f"--ref is for kind 'git' sources, not {kind!r}", detail={"ref": ref})
    src = SourceConfig(
        name=name,
        kind=kind,
        location=stored,
        library=library,
        version=version,
        include=tuple(include),
        exclude=tuple(exclude),
        allow_hosts=tuple(allow_hosts),
        limits=dict(limits or {}),
        ref=ref,
    )
    existing = next((s for s in reg.sources if s.name == src.name), None)
    if existing is not None and reuse:
        same = (existing.kind, existing.location, existing.library, existing.version)
        if same == (src.kind, src.location, src.library, src.version):
            return existing, False
        raise InputError(
            f"a different source is already named {src.name!r} ({existing.kind} "
            f"{existing.location}); pass another name",
            detail={"name": src.name},
        )
    reg.add(src)
    home.path.mkdir(parents=True, exist_ok=True)
    save_registry(reg)
    return src, True


def forget_source(home: Home, name: str) -> SourceConfig | None:
    """Remove source ``name`` from ``docorbit.toml`` (None when it is not there)."""
    reg = load_registry(home.config_path)
    if not any(s.name == name for s in reg.sources):
        return None
    src = reg.remove(name)
    save_registry(reg)
    return src


def resolve_package(name: str, allow_hosts: Sequence[str]) -> dict[str, Any]:
    """``identify.resolve_identifier`` over the policy-checked fetcher, as JSON."""
    from docorbit_assets.lib.identify import resolve_identifier
    from docorbit_assets.lib.secure_fetch import fetcher_for  # the network door; no Dagster

    fetcher = fetcher_for(None, tuple(allow_hosts))

    def get(url: str) -> bytes:
        return fetcher.get(url, robots=False).raise_for_status().body

    return resolve_identifier(name, get=get).to_json()


def discover_candidates(target: str, kind: str, allow_hosts: Sequence[str]) -> dict[str, Any]:
    """What discovery finds at ``target`` (``docorbit inspect``): candidates, the best one to
    ingest and the recommendation per purpose. Stores nothing."""
    from docorbit_assets.lib.discover import best_candidate, discover, purpose_ranking

    cfg = SourceConfig(name="inspect", kind=kind, location=target, library="inspect")
    table = discover(cfg, Path.cwd(), allow_hosts=tuple(allow_hosts))
    rows = table.to_pylist()
    metas = [json.loads(r["metadata_json"]) for r in rows]
    if rows and all(m.get("error_code") == "blocked_url" for m in metas):
        raise BlockedURL(
            f"{target} is refused by the fetch policy: {rows[0]['rationale']}",
            detail={"url": target, "candidates": len(rows)},
        )
    candidates = [
        {**{k: v for k, v in r.items() if k not in ("source", "metadata_json")}, "metadata": m}
        for r, m in zip(rows, metas, strict=True)
    ]
    best = best_candidate(table)
    return {
        "ingest": {"url": best["url"], "type": best["type"]} if best else None,
        "purposes": purpose_ranking(table),
        "candidates": candidates,
    }


def local_files(folder: Path) -> list[str]:
    """The files the local reader would take from ``folder`` (relative POSIX paths): Markdown,
    HTML and rST documents, build artifacts left out (``local_files.local_document_files``)."""
    from docorbit_assets.lib.local_files import local_document_files  # no Dagster

    return list(local_document_files(folder))


def run_ingest(
    home: Home,
    sources: Sequence[str] | None = None,
    *,
    progress: Callable[[str], None] | None = None,
    allow_hosts: Sequence[str] = (),
    refresh: bool = False,
) -> dict[str, Any]:
    """The one hand-over to the pipeline (``docorbit_assets.ingest.run_ingest``): its report.
    ``refresh`` runs the conditional re-fetch job (``docorbit refresh``)."""
    from docorbit_assets.ingest import run_ingest as pipeline_ingest

    kw: dict[str, Any] = {"refresh": True} if refresh else {}
    return pipeline_ingest(
        home,
        sources=list(sources) if sources else None,
        progress=progress,
        allow_hosts=tuple(allow_hosts),
        **kw,
    )


def run_gc(home: Home, **kw: Any) -> dict[str, Any]:
    """Retention (``docorbit_assets.instance.run_gc``; same keyword arguments)."""
    from docorbit_assets.instance import run_gc as pipeline_gc

    return pipeline_gc(home, **kw)


def schedules(registry: Any) -> list[dict[str, Any]]:
    """Each Dagster schedule of the registry with its cron, job and next run (UTC)."""
    from docorbit_assets.lib.schedule import next_runs, schedule_table

    return list(next_runs(schedule_table(registry)))


def prepare_dagster(home: Home) -> None:
    """Create ``home/dagster`` with its ``dagster.yaml`` (for ``docorbit ui``)."""
    from docorbit_assets.instance import open_instance

    open_instance(home).dispose()


def ingest_document(
    home: Home,
    location: str,
    *,
    library: str,
    version: str = "",
    name: str | None = None,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    progress: Callable[[float, int, str], None] | None = None,
) -> IngestResult:
    """Register ``location`` (``register_source`` with ``reuse``) and ingest + publish it; on
    failure a newly added source is removed again and the source's error raised (typed).

    The home's ingest lock (``ingest_lock``) is taken before ``docorbit.toml`` is touched: while
    another ingest runs, this one is refused at once and the file is left as it was."""
    from docorbit_serve.ingest_lock import ingest_lock

    with ingest_lock(home):
        return _ingest_document(
            home, location, library=library, version=version, name=name,
            include=include, exclude=exclude, progress=progress,
        )  # fmt: skip


def _ingest_document(
    home: Home,
    location: str,
    *,
    library: str,
    version: str,
    name: str | None,
    include: Sequence[str],
    exclude: Sequence[str],
    progress: Callable[[float, int, str], None] | None,
) -> IngestResult:
    src, added = register_source(
        home, location, library=library, version=version, name=name,
        include=include, exclude=exclude, reuse=True,
    )  # fmt: skip
    step = 0

    def say(message: str) -> None:
        nonlocal step
        step = min(step + 1, INGEST_PROGRESS_STEPS)
        if progress is not None:
            progress(step, INGEST_PROGRESS_STEPS, message)

    from docorbit_assets.lib.vectors import progress_to  # the ingest imports it anyway

    last = 0.0

    def embedding(done: int, total: int) -> None:
        # Within the current step, so the value keeps increasing (MCP requires it) and the
        # next step's whole number is still above it.
        nonlocal last
        at = step + min(done / total, 1.0) * 0.99 if total else step
        if progress is not None and at > max(last, step):
            last = at
            progress(at, INGEST_PROGRESS_STEPS, f"embedding chunks: {done:,}/{total:,}")

    try:
        with progress_to(embedding):
            report = run_ingest(home, [src.name], progress=say)
    except BaseException:
        if added:
            forget_source(home, src.name)
        raise
    entry = (report.get("sources") or {}).get(src.name) or {}
    if not report.get("ok"):
        if added:
            forget_source(home, src.name)
        raise _ingest_error(entry, report)
    return IngestResult(
        name=src.name,
        added=added,
        kind=src.kind,
        location=src.location,
        library=src.library,
        version=src.version,
        publish_id=str(report.get("publish_id") or ""),
        snapshot=str(entry.get("snapshot") or ""),
        rows={str(k): int(v) for k, v in sorted((entry.get("rows") or {}).items())},
        seconds=float(entry.get("seconds") or 0.0),
    )


def _ingest_error(entry: dict[str, Any], report: dict[str, Any]) -> DocOrbitError:
    """The typed error of a failed source (its steps' ``blocked_url`` / ``fetch_error`` first)."""
    err = entry.get("error") or (report.get("publish") or {}).get("error") or {}
    steps = [s for s in ((err.get("detail") or {}).get("steps") or []) if isinstance(s, dict)]
    step_codes = [str(s.get("code")) for s in steps if s.get("code")]
    code = next(
        (c for c in ("blocked_url", "fetch_error") if c in step_codes),
        str(err.get("code") or "ingest_failed"),
    )
    cls = {
        "blocked_url": errors.BlockedURL,
        "fetch_error": errors.FetchError,
        "bad_input": errors.InputError,
        "config": errors.ConfigError,
    }.get(code, IngestError)
    message = str(err.get("message") or "the ingest failed")
    return cls(
        f"{message} (nothing was added; the previous publication is still served)",
        detail={**(err.get("detail") or {}), "report": report},
    )
