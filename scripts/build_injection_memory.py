"""Build ``docorbit_assets/data/injection_memory.npz``: the labelled passages the injection
classifier weighs a window against (``docorbit_assets/lib/injection_memory.py``).

Usage::

    .venv/bin/python scripts/build_injection_memory.py [--out PATH] [--docs ../shared/data/docs]

Rows, in this order:

- every row of every set named in ``fixtures/injection/SETS`` (label from the row; group: the
  set's name; id: the row's id);
- the kit's passages (``fixtures/kit/badinputs/prompt_injection``; group ``kit``);
- the product's windows (``injection_classifier.windows``) of the kit's real documentation
  pages, as ``scripts/finetune_injection_minilm.py`` lists them (``docs/`` and ``llms/`` of
  ``../shared/data``), all benign; group ``realdoc:<page>``, id ``<page>:<start>-<end>``.

Each text is embedded alone with the stock all-MiniLM-L6-v2 (``dense.embed_base``), stored as
int8 with a float scale per row (cosine within 1e-3 of the float vectors). Deterministic: the
same inputs give the same file; the script prints its SHA-256 for ``MEMORY_SHA256``. Without
``../shared/data`` it stops with one line (the real-doc windows come from there).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import time
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from finetune_injection_minilm import doc_pages  # noqa: E402

from docorbit_assets.lib import injection_classifier as ic  # noqa: E402
from docorbit_serve.search import dense  # noqa: E402

SETS = ROOT / "fixtures" / "injection"
KIT = ROOT / "fixtures" / "kit" / "badinputs" / "prompt_injection"


def rows(docs: Path) -> list[tuple[str, bool, str, str]]:
    """(text, is injection, group, id) of every remembered passage, in build order."""
    out: list[tuple[str, bool, str, str]] = []
    for name in (SETS / "SETS").read_text(encoding="utf-8").split():
        for line in (SETS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                out.append((r["text"], r["label"] == "injection", name, r["id"]))
    for part in ("injections", "benign"):
        for line in (KIT / f"{part}.jsonl").read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            out.append((r["text"], r["label"] == "injection", "kit", r["id"]))
    data = docs.parent
    for p in doc_pages(docs):
        text = p.read_text(errors="replace")
        page = p.relative_to(data).as_posix()
        for a, b in ic.windows(text)[: ic.MAX_WINDOWS]:
            out.append((text[a:b], False, f"realdoc:{page}", f"{page}:{a}-{b}"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=Path, default=ROOT.parent / "shared" / "data" / "docs")
    ap.add_argument(
        "--out", type=Path, default=ROOT / "docorbit_assets" / "data" / "injection_memory.npz"
    )
    args = ap.parse_args()
    if not args.docs.is_dir():
        print(
            f"build_injection_memory: {args.docs} is absent; the real-doc windows come from there"
        )
        return
    started = time.perf_counter()
    items = rows(args.docs)
    vectors = np.stack([dense.embed_base([t])[0] for t, *_ in items])
    scales = np.abs(vectors).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    q = np.round(vectors / scales[:, None]).astype(np.int8)
    labels = np.array([inj for _, inj, _, _ in items], dtype=bool)
    data = npz(
        vectors=q,
        scales=scales.astype(np.float32),
        labels=labels,
        groups=np.array([g for _, _, g, _ in items]),
        ids=np.array([i for *_, i in items]),
    )
    args.out.write_bytes(data)
    print(
        f"{len(items)} rows ({labels.sum()} injections, {len(items) - labels.sum()} benign) "
        f"-> {args.out} ({len(data) / 1e6:.1f} MB) in {time.perf_counter() - started:.0f} s"
    )
    print(f"MEMORY_SHA256 = {hashlib.sha256(data).hexdigest()!r}")


def npz(**arrays: np.ndarray) -> bytes:
    """``arrays`` as an ``.npz`` (what ``np.load`` reads), deflated, every member stamped
    1980-01-01 (``np.savez_compressed`` stamps the time of writing): the same arrays give the
    same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, array in arrays.items():
            member = io.BytesIO()
            np.lib.format.write_array(member, array, allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, member.getvalue())
    return out.getvalue()


if __name__ == "__main__":
    main()
