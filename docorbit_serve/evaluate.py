"""Retrieval evaluation: run a JSONL query file through search, write the scorer's run format.

Contract:
  - ``load_queries(path)`` -> query dicts from JSONL lines ``{"id", "query", "library"?}``
    (other keys, e.g. gold answers, are ignored); a line without ``id``/``query`` or with bad
    JSON is an ``InputError`` naming the line.
  - ``run_queries(catalog, queries, *, backend=None, limit=10)`` -> one dict per query,
    ``{"id", "ranked": [{"path", "heading", "anchor", "breadcrumb"}, ...]}`` in query order
    (the run format of ``score_retrieval.py``). A query whose library filter the index does
    not hold gets an empty ranking rather than stopping the run.
  - ``write_run(rows, path)`` writes them as JSONL (sorted keys); ``evaluate_file`` does all
    three and returns the run path.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docorbit_serve.errors import InputError, NotFound
from docorbit_serve.home import atomic_write_bytes
from docorbit_serve.search import search

__all__ = ["evaluate_file", "load_queries", "run_queries", "write_run"]


def load_queries(path: Path) -> list[dict[str, Any]]:
    out = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise InputError(f"cannot read query file {path}: {e}") from e
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            q = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"{path}:{n}: not valid JSON ({e.msg})") from e
        if not isinstance(q, dict) or "id" not in q or not isinstance(q.get("query"), str):
            raise InputError(f'{path}:{n}: a query line needs "id" and "query"')
        out.append(q)
    return out


def run_queries(
    catalog: Any, queries: Iterable[dict[str, Any]], *, backend: str | None = None, limit: int = 10
) -> list[dict[str, Any]]:
    rows = []
    for q in queries:
        try:
            res = search(
                catalog, q["query"], library=q.get("library"), limit=limit, backend=backend
            )
            hits = res.hits
        except NotFound:
            hits = []
        ranked = [
            {"path": h.path, "heading": h.heading, "anchor": h.anchor, "breadcrumb": h.breadcrumb}
            for h in hits
        ]
        rows.append({"id": q["id"], "ranked": ranked})
    return rows


def write_run(rows: Iterable[dict[str, Any]], path: Path) -> None:
    text = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows)
    atomic_write_bytes(Path(path), text.encode("utf-8"))


def evaluate_file(
    catalog: Any,
    queries_path: Path,
    run_path: Path,
    *,
    backend: str | None = None,
    limit: int = 10,
) -> Path:
    write_run(
        run_queries(catalog, load_queries(queries_path), backend=backend, limit=limit), run_path
    )
    return Path(run_path)
