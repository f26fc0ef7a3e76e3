"""Concise Markdown for change results (CLI text output and the MCP tools' text content).

Contract: ``render_diff``, ``render_verify``, ``render_impact`` take the shared models and
return Markdown. Text that comes from fetched documentation (titles, headings, deprecation
notes, details) is printed only inside ``render.untrusted_block``; the framing lines are
DocOrbit's own.
"""

from __future__ import annotations

from docorbit_serve.models.change import DiffResult, ImpactResult, VerifyResult
from docorbit_serve.render import one_line, untrusted_block

__all__ = ["render_diff", "render_impact", "render_verify"]


def _summary_line(summary: dict[str, dict[str, int]]) -> str:
    parts = [
        f"{kind}: " + ", ".join(f"{n} {change}" for change, n in counts.items())
        for kind, counts in summary.items()
    ]
    return "; ".join(parts) or "no changes"


def render_diff(res: DiffResult) -> str:
    a, b = res.from_, res.to
    head = [
        f"# Diff of {one_line(res.target, 80)} ({res.mode})",
        f"from {one_line(a.source, 80)} {one_line(a.version, 40)} `{a.snapshot}` "
        f"to {one_line(b.source, 80)} {one_line(b.version, 40)} `{b.snapshot}`",
        f"{res.total} change(s) — {_summary_line(res.summary)}",
    ]
    lines = []
    for i in res.items:
        where = i.pointer or (f"{i.url}#{i.anchor}" if i.anchor and "#" not in i.url else i.url)
        lines.append(f"- {i.change} {i.kind} `{one_line(i.key, 200)}` {one_line(i.title, 120)}")
        if where:
            lines.append(f"  at {one_line(where, 200)}")
        lines += [f"  - {one_line(d, 300)}" for d in i.details[:8]]
    out = "\n".join(head)
    if lines:
        out += "\n\n" + untrusted_block("\n".join(lines), ref=f"diff {a.snapshot}..{b.snapshot}")
    if res.next_cursor:
        out += f"\n\nMore: pass cursor `{res.next_cursor}`"
    return out


def render_verify(res: VerifyResult) -> str:
    head = [f"# Verify: {res.status}"]
    head.append(", ".join(f"{n} {s}" for s, n in res.counts.items() if n) or "no API calls found")
    if res.versions:
        head.append("checked against " + ", ".join(f"{k} {v}" for k, v in res.versions.items()))
    head += [f"> version: {one_line(n, 300)}" for n in res.notices]
    lines = []
    for r in res.calls:
        c = r.call
        target = r.endpoint or c.url or ".".join(c.sdk_chain) or "?"
        lines.append(
            f"- {c.file or '<code>'}:{c.line} {r.status} — {c.client} {one_line(target, 200)}"
        )
        lines.append(f"  `{one_line(c.snippet, 200)}`")
        for f in r.findings:
            if f.status == "verified":
                continue
            fix = f" Fix: {one_line(f.fix, 200)}" if f.fix else ""
            lines.append(f"  - {f.rule} {f.status}: {one_line(f.message, 300)}{fix}")
    out = "\n".join(head)
    if lines:
        out += "\n\n" + untrusted_block("\n".join(lines), ref="verify")
    return out


def render_impact(res: ImpactResult) -> str:
    d = res.diff
    head = [
        f"# Impact of {one_line(d.target, 80)} {one_line(d.from_.version, 40)} `{d.from_.snapshot}` "
        f"→ {one_line(d.to.version, 40)} `{d.to.snapshot}`",
        f"{len(res.hits)} use(s) in {res.files_scanned} file(s) under {one_line(res.root, 200)}"
        + (" (truncated)" if res.truncated else ""),
    ]
    lines = []
    for h in res.hits:
        lines.append(
            f"- {h.file}:{h.line} [{h.certainty}] {h.change} {h.kind} `{one_line(h.key, 200)}`"
        )
        lines.append(f"  `{one_line(h.snippet, 200)}`")
        lines += [f"  - {one_line(x, 300)}" for x in h.details[:4]]
    out = "\n".join(head)
    if lines:
        out += "\n\n" + untrusted_block("\n".join(lines), ref="impact")
    return out
