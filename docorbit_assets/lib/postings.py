"""Postings stage: ``build_postings(chunks, symbols) -> postings`` (schemas.POSTINGS).

One row per (chunk, field, term) with the term frequency and the field's length in terms.
Fields and the tokenizer come from ``docorbit_serve.search.analyze`` so that queries are
analysed exactly like the indexed text. A chunk with an empty field contributes no rows for
that field. Output order is deterministic: by chunk id, field (in ``FIELDS`` order), term.
The index stage turns these rows into BM25 weights (idf needs every source, so it is computed
there, not here).
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pyarrow as pa

from docorbit_serve.schemas import SCHEMAS
from docorbit_serve.search.analyze import FIELDS, fields, terms

__all__ = ["build_postings"]


def build_postings(chunks: pa.Table, symbols: pa.Table) -> pa.Table:
    """Field-term postings of every chunk (empty table for no chunks)."""
    by_chunk: dict[str, list[dict]] = defaultdict(list)
    if symbols.num_rows:
        for s in symbols.select(["chunk_id", "name", "qualname"]).to_pylist():
            by_chunk[s["chunk_id"]].append(s)

    cols: dict[str, list] = {"chunk_id": [], "field": [], "term": [], "tf": [], "doc_len": []}
    rows = chunks.to_pylist()
    rows.sort(key=lambda r: r["id"])
    field_order = {f: i for i, f in enumerate(FIELDS)}
    for row in rows:
        texts = fields(row, by_chunk.get(row["id"], ()))
        for field in sorted(texts, key=field_order.__getitem__):
            toks = terms(texts[field])
            if not toks:
                continue
            counts = Counter(toks)
            n = len(toks)
            for term in sorted(counts):
                cols["chunk_id"].append(row["id"])
                cols["field"].append(field)
                cols["term"].append(term)
                cols["tf"].append(counts[term])
                cols["doc_len"].append(n)
    return pa.Table.from_pydict(cols, schema=SCHEMAS["postings"])
