"""Train the learned injection classifier (``docorbit_assets/lib/injection_model.py``).

Usage: ``.venv/bin/python scripts/train_injection_model.py [--no-real-docs]``

Data: the sets of ``fixtures/injection`` named in ``SETS`` below and the visible kit
(``fixtures/kit/badinputs/prompt_injection``), one example per passage (label injection = 1,
benign = 0); and, when ``../shared/data/docs`` is present (unless ``--no-real-docs``), the
paragraphs of the pages in the *train* part of the real docs (``real_doc_paragraphs``: pages
split by a hash of their path) as benign, sampled deterministically. Features: the shipped
MiniLM embedding (``docorbit_serve.search.dense.embed``), standardised. Model: L2-regularised
logistic regression, class-balanced, fitted by full-batch gradient descent with a fixed number
of steps from zeros (deterministic; no random seed is needed, sampling uses content hashes).

Threshold for ``high``: chosen without the final model's own training scores: leave-one-set-
out over the fixture sets, the highest out-of-fold score of any benign fixture passage and of
any *calibration* real-doc paragraph (a part of the real docs never trained on), times
``MARGIN``; ``medium`` is the 99.9th percentile of the final model's calibration real-doc
scores (with no real docs: half of ``high``). Writes ``docorbit_assets/data/injection_model.json`` and
prints its SHA-256 (pin it as ``injection_model.WEIGHTS_SHA256``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docorbit_assets.lib.injection_model import ngram_features, units  # noqa: E402

# The sets the shipped weights were trained on: those written before session 5's (s5_* were
# written beside this model and are unseen by it; fixtures/injection/SETS lists every set).
SETS = (
    "heldout",
    "fresh",
    "blind",
    "s4_first",
    "s4_second",
    "s4_third",
    "s4_fourth",
    "s4_fifth",
    "s4_sixth",
    "s4_seventh",
)
KIT = ROOT / "fixtures" / "kit" / "badinputs" / "prompt_injection"
DOCS = ROOT.parent / "shared" / "data" / "docs"
CACHE = Path("/tmp") / "docorbit_injection_model_cache.npz"
L2 = 30.0
STEPS = 200
LR = 0.5
MARGIN = 1.0
REAL_TRAIN = 3000  # real-doc paragraphs (benign) used for training
REAL_CAL = 1500  # for choosing the threshold
REAL_TEST = 4000  # for measuring false alarms (never seen by training or the threshold)


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def fixture_sets() -> dict[str, list[dict]]:
    out = {name: rows(ROOT / "fixtures" / "injection" / f"{name}.jsonl") for name in SETS}
    out["kit"] = rows(KIT / "injections.jsonl") + rows(KIT / "benign.jsonl")
    return out


def _h(s: str) -> int:
    return int(hashlib.sha256(s.encode()).hexdigest()[:12], 16)


def real_doc_paragraphs(root: Path = DOCS) -> dict[str, list[str]]:
    """Paragraphs (at least 20 characters, deduplicated) of the real docs, by part: pages whose
    path hashes to 0-4 of 10 are ``train``, 5-6 ``cal``, 7-9 ``test``; each part sampled by
    the hash of the paragraph to its size above."""
    parts: dict[str, set[str]] = {"train": set(), "cal": set(), "test": set()}
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".md", ".mdx"):
            continue
        bucket = _h(str(path.relative_to(root))) % 10
        part = "train" if bucket < 5 else "cal" if bucket < 7 else "test"
        text = path.read_text(encoding="utf-8", errors="replace")
        for para in re.split(r"\n\s*\n", text):
            if len(para.strip()) >= 20:
                parts[part].add(para)
    sizes = {"train": REAL_TRAIN, "cal": REAL_CAL, "test": REAL_TEST}
    return {k: sorted(v, key=_h)[: sizes[k]] for k, v in parts.items()}


def embed_cached(texts: list[str]) -> np.ndarray:
    """``dense.embed_base`` with a cache in /tmp keyed by text hash (the eval embeds thousands)."""
    from docorbit_serve.search.dense import embed_base as embed

    known: dict[str, np.ndarray] = {}
    if CACHE.exists():
        with np.load(CACHE) as z:
            known = dict(zip(z["keys"].tolist(), z["vecs"], strict=True))
    keys = [hashlib.sha256(t.encode()).hexdigest() for t in texts]
    todo = sorted({k: t for k, t in zip(keys, texts, strict=True) if k not in known}.items())
    for start in range(0, len(todo), 512):
        batch = todo[start : start + 512]
        for (k, _), v in zip(batch, embed([t for _, t in batch]), strict=True):
            known[k] = v
        np.savez(CACHE, keys=np.array(list(known)), vecs=np.stack(list(known.values())))
        print(f"  embedded {start + len(batch)}/{len(todo)}", file=sys.stderr)
    return np.stack([known[k] for k in keys]).astype(np.float64)


def passage_units(text: str) -> list[str]:
    return [text[a:b] for a, b in units(text)] or [text]


def fit(x: np.ndarray, y: np.ndarray) -> dict:
    """Class-balanced L2 logistic regression by gradient descent (fixed steps, from zeros)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    w = np.zeros(z.shape[1])
    b = 0.0
    pos = max(1, int(y.sum()))
    neg = max(1, len(y) - pos)
    sw = np.where(y == 1, 0.5 / pos, 0.5 / neg)
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w + b, -40, 40)))
        g = sw * (p - y)
        w -= LR * (z.T @ g + L2 * w / len(y))
        b -= LR * g.sum()
    return {"mean": mean, "scale": scale, "coef": w, "bias": b}


def score(model: dict, x: np.ndarray) -> np.ndarray:
    z = ((x - model["mean"]) / model["scale"]) @ model["coef"] + model["bias"]
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


class Data:
    """Embeddings of every passage, every unit of every passage, and the real-doc parts."""

    def __init__(self, real: bool, features: str = "both"):
        self.sets = fixture_sets()
        self.real = real_doc_paragraphs() if real and DOCS.is_dir() else {}
        texts: list[str] = []
        for rs in self.sets.values():
            for r in rs:
                texts.append(r["text"])
                texts.extend(passage_units(r["text"]))
        for part in self.real.values():
            texts.extend(part)
        vecs = embed_cached(texts) if features != "ngram" else np.zeros((len(texts), 0))
        self.vec = {
            t: v if features == "emb" else np.concatenate([v, ngram_features(t)])
            for t, v in zip(texts, vecs, strict=True)
        }

    def xy(
        self, names: list[str], real_part: str | None = "train"
    ) -> tuple[np.ndarray, np.ndarray]:
        xs, ys = [], []
        for name in names:
            for r in self.sets[name]:
                xs.append(self.vec[r["text"]])
                ys.append(1.0 if r["label"] == "injection" else 0.0)
        for t in self.real.get(real_part or "", []):
            xs.append(self.vec[t])
            ys.append(0.0)
        return np.stack(xs), np.array(ys)

    def passage_scores(self, model: dict, name: str) -> list[float]:
        """A passage's score: the highest of its units (what ``model_findings`` reports)."""
        return [
            float(score(model, np.stack([self.vec[u] for u in passage_units(r["text"])])).max())
            for r in self.sets[name]
        ]

    def real_scores(self, model: dict, part: str) -> np.ndarray:
        texts = self.real.get(part, [])
        if not texts:
            return np.zeros(0)
        return score(model, np.stack([self.vec[t] for t in texts]))


def threshold(data: Data, names: list[str]) -> float:
    """Highest out-of-fold benign score (leave one of ``names`` out) and calibration real-doc
    score, times MARGIN: chosen only from ``names`` and the calibration part."""
    worst = 0.0
    for held in names:
        if held == "kit":
            continue
        model = fit(*data.xy([n for n in names if n != held]))
        ben = [
            s
            for s, r in zip(data.passage_scores(model, held), data.sets[held], strict=True)
            if r["label"] == "benign"
        ]
        cal = data.real_scores(model, "cal")
        worst = max([worst, *ben, *(cal.tolist() if cal.size else [])])
    return min(0.999, worst * MARGIN)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-real-docs", action="store_true")
    ap.add_argument(
        "--out", default=str(ROOT / "docorbit_assets" / "data" / "injection_model.json")
    )
    args = ap.parse_args()
    data = Data(real=not args.no_real_docs)
    names = list(data.sets)
    model = fit(*data.xy(names))
    high = threshold(data, names)
    cal = data.real_scores(model, "cal")
    # medium: at most 1 in 1,000 calibration real-doc paragraphs (never trained on) reach it
    medium = min(high, float(np.quantile(cal, 0.999))) if cal.size else high / 2
    out = {
        "model": "logistic regression on all-MiniLM-L6-v2/int8-onnx/128 mean-pooled embeddings",
        "trained_on": sorted(names) + (["real docs (train part)"] if data.real else []),
        "threshold_high": round(high, 6),
        "threshold_medium": round(medium, 6),
        "bias": round(float(model["bias"]), 8),
        "mean": [round(float(v), 8) for v in model["mean"]],
        "scale": [round(float(v), 8) for v in model["scale"]],
        "coef": [round(float(v), 8) for v in model["coef"]],
    }
    blob = (json.dumps(out, sort_keys=True, indent=0) + "\n").encode()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_bytes(blob)
    test = data.real_scores(model, "test")
    if test.size:
        print(
            f"test real-doc paragraphs: {int((test >= high).sum())} high, "
            f"{int((test >= medium).sum())} at least medium of {test.size}"
        )
    print(
        f"wrote {args.out}: high >= {high:.4f}, medium >= {medium:.4f}; sha256 {hashlib.sha256(blob).hexdigest()}"
    )


if __name__ == "__main__":
    main()
