"""Fetched Markdown rendered for the dashboard stays inert, whatever HTML or link it carries;
SVG plots escape their labels. Pure functions, no server."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from docorbit_serve.web import inert, plots

HOSTILE = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    '<svg onload="alert(1)"><circle/></svg>',
    '<iframe src="https://evil.example/"></iframe>',
    "<div><style>body{display:none}</style></div>",
    '<a href="javascript:alert(1)">x</a>',
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](jav&#x61;script:alert(1))",
    "[x](vbscript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[x](file:///etc/passwd)",
    "<javascript:alert(1)>",
    '![a](https://tracker.example/p.png "t")',
    "![a](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)",
    '[x](https://ok.example/ "title" onmouseover="alert(1)")',
    "```html\n<script>alert(1)</script>\n```",
    "<!-- <script>alert(1)</script> -->",
    "<details open ontoggle=alert(1)>",
]


@pytest.mark.parametrize("markdown", HOSTILE)
def test_hostile_markdown_renders_without_active_elements_or_scriptable_urls(markdown):
    out = str(inert.to_html(markdown))
    tree = lxml_html.fragment_fromstring(out, create_parent="div")
    active = tree.xpath(
        "//script | //img | //iframe | //svg | //style | //object | //embed | //details | //form"
    )
    assert active == [], out
    for el in tree.iter():
        for name, value in el.attrib.items():
            assert not name.lower().startswith("on"), out
            if name in ("href", "src"):
                assert value.startswith(("http://", "https://", "mailto:", "#")), out


def test_external_links_are_marked_and_do_not_send_a_referrer():
    out = str(inert.to_html("[docs](https://example.com/docs) and [here](#local)"))
    tree = lxml_html.fragment_fromstring(out, create_parent="div")
    ext, local = tree.xpath("//a")
    assert ext.get("rel") == "noopener noreferrer nofollow" and ext.get("target") == "_blank"
    assert "external" in ext.get("class") and ext.xpath(".//span[@class='ext-marker']")
    assert local.get("href") == "#local" and local.get("rel") is None


def test_remote_images_become_a_marker_and_a_link_never_a_load():
    out = str(inert.to_html("![diagram](https://cdn.example/d.png)"))
    assert "<img" not in out and "[image: diagram]" in out
    assert 'href="https://cdn.example/d.png"' in out


def test_highlight_escapes_text_and_marks_terms_case_insensitively():
    out = str(inert.highlight("Set a <b>Timeout</b>; timeouts matter", ["timeout"]))
    assert "&lt;b&gt;" in out and "<b>" not in out
    assert out.count("<mark>") == 2


def test_plots_escape_labels_and_say_when_there_is_no_data():
    svg = str(plots.bars("t", ["<script>x</script>"], {"chunks": [3]}))
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert "no data" in str(plots.lines("latency", {}))
    line = str(plots.lines("latency", {"rest": [("10:00:00", 5.0), ("10:00:01", 7.5)]}, " ms"))
    assert line.count("<circle") == 2 and "<polyline" in line
