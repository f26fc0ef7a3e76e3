"""HTML normalization throughput: ``html_to_md.html_to_markdown`` beside markdownify.

Corpora (same bytes for both converters, same run):
- ``httpx-site``: the 24 pages of the real MkDocs/Material build in ``../shared/data/site/httpx``;
- ``large``: one synthetic Material page holding 10 copies of the quickstart article (~0.5 MB),
  the badinputs ``giant_table.html`` (5,000 rows at --scale 0.05) and ``many_links.html``.

markdownify converts the whole page (it has no main-content selection); html_to_markdown does
decoding, selection, chrome removal, rewriting, conversion and the coverage check, so the ratio
is end-to-end work against plain conversion. A second column times the whole ``pages`` row
(``normalize.normalize_html``: conversion, injection annotation with the raw HTML, Markdown
scan, links, token count). Also prints the annotator's throughput on the converted httpx
Markdown and on the fastapi doc set as one 1.4 MB text. Prints figures only; asserts nothing.
Usage: ``.venv/bin/python benchmarks/normalize_bench.py [--repeat N]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from markdownify import markdownify  # noqa: E402

from docorbit_assets.lib.html_to_md import html_to_markdown  # noqa: E402
from docorbit_assets.lib.injection import annotate  # noqa: E402
from docorbit_assets.lib.normalize import normalize_html  # noqa: E402
from docorbit_serve.registry import SourceConfig  # noqa: E402

SHARED = REPO / ".." / "shared" / "data"
SITE = SHARED / "site" / "httpx"
FASTAPI = SHARED / "docs" / "fastapi" / "docs" / "en" / "docs"


def _site_pages() -> list[bytes]:
    return [p.read_bytes() for p in sorted(SITE.rglob("*.html"))]


def _large_pages(tmp: Path) -> list[bytes]:
    quickstart = (SITE / "quickstart" / "index.html").read_text(encoding="utf-8")
    start, end = quickstart.index("<article"), quickstart.index("</article>")
    body = quickstart[quickstart.index(">", start) + 1 : end]
    big = quickstart[: quickstart.index(">", start) + 1] + body * 10 + quickstart[end:]
    subprocess.run(
        [
            sys.executable,
            str(SHARED / "badinputs" / "make_badinputs.py"),
            "--big",
            str(tmp),
            "--scale",
            "0.05",
        ],
        check=True,
        capture_output=True,
    )
    extra = [
        (tmp / "markdown_html" / name).read_bytes()
        for name in ("giant_table.html", "many_links.html")
    ]
    return [big.encode("utf-8"), *extra]


def _time(fn: Callable[[bytes], object], pages: list[bytes], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for page in pages:
            fn(page)
        best = min(best, time.perf_counter() - start)
    return best


def _ours(page: bytes) -> object:
    return html_to_markdown(page, url="https://www.python-httpx.org/bench/")


_CFG = SourceConfig(name="bench", kind="web", location="https://www.python-httpx.org/", library="b")


def _page(page: bytes) -> object:
    """The whole ``pages`` row: conversion, annotation (with the HTML), scan, links, tokens."""
    return normalize_html(
        cfg=_CFG,
        path="/bench/",
        url="https://www.python-httpx.org/bench/",
        body=page,
        fetched_at="",
        raw_bytes=len(page),
    )


def _markdownify(page: bytes) -> object:
    return markdownify(page.decode("utf-8", "replace"), heading_style="ATX")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per corpus; the best is kept")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpora = {"httpx-site": _site_pages(), "large": _large_pages(Path(tmp))}
    _page(corpora["httpx-site"][0])  # warm-up: loads the tokenizer's BPE file once (~0.7 s)
    print(
        "convert = html_to_markdown; page = normalize_html (convert + annotate + scan + tokens); "
        "mdfy = markdownify; ratio = mdfy time / ours"
    )
    print(
        f"{'corpus':<11} {'pages':>5} {'MB':>6} | {'convert p/s':>11} {'MB/s':>6} | "
        f"{'page p/s':>8} {'MB/s':>6} | {'mdfy p/s':>8} {'MB/s':>6} | {'convert':>7} {'page':>6}"
    )
    for name, pages in corpora.items():
        mb = sum(map(len, pages)) / 1e6
        ours = _time(_ours, pages, args.repeat)
        full = _time(_page, pages, args.repeat)
        theirs = _time(_markdownify, pages, args.repeat)
        print(
            f"{name:<11} {len(pages):>5} {mb:>6.2f} | {len(pages) / ours:>11.1f} {mb / ours:>6.2f} | "
            f"{len(pages) / full:>8.1f} {mb / full:>6.2f} | "
            f"{len(pages) / theirs:>8.1f} {mb / theirs:>6.2f} | "
            f"x{theirs / ours:>6.2f} x{theirs / full:>5.2f}",
            flush=True,
        )
    texts = {
        "httpx-site Markdown": "\n\n".join(
            _ours(p).markdown  # type: ignore[attr-defined]
            for p in corpora["httpx-site"]
        ),
        "fastapi docs (one text)": "\n\n".join(
            p.read_text(encoding="utf-8") for p in sorted(FASTAPI.rglob("*.md"))
        ),
    }
    for label, text in texts.items():
        mb = len(text.encode()) / 1e6
        start = time.perf_counter()
        annotate(text)
        spent = time.perf_counter() - start
        print(f"injection.annotate, {label}: {mb:.2f} MB in {spent:.2f} s = {mb / spent:.2f} MB/s")


if __name__ == "__main__":
    main()
