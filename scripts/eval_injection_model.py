"""Does a learned classifier generalise to unseen injection sets? Leave-one-set-out figures.

Usage: ``.venv/bin/python scripts/eval_injection_model.py [--no-real-docs] [--show]``
(needs the git history of this repository for the rules' first-sight verdicts; the real docs
``../shared/data/docs`` are optional).

For each fixture set S (``fixtures/injection``): the classifier of
``scripts/train_injection_model.py`` is fitted on every *other* set, the kit and the train part
of the real docs; its ``high`` threshold is chosen on those training sets only (leave-one-out
inside them: the highest out-of-fold benign score, and the highest score on the calibration
part of the real docs); then S is scored once: a passage's score is the highest score of its
units (paragraphs and short-paragraph windows, ``injection_model.units``). Printed per set:
classifier recall (injections at or above the threshold), benign passages of S at or above it,
false alarms over the *test* part of the real docs (pages never trained or calibrated on), the
rules' first-sight recall and the union (rules OR classifier).

Rules at first sight: each set was committed before the rules were tuned on it, so the rules as
they were at the commit that added S (``git show <commit>:docorbit_assets/lib/injection*.py``,
run in a subprocess from a temporary copy) give its first-sight verdict per passage; a passage
is caught when ``annotate`` reaches ``high``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import train_injection_model as tm  # noqa: E402

RULES_CACHE = Path("/tmp") / "docorbit_injection_first_sight.json"
_RUNNER = """
import json, sys
from docorbit_assets.lib.injection import annotate, max_severity
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
print(json.dumps({r["id"]: max_severity(annotate(r["text"])) for r in rows}))
"""


def _added_at(name: str) -> str:
    out = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%H", "--", f"fixtures/injection/{name}.jsonl"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return out[-1]


def first_sight_rules() -> dict[str, dict[str, str]]:
    """{set: {id: severity}} of the rules as committed with each set (cached in /tmp)."""
    if RULES_CACHE.exists():
        return json.loads(RULES_CACHE.read_text())
    verdicts: dict[str, dict[str, str]] = {}
    for name in tm.SETS:
        commit = _added_at(name)
        with tempfile.TemporaryDirectory() as tmp:
            lib = Path(tmp) / "docorbit_assets" / "lib"
            lib.mkdir(parents=True)
            (lib.parent / "__init__.py").write_text("")
            (lib / "__init__.py").write_text("")
            for mod in ("injection.py", "injection_structure.py"):
                shown = subprocess.run(
                    ["git", "show", f"{commit}:docorbit_assets/lib/{mod}"],
                    cwd=ROOT,
                    capture_output=True,
                )
                if shown.returncode == 0:
                    (lib / mod).write_bytes(shown.stdout)
            run = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    _RUNNER,
                    str(ROOT / "fixtures" / "injection" / f"{name}.jsonl"),
                ],
                cwd=tmp,
                env={"PYTHONPATH": tmp, "PATH": "/usr/bin:/bin"},
                capture_output=True,
                text=True,
                check=True,
            )
            verdicts[name] = json.loads(run.stdout)
        caught = sum(v == "high" for v in verdicts[name].values())
        print(f"  rules at {commit[:7]} on {name}: {caught} high", file=sys.stderr)
    RULES_CACHE.write_text(json.dumps(verdicts, sort_keys=True))
    return verdicts


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-real-docs", action="store_true")
    ap.add_argument("--show", action="store_true", help="print misses and false alarms")
    ap.add_argument("--features", choices=("emb", "ngram", "both"), default="both")
    args = ap.parse_args()
    rules = first_sight_rules()
    data = tm.Data(real=not args.no_real_docs, features=args.features)
    print(f"features: {args.features}; L2 {tm.L2}; {tm.STEPS} steps\n")
    test = data.real.get("test", [])
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # clf, union, rules, n
    tot = defaultdict(int)
    print(
        "| set | threshold | classifier recall | rules first sight | union | benign high "
        "(clf) | benign high (union) | real-doc false alarms |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for held in tm.SETS:
        names = [n for n in data.sets if n != held]
        model = tm.fit(*data.xy(names))
        thr = tm.threshold(data, names)
        scores = data.passage_scores(model, held)
        inj = ben = clf = uni = rul = bclf = buni = 0
        for r, s in zip(data.sets[held], scores, strict=True):
            rule_high = rules[held].get(r["id"]) == "high"
            hit = s >= thr
            if r["label"] == "injection":
                inj += 1
                clf += hit
                rul += rule_high
                uni += hit or rule_high
                k = per_kind[r["kind"]]
                k[0] += hit
                k[1] += hit or rule_high
                k[2] += rule_high
                k[3] += 1
                if args.show and not (hit or rule_high):
                    print(f"  MISS {r['id']} p={s:.3f}: {r['text'][:100]!r}")
            else:
                ben += 1
                bclf += hit
                buni += hit or rule_high
                if args.show and hit:
                    print(f"  BENIGN HIGH {r['id']} p={s:.3f}: {r['text'][:100]!r}")
        real = data.real_scores(model, "test")
        fa = int((real >= thr).sum())
        if args.show:
            for t, s in zip(test, real, strict=True):
                if s >= thr:
                    print(f"  REAL-DOC HIGH p={s:.3f}: {t[:100]!r}")
        for key, v in (("inj", inj), ("clf", clf), ("rul", rul), ("uni", uni)):
            tot[key] += v
        for key, v in (("ben", ben), ("bclf", bclf), ("buni", buni), ("fa", fa)):
            tot[key] += v
        print(
            f"| {held} | {thr:.3f} | {clf}/{inj} ({100 * clf / inj:.0f}%) | {rul}/{inj} "
            f"({100 * rul / inj:.0f}%) | {uni}/{inj} ({100 * uni / inj:.0f}%) | {bclf}/{ben} | "
            f"{buni}/{ben} | {fa}/{len(test)} |"
        )
    print(
        f"| **all** | | {tot['clf']}/{tot['inj']} ({100 * tot['clf'] / tot['inj']:.1f}%) | "
        f"{tot['rul']}/{tot['inj']} ({100 * tot['rul'] / tot['inj']:.1f}%) | "
        f"{tot['uni']}/{tot['inj']} ({100 * tot['uni'] / tot['inj']:.1f}%) | "
        f"{tot['bclf']}/{tot['ben']} | {tot['buni']}/{tot['ben']} | {tot['fa']} (10 folds) |"
    )
    print("\n| kind | classifier | rules first sight | union |\n|---|---|---|---|")
    for kind, (c, u, r, n) in sorted(per_kind.items()):
        print(f"| {kind} | {c}/{n} | {r}/{n} | {u}/{n} |")


if __name__ == "__main__":
    main()
