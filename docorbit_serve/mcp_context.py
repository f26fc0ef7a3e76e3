"""``implementation_context``: task → intent → retrieval → token-budgeted pack (MCP and CLI).

Contract: ``implementation_context(catalog, task, *, budget=2000, library=None, version=None,
cursor=None) -> dict`` returns::

    {"task", "intent", "budget", "tokens", "engine", "items": [...], "omitted": [...],
     "next_cursor", "truncated", "publish_id"}

- ``docorbit_serve.context.pack_context`` (the retrieval engine: relevance + coverage −
  redundancy, budget counted on the rendered pack incl. headers) does the packing and ``engine``
  is ``"context"``; its ``ContextPack.to_json()`` is mapped onto the fields above
  (``tokens_used`` → ``tokens``; ``intent`` is the keyword guess below), so the tool's output
  schema stays constant. ``publish_id`` is the served publication's.
- Without that module (``engine`` ``"search"``, the fallback this started with) a simple pack: the task's ``intent`` is a keyword guess
  (``example``, ``api``, ``error``, ``config``, ``how_to``); retrieval is ``search`` (top
  ``_CANDIDATES`` sections after the cursor's offset); items are taken in rank order while their
  ``tokens`` fit into ``budget`` (cl100k tokens of the section text); sections that did not fit
  are listed in ``omitted`` with their token cost, and ``next_cursor`` continues after the last
  candidate considered, so nothing returned is repeated.
- ``tokens`` (sum of the items' tokens) never exceeds ``budget``. Items are fetched documentation:
  ``untrusted`` is true and their ``security_annotations`` travel with them.
- Errors are ``DocOrbitError``s: an empty task or a budget out of range is ``InputError``;
  unknown library / nothing published come from search.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from docorbit_serve import render
from docorbit_serve.errors import InputError

__all__ = ["MAX_BUDGET", "MIN_BUDGET", "guess_intent", "implementation_context"]

MIN_BUDGET = 100
MAX_BUDGET = 32000
_CANDIDATES = 20
_INTENTS = (
    ("error", r"\b(error|exception|traceback|fails?|failing|raises?|bug|fix)\b"),
    ("example", r"\b(example|sample|snippet|show me)\b"),
    ("config", r"\b(config|configure|setting|settings|option|options|env|timeout|proxy)\b"),
    ("api", r"\b(api|class|method|function|signature|parameter|argument|returns?)\b|\w+\(\)"),
)


def guess_intent(task: str) -> str:
    low = task.lower()
    for name, pattern in _INTENTS:
        if re.search(pattern, low):
            return name
    return "how_to"


def _encode(state: dict[str, Any]) -> str:
    raw = json.dumps(state, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _decode(cursor: str) -> dict[str, Any]:
    try:
        state = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if not isinstance(state, dict) or state.get("v") != 1 or int(state["o"]) < 0:
            raise ValueError("bad cursor")
        return state
    except (ValueError, KeyError, TypeError, binascii.Error, UnicodeDecodeError) as e:
        raise InputError(
            "invalid cursor: pass back next_cursor of the previous result unchanged",
            detail={"cursor": cursor[:200]},
        ) from e


_ITEM_KEYS = (
    "chunk_id",
    "library",
    "version",
    "source",
    "url",
    "path",
    "title",
    "heading",
    "anchor",
    "breadcrumb",
    "score",
    "tokens",
    "snapshot",
    "untrusted",
    "content",
    "security_annotations",
)


def _item(hit: Any) -> dict[str, Any]:
    d = render.hit_dict(hit)
    return {k: d.get(k) for k in _ITEM_KEYS if k in d}


def _from_engine(raw: Any, task: str, budget: int) -> dict[str, Any]:
    """Map the retrieval engine's ``ContextPack`` onto this module's fields."""
    d = raw.to_json() if hasattr(raw, "to_json") else dict(raw)
    items = [_item(i) for i in d.get("items") or ()]
    omitted = [
        {
            "chunk_id": str(o.get("chunk_id", "")),
            "tokens": int(o.get("tokens", 0)),
            "score": float(o.get("score", 0)),
            "reason": str(o.get("reason") or "budget"),
        }
        for o in (dict(x) for x in d.get("omitted") or ())
    ]
    return {
        "task": task,
        "intent": str(d.get("intent") or guess_intent(task)),
        "budget": budget,
        "tokens": int(d.get("tokens_used", d.get("tokens", 0)) or 0),
        "engine": "context",
        "items": items,
        "omitted": omitted,
        "next_cursor": d.get("next_cursor"),
        "truncated": bool(omitted) or any(i.get("truncated") for i in d.get("items") or ()),
        "publish_id": str(d.get("publish_id") or ""),
    }


def implementation_context(
    catalog: Any,
    task: str,
    *,
    budget: int = 2000,
    library: str | None = None,
    version: str | None = None,
    cursor: str | None = None,
) -> dict[str, Any]:
    """A token-budgeted pack of documentation sections for ``task``; see the module docstring."""
    if not task or not task.strip():
        raise InputError("the task is empty: describe what you are implementing")
    if not MIN_BUDGET <= int(budget) <= MAX_BUDGET:
        raise InputError(
            f"budget must be between {MIN_BUDGET} and {MAX_BUDGET} tokens",
            detail={"budget": budget},
        )
    try:  # the retrieval engine's packer, when it has landed
        from docorbit_serve.context import pack_context  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        pack_context = None
    if pack_context is not None:
        raw = pack_context(
            catalog, task, budget=int(budget), library=library, version=version, cursor=cursor
        )
        out = _from_engine(raw, task, int(budget))
        out["publish_id"] = out["publish_id"] or str(catalog.manifest().get("publish_id", ""))
        return out

    from docorbit_serve.search import search

    manifest = catalog.manifest()
    publish_id = str(manifest.get("publish_id", ""))
    offset = 0
    if cursor:
        state = _decode(cursor)
        if [state.get("t"), state.get("l"), state.get("ver")] != [task, library, version]:
            raise InputError("this cursor belongs to another task; drop it or repeat that task")
        if state.get("u") != publish_id:
            raise InputError("a new snapshot was published since; call again without cursor")
        offset = int(state["o"])
    res = search(catalog, task, library=library, version=version, limit=_CANDIDATES, offset=offset)
    items: list[dict[str, Any]] = []
    omitted: list[dict[str, Any]] = []
    used = 0
    for hit in res.hits:
        item = _item(hit)
        cost = int(item.get("tokens") or 0)
        if used + cost <= int(budget):
            items.append(item)
            used += cost
        else:
            omitted.append(
                {
                    "chunk_id": item["chunk_id"],
                    "tokens": cost,
                    "score": float(item["score"]),
                    "reason": "budget",
                }
            )
    considered = offset + len(res.hits)
    more = len(res.hits) == _CANDIDATES or bool(omitted)
    next_cursor = (
        _encode({"v": 1, "t": task, "l": library, "ver": version, "o": considered, "u": publish_id})
        if more and res.hits
        else None
    )
    return {
        "task": task,
        "intent": guess_intent(task),
        "budget": int(budget),
        "tokens": used,
        "engine": "search",
        "items": items,
        "omitted": omitted,
        "next_cursor": next_cursor,
        "truncated": bool(omitted),
        "publish_id": publish_id,
    }
