"""``ingest_document``: the MCP ``ingest_doc`` tool's work (register a source, run the pipeline).

Contract: ``ingest_document(home, location, *, library, version="", name=None, include=(),
exclude=(), progress=None) -> dict``:

1. ``location`` is an ``http(s)`` URL (kind ``web``) or an existing local folder (``local``) or
   file (``markdown``), resolved like ``docorbit add``. A URL is screened first by the same fetch
   policy as the pipeline (``docorbit_assets.lib.netpolicy.check_url`` with the registry's
   allowances, no DNS; the pipeline re-checks every hop with DNS): a refused URL raises ``BlockedURL`` (code ``blocked_url``,
   ``detail.reason``) and ``docorbit.toml`` is left untouched. No ``--allow-host`` here: an
   agent cannot widen the fetch policy; a person does that with ``docorbit add --allow-host``.
2. The source is registered in ``docorbit.toml`` (name defaults to the library, plus
   ``-VERSION``). A source of that name with the same kind/location/library/version is reused
   (re-ingest); a different one raises ``InputError`` (pick another ``name``).
3. ``docorbit_assets.ingest.run_ingest(home, sources=[name], progress=...)`` runs the same
   pipeline as ``docorbit ingest`` (imported here, lazily: the only place the MCP server
   touches the pipeline). ``progress(step, total, message)`` receives its progress lines.
4. On failure a newly added source is removed again (the registry is as before) and the
   source's error is raised as a ``DocOrbitError`` with its code (``blocked_url``,
   ``fetch_error``, ``ingest_failed``, …) and the run report in ``detail``.

The result: ``{"name", "added", "kind", "location", "library", "version", "publish_id",
"snapshot", "rows", "seconds"}``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from docorbit_serve import errors
from docorbit_serve.errors import BlockedURL, DocOrbitError, IngestError, InputError
from docorbit_serve.home import Home
from docorbit_serve.registry import SourceConfig, load_registry, save_registry

__all__ = ["PROGRESS_STEPS", "ingest_document"]

PROGRESS_STEPS = 4  # source started, source done, index build, publish done
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def _resolve(location: str, project_root: Path, allow_hosts: tuple[str, ...]) -> tuple[str, str]:
    """(kind, stored location), as ``docorbit add`` infers them."""
    if location.startswith(("http://", "https://")):
        from docorbit_assets.lib.netpolicy import NetPolicy, check_url

        check_url(location, NetPolicy(allow_hosts=allow_hosts))  # before anything is written
        return "web", location
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", location) and not Path(location).exists():
        raise BlockedURL(
            f"refused {location!r}: only http(s) URLs or local paths can be ingested",
            detail={"reason": "scheme", "url": location},
        )
    p = Path(location).expanduser().resolve()
    if not p.exists():
        raise InputError(
            f"no such file or folder: {p}; pass an absolute path or an http(s) URL",
            detail={"location": str(p)},
        )
    kind = "local" if p.is_dir() else "markdown"
    try:
        return kind, p.relative_to(project_root.resolve()).as_posix() or "."
    except ValueError:
        return kind, str(p)


def _error_of(entry: dict[str, Any], report: dict[str, Any]) -> DocOrbitError:
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


def ingest_document(
    home: Home,
    location: str,
    *,
    library: str,
    version: str = "",
    name: str | None = None,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, Any]:
    """Register ``location`` as a source and ingest + publish it; see the module docstring."""
    if not library.strip():
        raise InputError("library is empty: name the library these docs describe, e.g. httpx")
    name = name or (f"{library}-{version}" if version else library)
    if not _NAME.match(name):
        raise InputError(
            f"source name {name!r}: use letters, digits, '.', '_' or '-' (at most 64)",
            detail={"name": name},
        )
    reg = load_registry(home.config_path)
    kind, stored = _resolve(location.strip(), home.project_root, tuple(reg.allow_hosts))
    src = SourceConfig(
        name=name,
        kind=kind,
        location=stored,
        library=library,
        version=version,
        include=tuple(include),
        exclude=tuple(exclude),
    )
    home.path.mkdir(parents=True, exist_ok=True)
    existing = next((s for s in reg.sources if s.name == name), None)
    added = existing is None
    if existing is not None and (
        existing.kind,
        existing.location,
        existing.library,
        existing.version,
    ) != (
        kind,
        stored,
        library,
        version,
    ):
        raise InputError(
            f"a different source is already named {name!r} ({existing.kind} {existing.location}); "
            "pass another name",
            detail={"name": name},
        )
    if added:
        reg.add(src)
        save_registry(reg)

    step = 0

    def say(message: str) -> None:
        nonlocal step
        step = min(step + 1, PROGRESS_STEPS)
        if progress is not None:
            progress(step, PROGRESS_STEPS, message)

    from docorbit_assets.ingest import run_ingest  # the one hand-over to the pipeline

    try:
        report = run_ingest(home, sources=[name], progress=say)
    except BaseException:
        if added:
            _forget(home, name)
        raise
    entry = (report.get("sources") or {}).get(name) or {}
    if not report.get("ok"):
        if added:
            _forget(home, name)
        raise _error_of(entry, report)
    return {
        "name": name,
        "added": added,
        "kind": kind,
        "location": stored,
        "library": library,
        "version": version,
        "publish_id": str(report.get("publish_id") or ""),
        "snapshot": str(entry.get("snapshot") or ""),
        "rows": {str(k): int(v) for k, v in sorted((entry.get("rows") or {}).items())},
        "seconds": float(entry.get("seconds") or 0.0),
    }


def _forget(home: Home, name: str) -> None:
    reg = load_registry(home.config_path)
    if any(s.name == name for s in reg.sources):
        reg.remove(name)
        save_registry(reg)
