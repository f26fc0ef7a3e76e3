"""Scoring: the one versioned weight set and the re-ranking applied on top of BM25.

Contract: ``SCORING`` (a frozen ``ScoringConfig``) holds every ranking constant; change a
value, bump ``version`` (it is stored in each index's ``index_meta`` and reported by search).
``b`` and ``summary_words`` are baked into the index at build time (the BM25F postings, the
``search_docs.summary`` column); k1, the field weights, the expansion weight and the bonuses
apply at query time, so the same index serves any weight set with the same ``b`` and
``summary_words``. ``INDEX_FORMAT`` names what an index stores for search beyond the tables
(bump it when ``search_docs`` changes): an index of another format is refused by the catalog
and rebuilt by the next ingest. ``ScoringConfig.from_mapping(d)`` builds one from a dict
(unknown keys are a ``UsageError``), e.g. for experiments or a ``[search]`` table in a config
file.

``rerank(candidates, query, cfg)`` (``query``: a ``query.Query`` or the raw text) computes, per
candidate with backend score ``s``::

    final = (s * factor + page_context * best_on_page + children * best_child)
            * prior * question * intent * opening

- ``factor = 1 + phrase_heading*P_h + phrase_text*P_t + heading_cover*C + symbol*S`` where
  P_h / P_t are the shares of the query's adjacent word pairs found adjacent in the heading /
  text, C the share of the heading's words the query mentions, S whether one of the query's
  identifiers is the chunk's heading symbol;
- ``best_on_page``: the best backend score among the candidates of the same page;
  ``best_child``: the best among the candidates whose parent is this chunk (a section's score
  includes its subsections');
- ``prior``: source authority by path (``low_authority`` patterns such as release notes,
  changelogs, contributor and people pages get ``low_authority_prior`` unless the query is about
  migration);
- ``question``: ``1 + question_heading`` when the query asks with why/when/which/what and the
  heading holds the same question word (question words are stop words: BM25 cannot see them);
- ``intent``: ``1 + intent_boost`` when the chunk's path/heading/code matches a detected intent
  (``INTENT_PATTERNS``; ``examples`` matches chunks with code);
- ``opening``: ``1 + summary * O`` where O is the idf-weighted share of the query's terms
  (query weight x idf) found in the chunk's opening words (``summary``: the distinct terms of
  the first ``summary_words`` words of its body, ``analyze.summary_terms``) — a section that
  says up front what the query asks for, such as an API section whose first line under its
  name describes the task; off for migration queries (their answer is a guide section about a
  change, whose opening describes the old and new names, not the task) and when the backend
  gives no ``summary`` (the fts backend); without ``idf`` every term counts its query weight;
  search uses ``summary_rerank`` instead of ``summary`` when the dense re-scoring stage follows
  (since v7 the same 0.5: the stage's rank fusion was measured with the factor on; the old
  convex fusion lost with it, so 0 there).

Ties break on chunk id, so ranking is deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from docorbit_serve.errors import UsageError
from docorbit_serve.search.analyze import FIELDS, word_stems

__all__ = ["INDEX_FORMAT", "INTENT_PATTERNS", "SCORING", "ScoringConfig", "rerank"]

# What an index stores for search besides the catalog tables (``search_docs`` columns); bump
# when it changes. "2": ``search_docs.summary`` (scoring v6).
INDEX_FORMAT = "2"


@dataclass(frozen=True)
class ScoringConfig:
    version: str = "7"
    # BM25F: b is baked into the postings (ntf) at build time, k1 applies at query time.
    k1: float = 1.6
    b: float = 0.75
    # Field weights (query time). Heading/title/breadcrumb matches count more than body text.
    w_body: float = 0.7
    w_heading: float = 2.0
    w_breadcrumb: float = 1.0
    w_title: float = 1.0
    w_code: float = 0.75
    w_symbol: float = 1.5
    # Weight (idf multiplier) of synonym/abbreviation expansions (query.SYNONYMS); 0 = off.
    w_synonym: float = 0.4
    # Weight (idf multiplier) of the words of a rejected alternative ("... instead of asyncio",
    # "rather than JSON"; query._INSTEAD) unless typed elsewhere in the query; 1 = off.
    w_instead: float = 0.5
    # Stem variants (verifi/verif, configur/config): vocabulary terms sharing the query stem's
    # prefix (stem minus variant_cut letters, at least variant_min - 1) at w_variant x weight.
    w_variant: float = 0.0
    variant_min: int = 6
    variant_cut: int = 2
    # FTS backend: extra weight of the heading/title/breadcrumb-only BM25 call.
    fts_heading_weight: float = 0.5
    # Re-ranking bonuses (multiplicative, see module docstring).
    phrase_heading: float = 0.0
    phrase_text: float = 0.0
    heading_cover: float = 0.0
    symbol: float = 0.0
    # Share of the best score among the candidate's page (same source and path) added to its own:
    # a section of a page that answers the question as a whole is likelier to be the answer.
    page_context: float = 0.5
    # Share of the best score among the candidate's subsections added to its own.
    children: float = 0.0
    # Source authority: multiplier for low-authority pages (release notes, changelogs, ...).
    low_authority_prior: float = 0.5
    low_authority: str = (
        r"(^|/)(release[-_ ]?notes|changelog|changes|history|news|contributing|code[-_]of[-_]"
        r"conduct|people|[a-z]*[-_]people|help[-_][a-z]+|sponsors?|external[-_]links|"
        r"translations?|management[-_]tasks|management|_[a-z-]+)(\.[a-z]+)?$"
    )
    # Intent alignment: multiplier 1 + intent_boost for chunks matching a detected intent.
    intent_boost: float = 0.1
    # A query asking "why/when/which/what ..." and a heading asking the same question word
    # ("Why use a Client?"): multiplier 1 + question_heading (question words are stop words, so
    # BM25 never sees them).
    question_heading: float = 0.3
    # A chunk whose opening words hold the query's terms: x(1 + summary * idf-weighted share);
    # summary_words is baked into the index (search_docs.summary). docs/retrieval.md #22.
    summary: float = 0.5
    summary_words: int = 40
    # The opening factor's weight when the dense re-scoring stage follows (dense_stage
    # "rerank"). Off (0) under the old convex fusion, where it cost that stage dev 0.714 ->
    # 0.694 (docs/retrieval.md #22); on (as summary) under the rank fusion of scoring v7,
    # which was measured with it (docs/retrieval.md, session 7).
    summary_rerank: float = 0.5
    # Candidates re-ranked per query (the backend's top-N).
    candidates: int = 100
    # Hybrid search (publications with vectors): reciprocal rank fusion of the lexical ranking
    # and the dense one, each cut to hybrid_depth; rrf_k = 60 is the published default, equal
    # weights, nothing fitted (docs/retrieval.md).
    rrf_k: int = 60
    hybrid_depth: int = 50
    # The dense stage of a publication with vectors: "rrf" (hybrid.fuse) or "rerank" (re-score
    # the lexical top rerank_depth, rerank.rescore; docs/retrieval.md "Second stage"); "" =
    # the publication's ([settings] dense_stage at ingest, recorded in its manifest).
    dense_stage: str = ""
    rerank_depth: int = 30
    # How the re-scoring stage fuses: "rrf" (scoring v7: weighted reciprocal rank fusion of
    # the lexical and the dense rank within the candidates, rrf_k, lexical weight
    # rerank_rrf_weight; the dense model can move a section a few places, never far: 0.85 with
    # the stock MiniLM until session 25, 0.75 with the fine-tuned search model) or
    # "convex" (before v7: rerank_lexical_weight x lex / lex_top + the rest x min-max sim).
    rerank_fusion: str = "rrf"
    rerank_rrf_weight: float = 0.75
    rerank_lexical_weight: float = 0.7
    rerank_keep_margin: float = 0.2

    @property
    def needs_text(self) -> bool:
        """Whether ``rerank`` reads candidates' text (else the backend's columns suffice)."""
        return bool(self.phrase_text)

    def field_weights(self) -> dict[str, float]:
        return {f: float(getattr(self, f"w_{f}")) for f in FIELDS}

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], base: ScoringConfig | None = None):
        known = {f.name: f.type for f in fields(cls)}
        bad = sorted(set(values) - set(known))
        if bad:
            raise UsageError(
                f"unknown scoring setting(s): {', '.join(bad)}",
                detail={"unknown": bad, "known": sorted(known)},
            )
        return replace(base or cls(), **dict(values))


SCORING = ScoringConfig()

INTENT_PATTERNS: dict[str, re.Pattern[str]] = {
    "troubleshooting": re.compile(
        r"error|exception|troubleshoot|faq|warning|pitfall|gotcha|debug|known[-_ ]issue", re.I
    ),
    "migration": re.compile(r"migrat|upgrad|deprecat|changes? (in|to)|breaking", re.I),
    "api": re.compile(r"(^|/)(api|reference)(/|\.md$)", re.I),
    "configuration": re.compile(r"config|setting|option|environment", re.I),
    "conceptual": re.compile(r"(^|/)concepts?/|overview|introduction|why", re.I),
}


_QUESTION = re.compile(r"\b(why|when|which|what)\b")


def _pairs(words: Sequence[str]) -> set[tuple[str, str]]:
    return {(a, b) for a, b in zip(words, words[1:], strict=False) if a != b}


def _intent_match(c: Mapping[str, Any], intents: Iterable[str]) -> bool:
    where = f"{c.get('path', '')} {c.get('heading', '')}"
    for name in intents:
        if name == "examples":
            if c.get("has_code"):
                return True
            continue
        pat = INTENT_PATTERNS.get(name)
        if pat is not None and pat.search(where):
            return True
    return False


def _opening_share(
    summary: str, terms: Mapping[str, float], idf: Mapping[str, float] | None
) -> float:
    """The (query weight x idf)-weighted share of ``terms`` among a chunk's opening terms."""
    have = set(summary.split())
    total = hit = 0.0
    for t, w in terms.items():
        v = w * (idf.get(t, 0.0) if idf is not None else 1.0)
        total += v
        if t in have:
            hit += v
    return hit / total if total > 0 else 0.0


def rerank(
    candidates: Iterable[dict[str, Any]],
    query: Any,
    cfg: ScoringConfig = SCORING,
    idf: Mapping[str, float] | None = None,
) -> list[dict[str, Any]]:
    """Candidates (dicts with ``score``, ``chunk_id``, ``source``, ``path`` and the backend's
    ``heading``/``parent_id``/``has_code``/``summary``; ``text`` when ``cfg.needs_text``) best
    first. ``idf``: the query terms' idf (``bm25.term_idf``) for the opening factor.

    Each dict gets ``score`` replaced by the final score and ``base_score`` set to the backend's.
    """
    from docorbit_serve.search.query import Query, understand

    q = query if isinstance(query, Query) else understand(str(query), cfg)
    candidates = list(candidates)
    page_best: dict[tuple[str, str], float] = {}
    child_best: dict[str, float] = {}
    for c in candidates:
        key = (c.get("source", ""), c.get("path", ""))
        page_best[key] = max(page_best.get(key, 0.0), float(c["score"]))
        parent = c.get("parent_id") or ""
        if parent:
            child_best[parent] = max(child_best.get(parent, 0.0), float(c["score"]))
    qwords = word_stems(q.text)
    qset = set(qwords)
    qpairs = _pairs(qwords)
    low = re.compile(cfg.low_authority, re.I) if cfg.low_authority_prior != 1.0 else None
    migration = "migration" in q.intents
    idents = set(q.identifiers)
    qquest = _QUESTION.findall(q.text.lower()) if cfg.question_heading else []
    out = []
    for c in candidates:
        base = float(c["score"])
        factor = 1.0
        heading = c.get("heading") or ""
        if qpairs and (cfg.phrase_heading or cfg.phrase_text):
            hp = _pairs(word_stems(heading))
            factor += cfg.phrase_heading * len(qpairs & hp) / len(qpairs)
            if cfg.phrase_text:
                tp = _pairs(word_stems(c.get("text") or ""))
                factor += cfg.phrase_text * len(qpairs & tp) / len(qpairs)
        if cfg.heading_cover and qset:
            hw = set(word_stems(heading))
            if hw:
                factor += cfg.heading_cover * len(hw & qset) / len(hw)
        if cfg.symbol and idents:
            hsyms = {m.lower() for m in re.findall(r"[A-Za-z_][\w.]*", heading)}
            if hsyms & idents:
                factor += cfg.symbol
        score = base * factor
        score += cfg.page_context * page_best[(c.get("source", ""), c.get("path", ""))]
        score += cfg.children * child_best.get(c["chunk_id"], 0.0)
        if low is not None and not migration and low.search(c.get("path", "") or ""):
            score *= cfg.low_authority_prior
        if qquest and set(qquest) & set(_QUESTION.findall(heading.lower())):
            score *= 1.0 + cfg.question_heading
        if cfg.intent_boost and q.intents and _intent_match(c, q.intents):
            score *= 1.0 + cfg.intent_boost
        summary = c.get("summary")
        if cfg.summary and summary and not migration:
            score *= 1.0 + cfg.summary * _opening_share(summary, q.terms, idf)
        out.append({**c, "base_score": base, "score": score})
    out.sort(key=lambda c: (-c["score"], c["chunk_id"]))
    return out
