"""The analyzer (shared with queries) and the postings stage."""

from __future__ import annotations

import pyarrow as pa

from docorbit_assets.lib.postings import build_postings
from docorbit_serve.schemas import SCHEMAS, empty_table
from docorbit_serve.search.analyze import fields, query_terms, terms
from tests.docorbit_serve.test_search_corpus import DOCS, chunk_rows


def test_terms_split_snake_case_and_keep_the_whole_identifier():
    assert terms("extra_forbidden") == ["extra_forbidden", "extra", "forbidden"]


def test_terms_split_camel_case_and_acronyms_and_keep_the_whole_identifier():
    assert terms("HTTPException") == ["httpexception", "http", "except"]
    assert terms("AsyncClient") == ["asyncclient", "async", "client"]


def test_terms_keep_dotted_paths_whole_and_analyse_each_part():
    assert terms("pydantic.generics.GenericModel") == [
        "pydantic.generics.genericmodel",
        "pydant",
        "generic",
        "genericmodel",
        "generic",
        "model",
    ]


def test_terms_lowercase_stem_and_drop_stop_words_but_keep_negations():
    assert terms("How do I set the Timeouts?") == ["set", "timeout"]
    assert "not" in terms("inputs are not permitted")


def test_query_terms_are_distinct_in_first_occurrence_order():
    assert query_terms("timeout client timeouts Client") == ["timeout", "client"]


def test_fields_take_prose_without_code_or_link_targets_and_code_separately():
    row = chunk_rows("alpha", DOCS["alpha"][:1])[0]
    row["text"] += "\n\nSee [the guide](https://example.com/zzzlink)."
    f = fields(row)
    assert "client = alpha.Client" not in f["body"] and "zzzlink" not in f["body"]
    assert "the guide" in f["body"]
    assert "alpha.Client(timeout=30.0)" in f["code"]
    assert f["heading"] == "Setting a default timeout on a client"
    assert "advanced timeouts" in f["title"]


def test_build_postings_has_the_schema_and_field_lengths():
    chunks = pa.Table.from_pylist(chunk_rows("alpha", DOCS["alpha"]), schema=SCHEMAS["chunks"])
    post = build_postings(chunks, empty_table("symbols"))
    assert post.schema == SCHEMAS["postings"]
    rows = post.to_pylist()
    cid = chunks.column("id")[0].as_py()
    heading = [r for r in rows if r["chunk_id"] == cid and r["field"] == "heading"]
    assert {r["term"] for r in heading} == {"set", "default", "timeout", "client"}
    assert all(r["doc_len"] == 4 and r["tf"] == 1 for r in heading)
    assert {r["field"] for r in rows} >= {"body", "heading", "breadcrumb", "title", "code"}


def test_build_postings_counts_term_frequency_within_a_field():
    chunks = pa.Table.from_pylist(chunk_rows("alpha", DOCS["alpha"]), schema=SCHEMAS["chunks"])
    rows = build_postings(chunks, empty_table("symbols")).to_pylist()
    cid = chunks.column("id")[0].as_py()
    body = {r["term"]: r["tf"] for r in rows if r["chunk_id"] == cid and r["field"] == "body"}
    assert body["timeout"] == 2  # "`timeout=30.0`" and "default timeout"; code is not body


def test_build_postings_indexes_symbols_of_their_chunk():
    chunks = pa.Table.from_pylist(chunk_rows("alpha", DOCS["alpha"]), schema=SCHEMAS["chunks"])
    cid = chunks.column("id")[3].as_py()
    sym = {c: None for c in SCHEMAS["symbols"].names}
    sym.update(chunk_id=cid, name="AsyncClient", qualname="alpha.AsyncClient")
    symbols = pa.Table.from_pylist([sym], schema=SCHEMAS["symbols"])
    rows = build_postings(chunks, symbols).to_pylist()
    got = {r["term"] for r in rows if r["field"] == "symbol"}
    assert {"asyncclient", "alpha.asyncclient", "async", "client"} <= got
    assert {r["chunk_id"] for r in rows if r["field"] == "symbol"} == {cid}


def test_build_postings_is_deterministic_and_empty_for_no_chunks():
    chunks = pa.Table.from_pylist(chunk_rows("alpha", DOCS["alpha"]), schema=SCHEMAS["chunks"])
    shuffled = chunks.take([4, 2, 0, 3, 1])
    a = build_postings(chunks, empty_table("symbols"))
    assert a.equals(build_postings(shuffled, empty_table("symbols")))
    assert build_postings(empty_table("chunks"), empty_table("symbols")).num_rows == 0
