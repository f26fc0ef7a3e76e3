"""The language gate of the multilingual injection signal: is a paragraph NOT English?

Contract: ``non_english(paragraph) -> bool`` is a cheap, model-free test (no I/O, linear time)
that decides which paragraphs are worth embedding. Code spans, fenced blocks, URLs and
identifiers are removed first, so an English paragraph full of code stays English and a
German paragraph with ``pip install`` in it stays German. A paragraph is non-English when

- at least ``_MIN_LETTERS`` letters remain, and
- fewer than ``_ASCII_SHARE`` of its letters are ASCII (another script: Cyrillic, Greek, CJK,
  Georgian, Armenian, Khmer, Devanagari, ... no list of scripts needed), or
- it is not source code (``(){};=`` under 3 % of its characters), has at least ``_MIN_WORDS`` words and fewer than ``_STOPWORD_SHARE`` of them are English
  function words (a Latin-script language: German, Swahili, Esperanto, ...).

The thresholds were set once on the fixture sets and the real-doc paragraphs
(docs/security.md, "Multilingual signal (session 5)").
"""

from __future__ import annotations

import re

__all__ = ["non_english"]

_MIN_LETTERS = 12
_ASCII_SHARE = 0.6
_MIN_WORDS = 6
_STOPWORD_SHARE = 0.12
_CODE_MARKS = 0.03

_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`|https?://\S+|\S+\.\S+|\S*[_/\\=<>{}$@#]\S*", re.S)
_MARKS = re.compile(r"[(){};=]")
_WORD = re.compile(r"[^\W\d_]+")

# English function words: frequent in any English prose, rare as whole words in other
# Latin-script languages ("a", "an", "in", "to", "on", "do", "no", "as", "me" are left out:
# they are frequent words of German, Polish, Portuguese, Spanish, French too).
_STOPWORDS = frozenset(
    """
    the of and is are was were be been being for with by from this that these those it its
    or not but if then than which who whom whose what when where why how you your yours we
    our they their them she his my can could will would should shall may might must does
    did done have has had having there here into onto out up down over under about after
    before also only just more most other some any each all both such nor very too again
    once while because until through during without within between against use used using
    see get run new one two
    """.split()
)


def non_english(paragraph: str) -> bool:
    """True when ``paragraph`` is prose in a language other than English (see module doc)."""
    prose = _CODE.sub(" ", paragraph)
    words = _WORD.findall(prose)
    letters = sum(len(w) for w in words)
    if letters < _MIN_LETTERS:
        return False
    ascii_letters = sum(1 for w in words for ch in w if ch.isascii())
    if ascii_letters < _ASCII_SHARE * letters:
        return True
    if len(words) < _MIN_WORDS or len(_MARKS.findall(paragraph)) > _CODE_MARKS * len(paragraph):
        # too short to judge, or source code (its identifiers are not English prose either)
        return False
    stop = sum(1 for w in words if w.lower() in _STOPWORDS)
    return stop < _STOPWORD_SHARE * len(words)
