"""The embedding alternative for injection detection, measured: nearest prototype with the
dense model DocOrbit ships (``docorbit_serve.search.dense.embed_base``, all-MiniLM-L6-v2 int8).

Usage: ``.venv/bin/python scripts/eval_injection_embeddings.py`` (needs ``../shared/data``).
Prototypes: the visible kit's 42 injections and 22 benign passages. A passage is called an
injection when its nearest prototype is an injection (1-NN, cosine). Printed: recall per
held-out set and the benign passages called injections, beside the structural rules' figures
from ``scripts/eval_injection.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docorbit_serve.search.dense import embed_base as embed  # noqa: E402


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def main() -> None:
    kit = ROOT.parent / "shared" / "data" / "badinputs" / "prompt_injection"
    if not kit.is_dir():
        print("visible kit: ../shared/data absent, skipped")
        return
    protos = _rows(kit / "injections.jsonl") + _rows(kit / "benign.jsonl")
    pv = embed([r["text"] for r in protos])
    labels = np.array([r["label"] == "injection" for r in protos])
    for name in ("heldout", "fresh", "blind"):
        rows = _rows(ROOT / "fixtures" / "injection" / f"{name}.jsonl")
        vecs = embed([r["text"] for r in rows])
        nearest = (vecs @ pv.T).argmax(axis=1)
        called = labels[nearest]
        inj = [c for r, c in zip(rows, called, strict=True) if r["label"] == "injection"]
        ben = [c for r, c in zip(rows, called, strict=True) if r["label"] == "benign"]
        print(
            f"{name}: 1-NN recall {sum(inj)}/{len(inj)} ({100 * sum(inj) / len(inj):.1f}%), "
            f"benign called injection {sum(ben)}/{len(ben)}"
        )


if __name__ == "__main__":
    main()
