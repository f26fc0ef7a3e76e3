"""Session 6's classifier experiment: does a learned model over the rules' own cues add recall
on a set nobody tuned for? (docs/security.md, "Session 6".)

Usage:
  .venv/bin/python scripts/eval_injection_cues.py --held s7_first [--features ngram+cues]
  .venv/bin/python scripts/eval_injection_cues.py --folds 5 [--features ngram+cues]

``--held S``: fit on every other set of ``fixtures/injection/SETS``, the kit, the training-only
files of ``fixtures/injection/TRAINING`` and the train part of the real docs; threshold by the
training-side rule of ``scripts/train_injection_model.py``; score S once. ``--folds K``: the
same with the training-only files cut into K folds by a hash of the passage id, each fold
scored by a model fitted without it. The rules' verdicts are those of the rules as they are now
(a first-sight figure only for a set the rules were not tuned on). Features: ``ngram`` (hashed
n-grams), ``cues`` (which of the structural rules' expressions match, pairwise products of
related ones, the rules' own verdicts), ``both`` (MiniLM + n-grams, the session-5 design) and
their ``+`` combinations. Embeddings are cached in /tmp as in ``train_injection_model``.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import train_injection_model as tm  # noqa: E402

from docorbit_assets.lib import injection_structure as st  # noqa: E402
from docorbit_assets.lib.injection import annotate, max_severity  # noqa: E402

CUE_NAMES = [
    "_ROLE_ANY",
    "_ROLE_ML_RE",
    "_VOC_COLON",
    "_VOC_OTHER",
    "_ML_DIRECTIVE",
    "_ML_OBJECT",
    "_ML_CONCEAL",
    "_THIRD_PERSON",
    "_YOU_MUST",
    "_ROLE_CUE",
    "_THIRD_LOOSE",
    "_YOU",
    "_ACT",
    "_ACT_ML_RE",
    "_IMPERATIVE",
    "_NEG_IMPERATIVE",
    "_MODAL",
    "_OVERRIDE",
    "_CONCEAL",
    "_GRANT_RE",
    "_EXFIL_RE",
    "_SENSITIVE",
    "_DANGER_RE",
    "_DANGER_CMD",
    "_REMOTE_EXEC",
    "_URGENT",
    "_TOOL_SHAPED",
    "_CALL_RESULT",
    "_JSON_SHAPED",
    "_CASUAL_CLAIM",
    "_PREAPPROVED",
    "_PERMISSION",
    "_AUTHORITY",
    "_AUTHORITY_STRONG",
    "_LEAK",
    "_ACROSTIC",
    "_ACROSTIC_DO",
    "_ERROR",
    "_NEEDED",
    "_CONDITIONAL",
    "_ERROR_FIX",
    "_ESCALATE",
    "_DISCUSSION",
    "_STRONG_RISK",
    "_ACTION_RISK",
    "_ROLE_LABEL",
    "_LOOSE_WORD",
    "_LOOSE_ADDRESS",
    "_READER_CUE",
    "_OTHER_SCRIPT",
    "_INTENT",
]
_PAIRS_OF = {
    "_ROLE_ANY": "_ACT _IMPERATIVE _MODAL _SENSITIVE _DANGER_RE _LEAK _CONCEAL _OVERRIDE "
    "_ACTION_RISK _YOU _EXFIL_RE",
    "_YOU": "_SENSITIVE _DANGER_RE _LEAK _CONCEAL _ACTION_RISK _PERMISSION _EXFIL_RE",
    "_PERMISSION": "_SENSITIVE _DANGER_RE _LEAK _ACTION_RISK _EXFIL_RE _CONCEAL",
    "_PREAPPROVED": "_SENSITIVE _PERMISSION _IMPERATIVE _ACTION_RISK _YOU _ROLE_ANY",
    "_CASUAL_CLAIM": "_SENSITIVE _ACTION_RISK",
    "_AUTHORITY": "_MODAL _IMPERATIVE _SENSITIVE _ROLE_ANY _YOU_MUST _ACTION_RISK _DANGER_RE",
    "_AUTHORITY_STRONG": "_IMPERATIVE _SENSITIVE _MODAL",
    "_ERROR": "_ERROR_FIX _DANGER_CMD _REMOTE_EXEC _ESCALATE _URGENT _ROLE_ANY _DANGER_RE "
    "_ACTION_RISK",
    "_TOOL_SHAPED": "_ROLE_ANY _ACT _IMPERATIVE _SENSITIVE _LEAK _EXFIL_RE _ACTION_RISK",
    "_JSON_SHAPED": "_ROLE_ANY _IMPERATIVE _SENSITIVE",
    "_ACROSTIC": "_ACROSTIC_DO _ROLE_ANY _IMPERATIVE",
    "_ROLE_ML_RE": "_ACT_ML_RE _ML_OBJECT _ML_DIRECTIVE _SENSITIVE _EXFIL_RE",
    "_OTHER_SCRIPT": "_SENSITIVE _EXFIL_RE _ROLE_ANY _ML_OBJECT",
    "_DISCUSSION": "_ROLE_ANY _SENSITIVE",
}
PAIRS = [(a, b) for a, bs in _PAIRS_OF.items() for b in bs.split()]


def cue_features(text: str) -> np.ndarray:
    """1/0 per cue expression, per related pair, and the rules' verdict (medium, high, high as
    a hidden carrier): what the rules see, for a model to weigh."""
    folded = st._fold(text[:4000])
    hit = {n: 1.0 if getattr(st, n).search(folded) else 0.0 for n in CUE_NAMES}
    plain, hidden = st.assess(text), st.assess(text, hidden=True)
    verdicts = [
        float(bool(plain and plain.rank >= 2)),
        float(bool(plain and plain.rank >= 3)),
        float(bool(hidden and hidden.rank >= 3)),
    ]
    return np.array([*hit.values(), *(hit[a] * hit[b] for a, b in PAIRS), *verdicts])


def _sets(folder: str) -> list[str]:
    return (ROOT / "fixtures" / "injection" / folder).read_text(encoding="utf-8").split()


def _data(features: str) -> tm.Data:
    data = tm.Data(real=True, features="ngram" if features.startswith("ngram") else "both")
    if "cues" in features:
        data.vec = {t: np.concatenate([v, cue_features(t)]) for t, v in data.vec.items()}
    return data


def _score(data: tm.Data, held: str, rules: dict[str, bool], train: list[str]) -> dict[str, int]:
    names = [n for n in data.sets if n != held]
    model = tm.fit(*data.xy(names))
    thr = tm.threshold(data, train)
    out = dict.fromkeys(("inj", "clf", "rules", "union", "benign", "benign_high"), 0)
    for r, s in zip(data.sets[held], data.passage_scores(model, held), strict=True):
        hit, rule = s >= thr, rules[r["id"]]
        if r["label"] == "injection":
            out["inj"] += 1
            out["clf"] += hit
            out["rules"] += rule
            out["union"] += hit or rule
        else:
            out["benign"] += 1
            out["benign_high"] += hit
    out["real_doc_high"] = int((data.real_scores(model, "test") >= thr).sum())
    out["real_doc"] = len(data.real.get("test", []))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--held", help="a set of fixtures/injection/SETS to score once")
    ap.add_argument("--folds", type=int, help="K folds of the training-only files instead")
    ap.add_argument("--features", default="ngram+cues")
    args = ap.parse_args()
    started = time.perf_counter()
    evaluation, training = _sets("SETS"), _sets("TRAINING")
    tm.SETS = tuple(evaluation + training)
    data = _data(args.features)
    if args.held:
        rules = {r["id"]: max_severity(annotate(r["text"])) == "high" for r in data.sets[args.held]}
        train = [n for n in data.sets if n != args.held and n not in training]
        print(args.features, args.held, _score(data, args.held, rules, train))
    elif args.folds:
        pool = [r for name in training for r in data.sets.pop(name)]
        rules = {r["id"]: max_severity(annotate(r["text"])) == "high" for r in pool}
        fixture_sets = list(data.sets)
        total: dict[str, int] = {}
        for k in range(args.folds):
            for j in range(args.folds):
                data.sets[f"fold{j}"] = [
                    r
                    for r in pool
                    if int(hashlib.sha256(r["id"].encode()).hexdigest(), 16) % args.folds == j
                ]
            got = _score(data, f"fold{k}", rules, fixture_sets)
            total = {key: total.get(key, 0) + v for key, v in got.items()}
            for j in range(args.folds):
                data.sets.pop(f"fold{j}")
        print(args.features, f"{args.folds} folds of {'+'.join(training)}", total)
    else:
        ap.error("give --held SET or --folds K")
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
