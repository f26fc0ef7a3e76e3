"""Text analysis shared by indexing (pipeline postings, FTS documents) and queries.

Contract: ``terms(text) -> list[str]`` is THE tokenizer. The pipeline's postings, the FTS
documents of the index and every query go through it, so a query term and an indexed term
always agree. It is deterministic and depends only on ``ANALYZER_VERSION`` (bump it when the
output changes: indexes built with another version must be rebuilt).

Rules, per raw token (a run of ``[A-Za-z0-9_]`` joined by single dots):
  - a dotted path (``pydantic.generics.GenericModel``) is kept whole, lowercased, and each part
    is analysed as below;
  - a compound identifier (``snake_case``, ``camelCase``, ``HTTPException``, ``http2``) is kept
    whole, lowercased, unstemmed, and split into its words;
  - words are lowercased, dropped if they are English stop words, and stemmed with the Snowball
    English stemmer (PyStemmer), then a few derivational endings that Snowball leaves apart are
    joined (``DERIVATIONS``: verify/verification -> ``verif``, exclude/exclusion -> ``exclud``,
    permit/permission -> ``permit``, describe/description -> ``describ``).

``fields(chunk, symbols)`` cuts one chunk row into the indexed fields (``FIELDS``):
body prose (code fences, link targets and HTML tags removed), own heading, breadcrumb, page
title plus the file path's words, code blocks, and extracted symbol names.

``summary_terms(markdown, words)``: the distinct terms of a chunk's opening prose (the first
``words`` words of its body field, in order) — what a section says it is about, e.g. an API
section's own one-line description under its name. Stored per chunk at index build for
re-ranking (``scoring.rerank``'s summary factor); not a BM25 field, so ``terms`` and
``ANALYZER_VERSION`` are unchanged.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import Stemmer

__all__ = [
    "ANALYZER_VERSION",
    "DERIVATIONS",
    "FIELDS",
    "STOPWORDS",
    "fields",
    "query_terms",
    "summary_terms",
    "terms",
    "word_stems",
]

ANALYZER_VERSION = "2"
FIELDS = ("body", "heading", "breadcrumb", "title", "code", "symbol")

# A classic English stop list plus question words that developers type but docs rarely
# discriminate on ("how do I ..."). Negations are kept: "not permitted" is an error message.
STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each either else etc
    ever every few for from further get got had has have having he her here hers herself him
    himself his i if in into is it its itself just let me might more most must my myself
    now of off on once one only or other ought our ours ourselves out over own please same
    she should so some still such than that the their theirs them themselves then there these
    they this those through thus to too under until up upon us very via want was way we
    were what when where whether which while who whom whose why will with within would yet how
    you your yours yourself yourselves instead like using use used uses tell anyway""".split()  # noqa: SIM905
)

_RAW = re.compile(r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*")
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?^ {0,3}\1[ \t]*$", re.M | re.S)
_LINK_TARGET = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
_REF_DEF = re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$", re.M)
_TAG = re.compile(r"<[^>\n]{0,200}>")
_HEADING_LINE = re.compile(r"^ {0,3}#{1,6}[ \t][^\n]*\n?")
_ATTR = re.compile(r"\{\s*#[^}]*\}")

# Derivational endings Snowball stems differently in the verb and the noun (English
# morphology, not any one corpus): (ending of the Snowball stem, replacement, minimum stem length).
DERIVATIONS: tuple[tuple[str, str, int], ...] = (
    ("ifi", "if", 5),  # verifi(y) / verif(ication), specifi / specif, modifi / modif
    ("clus", "clud", 6),  # exclus(ion) / exclud(e), inclus / includ
    ("miss", "mit", 6),  # permiss(ion) / permit, submiss / submit
    ("script", "scrib", 8),  # descript(ion) / describ(e), subscript / subscrib
)

_stemmer_lock = threading.Lock()
_stemmer = Stemmer.Stemmer("english")
_stem_cache: dict[str, str] = {}


def _stem(word: str) -> str:
    s = _stem_cache.get(word)
    if s is None:
        with _stemmer_lock:  # PyStemmer objects are not thread-safe
            s = _stemmer.stemWord(word)
        for end, repl, least in DERIVATIONS:
            if len(s) >= least and s.endswith(end):
                s = s[: -len(end)] + repl
                break
        if len(_stem_cache) < 500_000:
            _stem_cache[word] = s
    return s


def _words(part: str) -> list[str]:
    return _WORD.findall(part)


def terms(text: str) -> list[str]:
    """Index/query terms of ``text`` in order (duplicates kept: they are term frequencies)."""
    out: list[str] = []
    for m in _RAW.finditer(text):
        raw = m.group().strip("_")
        if not raw:
            continue
        parts = [p for p in raw.split(".") if p.strip("_")]
        if len(parts) > 1:
            out.append(".".join(p.lower() for p in parts))
        for part in parts:
            words = _words(part)
            if len(words) > 1:
                out.append(part.strip("_").lower())
            for w in words:
                lw = w.lower()
                if lw in STOPWORDS:
                    continue
                out.append(_stem(lw))
    return out


def word_stems(text: str) -> list[str]:
    """The plain word sequence (no whole identifiers), for phrase and proximity checks."""
    out: list[str] = []
    for m in _RAW.finditer(text):
        for w in _words(m.group()):
            lw = w.lower()
            if lw not in STOPWORDS:
                out.append(_stem(lw))
    return out


def query_terms(query: str) -> list[str]:
    """Distinct terms of a query, first occurrence order."""
    return list(dict.fromkeys(terms(query)))


def _body_text(markdown: str) -> str:
    text = _HEADING_LINE.sub("", markdown.lstrip("\n"), count=1)
    text = _FENCE.sub(" ", text)
    text = _REF_DEF.sub(" ", text)
    text = _LINK_TARGET.sub("] ", text)
    text = _TAG.sub(" ", text)
    return text


def summary_terms(markdown: str, words: int) -> list[str]:
    """Distinct terms of the first ``words`` words of ``markdown``'s body prose, in order."""
    opening = " ".join(_body_text(markdown or "").split()[: max(words, 0)])
    return list(dict.fromkeys(terms(opening)))


def _heading_text(heading: str) -> str:
    """A heading without its ``{ #anchor }`` attribute, link targets and HTML tags."""
    return _TAG.sub(" ", _LINK_TARGET.sub("] ", _ATTR.sub(" ", heading)))


def _path_words(path: str) -> str:
    stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    return re.sub(r"[/_\-.]+", " ", stem)


def fields(chunk: Mapping[str, Any], symbols: Iterable[Mapping[str, Any]] = ()) -> dict[str, str]:
    """Field name -> raw text for one chunk row (a ``chunks`` table row as a dict)."""
    code_blocks: Sequence[Mapping[str, Any]] = chunk.get("code_blocks") or []
    sym_text = " ".join(f"{s.get('name') or ''} {s.get('qualname') or ''}".strip() for s in symbols)
    return {
        "body": _body_text(chunk.get("text") or ""),
        "heading": _heading_text(chunk.get("heading") or ""),
        "breadcrumb": " ".join(_heading_text(b) for b in (chunk.get("breadcrumb") or [])),
        "title": f"{chunk.get('title') or ''} {_path_words(chunk.get('path') or '')}",
        "code": "\n".join((b.get("code") or "") for b in code_blocks),
        "symbol": sym_text,
    }
