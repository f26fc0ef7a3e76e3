"""HTML normalization throughput: ``html_to_md.html_to_markdown`` beside markdownify.

Corpora (same bytes for both converters, same run):
- ``httpx-site``: the 24 pages of the real MkDocs/Material build in ``../shared/data/site/httpx``;
- ``large``: one synthetic Material page holding 40 copies of the quickstart article (~2 MB),
  the badinputs ``giant_table.html`` (5,000 rows at --scale 0.05) and ``many_links.html``.

markdownify converts the whole page (it has no main-content selection); html_to_markdown does
decoding, selection, chrome removal, rewriting, conversion and the coverage check, so the ratio
is end-to-end work against plain conversion. Also prints the injection annotator's throughput
on the converted Markdown. Prints figures only; asserts nothing.
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

SHARED = REPO / ".." / "shared" / "data"
SITE = SHARED / "site" / "httpx"


def _site_pages() -> list[bytes]:
    return [p.read_bytes() for p in sorted(SITE.rglob("*.html"))]


def _large_pages(tmp: Path) -> list[bytes]:
    quickstart = (SITE / "quickstart" / "index.html").read_text(encoding="utf-8")
    start, end = quickstart.index("<article"), quickstart.index("</article>")
    body = quickstart[quickstart.index(">", start) + 1 : end]
    big = quickstart[: quickstart.index(">", start) + 1] + body * 40 + quickstart[end:]
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


def _markdownify(page: bytes) -> object:
    return markdownify(page.decode("utf-8", "replace"), heading_style="ATX")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per corpus; the best is kept")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpora = {"httpx-site": _site_pages(), "large": _large_pages(Path(tmp))}
    print(
        f"{'corpus':<11} {'pages':>5} {'MB':>6} | {'ours p/s':>9} {'ours MB/s':>9} | "
        f"{'mdfy p/s':>9} {'mdfy MB/s':>9} | speed-up"
    )
    for name, pages in corpora.items():
        mb = sum(map(len, pages)) / 1e6
        ours = _time(_ours, pages, args.repeat)
        theirs = _time(_markdownify, pages, args.repeat)
        print(
            f"{name:<11} {len(pages):>5} {mb:>6.2f} | {len(pages) / ours:>9.1f} {mb / ours:>9.2f} | "
            f"{len(pages) / theirs:>9.1f} {mb / theirs:>9.2f} | x{theirs / ours:.2f}"
        )
    texts = [_ours(p).markdown for p in corpora["httpx-site"]]  # type: ignore[attr-defined]
    mb = sum(len(t.encode()) for t in texts) / 1e6
    start = time.perf_counter()
    for text in texts:
        annotate(text)
    spent = time.perf_counter() - start
    print(
        f"injection.annotate on the httpx-site Markdown: {mb:.2f} MB in {spent:.2f} s = {mb / spent:.2f} MB/s"
    )


if __name__ == "__main__":
    main()
