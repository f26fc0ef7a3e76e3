"""``implementation_context``: task → intent → retrieval → token-budgeted pack (MCP and CLI).

Contract: ``implementation_context(catalog, task, *, budget=2000, library=None, version=None,
cursor=None) -> dict`` returns::

    {"task", "intent", "budget", "tokens", "engine", "items": [...], "omitted": [...],
     "next_cursor", "truncated", "publish_id"}

- ``docorbit_serve.context.pack_context`` (the retrieval engine: relevance + coverage −
  redundancy, budget counted on the rendered pack incl. headers) does the packing and ``engine``
  is ``"context"``; its ``ContextPack.to_json()`` is mapped onto the fields above
  (``tokens_used`` → ``tokens``; ``intent`` is a keyword guess: ``example``, ``api``,
  ``error``, ``config`` or ``how_to``), so the tool's output schema stays constant.
  ``publish_id`` is the served publication's. ``next_cursor`` continues without repeating a
  section; ``omitted`` lists relevant sections left out, with their token cost and reason.
- ``tokens`` never exceeds ``budget``. Items are fetched documentation:
  ``untrusted`` is true and their ``security_annotations`` travel with them.
- Errors are ``DocOrbitError``s: an empty task or a budget out of range is ``InputError``;
  unknown library / nothing published come from search.
"""

from __future__ import annotations

import re
from typing import Any

from docorbit_serve import render
from docorbit_serve.context import pack_context
from docorbit_serve.errors import InputError

__all__ = ["MAX_BUDGET", "MIN_BUDGET", "guess_intent", "implementation_context"]

MIN_BUDGET = 100
MAX_BUDGET = 32000
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
    raw = pack_context(
        catalog, task, budget=int(budget), library=library, version=version, cursor=cursor
    )
    out = _from_engine(raw, task, int(budget))
    out["publish_id"] = out["publish_id"] or str(catalog.manifest().get("publish_id", ""))
    return out
