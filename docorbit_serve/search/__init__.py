"""Search over the published index: one interface, two DuckDB backends.

Contract::

    search(catalog, query, *, library=None, version=None, limit=10, offset=0, backend=None,
           hybrid=None)
        -> SearchResult(query, hits: list[Hit], backend, truncated, elapsed_ms, hybrid)

``Hit`` is the shared result model (``docorbit_serve.models.core.Hit``).

- ``backend``: ``"bm25"`` (precomputed postings, core SQL, no extension) or ``"fts"`` (DuckDB
  FTS extension); ``None`` = ``DEFAULT_BACKEND``. Both see the same analysed terms
  (``analyze.terms``) and the same re-ranking (``scoring.rerank``).
- Bounds: ``offset + limit`` is capped at ``MAX_RESULTS`` rows (``truncated`` is set when the
  cap cut the requested window short); every step of a search (query understanding, filters,
  candidates, re-ranking, dense ranking, hit rows) shares one ``TIME_LIMIT_S`` deadline
  (``deadline.Deadline``: a timer thread interrupts DuckDB, Python steps are checked between)
  and ``SearchError`` (``search_timeout``) is raised when it is exceeded. A query beyond
  ``query.MAX_QUERY_CHARS`` / ``MAX_QUERY_TERMS`` is ``InputError`` (``bad_input``).
- Errors: blank query or bad limit/offset/backend -> ``UsageError``; a library filter the index
  does not hold -> ``UnknownLibrary`` (detail lists the known libraries); an unknown version
  of a known library -> ``NotFound`` (detail lists its versions); nothing published ->
  ``NotPublished`` (from the catalog); DuckDB failures -> ``SearchError``.
- One hit per section: when a long section was split into parts, only its best part is
  returned (the reader expands a hit to its neighbours).
- Every hit is documentation fetched from elsewhere: ``untrusted`` is always ``True``.
- Hybrid: when the publication has vectors (``[settings] hybrid = true`` at ingest) and
  ``hybrid`` is not ``False``, the re-ranked lexical ranking is fused with a dense ranking
  (``hybrid.fuse``; scores are then fused RRF scores) and ``SearchResult.hybrid`` is set.
  ``hybrid=True`` on a publication without vectors raises ``SearchError`` with code
  ``hybrid_unavailable``; ``hybrid=False`` always searches lexically. Vectors made by another
  model than ``dense.MODEL_ID`` (a DocOrbit upgrade changed the model; the next ingest rebuilds
  them): a default search answers lexically with a notice, ``hybrid=True`` raises
  ``hybrid_unavailable``. Every hit says what
  found it (``matched_by``: ``lexical``, ``dense`` or ``both``; dense-only hits below
  ``hybrid.DENSE_FLOOR`` are dropped) and ``to_json()`` says which ranking answered
  (``ranking``: ``hybrid`` or ``lexical``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import duckdb

from docorbit_serve.errors import NotFound, SearchError, UnknownLibrary, UsageError
from docorbit_serve.freshness import age_hours
from docorbit_serve.models.core import Hit
from docorbit_serve.search import bm25, fts
from docorbit_serve.search.deadline import Deadline
from docorbit_serve.search.query import understand
from docorbit_serve.search.scoring import SCORING, ScoringConfig

# Not ``rerank``: that name is the second-stage submodule (``search.rerank``) once imported.
from docorbit_serve.search.scoring import rerank as rerank_lexical
from docorbit_serve.search.sqlfiles import sql

__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "MAX_RESULTS",
    "TIME_LIMIT_S",
    "Hit",
    "check_library_version",
    "SearchResult",
    "search",
]

BACKENDS = {"bm25": bm25.candidates, "fts": fts.candidates}
DEFAULT_BACKEND = "bm25"
MAX_RESULTS = 100
TIME_LIMIT_S = 5.0


@dataclass
class SearchResult:
    query: str
    hits: list[Hit]
    backend: str
    truncated: bool
    elapsed_ms: float
    hybrid: bool = False
    # One-line notices, e.g. a second stage skipped for lack of time (shown by the faces).
    notices: list[str] = field(default_factory=list)

    @property
    def ranking(self) -> str:
        """Which ranking answered: ``"hybrid"`` (lexical fused with dense) or ``"lexical"``."""
        return "hybrid" if self.hybrid else "lexical"

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "backend": self.backend,
            "hybrid": self.hybrid,
            "ranking": self.ranking,
            "truncated": self.truncated,
            "elapsed_ms": self.elapsed_ms,
            "hits": [h.model_dump(mode="json") for h in self.hits],
        }


@contextmanager
def _time_limit(cur: duckdb.DuckDBPyConnection, seconds: float) -> Iterator[None]:
    """Interrupt ``cur`` after ``seconds`` (DuckDB has no per-query timeout)."""
    timer = threading.Timer(seconds, cur.interrupt)
    timer.daemon = True
    timer.start()
    try:
        yield
    except duckdb.InterruptException as e:
        raise SearchError(
            f"search took longer than {seconds:g} s and was stopped; use a more specific query "
            "or a --library filter",
            detail={"time_limit_s": seconds},
            code="search_timeout",
        ) from e
    except duckdb.Error as e:
        raise SearchError(f"search failed: {e}", detail={"duckdb": type(e).__name__}) from e
    finally:
        timer.cancel()


def _check_filters(cur: duckdb.DuckDBPyConnection, library: str | None, version: str | None):
    if library is None and version is None:
        return
    check_library_version(dict(cur.execute(sql("search_libraries")).fetchall()), library, version)


def check_library_version(
    known: dict[str, list[str]], library: str | None, version: str | None
) -> None:
    """``UnknownLibrary`` / ``NotFound`` when ``library`` or ``version`` is not among ``known``
    (library -> its versions), naming what is there; the one filter check of search and the
    API intelligence services."""
    if library is not None and library not in known:
        raise UnknownLibrary(
            f"library {library!r} is not in the published index; known libraries: "
            + (", ".join(sorted(known)) or "(none)"),
            detail={"library": library, "known": sorted(known)},
        )
    if version is not None:
        versions = (
            list(known[library])
            if library is not None
            else sorted({v for vs in known.values() for v in vs})
        )
        if version not in versions:
            raise NotFound(
                f"version {version!r} is not in the published index"
                + (f" for {library!r}" if library else "")
                + "; known versions: "
                + (", ".join(repr(v) for v in versions) or "(none)"),
                detail={"library": library, "version": version, "known": versions},
            )


def _hit(row: dict[str, Any]) -> Hit:
    return Hit(
        chunk_id=row["chunk_id"],
        library=row["library"],
        version=row["version"],
        source=row["source"],
        url=row["url"],
        path=row["path"],
        title=row["title"],
        heading=row["heading"],
        anchor=row["anchor"],
        breadcrumb=list(row["breadcrumb"] or []),
        score=round(float(row["score"]), 6),
        tokens=int(row["tokens"] or 0),
        snapshot=row["snapshot"],
        untrusted=True,
        content=row["text"],
        matched_by=row.get("matched_by") or "lexical",
        security_annotations=list(row["security_annotations"] or []),
        fetched_at=row.get("fetched_at") or "",
        age_hours=age_hours(row.get("fetched_at") or ""),
    )


def _rows(cur: duckdb.DuckDBPyConnection, cids: list[int]) -> dict[int, dict[str, Any]]:
    """Full rows of chunks by ``cid`` (the chunk's rowid + 1: read by rowid, not by id)."""
    if not cids:
        return {}
    res = cur.execute(sql("search_hits"), {"rows": [c - 1 for c in cids]})
    names = [d[0] for d in res.description]
    return {r[0]: dict(zip(names, r, strict=True)) for r in res.fetchall()}


def _one_per_section(ranked: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep the best part of a section split into parts (same source, path, anchor)."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for r in ranked:
        key = (r["source"], r["path"], r["anchor"])
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _view(catalog: Any, hybrid: bool | None) -> tuple[duckdb.DuckDBPyConnection, Any, str | None]:
    """A cursor, and the publication's vectors when hybrid search applies (see ``search``), and
    a notice when a default search answers lexically because the vectors are of another model."""
    if hybrid is False or not hasattr(catalog, "search_view"):
        return catalog.cursor(), None, None
    if hybrid is None and hasattr(catalog, "manifest"):
        from docorbit_serve.search.rerank import stale_vectors

        stale = stale_vectors(catalog.manifest())
        if stale:
            return (
                catalog.cursor(),
                None,
                f"lexical ranking: the published vectors were made by another model ({stale}); "
                "run `docorbit ingest` to rebuild them for hybrid search",
            )
    cur, vectors = catalog.search_view()
    if hybrid and vectors is None:
        cur.close()
        raise SearchError(
            "hybrid search was asked for, but the published index has no vectors; set "
            "`hybrid = true` under [settings] in docorbit.toml and run `docorbit ingest`",
            code="hybrid_unavailable",
        )
    return cur, vectors, None


def _publication_stage(catalog: Any) -> str:
    """``[settings] dense_stage`` as recorded in the published manifest's vectors entry."""
    from docorbit_serve.search.rerank import served_stage

    manifest = catalog.manifest() if hasattr(catalog, "manifest") else {}
    return served_stage(manifest) or "rrf"


def _dense_stage(
    catalog: Any,
    cur: duckdb.DuckDBPyConnection,
    vectors: Any,
    query: str,
    ranked: list[dict[str, Any]],
    scope: tuple[str | None, str | None],
    cfg: ScoringConfig,
    deadline: Deadline,
) -> tuple[list[dict[str, Any]], str | None]:
    """The dense stage (``cfg.dense_stage``, else the publication's): RRF or the re-scorer."""
    stage = cfg.dense_stage or _publication_stage(catalog)
    if stage == "rerank":
        from docorbit_serve.search.rerank import rescore  # numpy only with vectors

        res = rescore(ranked, vectors, query, cfg=cfg, deadline=deadline)
        return res.rows, res.notice
    if stage != "rrf":
        raise UsageError(
            f"unknown dense stage {stage!r}; choose rrf or rerank",
            detail={"dense_stage": stage, "known": ["rerank", "rrf"]},
        )
    from docorbit_serve.search.hybrid import fuse  # numpy only when hybrid

    library, version = scope
    fused = fuse(cur, vectors, query, ranked, library=library, version=version, cfg=cfg)
    return _one_per_section(fused), None


def _validate(query: Any, limit: Any, offset: Any, backend: str | None) -> str:
    if not isinstance(query, str) or not query.strip():
        raise UsageError("the search query is empty; pass some words to search for")
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise UsageError(f"limit must be a positive integer, got {limit!r}")
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise UsageError(f"offset must be a non-negative integer, got {offset!r}")
    name = backend or DEFAULT_BACKEND
    if name not in BACKENDS:
        raise UsageError(
            f"unknown search backend {name!r}; choose one of {', '.join(sorted(BACKENDS))}",
            detail={"backend": name, "known": sorted(BACKENDS)},
        )
    return name


def _lexical_cfg(catalog: Any, vectors: Any, cfg: ScoringConfig) -> ScoringConfig:
    """``cfg``, with the opening factor at ``summary_rerank`` when the re-scoring stage follows."""
    if vectors is None or cfg.summary == cfg.summary_rerank:
        return cfg
    if (cfg.dense_stage or _publication_stage(catalog)) != "rerank":
        return cfg
    return replace(cfg, summary=cfg.summary_rerank)


def _wants_idf(cands: list[dict[str, Any]], cfg: ScoringConfig) -> bool:
    """Whether re-ranking's opening factor applies (bm25 candidates carry ``summary``)."""
    return bool(cfg.summary) and any(c.get("summary") for c in cands)


def search(
    catalog: Any,
    query: str,
    *,
    library: str | None = None,
    version: str | None = None,
    limit: int = 10,
    offset: int = 0,
    backend: str | None = None,
    cfg: ScoringConfig = SCORING,
    time_limit_s: float = TIME_LIMIT_S,
    hybrid: bool | None = None,
) -> SearchResult:
    """Ranked chunks for ``query`` from the catalog's published index (see module docstring)."""
    t0 = time.perf_counter()
    name = _validate(query, limit, offset, backend)
    window_end = min(offset + limit, MAX_RESULTS)
    cut = offset + limit > MAX_RESULTS
    deadline = Deadline(time_limit_s)  # one deadline for every step, understanding included
    notices: list[str] = []
    q = understand(query, cfg)
    deadline.check("query understanding")
    cur, vectors, stale = _view(catalog, hybrid)
    notices += [stale] if stale else []
    try:
        with deadline.interrupting(cur):
            _check_filters(cur, library, version)
            pool = max(cfg.candidates, window_end)
            cands = BACKENDS[name](
                cur, q.terms, library=library, version=version, cap=pool + 1, cfg=cfg
            )
            more = len(cands) > pool
            cands = cands[:pool]
            if cfg.needs_text:
                texts = _rows(cur, [c["cid"] for c in cands])
                cands = [{**texts[c["cid"]], **c} for c in cands if c["cid"] in texts]
            lex = _lexical_cfg(catalog, vectors, cfg)
            idf = bm25.term_idf(cur, q.terms) if _wants_idf(cands, lex) else None
            ranked = _one_per_section(rerank_lexical(cands, q, lex, idf))
            deadline.check("re-ranking")
            if vectors is not None:
                ranked, notice = _dense_stage(
                    catalog, cur, vectors, query, ranked, (library, version), cfg, deadline
                )
                notices += [notice] if notice else []
                deadline.check("dense ranking")
            window = ranked[offset:window_end]
            rows = _rows(cur, [c["cid"] for c in window])
    finally:
        cur.close()
    truncated = cut and (more or len(ranked) > window_end)
    hits = [
        _hit({**rows[c["cid"]], "score": c["score"], "matched_by": c.get("matched_by")})
        for c in window
        if c["cid"] in rows
    ]
    return SearchResult(
        query=query,
        hits=hits,
        backend=name,
        truncated=truncated,
        elapsed_ms=round((time.perf_counter() - t0) * 1000, 3),
        hybrid=vectors is not None,
        notices=notices,
    )
