"""The one cursor codec: opaque, URL-safe continuation tokens for every paginated result.

Contract:
- ``encode_cursor(state) -> str``: ``state`` (a JSON object with ``"v": 1``) as compact JSON with
  sorted keys, base64url without padding. Cursors are opaque to callers: pass ``next_cursor``
  back unchanged.
- ``decode_cursor(cursor, message, *, fields=()) -> dict``: the state back. Anything that is not
  base64url JSON object with ``v == 1``, or lacks one of ``fields``, or has a negative offset
  ``o``, raises ``InputError`` (code ``bad_input``) with ``message`` (which says what to do) and
  the first 200 characters of the cursor in ``detail``. Callers check what the state must match
  (same query, same publication) themselves.
- Standard library only: the CLI, the MCP server and the REST API share it.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from typing import Any

from docorbit_serve.errors import InputError

__all__ = ["decode_cursor", "encode_cursor"]


def encode_cursor(state: dict[str, Any]) -> str:
    raw = json.dumps(state, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str, message: str, *, fields: Iterable[str] = ()) -> dict[str, Any]:
    try:
        state = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if not isinstance(state, dict) or state.get("v") != 1:
            raise ValueError("unknown cursor version")
        missing = [f for f in fields if f not in state]
        if missing or ("o" in state and int(state["o"]) < 0):
            raise ValueError("bad cursor state")
        return state
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError) as e:
        raise InputError(message, detail={"cursor": str(cursor)[:200]}) from e
