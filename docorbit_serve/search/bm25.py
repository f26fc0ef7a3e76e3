"""Postings-BM25 backend: core DuckDB SQL over the index's precomputed postings weights.

Contract: ``candidates(cur, terms, ...)`` runs ``sql/search_bm25.sql`` and returns up to
``cap`` dicts ``{chunk_id, score, matched, source, path, anchor}`` best first. No extension is needed. The score is
BM25F: per query term, ``x = sum over fields of w_field * tf / (1 - b + b * len / avglen)``
(the last factor precomputed per posting at build time), then
``sum over terms of idf * x * (k1 + 1) / (k1 + x)``; field weights, k1 and b come from the
scoring config. Unlike a sum of per-field BM25 scores, a term found in several fields
saturates once, so a short heading cannot outweigh the section's body on its own.
"""

from __future__ import annotations

from typing import Any

import duckdb

from docorbit_serve.search.scoring import SCORING, ScoringConfig
from docorbit_serve.search.sqlfiles import sql

__all__ = ["candidates"]


def candidates(
    cur: duckdb.DuckDBPyConnection,
    terms: list[str],
    *,
    library: str | None,
    version: str | None,
    cap: int,
    cfg: ScoringConfig = SCORING,
) -> list[dict[str, Any]]:
    if not terms:
        return []
    params: dict[str, Any] = {f"w_{f}": w for f, w in cfg.field_weights().items()}
    params.update(
        {"terms": terms, "k1": cfg.k1, "library": library, "version": version, "cap": cap}
    )
    rows = cur.execute(sql("search_bm25"), params).fetchall()
    return [
        {
            "chunk_id": r[0],
            "score": float(r[1]),
            "matched": int(r[2]),
            "source": r[3],
            "path": r[4],
            "anchor": r[5],
        }
        for r in rows
    ]
