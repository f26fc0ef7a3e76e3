"""``docorbit eval``: score a question set against the published docs (DESIGN.md §5).

A platform team writes questions its users ask, each with the section that answers it, and
checks that the served corpus finds them — before and after a change of sources or settings,
or in CI with a floor. The file's lines are those of the dev set and the retrieval gate
(``docorbit_serve.evaluate.load_queries``): ``{"id", "query", "library"?, "version"?,
"kind"?, "gold": [{"path", "anchor", …}], "alternates"?}``. Questions go through the same
``search`` as every face, with the publication's settings (backend, hybrid, dense stage).

Output (``--json``): ``{"publish_id", "queries", "scored", "mrr@10", "r@1", "r@5", "r@10",
"by_kind": {kind: scores}, "by_library": {library: scores}, "misses": [id, …], "floor",
"passed", "run"}``; the per-group scores are ``score_run``'s. ``misses`` are the scored
questions with no gold section in the top 10. ``--out RUN.jsonl`` also writes the run in the
scorer's format. ``--min-mrr X`` makes the command exit 4 (``mismatch``) when MRR@10 is below
X, after printing the report.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from docorbit_serve.cli._common import _catalog, _emit, _State, cli, json_option
from docorbit_serve.errors import ExitCode, InputError

__all__: list[str] = []

_METRICS = ("mrr@10", "r@1", "r@5", "r@10")


def _groups(queries: list[dict[str, Any]], key: str) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for q in queries:
        if q.get(key):
            out.setdefault(str(q[key]), []).append(q)
    return dict(sorted(out.items()))


def _misses(queries: Iterable[dict[str, Any]], rows: list[dict[str, Any]]) -> list[str]:
    from docorbit_serve.evaluate import score_run

    by_id = {r["id"]: r for r in rows}
    return [
        str(q["id"])
        for q in queries
        if (q.get("gold") or q.get("alternates")) and score_run([q], [by_id[q["id"]]])["r@10"] == 0
    ]


def eval_report(queries: list[dict[str, Any]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Scores overall, per kind and per library, and the missed questions (module docstring)."""
    from docorbit_serve.evaluate import score_run

    total = score_run(queries, rows)
    return {
        "queries": len(queries),
        "scored": total["n"],
        **{m: total[m] for m in _METRICS},
        "by_kind": {k: score_run(qs, rows) for k, qs in _groups(queries, "kind").items()},
        "by_library": {k: score_run(qs, rows) for k, qs in _groups(queries, "library").items()},
        "misses": _misses(queries, rows),
    }


def _render(data: dict[str, Any]) -> str:
    head = "| group | n | MRR@10 | R@1 | R@5 | R@10 |\n|---|---|---|---|---|---|"
    lines = [
        f"## Retrieval evaluation · publication `{data['publish_id']}`",
        f"{data['scored']} of {data['queries']} questions have gold sections",
        "",
        head,
        "| all | {} | {} |".format(data["scored"], " | ".join(f"{data[m]:.3f}" for m in _METRICS)),
    ]
    for name in ("by_kind", "by_library"):
        for group, s in data[name].items():
            cells = " | ".join(f"{s[m]:.3f}" for m in _METRICS)
            lines.append(f"| {name[3:]} {group} | {s['n']} | {cells} |")
    if data["misses"]:
        lines += ["", "Not in the top 10: " + ", ".join(data["misses"])]
    if data["floor"] is not None:
        verdict = "passed" if data["passed"] else "FAILED"
        lines += ["", f"floor MRR@10 {data['floor']:.3f}: {verdict}"]
    if data["run"]:
        lines += ["", f"run written to {data['run']}"]
    return "\n".join(lines)


@cli.command("eval")
@click.argument("queries", metavar="QUERIES.jsonl")
@click.option("--limit", type=click.IntRange(10, 50), default=10, show_default=True,
              help="Results asked for per question (scores read the top 10).")  # fmt: skip
@click.option("--out", metavar="RUN.jsonl", help="Also write the ranked results (scorer format).")
@click.option("--min-mrr", type=click.FloatRange(0.0, 1.0), help="Exit 4 below this MRR@10.")
@json_option
@click.pass_obj
def eval_(state: _State, queries: str, limit: int, out: str | None, min_mrr: float | None) -> int:
    """Score a question set (JSONL with gold sections) against the published docs: MRR@10 and
    recall overall, per kind and per library, and the questions missed."""
    from docorbit_serve.evaluate import load_queries, run_queries, write_run

    path = Path(queries)
    if not path.is_file():
        raise InputError(f"no such query file: {queries}", detail={"path": queries})
    qs = load_queries(path)
    if not qs:
        raise InputError(f"{queries} holds no questions", detail={"path": queries})
    catalog = _catalog(state.home())
    rows = run_queries(catalog, qs, limit=limit)
    if out:
        write_run(rows, Path(out))
    data = eval_report(qs, rows)
    passed = min_mrr is None or data["mrr@10"] >= min_mrr
    data.update(
        publish_id=str(catalog.manifest().get("publish_id", "")),
        floor=min_mrr,
        passed=passed,
        run=str(Path(out).resolve()) if out else None,
    )
    _emit(state, data, _render(data))
    return ExitCode.OK if passed else ExitCode.MISMATCH
