"""Library / version scope and version stamping shared by the API-intelligence services.

Contract:
- ``index_errors()``: a context in which DuckDB errors become ``SearchError``.
- ``check_scope(cursor, library, version)``: an unknown library is ``UnknownLibrary`` (detail
  lists the known ones), an unknown version of a known library is ``NotFound`` (detail lists
  its versions) — the same errors as search.
- ``stamp(items, pins, version)``: like ``versioned.versioned_search`` for API rows. Each item
  (with ``library``, ``version``, ``score``, a ``key`` naming "the same thing" across versions)
  gets ``version_match`` against the workspace pin of its library; when no version was asked
  for and pins exist, scores are weighted by ``versioned.MATCH_WEIGHTS`` and the same key seen
  again in a worse-matching version is dropped. Returns ``(items, versions, notices)``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any

import duckdb

from docorbit_serve.errors import SearchError
from docorbit_serve.search import check_library_version
from docorbit_serve.search.sqlfiles import sql

__all__ = ["check_scope", "index_errors", "stamp", "workspace_pins"]


@contextlib.contextmanager
def index_errors() -> Iterator[None]:
    """DuckDB failures reading the index become ``SearchError`` (an index built before the
    API tables' columns existed is the likely cause: the fix is a new ingest)."""
    try:
        yield
    except duckdb.Error as e:
        raise SearchError(
            f"cannot read the API tables of the published index ({type(e).__name__}); "
            "run `docorbit ingest` to rebuild it",
            detail={"error": str(e)[:300]},
        ) from e


def check_scope(cursor: Any, library: str | None, version: str | None) -> None:
    known = {lib: list(v) for lib, v in cursor.execute(sql("api_libraries")).fetchall()}
    check_library_version(known, library, version)


def stamp(
    items: list[dict[str, Any]], pins: Mapping[str, Any] | None, version: str | None
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]], list[str]]:
    """Stamp ``version_match``, re-weight for the pins and drop worse duplicates (docstring)."""
    if not pins:
        return items, {}, []
    from docorbit_serve.versioned import MATCH_WEIGHTS, classify, notice

    rescore = version is None
    for it in items:
        match = classify(str(it["version"]), pins.get(str(it["library"])))
        it["version_match"] = match
        if rescore:
            it["score"] = round(float(it["score"]) * MATCH_WEIGHTS.get(match, 1.0), 6)
    out = items
    if rescore:
        out = sorted(items, key=lambda it: -float(it["score"]))
        seen: set[Any] = set()
        kept = []
        for it in out:
            if it["key"] in seen:
                continue
            seen.add(it["key"])
            kept.append(it)
        out = kept
    libs = sorted({str(it["library"]) for it in out} & set(pins))
    return (
        out,
        {lib: pins[lib].to_dict() for lib in libs},
        [notice(pins[lib]) for lib in libs],
    )


def workspace_pins(catalog: Any, root: Any) -> dict[str, Any]:
    """The pins of the workspace at ``root`` for the published libraries; {} without one (the
    workspace scanners are then never imported)."""
    if root is None:
        return {}
    from docorbit_serve.versioned import workspace_pins as pins_of

    return dict(pins_of(root, catalog.manifest()))
