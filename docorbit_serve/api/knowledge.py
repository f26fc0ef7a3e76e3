"""``find_example`` and ``find_pitfall``: the ``examples`` and ``pitfalls`` rows for a question.

Contract::

    find_example(catalog, query, *, library=None, version=None, language=None,
                 framework=None, limit=5, pins=None) -> ExampleResult
    find_pitfall(catalog, query=None, *, symbol=None, endpoint=None, library=None,
                 version=None, kind=None, limit=10, pins=None) -> PitfallResult

- Rows of the scope (library/version) are read through ``sql/api_examples.sql`` /
  ``sql/api_pitfalls.sql`` (at most ``MAX_ROWS``) and ranked by BM25F in DuckDB SQL
  (``api.rank``): examples over heading, symbols, endpoints and code; pitfalls over the
  evidence sentence, symbols, endpoints, heading, the evidence unit and the kind.
- Filters: ``language`` (fence language; common aliases agree: py/python, js/javascript,
  ts/typescript, sh/bash/shell/console), ``framework``, ``kind`` (one of ``PITFALL_KINDS``),
  ``symbol`` (a pitfall naming it, case-insensitive, dotted names match their last part) and
  ``endpoint`` (``METHOD /path`` or ``/path``; concrete paths match templates). A pitfall
  lookup needs at least one of query, symbol, endpoint.
- Results carry provenance (source, library, version, url, path, anchor, chunk/page id,
  snapshot); code and sentences are fetched text: capped and ``untrusted: true``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from typing import Any

from docorbit_serve.api.rank import RowIndex, cached, query_weights
from docorbit_serve.api.scope import check_scope, index_errors, stamp
from docorbit_serve.errors import InputError
from docorbit_serve.models.api import ExampleItem, ExampleResult, PitfallItem, PitfallResult
from docorbit_serve.search.sqlfiles import sql

__all__ = ["MAX_ROWS", "PITFALL_KINDS", "find_example", "find_pitfall"]

MAX_ROWS = 200_000
MAX_LIMIT = 50
MAX_QUERY_CHARS = 2000
CODE_CHARS = 6000
TEXT_CHARS = 1000
PITFALL_KINDS = (
    "deprecated",
    "removed",
    "breaking_change",
    "server_only",
    "client_only",
    "required_config",
    "permission",
    "rate_limit",
    "runtime_restriction",
    "security",
)
EXAMPLE_WEIGHTS = {"heading": 2.0, "symbols": 2.0, "endpoints": 1.5, "code": 1.0}
PITFALL_WEIGHTS = {
    "sentence": 2.0,
    "symbols": 2.0,
    "endpoints": 1.5,
    "heading": 1.0,
    "text": 0.8,
    "kind": 0.5,
}
_LANG_ALIASES = {
    "py": "python",
    "python3": "python",
    "js": "javascript",
    "node": "javascript",
    "jsx": "javascript",
    "ts": "typescript",
    "tsx": "typescript",
    "sh": "shell",
    "bash": "shell",
    "console": "shell",
    "zsh": "shell",
    "shell-session": "shell",
    "yml": "yaml",
}
_METHOD_PATH = re.compile(r"^\s*(?:([A-Za-z]+)\s+)?(/\S*)\s*$")


def _lang(name: str) -> str:
    n = name.strip().lower()
    return _LANG_ALIASES.get(n, n)


def _rows(cursor: Any, name: str, library: str | None, version: str | None) -> list[dict]:
    cur = cursor.execute(sql(name), {"library": library, "version": version, "limit": MAX_ROWS})
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def _scope(
    catalog: Any, cursor: Any, table: str, library: str | None, version: str | None
) -> tuple[RowIndex, list[dict[str, Any]]]:
    key = (table, str(catalog.manifest().get("publish_id", "")), library, version)
    weights = EXAMPLE_WEIGHTS if table == "examples" else PITFALL_WEIGHTS

    def build() -> RowIndex:
        rows = _rows(cursor, f"api_{table}", library, version)
        docs = [
            {
                f: " ".join(r.get(f) or []) if isinstance(r.get(f), list) else str(r.get(f) or "")
                for f in weights
            }  # fmt: skip
            for r in rows
        ]
        for d in docs:
            d["kind"] = d.get("kind", "").replace("_", " ")
        return RowIndex.build(docs, weights, rows)

    idx = cached(key, build)
    return idx, idx.rows


def _check(query: str | None, limit: int) -> None:
    if query is not None and len(query) > MAX_QUERY_CHARS:
        raise InputError(f"the query is longer than {MAX_QUERY_CHARS} characters")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise InputError(f"limit must be between 1 and {MAX_LIMIT}", detail={"limit": limit})


def _cap(text: Any, n: int) -> tuple[str, bool]:
    s = str(text or "")
    return (s, False) if len(s) <= n else (s[:n], True)


def _ranked(
    catalog: Any, cursor: Any, table: str, query: str | None, library: str | None,
    version: str | None,
) -> list[tuple[dict[str, Any], float]]:  # fmt: skip
    idx, rows = _scope(catalog, cursor, table, library, version)
    if query and query.strip():
        return [(rows[r.doc], r.score) for r in idx.rank(cursor, query_weights(query), MAX_ROWS)]
    return [(r, 0.0) for r in rows]


def _provenance(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        k: str(row.get(k) or "")
        for k in ("source", "library", "version", "url", "path", "anchor", "chunk_id", "page_id")
    } | {"snapshot": str(row.get("snapshot") or "")}


def find_example(
    catalog: Any,
    query: str,
    *,
    library: str | None = None,
    version: str | None = None,
    language: str | None = None,
    framework: str | None = None,
    limit: int = 5,
    pins: Mapping[str, Any] | None = None,
) -> ExampleResult:
    """Code examples for ``query`` (see the module docstring)."""
    if not query or not query.strip():
        raise InputError("the query is empty: say what the example should show")
    _check(query, limit)
    cursor = catalog.connection().cursor()
    with contextlib.closing(cursor), index_errors():
        check_scope(cursor, library, version)
        ranked = _ranked(catalog, cursor, "examples", query, library, version)
    items = []
    for row, score in ranked:
        if language and _lang(str(row.get("language") or "")) != _lang(language):
            continue
        if framework and str(row.get("framework") or "").lower() != framework.strip().lower():
            continue
        code, cut = _cap(row.get("code"), CODE_CHARS)
        items.append(
            {
                "id": str(row["id"]),
                "language": str(row.get("language") or ""),
                "framework": str(row.get("framework") or ""),
                "heading": str(row.get("heading") or ""),
                "code": code,
                "code_truncated": cut,
                "symbols": list(row.get("symbols") or []),
                "endpoints": list(row.get("endpoints") or []),
                "missing_code": bool(row.get("missing_code")),
                "score": round(score, 6),
                "key": (row.get("library"), row.get("path"), row.get("anchor"), code),
                **_provenance(row),
            }
        )
        if len(items) >= 4 * limit + 50:
            break
    items, versions, notices = stamp(items, pins, version)
    return ExampleResult(
        query=query,
        library=library,
        version=version,
        language=language,
        framework=framework,
        results=[ExampleItem.model_validate(_strip(it)) for it in items[:limit]],
        total=len(items),
        truncated=len(items) > limit,
        versions=versions,
        notices=notices,
    )


def _endpoint_matches(wanted: str, have: list[str]) -> bool:
    m = _METHOD_PATH.match(wanted)
    if not m:
        return False
    method, path = (m.group(1) or "").upper(), m.group(2).rstrip("/")
    for ep in have:
        hm = _METHOD_PATH.match(ep)
        if not hm or (method and (hm.group(1) or "").upper() not in ("", method)):
            continue
        template = hm.group(2).rstrip("/")
        pattern = re.sub(r"\\\{[^}/]*\\\}", "[^/]+", re.escape(template))
        if template == path or re.fullmatch(pattern, path):
            return True
    return False


def _symbol_matches(wanted: str, have: list[str]) -> bool:
    w = wanted.strip().lower()
    for s in have:
        s = s.lower()
        if s == w or s.rsplit(".", 1)[-1] == w.rsplit(".", 1)[-1]:
            return True
    return False


def find_pitfall(
    catalog: Any,
    query: str | None = None,
    *,
    symbol: str | None = None,
    endpoint: str | None = None,
    library: str | None = None,
    version: str | None = None,
    kind: str | None = None,
    limit: int = 10,
    pins: Mapping[str, Any] | None = None,
) -> PitfallResult:
    """Documented traps for a question, a symbol or an endpoint (see the module docstring)."""
    if not (query and query.strip()) and not symbol and not endpoint:
        raise InputError("give a query, a symbol or an endpoint (METHOD /path)")
    if kind is not None and kind not in PITFALL_KINDS:
        raise InputError(
            f"unknown pitfall kind {kind!r}; one of: {', '.join(PITFALL_KINDS)}",
            detail={"kind": kind, "kinds": list(PITFALL_KINDS)},
        )
    _check(query, limit)
    cursor = catalog.connection().cursor()
    with contextlib.closing(cursor), index_errors():
        check_scope(cursor, library, version)
        ranked = _ranked(catalog, cursor, "pitfalls", query, library, version)
    items = []
    for row, score in ranked:
        if kind and row.get("kind") != kind:
            continue
        syms = list(row.get("symbols") or []) or ([row["symbol"]] if row.get("symbol") else [])
        if symbol and not _symbol_matches(symbol, syms):
            continue
        eps = list(row.get("endpoints") or [])
        if endpoint and not _endpoint_matches(endpoint, eps):
            continue
        text, _ = _cap(row.get("text"), TEXT_CHARS)
        sentence, _ = _cap(row.get("sentence") or row.get("text"), TEXT_CHARS)
        items.append(
            {
                "id": str(row["id"]),
                "kind": str(row.get("kind") or ""),
                "sentence": sentence,
                "text": text,
                "heading": str(row.get("heading") or ""),
                "symbols": syms,
                "endpoints": eps,
                "score": round(score, 6),
                "key": (row.get("library"), row.get("kind"), sentence),
                **_provenance(row),
            }
        )
        if len(items) >= 4 * limit + 50:
            break
    items, versions, notices = stamp(items, pins, version)
    return PitfallResult(
        query=query or symbol or endpoint or "",
        library=library,
        version=version,
        kind=kind,
        results=[PitfallItem.model_validate(_strip(it)) for it in items[:limit]],
        total=len(items),
        truncated=len(items) > limit,
        versions=versions,
        notices=notices,
    )


def _strip(it: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in it.items() if k != "key"}
