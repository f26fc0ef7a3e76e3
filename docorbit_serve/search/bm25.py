"""Postings-BM25 backend: core DuckDB SQL over the index's precomputed postings weights.

Contract: ``candidates(cur, terms, ...)`` runs ``sql/search_bm25.sql`` and returns up to
``cap`` dicts ``{cid, chunk_id, score, matched, source, path, anchor, heading, level,
parent_id, has_code, library, version, summary}`` best first (ties by chunk id; ``cid`` is the
chunk's integer id in ``search_docs``, in chunk id order). ``terms`` is a list of terms
(weight 1) or a ``{term: weight}`` mapping (query expansions carry weights below 1; a weight
scales the term's idf). No extension is needed. The score is BM25F: per query term,
``x = sum over fields of w_field * tf / (1 - b + b * len / avglen)`` (the last factor
precomputed per posting at build time), then ``sum over terms of idf * x * (k1 + 1) / (k1 + x)``;
field weights, k1 and b come from the scoring config. Unlike a sum of per-field BM25 scores, a
term found in several fields saturates once, so a short heading cannot outweigh the section's
body on its own.

How it stays fast (index layout in ``sql/index_bm25.sql``): ``bm25_postings`` holds one row per
(term, chunk) with the term string, its idf and the per-field weights inline, stored in term
order. A query is one statement: one ``term = $term_<i>`` branch per query term under
``UNION ALL`` (each reads only the row groups of its term; no vocabulary lookup), summed per
chunk, cut to the top ``cap``, and only those rows are joined to ``search_docs`` (stored in
small row groups, and the serving connections let the join hand its ~100 ids to the scan as a
filter: ``fts.DUCKDB_CONFIG``, so the join reads the row groups holding them, not all of it). The SQL text
for ``n`` terms is built once from the files in ``sql/`` (``search_bm25_term.sql`` repeated with
its branch number); values are always bound as named parameters, never formatted into SQL.
Stem variants (``cfg.w_variant > 0``) use ``sql/search_bm25_variants.sql``: each branch reads
the term-sorted range of the term's variant prefix (a query term counts once, by its best
variant).

``term_idf(cur, terms)``: the idf of each term the index holds (``sql/search_idf.sql``), for
re-ranking's opening factor (``scoring.rerank``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import duckdb

from docorbit_serve.search.scoring import SCORING, ScoringConfig
from docorbit_serve.search.sqlfiles import sql

__all__ = ["MAX_TERMS", "candidates", "query_sql", "term_idf", "variant_prefix"]

# Query terms beyond this many (a pasted log, say) are dropped, lowest weight first, then
# last in term order: each term is one branch of the statement.
MAX_TERMS = 64


def variant_prefix(term: str, cfg: ScoringConfig = SCORING) -> str:
    """The prefix whose vocabulary terms count as variants of ``term`` ('' = none).

    Only plain alphabetic stems of at least ``cfg.variant_min`` letters get one: the stem minus
    ``cfg.variant_cut`` letters, never shorter than ``cfg.variant_min - 1``.
    """
    if cfg.w_variant <= 0 or not term.isalpha() or len(term) < cfg.variant_min:
        return ""
    return term[: max(cfg.variant_min - 1, len(term) - cfg.variant_cut)]


def _code(name: str) -> str:
    """An SQL file without its whole-line comments (they mention the placeholders)."""
    return "\n".join(ln for ln in sql(name).splitlines() if not ln.lstrip().startswith("--"))


@cache
def query_sql(n: int, variants: bool = False, filtered: bool = False) -> str:
    """The candidate statement for ``n`` branches (cached; structure only, no values).

    ``filtered``: with the library/version filter (``$library``, ``$version``); without it the
    statement does not touch ``search_docs`` before the row cap.
    """
    if n < 1:
        raise ValueError("a candidate query needs at least one term")
    branch = _code("search_bm25_variant_term" if variants else "search_bm25_term")
    branch = branch.strip().rstrip(";")
    body = "\n    UNION ALL\n".join(branch.replace("{i}", str(i)) for i in range(n))
    outer = _code("search_bm25_variants" if variants else "search_bm25")
    where = _code("search_bm25_filter").strip().rstrip(";") if filtered else ""
    return outer.replace("{branches}", body).replace("{filter}", where)


def _weighted(terms: list[str] | Mapping[str, float]) -> dict[str, float]:
    weighted = dict(terms) if isinstance(terms, Mapping) else dict.fromkeys(terms, 1.0)
    weighted = {t: float(w) for t, w in weighted.items() if t and w > 0}
    if len(weighted) > MAX_TERMS:
        keep = sorted(weighted, key=lambda t: (-weighted[t], t))[:MAX_TERMS]
        weighted = {t: weighted[t] for t in keep}
    return weighted


def _ranges(term: str, cfg: ScoringConfig) -> tuple[str, str]:
    """[lo, hi) of the vocabulary terms a variant branch reads: the prefix's range, or the term."""
    pfx = variant_prefix(term, cfg)
    if not pfx:
        return term, term + "\x01"  # no term lies between t and t + "\x01" (terms are printable)
    return pfx, pfx[:-1] + chr(ord(pfx[-1]) + 1)


def candidates(
    cur: duckdb.DuckDBPyConnection,
    terms: list[str] | Mapping[str, float],
    *,
    library: str | None,
    version: str | None,
    cap: int,
    cfg: ScoringConfig = SCORING,
) -> list[dict[str, Any]]:
    weighted = _weighted(terms)
    if not weighted:
        return []
    names = sorted(weighted)
    variants = cfg.w_variant > 0 and any(variant_prefix(t, cfg) for t in names)
    params: dict[str, Any] = {f"w_{f}": w for f, w in cfg.field_weights().items()}
    params.update({f"term_{i}": t for i, t in enumerate(names)})
    params["weights"] = [weighted[t] for t in names]
    if variants:
        for i, t in enumerate(names):
            params[f"lo_{i}"], params[f"hi_{i}"] = _ranges(t, cfg)
        params["w_variant"] = float(cfg.w_variant)
    params.update({"k1": cfg.k1, "cap": cap})
    filtered = library is not None or version is not None
    if filtered:
        params.update({"library": library, "version": version})
    res = cur.execute(query_sql(len(names), variants, filtered), params)
    cols = [d[0] for d in res.description]
    out = []
    for r in res.fetchall():
        row = dict(zip(cols, r, strict=True))
        row["score"] = float(row["score"])
        row["matched"] = int(row["matched"])
        out.append(row)
    return out


def term_idf(
    cur: duckdb.DuckDBPyConnection, terms: list[str] | Mapping[str, float]
) -> dict[str, float]:
    """{term: idf} for the terms of ``terms`` found in the index's term dictionary."""
    names = sorted(_weighted(terms))
    if not names:
        return {}
    rows = cur.execute(sql("search_idf"), {"terms": names}).fetchall()
    return {str(t): float(v) for t, v in rows}
