"""Provider ``github`` (kind web): ``github.com/OWNER/REPO`` links in the source page, valid as
declared by the site (not fetched); ``official`` when the page marks it as its source."""

from __future__ import annotations

import re

from docorbit_assets.lib.probe import (
    Candidate,
    ProbeContext,
    Provider,
)
from docorbit_assets.lib.providers.page import (
    source_page,
)

__all__ = ["PROVIDER"]

_GITHUB = re.compile(r"^https?://(?:www\.)?github\.com/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)", re.I)
_GITHUB_SKIP = {"sponsors", "orgs", "topics", "features", "marketplace", "about", "login"}


def _probe_github(ctx: ProbeContext) -> list[Candidate]:
    page = source_page(ctx)
    if not page:
        return []
    resp, info = page
    repos: dict[str, tuple[bool, str]] = {}
    for href, marks, text in info.anchors:
        m = _GITHUB.match(href)
        if not m or m.group(1).lower() in _GITHUB_SKIP:
            continue
        repo = f"{m.group(1)}/{m.group(2).removesuffix('.git')}"
        declared = bool(
            re.search(r"md-source|\bme\b|repo|source", marks)
            or re.search(r"github|repositor|source", text, re.I)
        )
        old = repos.get(repo)
        if old is None or (declared and not old[0]):
            repos[repo] = (declared, text)
    out = []
    for repo, (declared, text) in sorted(repos.items())[:10]:
        out.append(
            Candidate(
                url=f"https://github.com/{repo}",
                type="github",
                discovered_by="html_link",
                status="valid",
                rationale=f"repository {repo} linked from {resp.final_url}"
                + (" as its source" if declared else "")
                + " (not fetched)",
                content_type="",
                confidence=0.8 if declared else 0.5,
                authority="official" if declared else "community",
                machine_readable=False,
                purposes=("implementation", "examples"),
                metadata={
                    "repo": repo,
                    "found_on": resp.final_url,
                    "label": text,
                    "verified": False,
                },
            )
        )
    return out


PROVIDER = Provider("github", frozenset({"web"}), _probe_github)
