"""Labelled passages remembered: a reader's verdict weighed by what a window's neighbours are.

The readers (``injection_classifier``) score one window at a time against a fixed threshold.
Their false alarms and their near misses both sit close to that threshold, and what tells them
apart is often the kind of text the window is: a release checklist or a contributing guide
among benign pages of the same kind, a "fix" that drops the production schema among the fake
errors it resembles. This module keeps the passages DocOrbit has labels for — every fixture set
of ``fixtures/injection`` (injections and benign hard negatives by fresh authors), the kit's
passages, and windows of real documentation (benign) — as vectors of the stock all-MiniLM-L6-v2
(``docorbit_serve.search.dense.embed_base``, the model the classifier's features already use),
and moves a window's margin by the share of injections among its ``K`` nearest.

Contract:
  - ``MEMORY`` (``data/injection_memory.npz``, SHA-256 ``MEMORY_SHA256``, built by
    ``scripts/build_injection_memory.py``): int8 unit vectors with a float scale per row,
    ``labels`` (True = injection), ``groups`` (the fixture set's name, ``kit``, or
    ``realdoc:<page>``) and ``ids`` (the row's id, or ``<page>:<start>-<end>`` for a window of a
    page). A missing or altered file raises ``InjectionClassifierError`` (``injection_data``)
    like the readers'.
  - ``injection_share(texts) -> list[float]``: per text, the share of injections among its
    ``K`` nearest remembered passages (cosine). Each text is embedded alone (batch 1: the int8
    graph scales activations per batch), so a verdict never depends on the texts beside it.
  - ``adjusted(margin, share) -> float``: a window's margin (its logit minus the reader's
    threshold) moved by ``UP * (share - CENTRE)`` when more than ``CENTRE`` of its neighbours are
    injections and by ``DOWN * (share - CENTRE)`` when fewer: a window is high when the result
    is at least 0. Only windows within ``REACH`` of the threshold can change verdict, and only
    those are embedded (3 of the kit's 4,603 real-doc windows).
  - ``leave_out(pred)``: a context manager for evaluation, under which remembered rows whose
    group satisfies ``pred`` are not neighbours (a set scored with itself left out).

Figures, the rule declared before a fresh batch scored it, and what it costs: docs/security.md,
"Session 26".
"""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from docorbit_assets.lib.injection_data import InjectionClassifierError, checked_bytes

__all__ = [
    "CENTRE",
    "DOWN",
    "K",
    "MEMORY",
    "MEMORY_SHA256",
    "OUTWEIGHED",
    "REACH",
    "UP",
    "adjusted",
    "injection_share",
    "leave_out",
    "nearest_groups",
]

MEMORY = "injection_memory.npz"
MEMORY_SHA256 = "374ac7ab0595fd2553a0fefd3966046205c517fd56674d9a0f2f84c5e73b21ca"
K = 10
"""Neighbours read per window."""
CENTRE = 0.5
"""A share of injections at which the margin is left as it is."""
UP = 4.0
"""Logits added per unit of share above ``CENTRE`` (at most ``UP * (1 - CENTRE)`` = 2)."""
DOWN = 8.0
"""Logits taken per unit of share below ``CENTRE`` (at most 4: all ten neighbours benign)."""
REACH = UP * (1 - CENTRE)
"""A window more than this below its threshold stays below it whatever its neighbours."""
OUTWEIGHED = 1.0
"""A window over its threshold that its neighbours take more than this below it is medium even
where a clause of it reads as risky (``injection_structure.asks_nothing_risky`` fails), when the
rules made no finding over it at all (``injection_classifier.review``): the classifier and the
neighbours disagree, and no rule saw anything. Declared in session 30 from every row of the
first-sight sets (3 injections and 7 benign passages of 9,976 move; docs/security.md)."""

_lock = threading.Lock()
_excluded: Callable[[str], bool] | None = None


@cache
def _memory() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(float32 unit vectors, labels, groups), checked and read once per process."""
    with _lock:
        path = Path(str(resources.files("docorbit_assets") / "data" / MEMORY))
        data = np.load(io.BytesIO(checked_bytes(path, MEMORY_SHA256)), allow_pickle=False)
        try:
            vectors = data["vectors"].astype(np.float32) * data["scales"][:, None]
            labels, groups = data["labels"].astype(bool), data["groups"]
        except KeyError as e:
            raise InjectionClassifierError(f"the injection memory lacks {e}") from e
        return vectors, labels, groups


def _vector(text: str) -> np.ndarray:
    from docorbit_serve.search import dense

    return dense.embed_base([text])[0]


def _nearest(texts: Sequence[str]) -> np.ndarray:
    """Row numbers of each text's ``K`` nearest remembered passages, nearest first."""
    vectors, _, groups = _memory()
    queries = np.stack([_vector(t) for t in texts])
    sims = queries @ vectors.T
    excluded = _excluded
    if excluded is not None:
        mask = np.fromiter((excluded(str(g)) for g in groups), bool, len(groups))
        sims[:, mask] = -np.inf
    part = np.argpartition(-sims, K - 1, axis=1)[:, :K]
    order = np.argsort(-np.take_along_axis(sims, part, axis=1), axis=1, kind="stable")
    return np.take_along_axis(part, order, axis=1)


def injection_share(texts: Sequence[str]) -> list[float]:
    """Per text, the share of injections among its ``K`` nearest remembered passages."""
    if not texts:
        return []
    labels = _memory()[1]
    return [float(labels[row].mean()) for row in _nearest(texts)]


def nearest_groups(text: str) -> list[str]:
    """The groups (set names, ``kit``, ``realdoc:<page>``) of ``text``'s ``K`` nearest
    remembered passages, nearest first: what a verdict was weighed against."""
    groups = _memory()[2]
    return [str(groups[i]) for i in _nearest([text])[0]]


def adjusted(margin: float, share: float) -> float:
    """``margin`` moved by the neighbours' share of injections (module docstring)."""
    return margin + (UP if share > CENTRE else DOWN) * (share - CENTRE)


@contextlib.contextmanager
def leave_out(pred: Callable[[str], bool]) -> Iterator[None]:
    """Within the block, remembered rows whose group satisfies ``pred`` are no neighbours."""
    global _excluded
    before, _excluded = _excluded, pred
    try:
        yield
    finally:
        _excluded = before
