"""``find_recipe``: how to do a task with a library, from documented evidence only.

Contract::

    find_recipe(catalog, task, *, library=None, version=None, pins=None) -> RecipeResult

- Evidence: the endpoints ranked for the task (``endpoints.rank_endpoints``), the documentation
  sections search finds (``search.search``), examples (``find_example``) and pitfalls
  (``find_pitfall``).
- **Evidence strength** decides coverage, never the wording of the task alone: the *coverage*
  of an evidence item is the share of the task's terms (search analyzer: stems, stop words
  out) its own text holds. The chosen evidence's coverage is the recipe's ``confidence``; at least
  ``COVERED`` is ``covered``, at least ``PARTIAL`` is ``partial`` (the task terms no evidence
  holds are listed as ``missing_information``), below that the task is not covered: status
  and basis ``missing_information``, confidence 0, no steps, no prerequisites.
- An API recipe (the first-ranked endpoint covers at least ``PARTIAL``): prerequisites = auth schemes and base
  URL (``documented_fact``) and ``required_config``/``permission`` pitfalls; steps = obtaining
  each id the call's path needs from the collection endpoint that creates or lists it
  (``inferred_relationship``; ``missing_information`` when no endpoint provides it), then the
  call with its required parameters and body fields (``documented_fact``); validation = the
  documented success responses and error statuses (``documented_fact``; none documented is
  ``missing_information``).
- A documentation recipe (otherwise, from the covering sections): steps = the covering sections,
  best first (``documented_fact``, quoting their heading); validation = running a matching
  example (``inferred_relationship``) or ``missing_information``.
- Every item carries ``basis`` and its evidence (endpoint id, example id, pitfall id or chunk
  id, with provenance). Fetched text is ``untrusted``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from typing import Any

from docorbit_serve.api.endpoints import (
    operation_action,
    rank_endpoints,
    scope_rows,
    to_contract,
)
from docorbit_serve.api.knowledge import find_example, find_pitfall
from docorbit_serve.api.scope import check_scope, index_errors
from docorbit_serve.errors import DocOrbitError, InputError
from docorbit_serve.models.api import (
    EndpointContract,
    ExampleItem,
    PitfallItem,
    RecipeEvidence,
    RecipeItem,
    RecipeResult,
)
from docorbit_serve.search.analyze import terms

__all__ = ["COVERED", "PARTIAL", "coverage", "find_recipe"]

COVERED = 0.75
PARTIAL = 0.5
MAX_TASK_CHARS = 2000
_SECTIONS = 6
_STEP_CHARS = 240


def coverage(task_terms: set[str], text: str) -> float:
    """Share of ``task_terms`` that ``text`` holds (0..1)."""
    if not task_terms:
        return 0.0
    return len(task_terms & set(terms(text))) / len(task_terms)


def _endpoint_text(row: Mapping[str, Any]) -> str:
    return " ".join(
        str(row.get(k) or "")
        for k in ("operation_id", "summary", "path", "description")
    ) + " " + " ".join(row.get("tags") or [])  # fmt: skip


def _ev_endpoint(c: EndpointContract) -> RecipeEvidence:
    p = c.provenance
    return RecipeEvidence(
        type="endpoint",
        id=c.id,
        label=f"{c.method} {c.path}",
        library=p.library,
        version=p.version,
        url=p.spec_url,
        path=p.pointer,
        snapshot=p.snapshot,
    )


def _ev_hit(h: Any) -> RecipeEvidence:
    return RecipeEvidence(
        type="section",
        id=h.chunk_id,
        label=h.heading or h.title,
        library=h.library,
        version=h.version,
        url=h.url,
        path=h.path,
        snapshot=h.snapshot,
    )


def _ev_pitfall(p: PitfallItem) -> RecipeEvidence:
    return RecipeEvidence(
        type="pitfall", id=p.id, label=p.kind, library=p.library, version=p.version,
        url=p.url, path=p.path, snapshot=p.snapshot,
    )  # fmt: skip


def _ev_example(e: ExampleItem) -> RecipeEvidence:
    return RecipeEvidence(
        type="example", id=e.id, label=e.heading, library=e.library, version=e.version,
        url=e.url, path=e.path, snapshot=e.snapshot,
    )  # fmt: skip


def _first_sentence(text: str) -> str:
    flat = re.sub(r"\s+", " ", re.sub(r"```.*?```", " ", text, flags=re.S)).strip()
    m = re.match(r"(.{20,}?[.!?])(\s|$)", flat)
    s = m.group(1) if m else flat
    return s[:_STEP_CHARS]


def _producer(rows: list[dict[str, Any]], row: Mapping[str, Any], param: str) -> dict | None:
    """The collection endpoint that creates (else lists) the resource ``{param}`` names."""
    path = str(row["path"])
    i = path.find("{" + param + "}")
    if i <= 0:
        return None
    prefix = path[:i].rstrip("/")
    if not prefix:
        return None
    cands = [
        r for r in rows
        if str(r["path"]).split("?", 1)[0] in (prefix, prefix + ".json") and not r.get("webhook")
    ]  # fmt: skip
    for want in ("create", "list"):
        for r in cands:
            if operation_action(r) == want:
                return r
    return None


def _auth_text(c: EndpointContract) -> list[str]:
    out = []
    for alt in c.auth:
        parts = []
        for s in alt:
            where = f" in {s.location} `{s.name}`" if s.location and s.name else ""
            scopes = f" (scopes: {', '.join(s.scopes)})" if s.scopes else ""
            parts.append(f"{s.type} `{s.scheme}`{where}{scopes}")
        out.append(" and ".join(parts) if parts else "no credentials (auth optional)")
    return out


def _api_recipe(
    res: RecipeResult, row: dict[str, Any], rows: list[dict[str, Any]], pitfalls: list
) -> None:
    c = EndpointContract.model_validate(to_contract(row))
    ev = [_ev_endpoint(c)]
    res.endpoints.append(c)
    alts = _auth_text(c)
    if alts:
        res.prerequisites.append(
            RecipeItem(
                text="Authenticate with " + " or ".join(alts) + ".",
                basis="documented_fact",
                evidence=ev,
            )
        )
    elif not c.auth:
        res.missing.append(
            RecipeItem(
                text=f"The spec states no authentication for {c.method} {c.path}.",
                basis="missing_information",
                evidence=ev,
            )
        )
    if c.servers:
        res.prerequisites.append(
            RecipeItem(text=f"Base URL: {c.servers[0]}", basis="documented_fact", evidence=ev)
        )
    for p in pitfalls:
        if p.kind in ("required_config", "permission"):
            res.prerequisites.append(
                RecipeItem(text=p.sentence, basis="documented_fact", evidence=[_ev_pitfall(p)])
            )
    for param in c.required_parameters:
        if param.location != "path":
            continue
        prod = _producer(rows, row, param.name)
        if prod is None:
            res.missing.append(
                RecipeItem(
                    text=f"Where the `{param.name}` value comes from is not documented by an "
                    "endpoint of this spec.",
                    basis="missing_information",
                    evidence=ev,
                )
            )
            continue
        pc = EndpointContract.model_validate(to_contract(prod))
        res.endpoints.append(pc)
        res.steps.append(
            RecipeItem(
                text=f"Get a `{param.name}`: {pc.method} {pc.path} "
                f"({'creates' if operation_action(prod) == 'create' else 'lists'} them).",
                basis="inferred_relationship",
                evidence=[_ev_endpoint(pc), *ev],
            )
        )
    body = c.request_body
    need = [f"`{p.name}` ({p.location})" for p in c.required_parameters]
    if body and body.required_fields:
        need.append("body fields " + ", ".join(f"`{f}`" for f in body.required_fields))
    media = f" as {body.media_types[0]}" if body and body.media_types else ""
    res.steps.append(
        RecipeItem(
            text=f"Call {c.method} {c.path}{media}"
            + (" with " + "; ".join(need) if need else "")
            + (f" — {_first_sentence(c.summary).rstrip('.')}" if c.summary else "")
            + ".",
            basis="documented_fact",
            evidence=ev,
        )
    )
    if c.pagination:
        res.steps.append(
            RecipeItem(
                text=f"Page through the results ({c.pagination} pagination).",
                basis="documented_fact",
                evidence=ev,
            )
        )
    ok = [r for r in c.responses if r.success]
    errors = [r.status for r in c.responses if not r.success]
    for r in ok[:2]:
        res.validation.append(
            RecipeItem(
                text=f"Expect HTTP {r.status}"
                + (f" with {r.schema_name}" if r.schema_name else "")
                + (f": {_first_sentence(r.description)}" if r.description else ""),
                basis="documented_fact",
                evidence=ev,
            )
        )
    if errors:
        res.validation.append(
            RecipeItem(
                text="Handle the documented error statuses: " + ", ".join(errors) + ".",
                basis="documented_fact",
                evidence=ev,
            )
        )
    if not ok:
        res.missing.append(
            RecipeItem(
                text=f"No success response is documented for {c.method} {c.path}.",
                basis="missing_information",
                evidence=ev,
            )
        )
    if c.deprecated:
        res.missing.append(
            RecipeItem(
                text=f"{c.method} {c.path} is deprecated"
                + (f"; the spec names {c.replacement} instead" if c.replacement else "")
                + ".",
                basis="documented_fact",
                evidence=ev,
            )
        )


def _doc_recipe(res: RecipeResult, hits: list[tuple[Any, float]], examples: list) -> None:
    for h, _cov in hits:
        res.steps.append(
            RecipeItem(
                text=f"{h.heading or h.title}: {_first_sentence(h.content)}",
                basis="documented_fact",
                evidence=[_ev_hit(h)],
            )
        )
    if examples:
        e = examples[0]
        res.validation.append(
            RecipeItem(
                text=f"Run the documented example '{e.heading}' ({e.language or 'code'}) and "
                "check it behaves as its section describes.",
                basis="inferred_relationship",
                evidence=[_ev_example(e)],
            )
        )
    else:
        res.missing.append(
            RecipeItem(
                text="The documentation shows no way to check the result.",
                basis="missing_information",
            )
        )


def _doc_hits(
    catalog: Any, task: str, library: str | None, version: str | None, tt: set[str]
) -> list[tuple[Any, float]]:
    from docorbit_serve.search import search

    try:
        res = search(catalog, task, library=library, version=version, limit=_SECTIONS * 2)
    except DocOrbitError:
        return []
    scored = [(h, coverage(tt, f"{h.title} {h.heading} {h.content}")) for h in res.hits]
    return [(h, c) for h, c in scored if c >= PARTIAL][:_SECTIONS]


def find_recipe(
    catalog: Any,
    task: str,
    *,
    library: str | None = None,
    version: str | None = None,
    pins: Mapping[str, Any] | None = None,
) -> RecipeResult:
    """A recipe for ``task`` from documented evidence only (see the module docstring)."""
    if not task or not task.strip():
        raise InputError("the task is empty: describe what you want to do")
    if len(task) > MAX_TASK_CHARS:
        raise InputError(f"the task is longer than {MAX_TASK_CHARS} characters")
    tt = set(terms(task))
    cursor = catalog.connection().cursor()
    with contextlib.closing(cursor), index_errors():
        check_scope(cursor, library, version)
        ranked = rank_endpoints(catalog, cursor, task, library, version, 3)
        rows = scope_rows(catalog, cursor, library, version)
    # The ranker's first endpoint is the candidate (it weighs the task's action and object);
    # its coverage of the task's terms is the evidence strength.
    ep_best: tuple[dict[str, Any] | None, float] = (None, 0.0)
    if ranked:
        ep_best = (ranked[0][0], coverage(tt, _endpoint_text(ranked[0][0])))
    hits = _doc_hits(catalog, task, library, version, tt)
    doc_best = max((c for _h, c in hits), default=0.0)
    api_mode = ep_best[0] is not None and ep_best[1] >= PARTIAL  # the specific answer
    best = ep_best[1] if api_mode else doc_best
    res = RecipeResult(
        task=task,
        library=library,
        version=version,
        status="missing_information",
        basis="missing_information",
        confidence=0.0,
    )
    if best < PARTIAL or not tt:
        res.missing.append(
            RecipeItem(
                text=f"The published documentation does not cover this task: {task!r}.",
                basis="missing_information",
            )
        )
        return res
    res.status = "covered" if best >= COVERED else "partial"
    res.basis = "documented_fact"
    res.confidence = round(best, 3)
    ex = find_example(catalog, task, library=library, version=version, limit=10, pins=pins)
    if api_mode and ep_best[0] is not None:  # the main call's own code samples first
        key = f"{ep_best[0]['method']} {ep_best[0]['path']}"
        ex.results.sort(key=lambda e: key not in e.endpoints)
    ex.results = ex.results[:3]
    pf = find_pitfall(catalog, task, library=library, version=version, limit=5, pins=pins)
    examples, pitfalls = ex.results, pf.results
    res.examples, res.pitfalls = list(examples), list(pitfalls)
    res.versions, res.notices = {**ex.versions, **pf.versions}, sorted(set(ex.notices + pf.notices))
    if api_mode and ep_best[0] is not None:
        _api_recipe(res, ep_best[0], rows, list(pitfalls))
        evidence_text = _endpoint_text(ep_best[0])
    else:
        _doc_recipe(res, hits, list(examples))
        evidence_text = " ".join(f"{h.heading} {h.content}" for h, _c in hits)
    res.symbols = sorted({s for e in examples for s in e.symbols})[:30]
    uncovered = sorted(tt - set(terms(evidence_text)))
    if uncovered:
        res.missing.append(
            RecipeItem(
                text="No evidence found for: " + ", ".join(uncovered) + ".",
                basis="missing_information",
            )
        )
    return res
