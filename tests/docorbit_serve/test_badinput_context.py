"""``docorbit context`` prints fetched text only inside the untrusted-data wrapper, like every
other Markdown output: each line of each packed section's text appears in the Markdown only as
a quoted line between ``[BEGIN UNTRUSTED DOC …]`` and ``[END UNTRUSTED DOC …]``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from docorbit_serve.cli import cli

pytestmark = pytest.mark.slow  # the session's real ingest of the httpx docs (published_home)


def _run(home, *args: str) -> str:
    res = CliRunner().invoke(cli, ["--home", str(home.path), *args], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.stdout


def _quoted_lines(markdown: str) -> set[str]:
    inside, out = False, set()
    for line in markdown.splitlines():
        if line.startswith("[BEGIN UNTRUSTED DOC"):
            inside = True
        elif line.startswith("[END UNTRUSTED DOC"):
            inside = False
        elif inside:
            assert line.startswith(">"), line  # nothing unquoted inside a block
            out.add(line[1:].strip())
    assert not inside  # every block is closed
    return out


@pytest.mark.parametrize("task", ["set a timeout on requests", "stream a large download"])
def test_context_markdown_quotes_every_fetched_line_inside_the_wrapper(published_home, task):
    data = json.loads(_run(published_home, "context", task, "--budget", "1500", "--json"))
    markdown = _run(published_home, "context", task, "--budget", "1500")
    assert data["items"] and data["untrusted"] is True
    quoted = _quoted_lines(markdown)
    outside = {
        line.strip()
        for line in markdown.splitlines()
        if not line.startswith(">") and not line.startswith("[")
    }
    for item in data["items"]:
        lines = [ln.strip() for ln in item["content"].splitlines()]
        # Long lines (unique enough to find); a section of short lines only, such as an
        # exception tree, is checked by its lines of more than 12 characters.
        body = [ln for ln in lines if len(ln) > 30] or [ln for ln in lines if len(ln) > 12]
        assert body, item["chunk_id"]
        for line in body:
            assert line in quoted, (item["chunk_id"], line)
            assert line not in outside, (item["chunk_id"], line)
