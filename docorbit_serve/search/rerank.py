"""Second stage: re-score the top lexical candidates with the dense model, score-aware.

Contract::

    rescore(ranked, vectors, text, *, cfg, deadline=None) -> Rescored(rows, notice)

- ``ranked``: the re-ranked lexical list (one row per section, best first; each row has ``cid``
  and ``score``). The first ``cfg.rerank_depth`` rows are the candidates; rows past the depth
  follow them in their lexical order. No row is ever dropped or added: the output holds exactly
  the input rows (``score`` replaced for the candidates, ``matched_by`` set), in a new order.
- Fusion of a candidate ``i``, ``cfg.rerank_fusion``:

  ``"rrf"`` (the default since scoring v7): weighted reciprocal rank fusion within the
  candidates, ranks from 1, ``k = cfg.rrf_k`` (60), ``w = cfg.rerank_rrf_weight`` (0.75)::

      fused_i = w / (k + lexical_rank_i) + (1 - w) / (k + dense_rank_i)

  ``dense_rank`` orders the candidates by the cosine similarity of the query and their chunk
  vectors. With the lexical rank weighing 0.75 the dense model is a bounded tie-breaker: at
  depth 30 it can lift a section eight places at most (from 8th to 1st only when it is the
  dense model's first and the lexical first is its last), so a wrong dense preference costs
  little while a lexical near-tie is settled by the model. Scoring v7 weighed the lexical rank
  0.85 (four places at most) with the stock all-MiniLM-L6-v2; with DocOrbit's fine-tuned search
  model (``dense``) 0.75 is the setting that gained on all five question sets and lost one
  kind on one set by one question (docs/retrieval.md, session 25).

  ``"convex"`` (before v7)::

      fused_i = w * lex_i / lex_max + (1 - w) * (sim_i - sim_min) / (sim_max - sim_min)

  ``lex`` is the lexical score (its theoretical minimum is 0, so it is divided by the best
  one), ``sim`` the cosine similarity (min-max over the candidates), ``w =
  cfg.rerank_lexical_weight``. A convex combination of normalised scores keeps the lexical
  evidence's size: a candidate far behind lexically needs a large dense lead to pass.
- Score-aware guard: when the lexical top-1 leads the lexical second by at least
  ``cfg.rerank_keep_margin`` of its score, it stays first whatever the dense model says (a
  confident lexical answer is never dragged down); the dense score then orders the rest.
- Deadline: the only slow step is embedding the query (model load ~0.6-0.9 s once per
  process, then ~5-20 ms). It runs on a worker thread and is waited for at most the time the
  search has left minus ``RESERVE_S`` (kept for fetching the hit rows). When that is not
  enough, or the deadline has passed already, the lexical order is returned unchanged with a
  notice (``Rescored.notice``) instead of a ``search_timeout``; the worker finishes on its own.
- A missing or altered model file is ``SearchError`` (``hybrid_unavailable``), as in hybrid
  search (``dense``: SHA-256 pinned, nothing downloaded).
- ``matched_by`` of a re-scored candidate is ``"both"`` when its similarity reaches
  ``hybrid.DENSE_FLOOR`` (the dense model sees it as a match too), else ``"lexical"``.

Cost per query: one query embedding plus ``depth`` dot products of 384 floats (the candidates'
vectors were made at ingest); ``benchmarks/rerank_bench.py`` prints it beside lexical search.
Figures and how the settings were chosen: docs/retrieval.md, "Second stage (session 4)".
"""

from __future__ import annotations

import concurrent.futures
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from docorbit_serve.errors import UsageError
from docorbit_serve.search import dense
from docorbit_serve.search.deadline import Deadline
from docorbit_serve.search.scoring import SCORING, ScoringConfig

__all__ = [
    "RESERVE_S",
    "STAGES",
    "Rescored",
    "fuse_scores",
    "rescore",
    "served_stage",
    "serves",
    "stale_vectors",
    "top_leads",
]

# Dense stages a publication with vectors can run (``ScoringConfig.dense_stage``): ``rrf``
# fuses a dense top-k into the lexical list (hybrid.fuse), ``rerank`` re-scores lexical
# candidates only (this module).
STAGES = ("rrf", "rerank")
# Seconds of the search deadline kept for what follows the second stage (the hit rows).
RESERVE_S = 0.25
_worker: concurrent.futures.ThreadPoolExecutor | None = None
_worker_lock = threading.Lock()


def stale_vectors(manifest: dict[str, Any]) -> str | None:
    """The model a publication's vectors were made with when it is not this DocOrbit's
    (``dense.MODEL_ID``), else ``None``: such vectors are rebuilt by the next ingest, and until
    then a default search answers lexically."""
    entry = manifest.get("vectors")
    if not entry:
        return None
    model = entry.get("model") if isinstance(entry, dict) else None
    return None if model == dense.MODEL_ID else str(model)


def served_stage(manifest: dict[str, Any]) -> str | None:
    """The dense stage a publication serves: ``None`` without vectors, else its vectors entry's
    ``stage`` (``[settings] dense_stage`` at ingest; ``rrf`` when the entry names none)."""
    entry = manifest.get("vectors")
    if not entry:
        return None
    stage = entry.get("stage") if isinstance(entry, dict) else None
    return stage if stage in STAGES else "rrf"


def serves(manifest: dict[str, Any], stage: str | None) -> bool:
    """Whether a publication serves the dense ``stage`` wanted now (``None``: no vectors) with
    this DocOrbit's model; when not, an ingest rebuilds it even if no source changed."""
    return stage == served_stage(manifest) and not (stage and stale_vectors(manifest))


def _pool() -> concurrent.futures.ThreadPoolExecutor:
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="rerank")
        return _worker


@dataclass
class Rescored:
    rows: list[dict[str, Any]]
    notice: str | None = None


def _minmax(x: np.ndarray) -> np.ndarray:
    lo, hi = float(x.min()), float(x.max())
    if hi - lo <= 1e-12:
        return np.zeros_like(x)
    return (x - lo) / (hi - lo)


def fuse_scores(lexical: np.ndarray, sims: np.ndarray, cfg: ScoringConfig = SCORING) -> np.ndarray:
    """The fused score of each candidate (see module docstring); inputs in lexical order."""
    lex = np.asarray(lexical, dtype=np.float64)
    sim = np.asarray(sims, dtype=np.float64)
    if cfg.rerank_fusion == "rrf":
        k = float(cfg.rrf_k)
        w = float(cfg.rerank_rrf_weight)
        lex_rank = np.arange(1, len(lex) + 1, dtype=np.float64)  # inputs are in lexical order
        dense_rank = np.empty(len(sim), dtype=np.float64)
        dense_rank[np.argsort(-sim, kind="stable")] = lex_rank
        return w / (k + lex_rank) + (1.0 - w) / (k + dense_rank)
    if cfg.rerank_fusion != "convex":
        raise UsageError(
            f"unknown re-scoring fusion {cfg.rerank_fusion!r}; choose rrf or convex",
            detail={"rerank_fusion": cfg.rerank_fusion, "known": ["convex", "rrf"]},
        )
    top = float(lex.max()) if lex.size else 0.0
    lex_n = lex / top if top > 0 else np.zeros_like(lex)
    w = float(cfg.rerank_lexical_weight)
    return w * lex_n + (1.0 - w) * _minmax(sim)


def top_leads(first: float, second: float, margin: float) -> bool:
    """The score-aware guard: the lexical top-1 (``first``) leads the lexical second by at
    least ``margin`` of its score, so it stays first whatever the dense model says."""
    return first > 0 and (first - second) / first >= margin


def _order(lexical: np.ndarray, fused: np.ndarray, margin: float) -> list[int]:
    order = sorted(range(len(fused)), key=lambda i: (-fused[i], i))
    if len(lexical) > 1 and top_leads(float(lexical[0]), float(lexical[1]), margin):
        order = [0, *(i for i in order if i != 0)]
    return order


def _similarities(vectors: dense.VectorIndex, qvec: np.ndarray, cids: list[int]) -> np.ndarray:
    """Cosine similarity per candidate; a cid outside the matrix scores the lowest seen."""
    rows = np.asarray(cids, dtype=np.int64) - 1
    inside = (rows >= 0) & (rows < len(vectors))
    sims = np.full(len(cids), np.nan, dtype=np.float64)
    if inside.any():
        sims[inside] = np.asarray(vectors.vectors[rows[inside]] @ qvec, dtype=np.float64)
    floor = np.nanmin(sims) if inside.any() else 0.0
    return np.where(np.isnan(sims), floor, sims)


def _query_vector(text: str, deadline: Deadline | None) -> np.ndarray | None:
    """The query's vector, or None when the deadline leaves no time for it."""
    if deadline is None:
        return dense.embed([text])[0]
    wait = deadline.remaining() - RESERVE_S
    if wait <= 0:
        return None
    future = _pool().submit(dense.embed, [text])
    try:
        return future.result(timeout=wait)[0]
    except concurrent.futures.TimeoutError:
        return None


def rescore(
    ranked: list[dict[str, Any]],
    vectors: dense.VectorIndex,
    text: str,
    *,
    cfg: ScoringConfig = SCORING,
    deadline: Deadline | None = None,
) -> Rescored:
    """Re-score the top ``cfg.rerank_depth`` rows of ``ranked`` (see module docstring)."""
    from docorbit_serve.search.hybrid import DENSE_FLOOR

    depth = max(0, int(cfg.rerank_depth))
    cands, rest = ranked[:depth], ranked[depth:]
    if len(cands) < 2:
        return Rescored(list(ranked))
    qvec = _query_vector(text, deadline)
    if qvec is None:
        return Rescored(
            list(ranked),
            notice="the second stage (dense re-scoring) was skipped: the search's time limit "
            "left no time for it; results are in lexical order",
        )
    lexical = np.array([float(c["score"]) for c in cands], dtype=np.float64)
    sims = _similarities(vectors, qvec, [int(c["cid"]) for c in cands])
    fused = fuse_scores(lexical, sims, cfg)
    out = []
    best = float(fused.max())
    for n, i in enumerate(_order(lexical, fused, float(cfg.rerank_keep_margin))):
        found = "both" if sims[i] >= DENSE_FLOOR else "lexical"
        score = best if n == 0 else float(fused[i])  # a kept lexical top-1 shows the best score
        out.append({**cands[i], "score": score, "matched_by": found})
    floor = min((r["score"] for r in out), default=0.0)
    # Rows past the depth keep their order, below every candidate.
    tail = [{**r, "score": floor * (1 - (n + 1) / (len(rest) + 1))} for n, r in enumerate(rest)]
    return Rescored(out + tail)
