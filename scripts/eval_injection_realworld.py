"""How often ``annotate()`` flags whole real files high: a false-alarm figure on documents
nobody wrote for DocOrbit's sets.

Usage::

    .venv/bin/python scripts/eval_injection_realworld.py FOLDER [FOLDER ...] [--list]

Each file in each folder (``PROVENANCE.tsv`` skipped) is read as UTF-8 and annotated with the
shipped configuration; a file counts once if any finding is high, attributed to the readers
(``learned_classifier`` evidence) or the rules. ``--list`` prints each flagged file's first
high evidence.

The corpus of session 27 (822 public GitHub files: agent-instruction files such as
``AGENTS.md``/``CLAUDE.md``/``.cursorrules``, release runbooks, development guides,
contributing guides and changelogs in other languages, troubleshooting pages) is named file by
file, with repository, path and commit, in ``fixtures/injection/realworld/PROVENANCE.tsv``. The
texts are not in the project: their licences differ repository by repository. Figures:
docs/security.md, "Session 27".
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docorbit_assets.lib.injection import annotate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--list", action="store_true", help="print each flagged file's evidence")
    args = ap.parse_args()
    for folder in args.folders:
        if not folder.is_dir():
            print(f"{folder}: no such folder")
            continue
        files = sorted(p for p in folder.iterdir() if p.is_file() and p.name != "PROVENANCE.tsv")
        by = Counter()
        flagged = []
        for p in files:
            highs = [
                a
                for a in annotate(p.read_text(encoding="utf-8", errors="replace"))
                if a["severity"] == "high"
            ]
            if highs:
                who = (
                    "readers" if highs[0]["evidence"].startswith("learned_classifier") else "rules"
                )
                by[who] += 1
                flagged.append((p.name, who, " ".join(highs[0]["evidence"].split())[:140]))
        print(
            f"{folder}: {len(flagged)}/{len(files)} files high "
            f"(readers {by['readers']}, rules {by['rules']})"
        )
        if args.list:
            for name, who, evidence in flagged:
                print(f"  {name} [{who}] {evidence}")


if __name__ == "__main__":
    main()
