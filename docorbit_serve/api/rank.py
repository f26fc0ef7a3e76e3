"""BM25F ranking of a small set of API rows (endpoints, examples, pitfalls) in DuckDB SQL.

Contract::

    RowIndex.build(docs: list[dict[str, str]], weights: dict[str, float]) -> RowIndex
    RowIndex.rank(cursor, query_terms: dict[str, float], limit) -> list[Ranked]
    cached(key, build) -> RowIndex        (per-process cache, at most CACHE_SIZE entries)

- Each row (``docs[i]``) is cut into named fields of text; every field goes through THE
  tokenizer of search (``docorbit_serve.search.analyze.terms``: identifiers split into words,
  Snowball stems), so a query term and a row term always agree. Field text is cut at
  ``FIELD_CHARS`` characters before analysis (bounded time and memory per row).
- The term table is an Arrow table registered on the caller's cursor (``api_terms``,
  ``api_fields``); ``sql/api_bm25.sql`` scores it (BM25F: per-field length-normalised tf,
  weighted, then one saturation per term; idf over the row set). Query terms carry weights
  (synonyms of a task verb count less than the words typed).
- ``Ranked``: ``doc`` (index into ``docs``), ``score``, ``matched`` (query terms found),
  ``coverage`` (matched query weight / total query weight, 0..1: the evidence strength
  recipes use).
- Indexes are cached by key (the caller puts the publish id in it), so a publication's rows are
  analysed once per process; a new publication gets a new key.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from docorbit_serve.search.analyze import terms
from docorbit_serve.search.sqlfiles import sql

__all__ = ["B", "CACHE_SIZE", "FIELD_CHARS", "K1", "Ranked", "RowIndex", "cached", "query_weights"]

K1 = 1.2
B = 0.5  # API rows are short and uneven (a path vs a description): soft length normalisation
FIELD_CHARS = 4000
CACHE_SIZE = 16
_lock = threading.Lock()
_cache: OrderedDict[Any, RowIndex] = OrderedDict()


@dataclass(frozen=True)
class Ranked:
    doc: int
    score: float
    matched: tuple[str, ...]
    coverage: float


@dataclass
class RowIndex:
    size: int
    terms: pa.Table
    fields: pa.Table
    rows: list[dict[str, Any]] = field(default_factory=list)  # the rows ``doc`` indexes into

    @classmethod
    def build(
        cls,
        docs: Sequence[Mapping[str, str]],
        weights: Mapping[str, float],
        rows: list[dict[str, Any]] | None = None,
    ) -> RowIndex:
        doc_col: list[int] = []
        field_col: list[str] = []
        term_col: list[str] = []
        tf_col: list[int] = []
        len_col: list[int] = []
        lengths: dict[str, list[int]] = {f: [] for f in weights}
        for i, doc in enumerate(docs):
            for name in weights:
                words = terms((doc.get(name) or "")[:FIELD_CHARS])
                if not words:
                    continue
                lengths[name].append(len(words))
                for term, tf in sorted(Counter(words).items()):
                    doc_col.append(i)
                    field_col.append(name)
                    term_col.append(term)
                    tf_col.append(tf)
                    len_col.append(len(words))
        term_table = pa.table(
            {
                "doc": pa.array(doc_col, pa.int32()),
                "field": pa.array(field_col, pa.string()),
                "term": pa.array(term_col, pa.string()),
                "tf": pa.array(tf_col, pa.float64()),
                "len": pa.array(len_col, pa.float64()),
            }
        )
        names = sorted(weights)
        field_table = pa.table(
            {
                "field": pa.array(names, pa.string()),
                "w": pa.array([float(weights[f]) for f in names], pa.float64()),
                "avglen": pa.array(
                    [sum(lengths[f]) / len(lengths[f]) if lengths[f] else 1.0 for f in names],
                    pa.float64(),
                ),
            }
        )
        return cls(size=len(docs), terms=term_table, fields=field_table, rows=rows or [])

    def rank(self, cursor: Any, query: Mapping[str, float], limit: int) -> list[Ranked]:
        """The rows matching ``query`` (term -> weight), best first, at most ``limit``."""
        if not query or self.size == 0:
            return []
        names = sorted(query)
        total = sum(query.values()) or 1.0
        cursor.register("api_terms", self.terms)
        cursor.register("api_fields", self.fields)
        try:
            rows = cursor.execute(
                sql("api_bm25"),
                {
                    "terms": names,
                    "qweights": [float(query[t]) for t in names],
                    "n": float(self.size),
                    "k1": K1,
                    "b": B,
                    "limit": int(limit),
                },
            ).fetchall()
        finally:
            cursor.unregister("api_terms")
            cursor.unregister("api_fields")
        return [
            Ranked(int(d), float(s), tuple(m), min(1.0, float(w) / total)) for d, s, m, w in rows
        ]


def query_weights(text: str, extra: Mapping[str, float] | None = None) -> dict[str, float]:
    """Query terms of ``text`` (weight 1) plus ``extra`` terms (their own weight, never more
    than a typed term's)."""
    out: dict[str, float] = {}
    for t in terms(text):
        out[t] = 1.0
    for t, w in (extra or {}).items():
        out[t] = max(out.get(t, 0.0), w)
    return out


def cached(key: Any, build: Callable[[], RowIndex]) -> RowIndex:
    """The index for ``key``, built once per process (the ``CACHE_SIZE`` latest kept)."""
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    idx = build()
    with _lock:
        _cache[key] = idx
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return idx
