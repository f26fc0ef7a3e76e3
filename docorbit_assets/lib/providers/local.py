"""Provider ``local`` (kind ``local``): one ``local`` candidate, valid when the folder exists and
holds at least one document (Markdown, HTML or rST; ``.txt`` when an include glob names it:
``local_files.local_document_files``) after the include/exclude globs (``filefilter``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docorbit_assets.lib.local_files import local_document_files
from docorbit_assets.lib.probe import ALL_PURPOSES, Candidate, ProbeContext, Provider

__all__ = ["PROVIDER"]


def _probe_local(ctx: ProbeContext) -> list[Candidate]:
    cfg = ctx.cfg
    folder = Path(cfg.resolved_location(ctx.project_root))
    url = "file://" + folder.as_posix()
    base: dict[str, Any] = {
        "url": url,
        "type": "local",
        "discovered_by": "local",
        "purposes": ALL_PURPOSES,
    }
    if not folder.exists():
        return [Candidate(**base, status="invalid", rationale=f"folder {folder} does not exist")]
    if not folder.is_dir():
        return [Candidate(**base, status="invalid", rationale=f"{folder} is not a folder")]
    files = local_document_files(folder, cfg.include, cfg.exclude)
    if not files:
        return [
            Candidate(
                **base,
                status="invalid",
                rationale=f"folder {folder} holds no Markdown, HTML or reStructuredText files "
                "(.md, .mdx, .markdown, .html, .htm, .rst; .txt when include names it)"
                + (" matching include/exclude" if cfg.include or cfg.exclude else ""),
            )
        ]
    return [
        Candidate(
            **base,
            status="valid",
            content_type="text/markdown",
            confidence=1.0,
            rationale=f"local folder with {len(files)} documents",
            metadata={"files": len(files)},
        )
    ]


PROVIDER = Provider("local", frozenset({"local"}), _probe_local)
