"""Markdown for the API-intelligence results (CLI text output, MCP ``content``).

Contract: ``render_api(ApiResult)``, ``render_examples(ExampleResult)``,
``render_pitfalls(PitfallResult)``, ``render_recipe(RecipeResult)`` -> str. Names and
identifiers from a spec (method, path, operation id, parameter names) are metadata on one line
(``render.one_line``); every piece of fetched prose or code (summaries, descriptions, code,
pitfall sentences, recipe step text) appears only inside ``render.untrusted_block``.
"""

from __future__ import annotations

from docorbit_serve.models.api import (
    ApiResult,
    EndpointContract,
    ExampleResult,
    PitfallResult,
    RecipeItem,
    RecipeResult,
)
from docorbit_serve.render import one_line, untrusted_block

__all__ = ["render_api", "render_examples", "render_pitfalls", "render_recipe"]


def _notices(notices: list[str]) -> str:
    return "".join(f"> version: {one_line(n, 300)}\n" for n in notices) + ("\n" if notices else "")


def _contract(c: EndpointContract) -> str:
    p = c.provenance
    lines = [
        f"## {one_line(c.method, 10)} {one_line(c.path, 200)}"
        + (" (deprecated)" if c.deprecated else "")
        + (" (webhook)" if c.webhook else ""),
        f"- operation: `{one_line(c.operation_id, 120)}` · {one_line(p.library, 80)} "
        f"{one_line(p.version, 40)} · spec {one_line(p.spec_version, 20)} · "
        f"`{one_line(p.pointer, 200)}` · snapshot {one_line(p.snapshot, 80)}",
    ]
    if c.replacement:
        lines.append(f"- replacement: {one_line(c.replacement, 200)}")
    auth = [
        " + ".join(f"{one_line(s.type, 30)} `{one_line(s.scheme, 60)}`" for s in alt) or "none"
        for alt in c.auth
    ]
    lines.append("- auth: " + (" | ".join(auth) if auth else "not required"))
    if c.servers:
        lines.append("- servers: " + ", ".join(one_line(s, 200) for s in c.servers[:3]))
    for label, params in (("required", c.required_parameters), ("optional", c.optional_parameters)):
        if params:
            lines.append(
                f"- {label} parameters: "
                + ", ".join(f"`{one_line(x.name, 60)}` ({x.location})" for x in params[:30])
            )
    if c.request_body:
        b = c.request_body
        lines.append(
            f"- body ({', '.join(one_line(m, 60) for m in b.media_types) or 'any'}"
            f"{', required' if b.required else ''}): required fields "
            + (", ".join(f"`{one_line(f, 60)}`" for f in b.required_fields) or "none")
        )
    if c.responses:
        lines.append(
            "- responses: "
            + ", ".join(
                f"{one_line(r.status, 10)}"
                + (f" {one_line(r.schema_name, 60)}" if r.schema_name else "")
                for r in c.responses[:20]
            )
        )
    if c.pagination:
        lines.append(f"- pagination: {c.pagination}")
    text = "\n\n".join(x for x in (c.summary, c.deprecation_note, c.description) if x)
    if text:
        lines += ["", untrusted_block(text, ref=c.id)]
    return "\n".join(lines)


def render_api(res: ApiResult) -> str:
    head = _notices(res.notices)
    if not res.results:
        return head + f"No endpoint matches {one_line(res.query, 200)!r}."
    body = "\n\n".join(_contract(c) for c in res.results)
    more = f"\n\n({res.total - len(res.results)} more)" if res.truncated else ""
    return head + body + more


def render_examples(res: ExampleResult) -> str:
    head = _notices(res.notices)
    if not res.results:
        return head + f"No example matches {one_line(res.query, 200)!r}."
    parts = []
    for e in res.results:
        meta = " · ".join(
            x
            for x in (
                one_line(e.language, 30),
                one_line(e.framework, 30),
                f"{one_line(e.library, 80)} {one_line(e.version, 40)}",
                one_line(e.url or e.path, 200),
            )
            if x
        )
        flags = " (code missing: include not found)" if e.missing_code else ""
        parts.append(
            f"## {one_line(e.heading, 200) or '(no heading)'}{flags}\n- {meta}\n"
            + (f"- symbols: {', '.join(one_line(s, 80) for s in e.symbols[:15])}\n" if e.symbols else "")
            + "\n"
            + untrusted_block(e.code, ref=e.id)
        )  # fmt: skip
    return head + "\n\n".join(parts)


def render_pitfalls(res: PitfallResult) -> str:
    head = _notices(res.notices)
    if not res.results:
        return head + f"No documented pitfall matches {one_line(res.query, 200)!r}."
    parts = []
    for p in res.results:
        where = f"{one_line(p.library, 80)} {one_line(p.version, 40)} · {one_line(p.url or p.path)}"
        parts.append(
            f"## {p.kind}: {one_line(p.heading, 200)}\n- {where}\n\n"
            + untrusted_block(p.sentence, ref=p.id)
        )
    return head + "\n\n".join(parts)


def _items(title: str, items: list[RecipeItem]) -> str:
    if not items:
        return ""
    lines = [f"### {title}"]
    for n, it in enumerate(items, 1):
        ev = ", ".join(f"{e.type} {one_line(e.label or e.id, 120)}" for e in it.evidence[:3])
        lines.append(f"{n}. [{it.basis}] {one_line(it.text, 400)}" + (f" ({ev})" if ev else ""))
    return "\n".join(lines)


def render_recipe(res: RecipeResult) -> str:
    head = _notices(res.notices)
    top = (
        f"## Recipe: {one_line(res.task, 200)}\n"
        f"- status: {res.status} · confidence {res.confidence:.2f} · basis {res.basis}"
    )
    sections = [
        _items("Prerequisites", res.prerequisites),
        _items("Steps", res.steps),
        _items("Validation", res.validation),
        _items("Missing or to watch", res.missing),
    ]
    if res.pitfalls:
        sections.append(
            "### Pitfalls\n"
            + "\n".join(f"- {p.kind}: {one_line(p.sentence, 300)}" for p in res.pitfalls)
        )
    body = "\n\n".join(s for s in sections if s)
    # Step texts quote fetched summaries and headings: the whole recipe is quoted data.
    return head + top + "\n\n" + untrusted_block(body, ref="recipe")
