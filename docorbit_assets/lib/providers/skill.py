"""Provider ``skill`` (kind web): ``/skill.md`` (front matter raises the confidence) and
``/.well-known/skills/index.json`` (a ``skills`` list)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

from docorbit_assets.lib import openapi as _openapi
from docorbit_assets.lib.probe import (
    Candidate,
    ProbeContext,
    Provider,
    Verdict,
    check_markdown,
    decode_text,
    judge,
)

__all__ = ["PROVIDER"]


def _skill_md(text: str) -> Verdict:
    status, conf, why, meta = check_markdown(text, "skill.md")
    m = re.match(r"\A---\s*\n(.*?)\n---\s*\n", text, re.S)
    if status == "valid" and m:
        fields = dict(re.findall(r"^(name|description):\s*(.+)$", m.group(1), re.M))
        if "name" in fields:
            meta = {**meta, **{k: v.strip()[:200] for k, v in fields.items()}}
            return "valid", 0.9, f"skill '{fields['name'].strip()}' with front matter", meta
    return status, min(conf, 0.6), why, meta


def _skills_index(resp: Any) -> Verdict:
    try:
        data = _openapi.load_document(resp.body, content_type="application/json")[0]
    except _openapi.SpecError as e:
        return "invalid", 0.0, f"not JSON: {e.reason}", {}
    skills = data.get("skills") if isinstance(data, dict) else None
    if not isinstance(skills, list) or not skills:
        return "invalid", 0.0, "no 'skills' list", {}
    names = [s.get("name", "") for s in skills if isinstance(s, dict)][:50]
    return "valid", 0.8, f"skills index with {len(skills)} skills", {"skills": names}


def _probe_skill(ctx: ProbeContext) -> list[Candidate]:
    root = urljoin(ctx.location, "/")
    out = []
    for path in ("skill.md",):
        out.append(judge(ctx, urljoin(root, path), "skill", f"probe:{path}", _text(_skill_md)))
    out.append(
        judge(
            ctx,
            urljoin(root, ".well-known/skills/index.json"),
            "skill",
            "probe:well-known",
            _skills_index,
        )
    )
    return out


def _text(check: Any) -> Any:
    def validate(resp: Any) -> Verdict:
        text = decode_text(resp.body)
        return ("invalid", 0.0, "not UTF-8 text", {}) if text is None else check(text)

    return validate


PROVIDER = Provider("skill", frozenset({"web"}), _probe_skill)
