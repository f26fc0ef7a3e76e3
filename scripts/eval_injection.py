"""Injection annotation figures per kind: recall/precision on the held-out set and the kit.

Usage: ``.venv/bin/python scripts/eval_injection.py [--show-misses] [--real-docs]``

Reads ``fixtures/injection/heldout.jsonl`` (always) and, when ``../shared/data`` is present,
the visible kit ``badinputs/prompt_injection/{injections,benign}.jsonl``. An injection counts as
caught when ``max_severity(annotate(text))`` reaches its ``min_severity``; a benign passage is a
false alarm when it is flagged ``high`` (its ``max_severity`` is exceeded). Precision per kind is
caught / (caught + benign passages of that kind's detector flagged high) is not attributable per
kind, so the table gives recall per kind and, per set, the precision of "flagged high".
Each set (and the kit) is scored with its own rows left out of the memory of labelled passages
(``injection_memory.leave_out``), as a set the memory never held would be.
``--real-docs`` also counts the paragraphs (and link titles) of the kit's real documentation
(``../shared/data/docs``, 36.5k paragraphs) that the structural rules flag high: all benign.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docorbit_assets.lib import injection_memory  # noqa: E402
from docorbit_assets.lib.injection import annotate, max_severity  # noqa: E402
from docorbit_assets.lib.injection_structure import assess, carriers  # noqa: E402

_RANK = {"": 0, "low": 1, "medium": 2, "high": 3}
# The sets in the order they were written (one name a line; the per-kind test reads it too).
SETS = tuple((ROOT / "fixtures" / "injection" / "SETS").read_text(encoding="utf-8").split())


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def evaluate(rows: list[dict], show: bool) -> None:
    recall: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    flagged_high = true_high = benign = false_alarm = 0
    for r in rows:
        sev = max_severity(annotate(r["text"]))
        kind = r.get("kind") or r.get("technique") or "?"
        if r["label"] == "injection":
            ok = _RANK[sev] >= _RANK[r["min_severity"]]
            recall[kind][0] += ok
            recall[kind][1] += 1
            if sev == "high":
                flagged_high += 1
                true_high += 1
            if show and not ok:
                print(f"  MISS {r['id']} ({sev or 'none'}): {r['text'][:110]!r}")
        else:
            benign += 1
            if _RANK[sev] > _RANK[r["max_severity"]]:
                false_alarm += 1
                if show:
                    print(f"  FALSE ALARM {r['id']} ({sev}): {r['text'][:110]!r}")
            if sev == "high":
                flagged_high += 1
    styles: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        if r["label"] == "injection" and r.get("style"):
            sev = max_severity(annotate(r["text"]))
            styles[r["style"]][0] += _RANK[sev] >= _RANK[r["min_severity"]]
            styles[r["style"]][1] += 1
    for style, (c, n) in sorted(styles.items()):
        print(f"  style {style:16s} recall {c:3d}/{n:<3d}")
    caught = sum(v[0] for v in recall.values())
    total = sum(v[1] for v in recall.values())
    for kind, (c, n) in sorted(recall.items()):
        print(f"  {kind:22s} recall {c:3d}/{n:<3d} {100 * c / n:5.1f}%")
    prec = true_high / flagged_high if flagged_high else 1.0
    print(
        f"  ALL injections recall {caught}/{total} ({100 * caught / max(1, total):.1f}%); "
        f"benign flagged high {false_alarm}/{benign}; precision of 'high' {100 * prec:.1f}%"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show-misses", action="store_true")
    ap.add_argument("--real-docs", action="store_true")
    ap.add_argument(
        "--set",
        action="append",
        dest="sets",
        help="score only these sets of fixtures/injection (name without .jsonl; repeatable)",
    )
    args = ap.parse_args()
    for name in args.sets or SETS:
        print(f"held-out set (fixtures/injection/{name}.jsonl):")
        # the memory of labelled passages holds every set: each is scored with itself left out
        with injection_memory.leave_out(lambda group, name=name: group == name):
            evaluate(_rows(ROOT / "fixtures" / "injection" / f"{name}.jsonl"), args.show_misses)
    if args.sets:
        return
    kit = ROOT.parent / "shared" / "data" / "badinputs" / "prompt_injection"
    if not kit.is_dir():  # the in-project copy of the same files
        kit = ROOT / "fixtures" / "kit" / "badinputs" / "prompt_injection"
    rows = _rows(kit / "injections.jsonl") + _rows(kit / "benign.jsonl")
    print("visible kit (badinputs/prompt_injection, per technique):")
    with injection_memory.leave_out(lambda group: group == "kit"):
        evaluate(rows, args.show_misses)
    if args.real_docs:
        docs = ROOT.parent / "shared" / "data" / "docs"
        if not docs.is_dir():
            print("real docs: ../shared/data absent, skipped")
            return
        real_docs(docs, args.show_misses)


def real_docs(root: Path, show: bool) -> None:
    units = high = 0
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".md", ".mdx"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        items = [(p, False) for p in re.split(r"\n\s*\n", text)]
        items += [(title, True) for title, *_ in carriers(text)]
        for para, hidden in items:
            units += 1
            verdict = assess(para, hidden=hidden)
            if verdict and verdict.rank == 3:
                high += 1
                if show:
                    print(f"  HIGH {path.relative_to(root)}: {verdict.why}")
    print(f"real docs ({root}): {high} of {units} paragraphs and titles flagged high")
    pages = page_high = 0
    started = time.perf_counter()
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".md", ".mdx"):
            continue
        pages += 1
        own = f"realdoc:{path.relative_to(root.parent).as_posix()}"  # its windows left out
        with injection_memory.leave_out(lambda group, own=own: group == own):
            found = annotate(path.read_text(encoding="utf-8", errors="replace"))
        highs = [a for a in found if a["severity"] == "high"]
        page_high += bool(highs)
        if show:
            for a in highs:
                print(
                    f"  PAGE HIGH {path.relative_to(root)} {a['location']}: {a['evidence'][:140]}"
                )
    print(
        f"real docs, whole pages through annotate() (all rules, paragraph windows, titles read "
        f"together): {page_high} of {pages} pages with a high annotation "
        f"({time.perf_counter() - started:.1f} s)"
    )


if __name__ == "__main__":
    main()
