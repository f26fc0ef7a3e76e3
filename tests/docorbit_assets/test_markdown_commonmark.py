"""markdown_scan reads block structure as CommonMark does (issue 13, item 9).

Each case failed with the line scanner alone: it made a section heading of ``# …`` inside an
HTML block and inside a fence left open at the end of a page.
"""

from __future__ import annotations

from docorbit_assets.lib.markdown_scan import scan_markdown


def _headings(text: str) -> list[str]:
    return [h.text for h in scan_markdown(text).headings]


def test_heading_inside_html_blocks_is_raw_html():
    text = (
        "# Page\n\n<div>\n# In a div\n</div>\n\n<details>\n<summary>More</summary>\n"
        "## In details\n</details>\n\n<Tabs>\n### In an MDX component\n</Tabs>\n\n"
        "<!--\n## In a comment\n-->\n\n## After\n"
    )
    assert _headings(text) == ["Page", "After"]


def test_blank_line_ends_the_html_block_and_markdown_headings_count_again():
    text = "<details>\n<summary>x</summary>\n\n## Inside but after a blank line\n\n</details>\n"
    assert _headings(text) == ["Inside but after a blank line"]


def test_setext_underline_inside_an_html_block_is_not_a_heading():
    assert _headings("<div>\nTitle\n---\n</div>\n") == []


def test_fence_left_open_runs_to_the_end_of_the_page():
    text = "# Page\n\nText.\n\n```python\n# a comment, not a section\nx = 1\n\n## nor this\n"
    scan = scan_markdown(text)
    assert [h.text for h in scan.headings] == ["Page"]
    (fence,) = scan.fences
    assert (fence.start, fence.language) == (4, "python")
    assert fence.code == "# a comment, not a section\nx = 1\n\n## nor this"
    assert all(scan.in_fence[4:9])


def test_fence_left_open_in_a_list_item_ends_with_the_item():
    text = "# Page\n\n- step\n\n  ```bash\n  # comment\nafter the list\n\n## Next\n"
    scan = scan_markdown(text)
    assert [h.text for h in scan.headings] == ["Page", "Next"]
    assert [(f.start, f.end, f.code) for f in scan.fences] == [(4, 5, "# comment")]


def test_closed_fences_and_admonition_headings_are_unchanged():
    text = (
        "# Page\n\n```py\n# code\n```\n\n!!! note\n    ## Heading in an admonition\n\n"
        "    text\n\n## Last\n"
    )
    scan = scan_markdown(text)
    assert [h.text for h in scan.headings] == ["Page", "Heading in an admonition", "Last"]
    assert [(f.start, f.end) for f in scan.fences] == [(2, 4)]


def test_pathological_block_structure_is_scanned_without_losing_lines():
    text = "<div>\n" * 20_000 + "```\n" * 3 + "> " * 500 + "# deep\n"
    scan = scan_markdown(text)
    assert len(scan.lines) == 20_005
    assert scan.headings == []
