"""Tests for ``docorbit_assets.lib.pitfalls`` (which sentences state a trap, of which kind) and the
rows ``extract.extract_pitfalls`` makes of them.

The labelled samples in ``fixtures/pitfalls`` (fastapi: in-sample, pydantic: held-out) are
re-classified here, so the precision written in ``docs/api.md`` stays true of the code.
"""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from docorbit_assets.lib.extract import extract_pitfalls
from docorbit_assets.lib.normalize import normalize_markdown
from docorbit_assets.lib.pitfalls import KINDS, classify
from docorbit_assets.lib.slice import slice_pages
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS
from tests.support.paths import FIXTURES

LABELLED = FIXTURES / "pitfalls"
CFG = SourceConfig(name="ex", kind="web", location="https://docs.example.com/", library="ex")


def _labelled(name: str) -> list[dict]:
    lines = (LABELLED / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.parametrize(
    ("name", "rows", "precision"),
    [("fastapi_labelled.jsonl", 56, 0.875), ("pydantic_labelled.jsonl", 55, 0.873)],
)
def test_labelled_samples_are_still_classified_as_labelled(name, rows, precision):
    sample = _labelled(name)
    assert len(sample) == rows >= 40
    assert [classify(r["sentence"]) for r in sample] == [r["kind"] for r in sample]
    measured = sum(r["pitfall"] for r in sample) / len(sample)
    assert round(measured, 3) == precision  # the figure docs/api.md states


@pytest.mark.parametrize(
    "sentence",
    [
        'Breaking changes and new features are added in "MINOR" versions.',
        "Following the Semantic Versioning conventions, any version below 1.0.0 could "
        "potentially add breaking changes.",
        "This release has **no breaking changes**.",
        "To deprecate a *path operation*, pass the parameter `deprecated`.",
        "It will be clearly marked as deprecated in the interactive docs:",
        "You don't have to declare them in any specific order.",
        "If you need to set SSE fields, you can yield objects instead.",
        "The item is removed from the list when you pop it.",
        "Pass `deprecated=True` to mark the operation.",
        "Is this deprecated?",
        "Breaking changes 🚨",
        "👷 Add custom tokens for GitHub Actions to avoid rate limits.",
        "I would expect `Doc` to be deprecated and then removed at some point.",
    ],
)
def test_sentences_that_only_mention_a_kind_are_not_pitfalls(sentence):
    assert classify(sentence) == ""


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("The `copy()` method has been removed in v2; use `model_copy()`.", "removed"),
        ("Support for Python 3.8 is no longer available.", "removed"),
        ("This is a breaking change for custom transports.", "breaking_change"),
        ("`Client.send_all()` is deprecated, use `Client.send()` instead.", "deprecated"),
        ("Never commit your API keys to version control.", "security"),
        ("Rendering user input unescaped is unsafe to do in templates.", "security"),
        ("This endpoint requires the `admin` scope for the organisation.", "permission"),
        ("Only owners can delete a project from the dashboard.", "permission"),
        ("Requests are rate limited to 60 requests per minute per key.", "rate_limit"),
        ("The SDK returns 429 Too Many Requests when you exceed the quota.", "rate_limit"),
        ("This hook can only be used in Server Components, never in the browser.", "server_only"),
        ("The secret key must not be used in the browser under any circumstances.", "server_only"),
        ("useState only works in client components.", "client_only"),
        ("This API cannot be used on the server because it reads `window`.", "client_only"),
        ("The Edge build is not supported on Windows at the moment.", "runtime_restriction"),
        ("Sessions are not thread-safe, so create one per thread.", "runtime_restriction"),
        ("`asyncio.run()` must be called from a synchronous context only.", "runtime_restriction"),
        ("You must set `OPENAI_API_KEY` before creating the client.", "required_config"),
        ("The `trio` package must be installed to use the Trio backend.", "required_config"),
    ],
)
def test_explicit_statements_get_their_kind(sentence, kind):
    assert kind in KINDS
    assert classify(sentence) == kind


def test_deprecated_with_an_announced_removal_is_deprecated_and_a_past_removal_is_removed():
    assert classify("The `json()` method is deprecated and will be removed in V3.") == "deprecated"
    assert classify("Remove deprecated `skip_defaults`, use instead `exclude_unset`.") == "removed"


def test_rows_carry_the_sentence_its_section_symbols_and_endpoints():
    text = (
        "# API\n\n## Engines\n\nEngines list models. "
        "`GET /v1/engines` is deprecated; use `GET /v1/models` and `client.models.list()` "
        "instead. It returns ids.\n\n"
        "!!! warning\n    Calls are rate limited to 3 requests per second.\n"
    )
    row = normalize_markdown(
        cfg=CFG, path="api.md", url="https://docs.example.com/api.md", text=text,
        fetched_at="t", raw_bytes=1,
    )  # fmt: skip
    chunks = slice_pages(pa.Table.from_pylist([row], schema=SCHEMAS["pages"]))
    table = extract_pitfalls(chunks)
    assert table.schema.equals(SCHEMAS["pitfalls"])
    rows = sorted(table.to_pylist(), key=lambda r: r["kind"])
    assert [(r["kind"], r["heading"]) for r in rows] == [
        ("deprecated", "Engines"),
        ("rate_limit", "Engines"),
    ]
    dep = rows[0]
    assert dep["sentence"].startswith("`GET /v1/engines` is deprecated")
    assert dep["endpoints"] == ["GET /v1/engines", "GET /v1/models"]
    assert dep["symbols"] == ["client.models.list"]
    assert dep["symbol"] == "client.models.list"
    assert dep["text"] == dep["sentence"]  # a paragraph's unit is its sentence
    assert rows[1]["sentence"] == "Calls are rate limited to 3 requests per second."
