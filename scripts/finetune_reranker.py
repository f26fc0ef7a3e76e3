"""Fine-tune all-MiniLM-L6-v2 as a cross-encoder that re-scores search candidates (issue 16).

An experiment script, run in a venv of its own (the one ``finetune_injection_minilm.py``
describes: torch 2.13.0, transformers, onnx, onnxruntime) on *candidate dumps*: JSONL files, one
line per question, ``{"id", "query", "library", "kind", "cands": [{"path", "anchor", "heading",
"title", "breadcrumb", "content", "score", "gold"}, ...]}``, the lexical top 50 of a published
home with each candidate's gold flag (``scripts/dump_candidates.py``).

    P=scripts/finetune_reranker.py
    /tmp/tv/bin/python $P train --dump TRAIN.jsonl [...] --base BASE --out /tmp/ce/model
    /tmp/tv/bin/python $P score --model /tmp/ce/model --dump dev50.jsonl third50.jsonl
    /tmp/tv/bin/python $P export --model /tmp/ce/model --out /tmp/ce/rerank_int8.onnx

Training: per question, its gold candidate within the lexical top ``DEPTH`` and ``NEGATIVES``
other candidates of that top (hard negatives: what the lexical ranking confuses with the gold),
resampled each epoch; a listwise loss (softmax over the group, the gold first). The questions
are synthetic: written by helper sessions from the documentation alone, never from an
evaluation set (fixtures/eval/PROVENANCE.md).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

DEPTH = 30
"""Candidates re-scored per question (the lexical top)."""
NEGATIVES = 4
MAX_TOKENS = 192


def passage(c: dict[str, Any]) -> str:
    """What the model reads of a candidate: where it sits, then its text."""
    where = " > ".join(
        x for x in [c.get("title") or "", *(c.get("breadcrumb") or []), c["heading"]] if x
    )
    return f"{where}\n{c['content']}"


def _load(paths: list[Path]) -> list[dict[str, Any]]:
    return [json.loads(x) for p in paths for x in p.read_text().splitlines() if x.strip()]


def train(a: argparse.Namespace) -> None:
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.manual_seed(0)
    torch.set_num_threads(2)
    rng = random.Random(0)
    qs = [q for q in _load(a.dump) if any(c["gold"] for c in q["cands"][:DEPTH])]
    print(f"{len(qs)} questions with the gold in the lexical top {DEPTH}", flush=True)
    tok = AutoTokenizer.from_pretrained(a.base)
    model = AutoModelForSequenceClassification.from_pretrained(a.base, num_labels=1)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)
    per_step = 3  # questions per step: 3 x (1 + NEGATIVES) pairs
    steps = a.epochs * ((len(qs) + per_step - 1) // per_step)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, s / (0.06 * steps)) * max(0.0, (steps - s) / steps)
    )
    for ep in range(a.epochs):
        model.train()
        rng.shuffle(qs)
        t0 = time.time()
        total = 0.0
        for i in range(0, len(qs), per_step):
            groups = []
            for q in qs[i : i + per_step]:
                top = q["cands"][:DEPTH]
                pos = rng.choice([c for c in top if c["gold"]])
                neg = [c for c in top if not c["gold"]]
                groups.append((q["query"], [pos, *rng.sample(neg, min(NEGATIVES, len(neg)))]))
            n = min(len(g[1]) for g in groups)
            queries = [qq for qq, cs in groups for _ in cs[:n]]
            texts = [passage(c) for _, cs in groups for c in cs[:n]]
            enc = tok(
                queries,
                texts,
                truncation="only_second",
                max_length=MAX_TOKENS,
                padding=True,
                return_tensors="pt",
            )
            logits = model(**enc).logits.view(len(groups), n)
            loss = torch.nn.functional.cross_entropy(
                logits, torch.zeros(len(groups), dtype=torch.long)
            )
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            total += float(loss)
        print(
            f"epoch {ep}: loss {total / (len(qs) / per_step):.3f}, {time.time() - t0:.0f} s",
            flush=True,
        )
        model.save_pretrained(f"{a.out}/epoch{ep + 1}")
        tok.save_pretrained(f"{a.out}/epoch{ep + 1}")
    model.save_pretrained(a.out)
    tok.save_pretrained(a.out)


def _metrics(ranks: list[int | None]) -> tuple[float, float]:
    n = len(ranks)
    return (
        sum(1 / r for r in ranks if r and r <= 10) / n,
        sum(1 for r in ranks if r and r <= 5) / n,
    )


def score(a: argparse.Namespace) -> None:
    import numpy as np
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.set_num_threads(2)
    tok = AutoTokenizer.from_pretrained(a.model)
    model = AutoModelForSequenceClassification.from_pretrained(a.model).eval()
    for path in a.dump:
        qs = _load([path])
        cache = Path(str(path) + f".{Path(a.model).name}.ce.json")
        if cache.is_file() and not a.fresh:
            ce = json.loads(cache.read_text())
        else:
            ce = {}
            for q in qs:
                top = q["cands"][:DEPTH]
                if not top:
                    ce[q["id"]] = []
                    continue
                enc = tok(
                    [q["query"]] * len(top),
                    [passage(c) for c in top],
                    truncation="only_second",
                    max_length=MAX_TOKENS,
                    padding=True,
                    return_tensors="pt",
                )
                with torch.no_grad():
                    ce[q["id"]] = model(**enc).logits[:, 0].tolist()
            cache.write_text(json.dumps(ce))
        variants: dict[str, list[int | None]] = {}
        kinds: dict[str, dict[str, list[int | None]]] = {}
        for q in qs:
            golds = [c["gold"] for c in q["cands"]]
            lex = next((i for i, g in enumerate(golds, 1) if g), None)
            s = np.array(ce[q["id"]])
            out = {"lexical": lex}
            n = len(s)
            ce_rank = np.empty(n, dtype=int)
            ce_rank[np.argsort(-s, kind="stable")] = np.arange(1, n + 1)
            for w in (0.0, 0.3, 0.5, 0.6, 0.7):
                fused = [w / (60 + i + 1) + (1 - w) / (60 + ce_rank[i]) for i in range(n)]
                order = sorted(range(n), key=lambda i: -fused[i]) + list(range(n, len(golds)))
                out[f"rrf w={w}"] = next((r for r, i in enumerate(order, 1) if golds[i]), None)
            for name, r in out.items():
                variants.setdefault(name, []).append(r)
                kinds.setdefault(name, {}).setdefault(q.get("kind") or "?", []).append(r)
        print(f"== {path.name} ({len(qs)} questions)")
        for name, ranks in variants.items():
            m, r5 = _metrics(ranks)
            ha = _metrics(ranks[0::2])
            hb = _metrics(ranks[1::2])
            per_kind = " ".join(f"{k}:{_metrics(v)[0]:.2f}" for k, v in sorted(kinds[name].items()))
            print(
                f"  {name:12s} MRR@10 {m:.3f} R@5 {r5:.3f} | A {ha[0]:.3f} B {hb[0]:.3f} | {per_kind}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("--dump", type=Path, nargs="+", required=True)
    t.add_argument("--base", required=True)
    t.add_argument("--out", required=True)
    t.add_argument("--epochs", type=int, default=2)
    t.add_argument("--lr", type=float, default=3e-5)
    s = sub.add_parser("score")
    s.add_argument("--model", required=True)
    s.add_argument("--dump", type=Path, nargs="+", required=True)
    s.add_argument("--fresh", action="store_true")
    a = ap.parse_args()
    {"train": train, "score": score}[a.cmd](a)


if __name__ == "__main__":
    main()
