"""Impact of a documentation change on a workspace (issue 15 point 4).

Contract:
- ``impact_hits(items, old_rows, new_rows, files) -> list[ImpactHit]``: for the diff's removed,
  deprecated and modified endpoints and removed symbols, every line of ``files`` (``{path:
  text}``) that uses one, with the snippet, the change and a certainty:
  ``high`` — a parsed call with a literal URL (or an SDK method) that fits the operation exactly;
  ``medium`` — a parsed call whose URL is a resolvable template (variables fill the path's
  variables) or whose method is unknown; ``heuristic`` — a text match (the path's literal
  prefix in a line no parsed call explains, a removed symbol's name). Sorted by file, line, key.
- ``analyze_impact(home, paths, *, target=None, from_=None, to=None, root=None, limit=500,
  cursor=None) -> ImpactResult``: the diff of ``target`` (``changes.diff`` rules for choosing
  the two snapshots; only endpoints and symbols are read), the workspace files under ``paths``
  (``codecalls.read_sources``), at most ``limit`` hits (``truncated`` says when cut). The
  embedded ``diff`` carries the sides and the summary, not the items.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from docorbit_serve.changes import endpoints as ep
from docorbit_serve.changes.diff import diff_tables, load_tables, summarize
from docorbit_serve.changes.snapshots import resolve_pair
from docorbit_serve.codecalls import extract_calls, language_of, read_sources
from docorbit_serve.codecalls.urls import PLACEHOLDER
from docorbit_serve.errors import UsageError
from docorbit_serve.home import Home
from docorbit_serve.models.change import (
    ApiCall,
    DiffItem,
    DiffResult,
    DiffSide,
    ImpactHit,
    ImpactResult,
)
from docorbit_serve.verify import match_call, sdk_candidates

__all__ = ["MAX_HITS", "analyze_impact", "impact_hits"]

MAX_HITS = 5000
_AFFECTING = {"removed", "deprecated", "modified"}


def _affected_rows(
    items: list[DiffItem], old_rows: list[dict[str, Any]], new_rows: list[dict[str, Any]]
) -> dict[str, tuple[DiffItem, dict[str, Any]]]:
    old = {ep.endpoint_key(r["method"], r["path"]): r for r in old_rows}
    new = {ep.endpoint_key(r["method"], r["path"]): r for r in new_rows}
    out = {}
    for i in items:
        if i.kind == "endpoint" and i.change in _AFFECTING:
            row = old.get(i.key) if i.change == "removed" else new.get(i.key)
            if row is not None:
                out[i.key] = (i, row)
    return out


def _hit(
    call_or_file: ApiCall | str, line: int, snippet: str, item: DiffItem, certainty: str
) -> ImpactHit:
    file = call_or_file.file if isinstance(call_or_file, ApiCall) else call_or_file
    return ImpactHit(
        file=file,
        line=line,
        snippet=snippet[:240],
        kind=item.kind,
        change=item.change,
        key=item.key,
        details=item.details[:10],
        certainty=certainty,  # type: ignore[arg-type]
    )


def _call_hits(
    call: ApiCall, affected: dict[str, tuple[DiffItem, dict[str, Any]]]
) -> list[ImpactHit]:
    rows = [row for _, row in affected.values()]
    if call.client == "sdk":
        keys = {ep.endpoint_key(r["method"], r["path"]) for r in sdk_candidates(call, rows)}
        return (
            [
                _hit(call, call.line, call.snippet, affected[k][0], "medium")
                for k in keys
                if k in affected
            ]
            if len(keys) == 1
            else []
        )
    if not call.path or call.url_kind == "dynamic":
        return []
    by_lib: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_lib.setdefault(str(r.get("library") or ""), []).append(r)
    out = []
    for m in match_call(call, by_lib):
        if m.weak:
            continue
        for r in m.rows:
            if call.method is not None and r["method"] != call.method:
                continue
            certainty = "high" if call.url_kind == "literal" and call.method else "medium"
            item = affected[ep.endpoint_key(r["method"], r["path"])][0]
            out.append(_hit(call, call.line, call.snippet, item, certainty))
    return out


def _literal_prefix(path: str) -> str | None:
    """'/engines/{id}/search' -> '/engines/' : the text a heuristic search looks for."""
    m = PLACEHOLDER.search(path)
    lit = path[: m.start()] if m else path
    return lit if len(lit.strip("/")) >= 4 else None


def _text_hits(
    files: dict[str, str],
    explained: set[tuple[str, int]],
    affected: dict[str, tuple[DiffItem, dict[str, Any]]],
    symbols: list[DiffItem],
) -> list[ImpactHit]:
    pats: list[tuple[re.Pattern[str], DiffItem]] = []
    for item, row in affected.values():
        lit = _literal_prefix(str(row["path"]))
        if lit:
            end = "" if lit.endswith("/") else r"(?![\w-])"
            pats.append((re.compile(re.escape(lit) + end), item))
    for s in symbols:
        name = s.title or s.key.split(" ", 1)[-1]
        if len(name.rsplit(".", 1)[-1]) >= 4:
            pats.append((re.compile(r"(?<![\w.])" + re.escape(name) + r"(?!\w)"), s))
            short = name.rsplit(".", 1)[-1]
            if short != name:
                pats.append((re.compile(r"\b" + re.escape(short) + r"\b"), s))
    out = []
    for file, text in files.items():
        for n, line in enumerate(text.splitlines(), 1):
            if (file, n) in explained:
                continue
            seen: set[str] = set()
            for pat, item in pats:
                if item.key not in seen and pat.search(line):
                    seen.add(item.key)
                    out.append(_hit(file, n, line.strip(), item, "heuristic"))
    return out


def impact_hits(
    items: list[DiffItem],
    old_rows: list[dict[str, Any]],
    new_rows: list[dict[str, Any]],
    files: dict[str, str],
) -> list[ImpactHit]:
    affected = _affected_rows(items, old_rows, new_rows)
    symbols = [i for i in items if i.kind == "symbol" and i.change == "removed"]
    hits: list[ImpactHit] = []
    explained: set[tuple[str, int]] = set()
    for file, text in sorted(files.items()):
        for call in extract_calls(text, path=file, language=language_of(file)):
            found = _call_hits(call, affected)
            hits += found
            if found or call.path:
                explained.add((file, call.line))
    hits += _text_hits(files, explained, affected, symbols)
    uniq = {(h.file, h.line, h.key): h for h in hits}
    return sorted(uniq.values(), key=lambda h: (h.file, h.line, h.key))


def analyze_impact(
    home: Home,
    paths: list[Path],
    *,
    target: str | None = None,
    from_: str | None = None,
    to: str | None = None,
    root: Path | None = None,
    limit: int = 500,
) -> ImpactResult:
    if not 1 <= limit <= MAX_HITS:
        raise UsageError(f"limit must be between 1 and {MAX_HITS}")
    old, new, mode = resolve_pair(home, target, from_, to)
    kinds = ("endpoint", "symbol")
    a, b = load_tables(home, old, kinds), load_tables(home, new, kinds)
    items = [i for i in diff_tables(a, b, old.id, new.id) if i.kind in kinds]
    base = root or (paths[0] if len(paths) == 1 and paths[0].is_dir() else None)
    files, cut = read_sources(paths, root=base)
    hits = impact_hits(items, a.get("endpoints", []), b.get("endpoints", []), files)
    summary = DiffResult.model_validate(
        {
            "target": target or new.source,
            "mode": mode,
            "from": DiffSide.model_validate(old.to_json()),
            "to": DiffSide.model_validate(new.to_json()),
            "summary": summarize(items),
            "total": len(items),
            "items": [],
        }
    )
    return ImpactResult(
        diff=summary,
        root=str(base or ""),
        hits=hits[:limit],
        files_scanned=len(files),
        truncated=cut or len(hits) > limit,
    )
