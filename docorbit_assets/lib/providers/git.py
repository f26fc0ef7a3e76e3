"""Provider ``git`` (kind ``git``): one ``git`` candidate for a local repository at a ref, valid
when the repository, the ref and the folder resolve (``git_tree.read_tree``) and the tree holds
at least one document; ``metadata`` names the ``commit`` (the fetch reads that commit, so a
branch moving between discovery and fetch cannot mix two trees) and the ``files`` count."""

from __future__ import annotations

from typing import Any

from docorbit_assets.lib.git_tree import read_tree
from docorbit_assets.lib.probe import ALL_PURPOSES, Candidate, ProbeContext, Provider
from docorbit_serve.errors import FetchError

__all__ = ["PROVIDER"]


def _probe_git(ctx: ProbeContext) -> list[Candidate]:
    cfg = ctx.cfg
    location = cfg.resolved_location(ctx.project_root)
    url = location if cfg.is_web else "file://" + location
    base: dict[str, Any] = {
        "url": url,
        "type": "git",
        "discovered_by": "git",
        "purposes": ALL_PURPOSES,
    }
    try:
        tree = read_tree(location, cfg.ref, include=cfg.include, exclude=cfg.exclude)  # no blobs
    except FetchError as e:
        return [
            Candidate(
                **base, status="invalid", rationale=e.message, metadata={"error_code": e.code}
            )
        ]
    at = f"{cfg.ref or 'HEAD'} = {tree.commit[:12]}"
    if not tree.files:
        return [
            Candidate(
                **base,
                status="invalid",
                rationale=f"the tree at {at} holds no Markdown, HTML or reStructuredText files "
                "(.md, .mdx, .markdown, .html, .htm, .rst; .txt when include names it)",
                metadata={"commit": tree.commit},
            )
        ]
    return [
        Candidate(
            **base,
            status="valid",
            content_type="text/markdown",
            confidence=1.0,
            rationale=f"git repository at {at} with {len(tree.files)} documents",
            metadata={"commit": tree.commit, "files": len(tree.files)},
        )
    ]


PROVIDER = Provider("git", frozenset({"git"}), _probe_git)
