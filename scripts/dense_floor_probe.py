"""Where ``hybrid.DENSE_FLOOR`` can sit for the shipped search model: the top cosine similarity
that queries with nothing to match reach, beside the top similarity of real questions.

Usage (a home built by ``scripts/eval_dev.py --set dev``, published with vectors; the vectors
must be the shipped model's, or pass the same ``--dense-model`` the home was built with)::

    .venv/bin/python scripts/dense_floor_probe.py HOME [--queries Q.jsonl] [--dense-model M.onnx]

Prints, per library and over all, the highest and the median top similarity of the noise
probes, and the minimum, 10th percentile and median top similarity of the questions.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import duckdb
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docorbit_serve.search import dense  # noqa: E402

# Queries with nothing to match in any English documentation: punctuation, keyboard mashes,
# unknown words, other scripts, stop words, numbers, emoji.
NOISE = [
    "?!?", "...", "---", "!!!", "((()))", "#$%^&*", "zxqv", "qwertyuiop", "asdfgh jkl",
    "flibbertigibbet", "the", "the of and", "a an the is", "и", "中文 测试", "日本語のテキスト",
    "مرحبا", "ελληνικά", "lorem ipsum dolor sit amet", "xyzzy plugh", "12345", "0000 1111",
    "foo bar baz", "blorf", "¿¡", "😀😀", "%%%%", "@@", "zzzzzzzz", "ok",
]  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("home")
    ap.add_argument("--queries", default=str(REPO / "fixtures/kit/eval/dev_queries.jsonl"))
    ap.add_argument("--dense-model", help="as scripts/eval_dev.py --dense-model")
    a = ap.parse_args()
    if a.dense_model:
        from eval_dev import use_dense_model  # type: ignore[import-not-found]

        use_dense_model(Path(a.dense_model))
    home = Path(a.home)
    manifest = json.loads((home / "published.json").read_text())
    vectors = np.load(home / manifest["vectors"]["path"], mmap_mode="r")
    con = duckdb.connect(str(home / manifest["index"]), read_only=True)
    rows = con.execute("select library from search_docs order by cid").fetchall()
    libs = np.array([r[0] for r in rows])
    assert len(libs) == len(vectors), "vectors and index disagree"
    noise = dense.embed(NOISE)
    qs = [json.loads(line) for line in Path(a.queries).read_text().splitlines() if line]
    for lib in [*sorted(set(libs.tolist())), None]:
        rows = libs == lib if lib else np.ones(len(libs), dtype=bool)
        top = (vectors[rows] @ noise.T).max(axis=0)
        sub = [q for q in qs if lib is None or q["library"] == lib]
        line = f"{lib or 'all':<12} noise top: max {top.max():.3f} median {np.median(top):.3f}"
        if sub:
            qt = (vectors[rows] @ dense.embed([q["query"] for q in sub]).T).max(axis=0)
            line += (
                f" | questions (n={len(sub)}) top: min {qt.min():.3f}"
                f" p10 {np.percentile(qt, 10):.3f} median {np.median(qt):.3f}"
            )
        print(line)


if __name__ == "__main__":
    main()
