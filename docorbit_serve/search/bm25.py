"""Postings-BM25 backend: core DuckDB SQL over the index's precomputed postings weights.

Contract: ``candidates(cur, terms, ...)`` runs ``sql/search_bm25.sql`` and returns up to
``cap`` dicts ``{chunk_id, score, matched, source, path, anchor, heading, level, parent_id,
has_code, library, version}`` best first. ``terms`` is a list of terms (weight 1) or a
``{term: weight}`` mapping (query expansions carry weights below 1; a weight scales the
term's idf). No extension is needed. The score is
BM25F: per query term, ``x = sum over fields of w_field * tf / (1 - b + b * len / avglen)``
(the last factor precomputed per posting at build time), then
``sum over terms of idf * x * (k1 + 1) / (k1 + x)``; field weights, k1 and b come from the
scoring config. Unlike a sum of per-field BM25 scores, a term found in several fields
saturates once, so a short heading cannot outweigh the section's body on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import duckdb

from docorbit_serve.search.scoring import SCORING, ScoringConfig
from docorbit_serve.search.sqlfiles import sql

__all__ = ["candidates", "variant_prefix"]


def variant_prefix(term: str, cfg: ScoringConfig = SCORING) -> str:
    """The prefix whose vocabulary terms count as variants of ``term`` ('' = none).

    Only plain alphabetic stems of at least ``cfg.variant_min`` letters get one: the stem minus
    ``cfg.variant_cut`` letters, never shorter than ``cfg.variant_min - 1``.
    """
    if cfg.w_variant <= 0 or not term.isalpha() or len(term) < cfg.variant_min:
        return ""
    return term[: max(cfg.variant_min - 1, len(term) - cfg.variant_cut)]


def candidates(
    cur: duckdb.DuckDBPyConnection,
    terms: list[str] | Mapping[str, float],
    *,
    library: str | None,
    version: str | None,
    cap: int,
    cfg: ScoringConfig = SCORING,
) -> list[dict[str, Any]]:
    weighted = dict(terms) if isinstance(terms, Mapping) else dict.fromkeys(terms, 1.0)
    if not weighted:
        return []
    names = sorted(weighted)
    params: dict[str, Any] = {f"w_{f}": w for f, w in cfg.field_weights().items()}
    params.update(
        {
            "terms": names,
            "qweights": [float(weighted[t]) for t in names],
            "prefixes": [variant_prefix(t, cfg) for t in names],
            "w_variant": float(cfg.w_variant),
            "k1": cfg.k1,
            "library": library,
            "version": version,
            "cap": cap,
        }
    )
    res = cur.execute(sql("search_bm25"), params)
    cols = [d[0] for d in res.description]
    out = []
    for r in res.fetchall():
        row = dict(zip(cols, r, strict=True))
        row["score"] = float(row["score"])
        row["matched"] = int(row["matched"])
        out.append(row)
    return out
