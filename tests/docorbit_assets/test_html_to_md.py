"""HTML -> Markdown: goldens per framework dialect, the real MkDocs build of httpx, bad inputs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from docorbit_assets.lib.html_to_md import html_to_markdown, words
from tests.support.paths import KIT_DATA

REPO = Path(__file__).resolve().parents[2]
SHARED = KIT_DATA  # the kit's parts copied into fixtures/kit
SITE = SHARED / "site" / "httpx"
SOURCES = SHARED / "docs" / "httpx" / "docs"
BAD = SHARED / "badinputs" / "markdown_html"
GOLDEN = REPO / "fixtures" / "golden" / "html"
MARKERS = ("AFTER-MARKER-7f3a", "DEEP-DIV-MARKER", "LATER-MARKER-2b9c", "DEEP-QUOTE-MARKER")
GOLDEN_URL = "https://docs.acme.test/guide/page/"


def _update_goldens(request: pytest.FixtureRequest) -> bool:
    try:
        flag = bool(request.config.getoption("--update-goldens"))
    except ValueError:
        flag = False
    return flag or os.environ.get("DOCORBIT_UPDATE_GOLDENS") == "1"


def _site_pages() -> list[tuple[Path, str, Path | None]]:
    pages = []
    for html in sorted(SITE.rglob("*.html")):
        rel = html.relative_to(SITE).parent
        if rel == Path("."):
            source = SOURCES / ("index.md" if html.name == "index.html" else "__none__")
            url = "https://www.python-httpx.org/" + ("" if html.name == "index.html" else html.name)
        else:
            source = SOURCES / f"{rel}.md"
            url = f"https://www.python-httpx.org/{rel}/"
        pages.append((html, url, source if source.exists() else None))
    return pages


def _golden_render(html_path: Path) -> str:
    r = html_to_markdown(html_path.read_bytes(), url=GOLDEN_URL)
    meta = {
        "title": r.title,
        "headings": [list(h) for h in r.headings],
        "truncated": r.truncated,
        "truncation_reason": r.truncation_reason,
        "dropped": r.dropped,
        "strategy": r.strategy,
    }
    return r.markdown + "\n<!-- conversion: " + json.dumps(meta, sort_keys=True) + " -->\n"


@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.html")))
def test_framework_page_converts_to_its_golden_markdown(
    name: str, request: pytest.FixtureRequest
) -> None:
    got = _golden_render(GOLDEN / f"{name}.html")
    expected = GOLDEN / f"{name}.md"
    if _update_goldens(request):
        expected.write_text(got, encoding="utf-8")
    assert expected.exists(), f"run with DOCORBIT_UPDATE_GOLDENS=1 to create {expected.name}"
    assert got == expected.read_text(encoding="utf-8")


def test_goldens_cover_every_admonition_dialect_and_drop_chrome() -> None:
    outputs = {p.stem: _golden_render(p) for p in GOLDEN.glob("*.html")}
    joined = "\n".join(outputs.values())
    for alert in ("[!WARNING]", "[!NOTE]", "[!TIP]", "[!DANGER]", "[!DEPRECATED]", "[!CAUTION]"):
        assert alert in joined
    for chrome in ("Sidebar", "Edit this page", "Made with", "cookies", "Previous", "¶", "Copy"):
        assert chrome not in joined, chrome
    assert "```python" in outputs["sphinx"] and "```bash" in outputs["docusaurus"]
    assert "{ #retries }" in outputs["sphinx"] and "{ #options }" in outputs["docusaurus"]
    assert "javascript:" not in joined


def test_conversion_is_byte_identical_on_repeat() -> None:
    data = (SITE / "quickstart" / "index.html").read_bytes()
    first = html_to_markdown(data, url="https://www.python-httpx.org/quickstart/")
    second = html_to_markdown(data.decode("utf-8"), url="https://www.python-httpx.org/quickstart/")
    assert first == second


def test_httpx_site_keeps_the_main_text_of_every_page() -> None:
    coverages = []
    for html, url, source in _site_pages():
        r = html_to_markdown(html.read_bytes(), url=url)
        assert not r.truncated, (html, r.truncation_reason)
        assert r.word_coverage >= 0.99, html
        if source is not None:
            src = words(source.read_text(encoding="utf-8"))
            out = words(r.markdown)
            coverages.append(sum(min(n, out[w]) for w, n in src.items()) / sum(src.values()))
    # The Markdown sources also hold syntax the HTML cannot carry (fence languages such as
    # "pycon", mkautodoc "::: httpx.Client" directives, raw HTML attributes).
    assert len(coverages) == 23
    assert min(coverages) >= 0.75
    assert sum(coverages) / len(coverages) >= 0.95


def test_httpx_site_output_has_no_navigation_or_footer_text() -> None:
    for html, url, _source in _site_pages():
        r = html_to_markdown(html.read_bytes(), url=url)
        for chrome in ("Made with", "Material for MkDocs", "Table of contents", "Skip to content"):
            assert chrome not in r.markdown, (html, chrome)
        article = etree.HTML(html.read_bytes()).xpath("//article")[0]
        assert r.markdown.count("](") <= len(article.xpath(".//a[@href] | .//img")), html


def test_heading_anchors_are_the_pages_own_ids_and_links_are_absolute() -> None:
    data = (SITE / "quickstart" / "index.html").read_bytes()
    r = html_to_markdown(data, url="https://www.python-httpx.org/quickstart/")
    page_ids = etree.HTML(data).xpath("//article//*[self::h2 or self::h3]/@id")
    assert [a for level, _t, a in r.headings if level in (2, 3)] == page_ids
    targets = re.findall(r"\]\(<?([^)\s>]+)", r.markdown)
    assert targets and all(t.startswith(("https://", "http://")) for t in targets)


_WORKER = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))
from docorbit_assets.lib.html_to_md import html_to_markdown
results = {}
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    r = html_to_markdown(data, url="https://docs.example.test/page/")
    results[path] = {"markdown": r.markdown, "truncated": r.truncated, "reason": r.truncation_reason}
print(json.dumps(results))
"""


def test_bad_and_big_inputs_keep_their_marker_or_say_truncated(big_cases: Path) -> None:
    files = sorted([*BAD.iterdir(), *big_cases.iterdir()])
    # A worker with a 2 GiB address-space cap and a deadline: bounded memory and time.
    done = subprocess.run(
        [sys.executable, "-c", _WORKER, *map(str, files)],
        capture_output=True,
        timeout=240,
        cwd=REPO,
        text=True,
        check=True,
    )
    results = json.loads(done.stdout)
    assert len(results) == len(files) >= 20
    for path in files:
        result = results[str(path)]
        source = path.read_bytes()
        for marker in MARKERS:
            if marker.encode() in source:
                assert marker in result["markdown"] or result["truncated"], (path.name, marker)
    assert results[str(BAD / "deep_div_300.html")]["truncated"]
    assert "Excessive depth" in results[str(BAD / "deep_div_300.html")]["reason"]
    assert "rows cut" in results[str(big_cases / "giant_table.html")]["reason"]
