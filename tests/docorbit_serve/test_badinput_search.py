"""Bad input to search: pathological queries are bounded in work, queries beyond the caps are a
typed ``bad_input`` through the library and the CLI, every step shares one deadline, and nothing
published or served changes afterwards. Work is asserted (characters the code-token pattern
scans, terms kept), never wall-clock time; ``benchmarks/query_bench.py`` prints the times."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from click.testing import CliRunner

from docorbit_serve.catalog import Catalog
from docorbit_serve.cli import cli
from docorbit_serve.errors import InputError, SearchError
from docorbit_serve.search import query as query_mod
from docorbit_serve.search import search
from docorbit_serve.search.query import (
    MAX_QUERY_CHARS,
    MAX_QUERY_TERMS,
    MAX_TOKEN_CHARS,
    understand,
)
from tests.docorbit_serve.test_search_corpus import publish_corpus

# Kinds of pathological query, each at the length cap (never an example from an issue only).
PATHOLOGICAL = {
    "one long word": "a" * MAX_QUERY_CHARS,
    "one long identifier": ("Ab_" * MAX_QUERY_CHARS)[:MAX_QUERY_CHARS],
    "long dotted path": ("x." * MAX_QUERY_CHARS)[:MAX_QUERY_CHARS],
    "repeated phrase": ("set a timeout " * 200)[:MAX_QUERY_CHARS],
    "punctuation only": ("?!.,;:-_()[]{}<>" * 200)[:MAX_QUERY_CHARS],
    "mixed scripts": ("timeout таймаут タイムアウト مهلة " * 80)[:MAX_QUERY_CHARS],
    "many operators": ('AND OR NOT "x" -y +z (a) NEAR/3 * ' * 80)[:MAX_QUERY_CHARS],
    "error name run": "E" * (MAX_QUERY_CHARS - 5) + "Error",
    "url run": "http://" + "a" * (MAX_QUERY_CHARS - 7),
    "traceback": ('File "x.py", line 1, in f\n' * 80)[:MAX_QUERY_CHARS],
    "from import": ("from a import " + "b, " * MAX_QUERY_CHARS)[:MAX_QUERY_CHARS],
}


def _words(n: int) -> str:
    """``n`` distinct plain words, one analysed term each (consonants only: nothing to stem)."""
    c = "bcdfghjklmnpqrtvwxz"
    return " ".join("zq" + c[i // len(c)] + c[i % len(c)] for i in range(n))


class _Counting:
    """The code-token pattern, counting the characters it is asked to scan."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.scanned = pattern, 0

    def finditer(self, text: str):  # noqa: ANN201 - same as re.Pattern.finditer
        self.scanned += len(text)
        return self.pattern.finditer(text)

    def search(self, text: str):  # noqa: ANN201
        self.scanned += len(text)
        return self.pattern.search(text)


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return publish_corpus(tmp_path_factory.mktemp("badinput-corpus"))


@pytest.fixture
def catalog(home):
    cat = Catalog(home)
    yield cat
    cat.close()


def _published(home) -> str:
    """A digest of what is published and configured (published.json, docorbit.toml if any)."""
    files = [home.published_path, home.config_path]
    return hashlib.sha256(b"".join(f.read_bytes() for f in files if f.exists())).hexdigest()


def _answer(catalog) -> list[tuple[str, float]]:
    return [(h.chunk_id, h.score) for h in search(catalog, "timeout client", limit=5).hits]


@pytest.mark.parametrize("kind", sorted(PATHOLOGICAL))
def test_a_pathological_query_at_the_cap_costs_linear_work(kind, monkeypatch):
    text = PATHOLOGICAL[kind]
    counting = _Counting(query_mod._CODE_TOKEN)
    monkeypatch.setattr(query_mod, "_CODE_TOKEN", counting)
    q = understand(text)
    # Each whitespace token is scanned at most twice (identifiers, intents), and only tokens
    # short enough to be identifiers: the 10,000-character word that took ~20 s scanned its
    # whole length from every position.
    assert counting.scanned <= 2 * len(text)
    assert all(len(i) <= MAX_TOKEN_CHARS for i in q.identifiers)
    assert len(q.terms) <= MAX_QUERY_TERMS * 8  # typed terms under the cap, plus expansions


@pytest.mark.parametrize("kind", sorted(PATHOLOGICAL))
def test_a_pathological_query_is_answered_or_refused_as_bad_input_and_changes_nothing(
    kind, home, catalog
):
    before, answer = _published(home), _answer(catalog)
    try:
        res = search(catalog, PATHOLOGICAL[kind], limit=10)
    except InputError as e:
        assert e.code == "bad_input" and e.detail.get("max_terms") == MAX_QUERY_TERMS
    else:
        assert len(res.hits) <= 10 and all(h.untrusted for h in res.hits)
    assert _published(home) == before and _answer(catalog) == answer


@pytest.mark.parametrize(
    "text, detail_key",
    [
        ("a" * 10_000, "max_chars"),  # the case
        ("x" * (MAX_QUERY_CHARS + 1), "max_chars"),  # one past the cap
        (_words(MAX_QUERY_TERMS + 1), "max_terms"),
    ],
)
def test_a_query_beyond_the_caps_is_bad_input_before_any_work(text, detail_key, catalog):
    with pytest.raises(InputError) as e:
        search(catalog, text)
    assert e.value.code == "bad_input" and detail_key in e.value.detail
    assert "limit" in e.value.message


def test_a_query_at_the_caps_is_searched():
    assert understand("a" * MAX_QUERY_CHARS).text
    assert len(understand(_words(MAX_QUERY_TERMS)).terms) == MAX_QUERY_TERMS


def test_the_cli_refuses_an_overlong_query_with_bad_input_and_exit_7(home):
    before = _published(home)
    res = CliRunner().invoke(
        cli, ["--home", str(home.path), "search", "a" * 10_000, "--json"], catch_exceptions=False
    )
    assert res.exit_code == 7, res.output
    err = json.loads(res.stdout)["error"]
    assert err["code"] == "bad_input" and err["detail"]["max_chars"] == MAX_QUERY_CHARS
    assert _published(home) == before


def test_query_understanding_runs_under_the_search_deadline(catalog):
    # A deadline already spent stops the search right after understanding the query: that
    # step is inside the limit, not before it.
    with pytest.raises(SearchError) as e:
        search(catalog, "timeout client", time_limit_s=0)
    assert e.value.code == "search_timeout"
    assert e.value.detail["step"] == "query understanding"


@pytest.mark.parametrize("limit", ["abc", 0, 51, 2.5, True, [3]])
def test_a_batch_line_with_a_bad_limit_is_bad_input_before_any_output(home, tmp_path, limit):
    batch = tmp_path / "batch.jsonl"
    lines = [{"id": 1, "query": "timeout"}, {"id": 2, "query": "timeout", "limit": limit}]
    batch.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    res = CliRunner().invoke(
        cli, ["--home", str(home.path), "search", "--batch", str(batch), "--json"]
    )
    assert res.exit_code == 7, res.output
    out = res.stdout.strip().splitlines()
    assert len(out) == 1 and json.loads(out[0])["error"]["detail"]["line"] == 2


def test_a_batch_line_beyond_the_query_cap_is_answered_with_its_own_error(home, tmp_path):
    batch = tmp_path / "batch.jsonl"
    lines = [{"id": "long", "query": "a" * 10_000}, {"id": "ok", "query": "timeout client"}]
    batch.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    res = CliRunner().invoke(
        cli, ["--home", str(home.path), "search", "--batch", str(batch), "--json"]
    )
    assert res.exit_code == 0, res.output
    long, ok = (json.loads(x) for x in res.stdout.strip().splitlines())
    assert long["error"]["code"] == "bad_input" and long["hits"] == []
    assert ok["id"] == "ok" and "error" not in ok
