"""The fine-tuned injection classifier as the product runs it: threshold calibration and figures.

Usage::

    .venv/bin/python scripts/eval_injection_classifier.py [--model M.onnx] [--short-model S.onnx]
        [--calibrate SETS] [--test SETS] [--high H] [--high-short H] [--low L]

Every passage is scored as ``annotate()`` scores it: the rules alone
(``annotate(text, learned=False)``) and the classifier's logits over the passage's windows
(``injection_classifier.windows`` / ``logits``: windows of 300+ characters by the long reader,
shorter ones by the short reader). A passage is high when a long window reaches ``HIGH_LOGIT``
or a short one ``HIGH_LOGIT_SHORT``, or when a rules high has an overlapping window at or above
``LOW_LOGIT`` (below it, ``review`` demotes the high to medium; a short window never demotes):
``passage_scores`` / ``decide``. ``--model`` / ``--short-model`` score candidate files instead
of the shipped readers. The readers and thresholds only: ``annotate()`` also weighs windows near
a threshold by their nearest labelled passages (``injection_memory``, session 26) and keeps
the structural vetoes' windows at medium; ``scripts/eval_injection.py`` scores that.

- **Real documentation** (benign): the pages of the kit (``../shared/data/docs`` and
  ``../shared/data/llms``) that ``scripts/finetune_injection_minilm.py`` did *not* train on
  (its held-out half, split by page), cut into the product's windows.
- **Calibration sets** (``--calibrate``, default the ``CALIBRATION`` file beside the sets):
  written by fresh authors, never trained on, not test sets. ``HIGH_LOGIT`` (long windows) and
  ``HIGH_LOGIT_SHORT`` (short ones: held-out short paragraphs read alone count too) are each
  the highest logit of any held-out benign text of that length (the calibration benign
  passages and the windows of the held-out pages) plus ``MARGIN``; the training side's benign passages and pages are reported,
  not used (a model scores its own training data too well or, for the few it never fits,
  badly); ``LOW_LOGIT`` is
  the candidate that maximises calibration recall minus twice the benign false-alarm rate
  with no training-side benign passage high (``--high`` / ``--high-short`` / ``--low``
  override them).
- **Test sets** (``--test``, default ``FIRST_SIGHT``): scored once both are fixed.

Without ``../shared/data`` it prints one line and stops.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from docorbit_assets.lib import injection_classifier as ic  # noqa: E402
from docorbit_assets.lib.injection import annotate  # noqa: E402

SETS_DIR = ROOT / "fixtures" / "injection"
MARGIN = 1.0
"""Logits added above the highest held-out benign logit: room for text the sets lack."""


def _names(arg: str | None, default_file: str) -> list[str]:
    if arg:
        return arg.split(",")
    path = SETS_DIR / default_file
    return path.read_text(encoding="utf-8").split() if path.is_file() else []


def _rows(name: str) -> list[dict]:
    path = SETS_DIR / f"{name}.jsonl"
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _use_model(path: Path | None, short_path: Path | None) -> None:
    """Score with these ONNX files (long and short reader) instead of the shipped ones."""
    tok = ic._tokenizer()  # the pinned tokenizer
    sessions = {  # a shipped reader is loaded only where no file replaces it
        short: ic.session_for(str(given)) if given else ic._model(short)[0]
        for short, given in ((False, path), (True, short_path))
    }
    ic._model = lambda short=False: (sessions[short], tok)  # type: ignore[assignment]
    ic._cache.clear()


def _disk_cache(model: Path | None, short_model: Path | None) -> Path:
    """Logits already computed for these model files (re-runs skip the real-doc windows)."""
    import hashlib

    data = ROOT / "docorbit_assets" / "data"
    digest = hashlib.sha256()
    for path in (
        model or data / "injection_minilm_int8.onnx",
        short_model or data / "injection_minilm_short_int8.onnx",
    ):
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return Path("/tmp") / f"docorbit-injection-logits-{digest.hexdigest()[:16]}.json"


def passage_scores(rows: list[dict]) -> tuple[np.ndarray, ...]:
    """Per passage: (rules high, largest logit of its long windows, of its short windows, the
    logit a rules high is judged by).

    Long and short windows are judged by ``HIGH_LOGIT`` and ``HIGH_LOGIT_SHORT``
    (``injection_classifier.high_logit``). The last is the largest, over the rules' high
    findings, of ``injection_classifier.judged_logit`` (``-inf`` with no rules high): the
    number ``review`` compares with ``LOW_LOGIT``, read by the same function."""
    ruled, best, best_short, kept = [], [], [], []
    for r in rows:
        text = r["text"]
        spans = ic.windows(text)[: ic.MAX_WINDOWS]
        zs = ic.logits([text[a:b] for a, b in spans])
        highs = [a for a in annotate(text, learned=False) if a["severity"] == "high"]
        judged = max((ic.judged_logit(a, spans, zs) for a in highs), default=-np.inf)
        short = [(b - a) < ic.SHORT_WINDOW_CHARS for a, b in spans]
        ruled.append(bool(highs))
        best.append(max((z for z, s in zip(zs, short, strict=True) if not s), default=-np.inf))
        best_short.append(max((z for z, s in zip(zs, short, strict=True) if s), default=-np.inf))
        kept.append(judged)
    return np.array(ruled), np.array(best), np.array(best_short), np.array(kept)


def decide(scores: tuple[np.ndarray, ...], hi: float, hs: float, lo: float) -> np.ndarray:
    ruled, best, best_short, kept = scores
    return (best >= hi) | (best_short >= hs) | (ruled & (kept >= lo))


def real_doc_windows(kit: Path) -> tuple[list[str], list[str]]:
    """The product's windows of the kit's pages: (the pages the model never trained on, the
    pages of its training half). Both are benign; the threshold stays above every window."""
    from finetune_injection_minilm import data

    d = data(kit / "docs")
    halves: list[list[str]] = []
    for part in ("docs_val", "docs_train"):
        texts: list[str] = []
        for page in sorted({r[3] for r in d[part]}):
            text = Path(page).read_text(errors="replace")
            texts.extend(text[a:b] for a, b in ic.windows(text))
        # a short paragraph alone, as a page or passage that short is read
        texts.extend(r[0] for r in d["short_" + part[5:]])
        halves.append(texts)
    return halves[0], halves[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kit", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--model", type=Path, help="an ONNX file to read windows of 300+ characters")
    ap.add_argument("--short-model", type=Path, help="an ONNX file to read shorter windows")
    ap.add_argument("--calibrate", help="comma-separated set names (default: CALIBRATION)")
    ap.add_argument("--test", help="comma-separated set names (default: FIRST_SIGHT; none)")
    ap.add_argument("--high", type=float, help="HIGH_LOGIT to use instead of calibrating it")
    ap.add_argument("--high-short", type=float, help="HIGH_LOGIT_SHORT, not calibrated")
    ap.add_argument("--low", type=float, help="LOW_LOGIT to use instead of calibrating it")
    a = ap.parse_args()
    if not (a.kit / "docs").is_dir():
        print(f"skipped: the kit's documentation is not at {a.kit / 'docs'}")
        return
    if a.model or a.short_model:
        _use_model(a.model, a.short_model)
    ic._CACHE_SIZE = 10**7  # type: ignore[misc]  # keep every logit of this run
    cache = _disk_cache(a.model, a.short_model)
    if cache.is_file():
        ic._cache.update(json.loads(cache.read_text()))
    t0 = time.time()
    held_docs, train_docs = real_doc_windows(a.kit)
    docs = np.array(ic.logits(held_docs))
    docs_short = np.array([len(t) < ic.SHORT_WINDOW_CHARS for t in held_docs])
    seen_docs = np.array(ic.logits(train_docs))
    seen_short = np.array([len(t) < ic.SHORT_WINDOW_CHARS for t in train_docs])
    print(
        f"real-doc windows: {len(docs)} of held-out pages ({docs_short.sum()} short; highest "
        f"logit long {docs[~docs_short].max():.2f}, short {docs[docs_short].max():.2f}), "
        f"{len(seen_docs)} of training-half pages ({seen_short.sum()} short); scored in "
        f"{time.time() - t0:.0f} s"
    )
    cal_names = _names(a.calibrate, "CALIBRATION")
    test_names = [] if a.test == "none" else _names(a.test, "FIRST_SIGHT")
    listed = set((SETS_DIR / "SETS").read_text(encoding="utf-8").split())
    first_sight = set(_names(None, "FIRST_SIGHT")) | set(test_names)  # never calibrated on
    train_names = [  # the benign passages the product's test keeps below high
        f.stem
        for f in sorted(SETS_DIR.glob("*.jsonl"))
        if f.stem in listed and f.stem not in cal_names and f.stem not in first_sight
    ]
    cal = [r for n in cal_names for r in _rows(n)]
    cs = passage_scores(cal)
    cal_y = np.array([r["label"] == "injection" for r in cal])
    train_benign = [r for n in train_names for r in _rows(n) if r["label"] != "injection"]
    ts = passage_scores(train_benign)
    hi = (
        a.high
        if a.high is not None
        else max(docs[~docs_short].max(initial=-99.0), cs[1][~cal_y].max(initial=-99.0)) + MARGIN
    )
    hs = (
        a.high_short
        if a.high_short is not None
        else max(docs[docs_short].max(initial=-99.0), cs[2][~cal_y].max(initial=-99.0)) + MARGIN
    )
    print(
        f"highest benign logit, long windows: real docs {docs[~docs_short].max(initial=-99):.2f}, "
        f"calibration benign {cs[1][~cal_y].max(initial=-99):.2f}, training-side benign "
        f"{ts[1].max():.2f} -> HIGH_LOGIT {hi:.2f}"
    )
    print(
        f"highest benign logit, short windows: real docs {docs[docs_short].max(initial=-99):.2f}, "
        f"calibration benign {cs[2][~cal_y].max(initial=-99):.2f}, training-side benign "
        f"{ts[2].max():.2f} -> HIGH_LOGIT_SHORT {hs:.2f}"
    )
    for q in (0.999, 0.9999):
        print(
            f"  real docs {q:.2%} quantile: long {np.quantile(docs[~docs_short], q):.2f}, "
            f"short {np.quantile(docs[docs_short], q):.2f}"
        )
    # LOW_LOGIT: the candidate that maximises recall - 2 x benign false-alarm rate on the
    # calibration sets (a false alarm weighs twice a miss), with no training-side benign high.
    grid = sorted({-np.inf, *np.round(cs[3][np.isfinite(cs[3])] + 1e-3, 3)})
    best_lo, best_j = -np.inf, -np.inf
    print("calibration LOW_LOGIT grid: lo  injections_high  benign_high")
    for lo in grid:
        both = decide(cs, hi, hs, lo)
        if (ts[0] & (ts[3] >= lo)).any():
            continue  # a rules high kept on a benign passage the product's test covers
        rec, fa = both[cal_y].mean(), both[~cal_y].mean()
        if rec - 2 * fa > best_j:
            best_lo, best_j = lo, rec - 2 * fa
            print(
                f"  {lo:7.2f}  {both[cal_y].sum()}/{cal_y.sum()}  {both[~cal_y].sum()}/{(~cal_y).sum()}"
            )
    lo = a.low if a.low is not None else best_lo
    both = decide(cs, hi, hs, lo)
    print(f"-> LOW_LOGIT {lo:.3f}")
    tb_high = decide(ts, hi, hs, lo)
    print(
        f"training-side benign passages high: {tb_high.sum()} of {len(ts[0])} "
        + " ".join(r["id"] for r, h in zip(train_benign, tb_high, strict=True) if h)
    )
    seen_high = np.where(seen_short, seen_docs >= hs, seen_docs >= hi)
    print(f"training-half real-doc windows high: {seen_high.sum()} of {len(seen_docs)}")
    for label, names in (("calibration", cal_names),):
        rows_y = cal_y
        print(
            f"{label} ({','.join(names)}): injections high rules {cs[0][rows_y].sum()}"
            f" -> with the classifier {both[rows_y].sum()} of {rows_y.sum()}; benign high "
            f"{both[~rows_y].sum()} of {(~rows_y).sum()} (rules {cs[0][~rows_y].sum()})"
        )
    cache.write_text(json.dumps(ic._cache))
    total = Counter[str]()
    for name in test_names:
        rows = _rows(name)
        sc = passage_scores(rows)
        ruled = sc[0]
        y = np.array([r["label"] == "injection" for r in rows])
        both = decide(sc, hi, hs, lo)
        kinds = Counter(r["kind"] for r, h, i in zip(rows, both, y, strict=True) if h and i)
        print(
            f"test {name}: injections high rules {ruled[y].sum()} -> with the classifier "
            f"{both[y].sum()} of {y.sum()}; benign high {both[~y].sum()} of {(~y).sum()} "
            f"(rules {ruled[~y].sum()}); per kind {dict(sorted(kinds.items()))}"
        )
        total.update(
            inj=int(y.sum()),
            rules=int(ruled[y].sum()),
            both=int(both[y].sum()),
            benign=int((~y).sum()),
            fa=int(both[~y].sum()),
        )
    if test_names:
        print(
            f"test, all: injections high rules {total['rules']} -> with the classifier "
            f"{total['both']} of {total['inj']} ({total['both'] / max(1, total['inj']):.1%}); "
            f"benign high {total['fa']} of {total['benign']}"
        )


if __name__ == "__main__":
    main()
