"""One cursor codec (issue 12 item 2): every paged answer, the diff's included, encodes and
decodes its continuation token with ``docorbit_serve.cursors``; no module keeps its own copy."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from docorbit_serve.changes.diff import _offset
from docorbit_serve.cursors import encode_cursor
from docorbit_serve.errors import InputError
from tests.support.code import package_modules

REPO = Path(__file__).resolve().parents[2]
BIND = {"l": "pydantic", "f": "s_1", "t": "s_2", "k": ["page"]}


def test_only_the_codec_module_base64_encodes_cursors():
    users = []
    for path, tree in package_modules().items():
        names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        if path.startswith("docorbit_serve/") and names & {
            "urlsafe_b64encode",
            "urlsafe_b64decode",
        }:
            users.append(path)
    assert users == ["docorbit_serve/cursors.py"]


def test_the_diff_reads_the_offset_of_a_cursor_the_codec_wrote():
    assert _offset(None, BIND) == 0
    assert _offset(encode_cursor({"v": 1, "o": 4, "b": BIND}), BIND) == 4


@pytest.mark.parametrize(
    ("cursor", "message"),
    [
        (encode_cursor({"v": 1, "o": 4, "b": {**BIND, "t": "s_3"}}), "another diff"),
        (encode_cursor({"v": 1, "o": -1, "b": BIND}), "invalid cursor"),
        (encode_cursor({"v": 2, "o": 1, "b": BIND}), "invalid cursor"),
        ("not a cursor!", "invalid cursor"),
    ],
)
def test_a_foreign_or_broken_cursor_is_bad_input(cursor, message):
    with pytest.raises(InputError, match=message) as e:
        _offset(cursor, BIND)
    assert e.value.code == "bad_input"
