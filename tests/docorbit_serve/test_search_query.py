"""Query understanding and the analyzer rules the ranking relies on (no index needed)."""

from __future__ import annotations

from docorbit_serve.search.analyze import fields, summary_terms, terms
from docorbit_serve.search.query import base_forms, normalize, understand
from docorbit_serve.search.scoring import ScoringConfig, rerank


def test_inflected_query_words_find_their_synonym_entry():
    assert base_forms("checks")[:2] == ["checks", "check"]
    assert "drop" in base_forms("dropping")
    assert "configure" in base_forms("configured")
    q = understand("skip certificate checks")
    assert q.terms["check"] == 1.0
    assert q.terms["verif"] == 0.4  # checks -> check -> verify, at the expansion weight
    assert q.terms["disabl"] == 0.4  # skip -> disable


def test_two_word_phrases_expand_as_one_key():
    q = understand("turn off redirects")
    assert q.terms.get("disabl") == ScoringConfig().w_synonym


def test_expansions_never_lower_a_typed_term_and_can_be_switched_off():
    q = understand("disable skip")
    assert q.terms["disabl"] == 1.0
    off = understand("skip", ScoringConfig(w_synonym=0.0))
    assert set(off.terms) == {"skip"}


def test_the_alternative_after_instead_of_counts_less_unless_typed_elsewhere():
    w = ScoringConfig().w_instead
    q = understand("run the client under trio instead of asyncio")
    assert q.terms["asyncio"] == w and q.terms["trio"] == 1.0
    # the span ends at a preposition and keeps dotted names whole
    q = understand("why a Client instead of calling httpx.get in a loop")
    assert q.terms["httpx.get"] == w and q.terms["loop"] == 1.0
    # a word typed on both sides keeps its full weight; rather than works the same
    q = understand("json output rather than json5 or plain json")
    assert q.terms["json"] == 1.0 and q.terms["json5"] == w
    off = understand("trio instead of asyncio", ScoringConfig(w_instead=1.0))
    assert off.terms["asyncio"] == 1.0


def test_latin_abbreviations_of_prose_are_not_search_terms():
    assert normalize("same config (e.g. extra='forbid'), i.e. all") == (
        "same config ( extra='forbid'), all"
    )
    q = understand("apply the same config (e.g. extra='forbid') to all models")
    assert not {"e", "g", "e.g"} & set(q.terms)


def test_from_import_lines_name_the_full_dotted_path():
    q = understand("from pydantic.generics import GenericModel fails")
    assert q.terms["pydantic.generics.genericmodel"] == 1.0
    assert q.terms["genericmodel"] == 1.0


def test_a_move_to_another_major_version_means_migration():
    assert "migration" in understand("regex stopped working after moving to pydantic 2").intents
    assert "migration" in understand("is this still there in v2").intents
    assert "migration" not in understand("set a 30 second default timeout").intents
    assert "migration" not in understand("run fastapi with 4 worker processes").intents


def test_analyzer_joins_verb_and_noun_forms_snowball_leaves_apart():
    assert terms("verify verification") == ["verif", "verif"]
    assert terms("exclude exclusion") == ["exclud", "exclud"]
    assert terms("permit permission") == ["permit", "permit"]
    assert terms("describe description") == ["describ", "describ"]


def test_heading_field_drops_link_targets_and_anchor_attributes():
    f = fields(
        {
            "heading": "[Trio](https://github.com/python-trio/trio) { #trio }",
            "breadcrumb": ["Async <em>Support</em>"],
        }
    )
    assert terms(f["heading"]) == ["trio"]
    assert terms(f["breadcrumb"]) == ["async", "support"]


def test_a_why_question_prefers_the_heading_asking_why():
    cands = [
        {
            "chunk_id": "a",
            "score": 10.0,
            "source": "s",
            "path": "p.md",
            "heading": "Making requests",
        },
        {
            "chunk_id": "b",
            "score": 8.0,
            "source": "s",
            "path": "p.md",
            "heading": "Why use a Client?",
        },
    ]
    ranked = rerank(cands, "why create a client instead of calling get in a loop")
    assert [c["chunk_id"] for c in ranked] == ["b", "a"]
    off = rerank(cands, "why create a client", ScoringConfig(question_heading=0.0))
    assert [c["chunk_id"] for c in off] == ["a", "b"]


def test_a_chunk_opening_holds_its_own_words_not_its_heading_or_code():
    md = "### res.download()\n\n```js\nres.download('/r.pdf')\n```\nTransfers the file as an attachment.\nMore words here."
    assert summary_terms(md, 6) == ["transfer", "file", "attach"]
    assert summary_terms(md, 5) == ["transfer", "file"]  # words, stop words included
    assert summary_terms(md, 0) == []


def test_a_section_that_opens_with_the_query_words_ranks_first_but_not_for_migration():
    cands = [
        {
            "chunk_id": "a",
            "score": 10.0,
            "source": "s",
            "path": "a.md",
            "heading": "Files",
            "summary": "serv static asset",
        },
        {
            "chunk_id": "b",
            "score": 9.0,
            "source": "s",
            "path": "b.md",
            "heading": "res.download()",
            "summary": "transfer file attach prompt download",
        },
    ]
    idf = {"download": 2.0, "file": 1.0, "attach": 3.0}
    ranked = rerank([dict(c) for c in cands], "download a file as an attachment", idf=idf)
    assert [c["chunk_id"] for c in ranked] == ["b", "a"]
    off = rerank(
        [dict(c) for c in cands],
        "download a file as an attachment",
        ScoringConfig(summary=0.0),
        idf,
    )
    assert [c["chunk_id"] for c in off] == ["a", "b"]
    mig = rerank(
        [dict(c) for c in cands], "download a file as an attachment after upgrading", idf=idf
    )
    assert [c["chunk_id"] for c in mig] == ["a", "b"]


def test_the_opening_factor_under_the_dense_rescoring_stage_is_summary_rerank():
    from docorbit_serve.search import _lexical_cfg

    cfg = ScoringConfig()
    assert _lexical_cfg(None, None, cfg) is cfg  # lexical search: the factor applies
    assert _lexical_cfg(None, object(), ScoringConfig(dense_stage="rrf")).summary == cfg.summary
    # Scoring v7: the rank fusion was measured with the factor on, so it stays on there ...
    rr = _lexical_cfg(None, object(), ScoringConfig(dense_stage="rerank"))
    assert rr.summary == cfg.summary_rerank == cfg.summary == 0.5
    # ... and summary_rerank still sets it apart from summary (0 = the old convex stage's).
    old = ScoringConfig(dense_stage="rerank", rerank_fusion="convex", summary_rerank=0.0)
    assert _lexical_cfg(None, object(), old).summary == 0.0
