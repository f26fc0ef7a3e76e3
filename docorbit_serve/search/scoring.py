"""Scoring: the one versioned weight set and the re-ranking applied on top of BM25.

Contract: ``SCORING`` (a frozen ``ScoringConfig``) holds every ranking constant; change a
value, bump ``version`` (it is stored in each index's ``index_meta`` and reported by search).
``b`` is baked into the BM25F postings at index build time; k1, the field weights and the
bonuses apply at query time, so the same index serves any weight set with the same ``b``.

``rerank(candidates, query, cfg)`` rescales each candidate's backend score by
``1 + phrase_heading*P_h + phrase_text*P_t + heading_cover*C`` and adds ``page_context`` times
the best backend score among the candidates of the same page, where P_h / P_t are the shares
of the query's adjacent word pairs found adjacent in the chunk's heading / text, and C is the
share of the heading's words that the query mentions (a query that restates a section heading
is most likely asking for that section). Ties break on chunk id, so ranking is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from docorbit_serve.search.analyze import FIELDS, word_stems

__all__ = ["SCORING", "ScoringConfig", "rerank"]


@dataclass(frozen=True)
class ScoringConfig:
    # Chosen on the dev set by kind of question (flat optimum; phrase/heading-cover bonuses
    # measured and left off: they hurt "conceptual" and "howto" questions).
    version: str = "1"
    # BM25F: b is baked into the postings (ntf) at build time, k1 applies at query time.
    k1: float = 1.2
    b: float = 0.75
    # Field weights (query time). Heading/title/breadcrumb matches count more than body text.
    w_body: float = 1.0
    w_heading: float = 2.0
    w_breadcrumb: float = 1.0
    w_title: float = 1.0
    w_code: float = 0.75
    w_symbol: float = 1.5
    # FTS backend: extra weight of the heading/title/breadcrumb-only BM25 call.
    fts_heading_weight: float = 0.5
    # Re-ranking bonuses (multiplicative, see module docstring).
    phrase_heading: float = 0.0
    phrase_text: float = 0.0
    heading_cover: float = 0.0
    # Share of the best score among the candidate's page (same source and path) added to its own:
    # a section of a page that answers the question as a whole is likelier to be the answer.
    page_context: float = 0.25
    # Candidates re-ranked per query (the backend's top-N).
    candidates: int = 100

    @property
    def needs_text(self) -> bool:
        """Whether ``rerank`` reads candidates' heading/text (else ids and paths suffice)."""
        return bool(self.phrase_heading or self.phrase_text or self.heading_cover)

    def field_weights(self) -> dict[str, float]:
        return {f: float(getattr(self, f"w_{f}")) for f in FIELDS}


SCORING = ScoringConfig()


def _pairs(words: Sequence[str]) -> set[tuple[str, str]]:
    return {(a, b) for a, b in zip(words, words[1:], strict=False) if a != b}


def rerank(
    candidates: Iterable[dict[str, Any]], query: str, cfg: ScoringConfig = SCORING
) -> list[dict[str, Any]]:
    """Candidates (dicts with ``score``, ``chunk_id``, ``source``, ``path``, and ``heading`` /
    ``text`` when ``cfg.needs_text``) best first.

    Each dict gets ``score`` replaced by the final score and ``base_score`` set to the backend's.
    """
    candidates = list(candidates)
    page_best: dict[tuple[str, str], float] = {}
    for c in candidates:
        key = (c.get("source", ""), c.get("path", ""))
        page_best[key] = max(page_best.get(key, 0.0), float(c["score"]))
    qwords = word_stems(query)
    qset = set(qwords)
    qpairs = _pairs(qwords)
    out = []
    for c in candidates:
        base = float(c["score"])
        factor = 1.0
        if qpairs and (cfg.phrase_heading or cfg.phrase_text):
            hp = _pairs(word_stems(c.get("heading") or ""))
            tp = _pairs(word_stems(c.get("text") or ""))
            factor += cfg.phrase_heading * len(qpairs & hp) / len(qpairs)
            factor += cfg.phrase_text * len(qpairs & tp) / len(qpairs)
        if cfg.heading_cover and qset:
            hw = set(word_stems(c.get("heading") or ""))
            if hw:
                factor += cfg.heading_cover * len(hw & qset) / len(hw)
        ctx = cfg.page_context * page_best[(c.get("source", ""), c.get("path", ""))]
        out.append({**c, "base_score": base, "score": base * factor + ctx})
    out.sort(key=lambda c: (-c["score"], c["chunk_id"]))
    return out
