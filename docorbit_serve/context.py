"""Token-budgeted context packing for a task (``docorbit context``, MCP get_implementation_context).

Contract::

    pack_context(catalog, task, *, budget, library=None, version=None, cursor=None,
                 backend=None) -> ContextPack

- Retrieves up to ``POOL`` sections for ``task`` with ``search.search`` (one hit per section)
  and keeps the *relevant* ones: score at least ``RELEVANCE_FLOOR`` x the best score.
- Packs greedily by ``relevance + COVERAGE * new query words covered - REDUNDANCY * overlap with
  what is already packed`` (overlap = the largest Jaccard share of word stems with a packed
  chunk; a chunk overlapping a packed one by more than ``DUPLICATE`` is left out as redundant).
  ``relevance`` is rank-based, ``1 / sqrt(1 + rank)`` of the hit in the search's order (0 for
  the best): it does not depend on the scale of the scores, which differs between the lexical
  ranking, its factors and the dense stage's rank fusion (before session 7 it was ``score /
  best score``; gold inside at 500 / 2000 tokens, lexical: dev 30 / 36 -> 32 / 37, second set
  33 / 38 -> 34 / 40; docs/retrieval.md, session 7).
- **Never exceeds the budget.** Each packed chunk is rendered as one block: a header line with
  its id and provenance, then its Markdown (``ContextItem.text``); the pack's text is the blocks
  joined by a blank line (``ContextPack.text``), and ``count_tokens(pack.text) <= budget`` with
  the pages' tokenizer (``docorbit_serve.tokens``), headers included. ``tokens`` is that
  count. The budget is ``MIN_BUDGET``..``MAX_BUDGET`` (50..200,000) for the CLI and MCP alike.
  When the chunk chosen next does not fit whole in what is left, its first part is packed
  with ``truncated: true`` (read the rest with get_doc) if at least ``_MIN_EXCERPT`` tokens of
  it fit; otherwise the next choice is tried. A long relevant section is thus never skipped
  for smaller, weaker ones (lexical search, 500 tokens: a gold section in the pack for 28
  instead of 26 of the 45 dev questions; docs/retrieval.md, "Context packing").
- One section takes at most ``ITEM_SHARE`` (a quarter) of the budget unless the search's top hit
  is a confident answer (its score leads the second's by at least ``CONFIDENT_LEAD``, as the
  second stage's guard): when the top hits are close, a small budget holds the heads of the
  top four sections instead of one whole section that may be the wrong one. A head that does
  not fit the share is tried in all the room left. (Lexical, gold inside at 500 / 2000 tokens:
  dev 28 / 36 -> 33 / 36 of 45, second set 28 / 36 -> 34 / 37 of 56; 8000 unchanged.)
- ``omitted``: the omission manifest, relevant chunks left out, each ``{chunk_id, heading, path,
  tokens, score, reason}`` (``reason``: ``"budget"`` or ``"redundant"``; ``tokens`` = the cost
  of its block).
- ``next_cursor``: ``None`` when no relevant chunk is left for a further call; otherwise pass it
  back as ``cursor`` with the same task/library/version to get the next pack, which never
  repeats a chunk any earlier call of the chain returned. A cursor for another task is an
  ``InputError``.
- Every item is documentation fetched from elsewhere: ``untrusted`` is always true and it
  carries its ``security_annotations`` and provenance (source, library, version, url, path,
  snapshot).

- ``intent``: the task's leading intent from query understanding (``search.query``: the one
  classifier), in the order ``INTENT_ORDER``; ``implementation`` when none is detected.

The result is the shared model ``docorbit_serve.models.core.ContextPack`` (items are
``ContextItem``, a ``Hit`` with ``truncated`` and its rendered block ``text``); the CLI's
``--json`` and MCP's ``structuredContent`` are its ``model_dump(mode="json")``. ``truncated`` is
set when relevant sections were left out or an item was cut. ``publish_id`` is the served
publication's.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

from docorbit_serve.cursors import decode_cursor, encode_cursor
from docorbit_serve.errors import InputError
from docorbit_serve.models.core import ContextItem, ContextPack, OmittedChunk
from docorbit_serve.search import search
from docorbit_serve.search.analyze import word_stems
from docorbit_serve.search.query import understand
from docorbit_serve.tokens import count_tokens, encoding_name, truncate_to_tokens

__all__ = [
    "MAX_BUDGET",
    "MIN_BUDGET",
    "INTENT_ORDER",
    "POOL",
    "pack_context",
    "task_intent",
    "render_block",
]

POOL = 40
RELEVANCE_FLOOR = 0.3
COVERAGE = 0.3
REDUNDANCY = 0.5
DUPLICATE = 0.8
MIN_BUDGET = 50
MAX_BUDGET = 200_000
_SEP = "\n\n"
API_SHARE = 0.4  # at most this share of the budget goes to endpoint contracts, pitfalls, examples
_MIN_EXCERPT = 40  # tokens of content worth packing as a truncated excerpt
ITEM_SHARE = 1 / 4  # of the budget, per section, unless the top hit is confident
CONFIDENT_LEAD = 0.2  # the top hit leads the second by this share of its score


# The pack's intent: the first of these the query understanding detects in the task.
INTENT_ORDER = (
    "troubleshooting",
    "examples",
    "configuration",
    "migration",
    "api",
    "conceptual",
    "implementation",
)


def task_intent(task: str) -> str:
    """The task's leading intent (``search.query.understand``), ``implementation`` if none."""
    found = set(understand(task).intents)
    return next((i for i in INTENT_ORDER if i in found), "implementation")


def render_block(hit: Any, content: str, *, truncated: bool = False) -> str:
    """One packed chunk: a provenance header line, then its Markdown."""
    where = " > ".join([*hit.breadcrumb, hit.heading] if hit.heading else hit.breadcrumb)
    ver = f"@{hit.version}" if hit.version else ""
    flags = "untrusted" + (", truncated" if truncated else "")
    annotated = ", security-annotated" if hit.security_annotations else ""
    header = (
        f"<!-- chunk {hit.chunk_id} · {hit.library}{ver} · {hit.path}"
        f"{'#' + hit.anchor if hit.anchor else ''} · {where or hit.title} · "
        f"{flags}{annotated} -->"
    )
    return f"{header}\n{content.strip()}"


def _fingerprint(task: str, library: str | None, version: str | None) -> str:
    raw = json.dumps([task, library, version], ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()[:16]


def _encode_cursor(fp: str, seen: list[str]) -> str:
    return encode_cursor({"v": 1, "fp": fp, "seen": seen})


def _decode_cursor(cursor: str, fp: str) -> list[str]:
    state = decode_cursor(
        cursor,
        "invalid context cursor: pass back next_cursor unchanged, or call without cursor",
        fields=("fp", "seen"),
    )
    if not isinstance(state["seen"], list) or str(state["fp"]) != fp:
        raise InputError(
            "this cursor continues another task (task, library and version must be the same)",
            detail={"cursor": cursor[:200]},
        )
    return [str(s) for s in state["seen"]]


def _jaccard(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def _check(task: Any, budget: Any) -> None:
    if not isinstance(task, str) or not task.strip():
        raise InputError("the task is empty; describe what you are implementing")
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise InputError(f"budget must be an integer, got {budget!r}")
    if not MIN_BUDGET <= budget <= MAX_BUDGET:
        raise InputError(
            f"budget must be between {MIN_BUDGET} and {MAX_BUDGET} tokens",
            detail={"budget": budget},
        )


def _item(hit: Any, content: str, text: str, truncated: bool) -> ContextItem:
    fields = {**hit.model_dump(), "content": content, "tokens": count_tokens(text)}
    return ContextItem(**{**fields, "truncated": truncated}, text=text)


def _excerpt(hit: Any, room: int) -> tuple[str, str] | None:
    """The longest head of ``hit``'s content whose block fits ``room`` tokens, if useful."""
    header_cost = count_tokens(render_block(hit, "", truncated=True)) + 2
    limit = room - header_cost
    while limit >= _MIN_EXCERPT:
        content = truncate_to_tokens(hit.content, limit).rstrip("\ufffd")
        cut = content.rfind("\n")
        if cut >= len(content) // 2:
            content = content[:cut]
        text = render_block(hit, content, truncated=True)
        if count_tokens(text) + 2 <= room:
            return content, text
        limit -= 16
    return None


def _relevance(rank: int) -> float:
    """The packing utility's relevance of the hit at ``rank`` (0 = best) in the search order."""
    return 1.0 / math.sqrt(1.0 + rank)


def _choose(
    pool: list[Any],
    qwords: set[str],
    words: dict[str, set[str]],
    blocks: dict[str, str],
    costs: dict[str, int],
    budget: int,
    cap: int,
) -> tuple[list[ContextItem], list[Any], list[set[str]]]:
    """Greedy packing by utility (module docstring): the packed items, the pool's hits left
    out, and the word sets of what was packed. A chosen section that does not fit whole is
    packed as its head (``truncated``) when a useful part fits, so the next-best section is
    never skipped for smaller, weaker ones just because it is long; no section takes more than
    ``cap`` tokens when a head of it fits that share."""
    items: list[ContextItem] = []
    rank = {h.chunk_id: n for n, h in enumerate(sorted(pool, key=lambda h: -h.score))}
    covered: set[str] = set()
    packed_words: list[set[str]] = []
    used = 0
    remaining = list(pool)
    passed: set[str] = set()  # chosen, but neither whole nor a useful head fitted
    while True:
        best, best_u = None, float("-inf")
        for h in remaining:
            if h.chunk_id in passed:
                continue
            w = words[h.chunk_id]
            overlap = max((_jaccard(w, p) for p in packed_words), default=0.0)
            if overlap > DUPLICATE:
                continue
            new = len((w & qwords) - covered) / len(qwords) if qwords else 0.0
            u = _relevance(rank[h.chunk_id]) + COVERAGE * new - REDUNDANCY * overlap
            if u > best_u:
                best, best_u = h, u
        if best is None:
            break
        room = min(budget - used, cap)
        if costs[best.chunk_id] <= room:
            item = _item(best, best.content, blocks[best.chunk_id], False)
            used += costs[best.chunk_id]
        else:
            ex = _excerpt(best, room)
            if ex is None and room < budget - used:
                ex = _excerpt(best, budget - used)
            if ex is None:
                passed.add(best.chunk_id)
                continue
            item = _item(best, ex[0], ex[1], True)
            used += count_tokens(ex[1]) + 2
        items.append(item)
        covered |= words[best.chunk_id] & qwords
        packed_words.append(words[best.chunk_id])
        remaining.remove(best)
    return items, remaining, packed_words


def pack_context(
    catalog: Any,
    task: str,
    *,
    budget: int,
    library: str | None = None,
    version: str | None = None,
    cursor: str | None = None,
    backend: str | None = None,
) -> ContextPack:
    """Relevant, non-redundant chunks for ``task`` within ``budget`` tokens (module docstring)."""
    _check(task, budget)
    fp = _fingerprint(task, library, version)
    seen = _decode_cursor(cursor, fp) if cursor else []
    seen_set = set(seen)
    api = None
    if not seen:  # the first pack leads with the endpoint contracts, pitfalls and examples
        from docorbit_serve.api.context import api_context

        api = api_context(
            catalog, task, room=int(budget * API_SHARE), library=library, version=version
        )
    full_budget, budget = budget, budget - (api.tokens + 2 if api is not None else 0)
    res = search(catalog, task, library=library, version=version, limit=POOL, backend=backend)
    hits = res.hits
    top = max((h.score for h in hits), default=0.0)
    relevant = [h for h in hits if top > 0 and h.score >= RELEVANCE_FLOOR * top]
    pool = [h for h in relevant if h.chunk_id not in seen_set]

    qwords = set(word_stems(task))
    words = {h.chunk_id: set(word_stems(f"{h.heading}\n{h.content}")) for h in pool}
    blocks = {h.chunk_id: render_block(h, h.content) for h in pool}
    costs = {cid: count_tokens(b) + 2 for cid, b in blocks.items()}  # +2: the joining blank line

    scores = sorted((h.score for h in pool), reverse=True)
    confident = len(scores) < 2 or scores[1] <= (1 - CONFIDENT_LEAD) * scores[0]
    cap = budget if confident else int(budget * ITEM_SHARE)
    items, remaining, packed_words = _choose(pool, qwords, words, blocks, costs, budget, cap)
    omitted: dict[str, OmittedChunk] = {}

    # Belt and braces: the joined text is what is counted against the budget.
    while items and count_tokens(_SEP.join(i.text for i in items)) > budget:
        drop = items.pop()
        remaining.append(next(h for h in pool if h.chunk_id == drop.chunk_id))
    used = count_tokens(_SEP.join(i.text for i in items))

    api_text = [api.text] if api is not None else []
    while items and count_tokens(_SEP.join([*api_text, *(i.text for i in items)])) > full_budget:
        drop = items.pop()
        remaining.append(next(h for h in pool if h.chunk_id == drop.chunk_id))
    used = count_tokens(_SEP.join([*api_text, *(i.text for i in items)]))
    budget = full_budget

    packed_ids = {i.chunk_id for i in items}
    for h in remaining:
        if h.chunk_id in packed_ids:
            continue
        w = words[h.chunk_id]
        overlap = max((_jaccard(w, p) for p in packed_words), default=0.0)
        omitted[h.chunk_id] = OmittedChunk(
            chunk_id=h.chunk_id,
            heading=h.heading,
            path=h.path,
            tokens=costs[h.chunk_id],
            score=h.score,
            reason="redundant" if overlap > DUPLICATE else "budget",
        )
    left = [o for o in omitted.values() if o.reason == "budget"]
    new_seen = seen + [i.chunk_id for i in items]
    next_cursor = _encode_cursor(fp, new_seen) if left and items else None
    if left and not items and seen:  # a page with nothing new that fits: still continue
        next_cursor = None
    return ContextPack(
        task=task,
        intent=task_intent(task),
        budget=budget,
        tokens=used,
        library=library,
        version=version,
        tokenizer=encoding_name(),
        items=items,
        omitted=sorted(omitted.values(), key=lambda o: (-o.score, o.chunk_id)),
        next_cursor=next_cursor,
        truncated=bool(omitted) or any(i.truncated for i in items),
        publish_id=str(catalog.manifest().get("publish_id", "")),
        api=api,
    )
