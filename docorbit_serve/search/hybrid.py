"""Hybrid search: the lexical ranking fused with a dense (embedding) ranking.

Contract: ``fuse(cur, vectors, text, ranked, *, library, version, cfg) -> list[dict]``.
``ranked`` is the lexical ranking after re-ranking (one row per section, best first). The
query text is embedded (``dense.embed``), the ``cfg.hybrid_depth`` nearest chunks allowed by the
library/version filter are taken from ``vectors``, and the two lists (lexical cut to the same
depth) are fused by reciprocal rank fusion with ``cfg.rrf_k``. Rows keep their lexical columns
(dense-only chunks get theirs from ``search_docs``); ``score`` becomes the fused score. The
caller groups the result per section again. No weight is fitted: RRF with equal weights and
k = 60 is the published default (Cormack, Clarke, Buettcher 2009).
"""

from __future__ import annotations

from typing import Any

import duckdb
import numpy as np

from docorbit_serve.search import dense
from docorbit_serve.search.scoring import SCORING, ScoringConfig
from docorbit_serve.search.sqlfiles import sql

__all__ = ["fuse"]


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
    rows = {c["chunk_id"]: c for c in ranked[:depth]}
    dense_ids = []
    for cid, _ in near:
        row = by_cid.get(cid)
        if row is not None:
            rows.setdefault(row["chunk_id"], row)
            dense_ids.append(row["chunk_id"])
    fused = dense.rrf([[c["chunk_id"] for c in ranked[:depth]], dense_ids], cfg.rrf_k)
    return [{**rows[str(chunk_id)], "score": score} for chunk_id, score in fused]
