"""Diff of two snapshots of one source, or of two versions of one library (issue 15 point 1).

Contract:
- ``diff_tables(old, new, from_snapshot, to_snapshot) -> list[DiffItem]``: pure comparison of
  two sets of frozen rows (``{"endpoints"|"pages"|"chunks"|"pitfalls"|"symbols": [row, …]}``):
  - endpoints by ``endpoint_key`` (method + path template): added, removed, ``deprecated`` (newly
    deprecated; other contract changes ride along in ``details``), modified (``endpoints.compare``);
  - pages by ``path``: added / removed / modified (normalised Markdown differs);
  - sections (chunks grouped by ``path`` + ``anchor``, split parts joined) of pages present on
    both sides: added / removed / modified;
  - pitfalls by kind + symbol + normalised text, symbols by kind + qualname: added / removed.
  A section that is an endpoint's own section of the spec's rendered page, and an ``endpoint``
  symbol, are left out when the endpoints are compared too (the endpoint item says it).
  Text is compared in ``normalize.normalized`` form, so whitespace, list markers, emphasis,
  re-wrapping and link order are not changes. Items are sorted by kind, change, key; every item
  carries url, anchor or JSON pointer, and both snapshot ids.
- ``diff(home, target=None, from_=None, to=None, *, kinds=None, limit=200, cursor=None)
  -> DiffResult``: resolves the two snapshots (``snapshots.resolve_pair``), reads the frozen
  Parquet through DuckDB, returns one page of items with ``next_cursor`` (opaque; bound to the
  two snapshot ids and the kinds, ``InputError`` when it does not match), the totals per kind and
  change, and both sides' provenance. Deterministic: the same snapshots give the same JSON.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from docorbit_serve.changes import endpoints as ep
from docorbit_serve.changes.normalize import markdown_units, normalized
from docorbit_serve.changes.snapshots import SnapshotRef, read_rows, resolve_pair
from docorbit_serve.cursors import decode_cursor, encode_cursor
from docorbit_serve.errors import InputError, UsageError
from docorbit_serve.home import Home
from docorbit_serve.models.change import DiffItem, DiffResult, DiffSide

__all__ = ["KINDS", "MAX_LIMIT", "diff", "diff_tables", "load_tables", "summarize"]

KINDS = ("endpoint", "page", "section", "pitfall", "symbol")
MAX_LIMIT = 1000
_TABLES = ("endpoints", "pages", "chunks", "pitfalls", "symbols")
_CHANGE_ORDER = {"removed": 0, "deprecated": 1, "modified": 2, "added": 3}

Rows = dict[str, list[dict[str, Any]]]


def _item(kind: str, change: str, key: str, sides: tuple[str, str], **kw: Any) -> DiffItem:
    return DiffItem(
        kind=kind,  # type: ignore[arg-type]
        change=change,  # type: ignore[arg-type]
        key=key,
        from_snapshot=sides[0],
        to_snapshot=sides[1],
        **kw,
    )


def _line_delta(a: str, b: str) -> str:
    ua, ub = markdown_units(a), markdown_units(b)
    plus = minus = 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ua, ub, autojunk=False).get_opcodes():
        if op != "equal":
            minus += i2 - i1
            plus += j2 - j1
    return f"{minus} block(s) removed or changed, {plus} added or changed (normalised)"


# --------------------------------------------------------------------------- endpoints


def _endpoint_items(old: list[dict], new: list[dict], sides: tuple[str, str]) -> list[DiffItem]:
    a = {ep.endpoint_key(r["method"], r["path"]): r for r in old}
    b = {ep.endpoint_key(r["method"], r["path"]): r for r in new}
    out: list[DiffItem] = []
    for key in sorted(a.keys() | b.keys()):
        row = b.get(key) or a[key]
        kw = {
            "title": f"{str(row['method']).upper()} {row['path']}"
            + (f" ({row['operation_id']})" if row.get("operation_id") else ""),
            "url": str(row.get("spec_url") or ""),
            "pointer": ep.pointer(row),
        }
        if key not in a:
            dep = ["deprecated"] if row.get("deprecated") else []
            out.append(_item("endpoint", "added", key, sides, details=dep, **kw))
        elif key not in b:
            was = ["was deprecated"] if a[key].get("deprecated") else []
            out.append(_item("endpoint", "removed", key, sides, details=was, **kw))
        else:
            changes = ep.compare(a[key], row)
            if row.get("deprecated") and not a[key].get("deprecated"):
                note = str(row.get("deprecation_note") or "")
                out.append(
                    _item(
                        "endpoint",
                        "deprecated",
                        key,
                        sides,
                        details=[note] * bool(note) + changes,
                        **kw,
                    )
                )
            elif changes:
                out.append(_item("endpoint", "modified", key, sides, details=changes, **kw))
    return out


# --------------------------------------------------------------------------- pages, sections


def _page_items(old: list[dict], new: list[dict], sides: tuple[str, str]) -> list[DiffItem]:
    a = {r["path"]: r for r in old}
    b = {r["path"]: r for r in new}
    out: list[DiffItem] = []
    for path in sorted(a.keys() | b.keys()):
        row = b.get(path) or a[path]
        kw = {"title": str(row.get("title") or ""), "url": str(row.get("url") or "")}
        if path not in a:
            out.append(_item("page", "added", path, sides, **kw))
        elif path not in b:
            out.append(_item("page", "removed", path, sides, **kw))
        else:
            ma, mb = str(a[path].get("markdown") or ""), str(row.get("markdown") or "")
            if ma != mb and normalized(ma) != normalized(mb):
                out.append(
                    _item("page", "modified", path, sides, details=[_line_delta(ma, mb)], **kw)
                )
    return out


def _sections(chunks: Iterable[dict]) -> dict[tuple[str, str], dict[str, Any]]:
    parts: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for c in chunks:
        parts[(str(c["path"]), str(c.get("anchor") or ""))].append(c)
    out = {}
    for key, rows in parts.items():
        rows.sort(key=lambda r: (r.get("line_start") or 0, r["id"]))
        first = rows[0]
        out[key] = {
            "heading": str(first.get("heading") or ""),
            "url": str(first.get("url") or ""),
            "text": "\n".join(str(r.get("text") or "") for r in rows),
        }
    return out


def _section_items(
    old: list[dict], new: list[dict], pages_both: set[str], sides: tuple[str, str]
) -> list[DiffItem]:
    a = _sections(c for c in old if c["path"] in pages_both)
    b = _sections(c for c in new if c["path"] in pages_both)
    out: list[DiffItem] = []
    for key in sorted(a.keys() | b.keys()):
        sec = b.get(key) or a[key]
        path, anchor = key
        kw = {"title": sec["heading"], "url": sec["url"], "anchor": anchor}
        label = f"{path}#{anchor}" if anchor else path
        if key not in a:
            out.append(_item("section", "added", label, sides, **kw))
        elif key not in b:
            out.append(_item("section", "removed", label, sides, **kw))
        elif a[key]["text"] != sec["text"] and normalized(a[key]["text"]) != normalized(
            sec["text"]
        ):
            delta = _line_delta(a[key]["text"], sec["text"])
            out.append(_item("section", "modified", label, sides, details=[delta], **kw))
    return out


# --------------------------------------------------------------------------- pitfalls, symbols


def _set_items(
    kind: str,
    old: list[dict],
    new: list[dict],
    keyf: Any,
    sides: tuple[str, str],
    describe: Any,
    urls: dict[str, str],
) -> list[DiffItem]:
    a = {keyf(r): r for r in old}
    b = {keyf(r): r for r in new}
    out = []
    for key in sorted(a.keys() | b.keys()):
        if (key in a) == (key in b):
            continue
        row = b.get(key) or a[key]
        change = "added" if key in b else "removed"
        out.append(_item(kind, change, key, sides, **describe(row), url=_row_url(row, urls)))
    return out


def _row_url(r: dict, urls: dict[str, str]) -> str:
    """The page URL (+ ``#anchor``) of a pitfall or symbol row, else its path."""
    page = urls.get(str(r.get("page_id") or ""))
    anchor = str(r.get("anchor") or "")
    if page:
        return page + (f"#{anchor}" if anchor and "#" not in page else "")
    return str(r.get("path") or "")


def _pitfall_key(r: dict) -> str:
    return f"{r.get('kind', '')}: {r.get('symbol') or '-'}: {normalized(str(r.get('text') or ''))}"


def _pitfall_desc(r: dict) -> dict[str, Any]:
    return {
        "title": str(r.get("symbol") or r.get("kind") or ""),
        "anchor": str(r.get("anchor") or ""),
        "details": [str(r.get("text") or "")[:300]],
    }


def _symbol_key(r: dict) -> str:
    return f"{r.get('kind', '')} {r.get('qualname') or r.get('name')}"


def _symbol_desc(r: dict) -> dict[str, Any]:
    sig = str(r.get("signature") or "")
    return {
        "title": str(r.get("qualname") or r.get("name") or ""),
        "anchor": str(r.get("anchor") or ""),
        "details": [sig] if sig else [],
    }


# --------------------------------------------------------------------------- assembly


def diff_tables(old: Rows, new: Rows, from_snapshot: str, to_snapshot: str) -> list[DiffItem]:
    sides = (from_snapshot, to_snapshot)
    g = lambda rows, t: rows.get(t) or []  # noqa: E731
    both = {r["path"] for r in g(old, "pages")} & {r["path"] for r in g(new, "pages")}
    urls = {str(r["id"]): str(r.get("url") or "") for r in g(old, "pages") + g(new, "pages")}
    items = (
        _endpoint_items(g(old, "endpoints"), g(new, "endpoints"), sides)
        + _page_items(g(old, "pages"), g(new, "pages"), sides)
        + _section_items(g(old, "chunks"), g(new, "chunks"), both, sides)
        + _set_items(
            "pitfall",
            g(old, "pitfalls"),
            g(new, "pitfalls"),
            _pitfall_key,
            sides,
            _pitfall_desc,
            urls,
        )  # fmt: skip
        + _set_items(
            "symbol",
            g(old, "symbols"),
            g(new, "symbols"),
            _symbol_key,
            sides,
            _symbol_desc,
            urls,
        )  # fmt: skip
    )
    items = _fold_endpoint_echoes(items, old, new)
    items.sort(key=lambda i: (KINDS.index(i.kind), _CHANGE_ORDER[i.change], i.key))
    return items


def _fold_endpoint_echoes(items: list[DiffItem], old: Rows, new: Rows) -> list[DiffItem]:
    """Drop the echoes of an endpoint change: the operation's section of the spec's rendered
    page and its ``endpoint`` symbol — the endpoint item already says it, with more detail."""
    eps = (old.get("endpoints") or []) + (new.get("endpoints") or [])
    if not eps:
        return items
    op_chunks = {r.get("chunk_id") for r in eps if r.get("chunk_id")}
    chunks = (old.get("chunks") or []) + (new.get("chunks") or [])
    op_sections = {
        f"{c['path']}#{c.get('anchor') or ''}" if c.get("anchor") else str(c["path"])
        for c in chunks
        if c.get("id") in op_chunks
    }
    keys = {ep.endpoint_key(str(r["method"]), str(r["path"])) for r in eps}

    def echo(i: DiffItem) -> bool:
        if i.kind == "section":
            return i.key in op_sections
        if i.kind == "symbol" and i.key.startswith("endpoint "):
            method, _, path = i.key.removeprefix("endpoint ").partition(" ")
            return ep.endpoint_key(method, path) in keys
        return False

    return [i for i in items if not echo(i)]


def _side(ref: SnapshotRef) -> DiffSide:
    return DiffSide.model_validate(ref.to_json())


def _offset(cursor: str | None, bind: dict[str, Any]) -> int:
    if not cursor:
        return 0
    state = decode_cursor(
        cursor,
        "invalid cursor: pass back next_cursor of the previous call unchanged",
        fields=("o",),
    )
    if state.get("b") != bind:
        raise InputError("this cursor belongs to another diff: repeat the call without it")
    return int(state["o"])


def summarize(items: list[DiffItem]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for i in items:
        out.setdefault(i.kind, {}).setdefault(i.change, 0)
        out[i.kind][i.change] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(out.items())}


def load_tables(home: Home, ref: SnapshotRef, kinds: Iterable[str]) -> Rows:
    want = set(kinds)
    need = {"endpoints": "endpoint", "pages": "page", "chunks": "section"}
    need |= {"pitfalls": "pitfall", "symbols": "symbol"}
    # endpoints are read for sections and symbols too: their echoes of an endpoint are folded
    tables = [
        t
        for t in _TABLES
        if need[t] in want
        or (t == "pages" and want & {"section", "pitfall", "symbol"})
        or (t == "endpoints" and want & {"section", "symbol"})
    ]
    return {t: read_rows(home, ref, t) for t in tables}


def diff(
    home: Home,
    target: str | None = None,
    from_: str | None = None,
    to: str | None = None,
    *,
    kinds: Iterable[str] | None = None,
    limit: int = 200,
    cursor: str | None = None,
) -> DiffResult:
    chosen = tuple(sorted(set(kinds or KINDS), key=KINDS.index)) if kinds else KINDS
    bad = [k for k in chosen if k not in KINDS]
    if bad:
        raise UsageError(f"unknown diff kind(s) {bad}; choose from {', '.join(KINDS)}")
    if not 1 <= limit <= MAX_LIMIT:
        raise UsageError(f"limit must be between 1 and {MAX_LIMIT}")
    old, new, mode = resolve_pair(home, target, from_, to)
    bind = {"f": old.id, "t": new.id, "k": list(chosen)}
    offset = _offset(cursor, bind)
    items = [
        i
        for i in diff_tables(
            load_tables(home, old, chosen), load_tables(home, new, chosen), old.id, new.id
        )
        if i.kind in chosen
    ]
    page = items[offset : offset + limit]
    nxt = (
        encode_cursor({"v": 1, "o": offset + limit, "b": bind})
        if offset + limit < len(items)
        else None
    )
    return DiffResult.model_validate(
        {
            "target": target or new.source,
            "mode": mode,
            "from": _side(old),
            "to": _side(new),
            "summary": summarize(items),
            "total": len(items),
            "items": page,
            "next_cursor": nxt,
        }
    )
