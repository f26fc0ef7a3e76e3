"""Retrieval evaluation: run a JSONL query file through search, write the scorer's run format.

Contract:
  - ``load_queries(path)`` -> query dicts from JSONL lines ``{"id", "query", "library"?, "version"?}``
    (other keys, e.g. gold answers, are ignored); a line without ``id``/``query`` or with bad
    JSON is an ``InputError`` naming the line.
  - ``run_queries(catalog, queries, *, backend=None, limit=10, hybrid=None, cfg=None)`` -> one
    dict per query (``hybrid`` and ``cfg``, the scoring settings, as in ``search``),
    ``{"id", "ranked": [{"path", "heading", "anchor", "breadcrumb"}, ...]}`` in query order
    (the run format of ``score_retrieval.py``). A query whose library filter the index does
    not hold gets an empty ranking rather than stopping the run.
  - ``query_hits(catalog, query, *, backend=None, limit=10, hybrid=None, cfg=None)`` -> the
    search hits of one query dict, ``[]`` when the index does not hold its library: what
    ``run_queries`` ranks (``scripts/dump_candidates.py`` keeps the hits' content too).
  - ``write_run(rows, path)`` writes them as JSONL (sorted keys); ``evaluate_file`` does all
    three and returns the run path.
  - ``score_run(queries, rows)`` -> ``{"n", "mrr@10", "r@1", "r@5", "r@10"}`` at section level
    (a hit is right when its ``(path, anchor)`` is a query's gold or alternate section, as in
    the shared ``score_retrieval.py``); queries without gold are left out.
  - ``retrieval_gate(candidate, baseline, *, tolerance, min_mrr=None)`` -> list of problems
    (empty = pass): MRR@10 or R@5 below the baseline's by more than ``tolerance``, or MRR@10
    below ``min_mrr``. The blocking asset check ``retrieval_benchmark`` uses both.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docorbit_serve.errors import InputError, NotFound
from docorbit_serve.home import atomic_write_bytes
from docorbit_serve.search import search
from docorbit_serve.search.scoring import ScoringConfig

__all__ = [
    "evaluate_file",
    "load_queries",
    "query_hits",
    "retrieval_gate",
    "run_queries",
    "score_run",
    "write_run",
]


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


def query_hits(
    catalog: Any,
    query: dict[str, Any],
    *,
    backend: str | None = None,
    limit: int = 10,
    hybrid: bool | None = None,
    cfg: ScoringConfig | None = None,
) -> list[Any]:
    kw: dict[str, Any] = {"cfg": cfg} if cfg is not None else {}
    try:
        return search(
            catalog,
            query["query"],
            library=query.get("library"),
            version=query.get("version") or None,
            limit=limit,
            backend=backend,
            hybrid=hybrid,
            **kw,
        ).hits
    except NotFound:
        return []


def run_queries(
    catalog: Any,
    queries: Iterable[dict[str, Any]],
    *,
    backend: str | None = None,
    limit: int = 10,
    hybrid: bool | None = None,
    cfg: ScoringConfig | None = None,
) -> list[dict[str, Any]]:
    rows = []
    for q in queries:
        hits = query_hits(catalog, q, backend=backend, limit=limit, hybrid=hybrid, cfg=cfg)
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
    hybrid: bool | None = None,
    cfg: ScoringConfig | None = None,
) -> Path:
    queries = load_queries(queries_path)
    rows = run_queries(catalog, queries, backend=backend, limit=limit, hybrid=hybrid, cfg=cfg)
    write_run(rows, run_path)
    return Path(run_path)


def _gold(q: dict[str, Any]) -> set[tuple[str, str]]:
    return {
        (str(g.get("path", "")), str(g.get("anchor", "")))
        for g in [*(q.get("gold") or []), *(q.get("alternates") or [])]
    }


def score_run(queries: Iterable[dict[str, Any]], rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Section-level MRR@10 and recall of a run against the queries' gold sections."""
    ranked = {r["id"]: r["ranked"] for r in rows}
    n, mrr, hits = 0, 0.0, {1: 0, 5: 0, 10: 0}
    for q in queries:
        gold = _gold(q)
        if not gold:
            continue
        n += 1
        run = ranked.get(q["id"], [])[:10]
        rank = next(
            (i for i, h in enumerate(run, 1) if (h.get("path"), h.get("anchor")) in gold), None
        )
        if rank is not None:
            mrr += 1.0 / rank
            for k in hits:
                hits[k] += rank <= k
    if not n:
        return {"n": 0, "mrr@10": 0.0, "r@1": 0.0, "r@5": 0.0, "r@10": 0.0}
    return {
        "n": n,
        "mrr@10": round(mrr / n, 4),
        **{f"r@{k}": round(v / n, 4) for k, v in hits.items()},
    }


def retrieval_gate(
    candidate: dict[str, Any],
    baseline: dict[str, Any] | None,
    *,
    tolerance: float,
    min_mrr: float | None = None,
) -> list[str]:
    """Problems that block a publication (empty list = the candidate passes)."""
    problems = []
    if baseline and baseline.get("n"):
        for metric in ("mrr@10", "r@5"):
            drop = float(baseline[metric]) - float(candidate[metric])
            if drop > tolerance:
                problems.append(
                    f"{metric} fell from {baseline[metric]:.3f} to {candidate[metric]:.3f} "
                    f"(more than the tolerance {tolerance:.3f})"
                )
    if min_mrr is not None and float(candidate["mrr@10"]) < min_mrr:
        problems.append(f"mrr@10 {candidate['mrr@10']:.3f} is below the floor {min_mrr:.3f}")
    return problems
