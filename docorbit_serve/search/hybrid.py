"""Hybrid search: the lexical ranking fused with a dense (embedding) ranking.

Contract: ``fuse(cur, vectors, text, ranked, *, library, version, cfg) -> list[dict]``.
``ranked`` is the lexical ranking after re-ranking (one row per section, best first). The
query text is embedded (``dense.embed``), the ``cfg.hybrid_depth`` nearest chunks allowed by the
library/version filter are taken from ``vectors``, and the two lists (lexical cut to the same
depth) are fused by reciprocal rank fusion with ``cfg.rrf_k``. Rows keep their lexical columns
(dense-only chunks get theirs from ``search_docs``); ``score`` becomes the fused score. The
caller groups the result per section again. No weight is fitted: RRF with equal weights and
k = 60 is the published default (Cormack, Clarke, Buettcher 2009).

Each fused row says what found it: ``matched_by`` is ``"lexical"`` (only the lexical ranking),
``"dense"`` (only the dense ranking) or ``"both"``. A dense-only chunk whose cosine similarity to
the query is below ``DENSE_FLOOR`` is dropped: the dense ranking always returns its top k, so
without a floor a query with nothing to match (``?!?``, a word in no document) came back as ten
confident hybrid hits. The floor sits above what noise queries reach on the kit with the search
model (30 probes: punctuation, unknown words, other scripts, stop words, emoji; top similarity
at most 0.28 over the httpx docs, 0.38 over the fastapi, pydantic and httpx docs together) and
below the top hit of nine in ten dev questions (p10 0.47, median 0.59; dropping a dense-only hit
under it cost at most 0.005 section MRR@10 on any of five question sets); ``docs/retrieval.md``.
"""

from __future__ import annotations

from typing import Any

import duckdb
import numpy as np

from docorbit_serve.search import dense
from docorbit_serve.search.scoring import SCORING, ScoringConfig
from docorbit_serve.search.sqlfiles import sql

__all__ = ["DENSE_FLOOR", "MATCHED_BY", "fuse"]

DENSE_FLOOR = 0.40
MATCHED_BY = ("lexical", "dense", "both")


def _allowed(
    cur: duckdb.DuckDBPyConnection, library: str | None, version: str | None
) -> np.ndarray | None:
    if library is None and version is None:
        return None
    res = cur.execute(sql("search_dense_allowed"), {"library": library, "version": version})
    return np.asarray(res.fetchnumpy()["cid"], dtype=np.int64)  # no Python tuple per row


def fuse(
    cur: duckdb.DuckDBPyConnection,
    vectors: dense.VectorIndex,
    text: str,
    ranked: list[dict[str, Any]],
    *,
    library: str | None,
    version: str | None,
    cfg: ScoringConfig = SCORING,
) -> list[dict[str, Any]]:
    depth = cfg.hybrid_depth
    qvec = dense.embed([text])[0]
    near = vectors.top(qvec, depth, _allowed(cur, library, version))
    res = cur.execute(sql("search_dense_rows"), {"cids": [cid for cid, _ in near]})
    names = [d[0] for d in res.description]
    by_cid = {r[0]: dict(zip(names, r, strict=True)) for r in res.fetchall()}
    lexical = {c["chunk_id"]: c for c in ranked[:depth]}
    rows = {cid: {**c, "matched_by": "lexical"} for cid, c in lexical.items()}
    dense_ids = []
    for cid, sim in near:
        row = by_cid.get(cid)
        if row is None:
            continue
        chunk_id = row["chunk_id"]
        if chunk_id in rows:
            rows[chunk_id]["matched_by"] = "both"
        elif sim >= DENSE_FLOOR:
            rows[chunk_id] = {**row, "matched_by": "dense"}
        else:
            continue  # dense-only and below the floor: not evidence of a match
        dense_ids.append(chunk_id)
    fused = dense.rrf([list(lexical), dense_ids], cfg.rrf_k)
    return [{**rows[str(chunk_id)], "score": score} for chunk_id, score in fused]
