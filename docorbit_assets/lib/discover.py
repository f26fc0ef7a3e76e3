"""The ``discovered`` stage: which endpoints of a source are worth ingesting, and in what order.

``discover(cfg, project_root) -> pa.Table`` (``DISCOVERED`` schema) runs every *provider* that
applies to the source's kind and ranks what they found. It never raises for an unusable source:
a missing folder, an unreachable site or an HTML page posing as ``llms.txt`` become rows with
``status`` ``invalid``/``unreachable`` and a one-line ``rationale``. The ``fetches`` stage turns
"no valid candidate" into a typed ``FetchError`` (see ``fetch.fetch_source``), so the failure
surfaces once, with the reason discovery recorded, and never as a crash here.

Providers (``PROVIDERS``; a later provider appends itself, nothing else changes):

- ``local``  (kind ``local``): one ``local`` row; valid when the folder exists and holds at least
  one Markdown file (``.md``/``.mdx``/``.markdown``) after include/exclude globs.
- ``llms``   (kinds ``web``, ``llms_txt``): probes ``<base>/llms-full.txt`` and
  ``<base>/llms.txt`` (``<base>`` = the URL's folder, the URL itself as a folder when its last
  segment has no dot, and the host root) and the
  URL itself when it names an ``llms*.txt`` file. Kind ``llms_txt`` probes only the URL itself.
- ``markdown`` (kinds ``web``, ``markdown``): the URL itself when it ends in ``.md`` (kind
  ``web``) or always (kind ``markdown``).

Validation: an ``llms.txt`` is UTF-8 Markdown with at least one link and is not HTML (whatever
the status code and content type say); ``llms-full.txt`` and Markdown pages are non-empty UTF-8
text that is not HTML. HTTP 4xx and failed validation give ``invalid``; connection errors,
timeouts and 5xx give ``unreachable``.

Ranking: valid candidates get ``rank`` 1, 2, … by ingestion preference (``INGEST_PRIORITY``:
local > llms-full.txt > llms.txt > single Markdown page; then confidence; then URL). Rows that
are not valid get ``rank`` 0. Rows are ordered by rank (valid first), then URL.

Layout: the providers live one per file in ``providers/`` (``providers.PROVIDERS`` in order),
the probe kit they share in ``probe``, the file filter in ``filefilter``, the ``llms.txt`` format
in ``llms_txt``; all network access goes through the network door in ``secure_fetch``.
The names of those modules are re-exported here for callers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pyarrow as pa

from docorbit_assets.lib.filefilter import MARKDOWN_SUFFIXES, glob_match, local_markdown_files
from docorbit_assets.lib.llms_txt import LlmsEntry, LlmsTxt, parse_llms_txt
from docorbit_assets.lib.probe import (
    LABELS,
    PURPOSE_WEIGHTS,
    PURPOSES,
    Candidate,
    ProbeContext,
    Provider,
    is_html,
    judge,
)
from docorbit_assets.lib.providers import PROVIDERS
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS, canonical_json

__all__ = [
    "INGEST_PRIORITY",
    "MARKDOWN_SUFFIXES",
    "PROVIDERS",
    "PURPOSES",
    "PURPOSE_WEIGHTS",
    "Candidate",
    "LlmsEntry",
    "LlmsTxt",
    "ProbeContext",
    "Provider",
    "best_candidate",
    "discover",
    "glob_match",
    "is_html",
    "judge",
    "local_markdown_files",
    "parse_llms_txt",
    "purpose_ranking",
    "with_allow_hosts",
]

# Higher is preferred for ingestion. Providers added later register their types here.
INGEST_PRIORITY: dict[str, int] = {
    "local": 60,
    "git": 60,
    "llms_full_txt": 50,
    "llms_txt": 40,
    "markdown": 30,
    "sitemap": 20,
    "html": 10,
    "openapi": 5,  # ingested alone only when nothing else is valid (kind ``openapi``)
}

_AUTHORITY = {"official": 1.0, "community": 0.8, "third_party": 0.6}


def _no_provider(cfg: SourceConfig) -> Candidate:
    return Candidate(
        url=cfg.location,
        type=cfg.kind if cfg.kind in INGEST_PRIORITY else "web",
        discovered_by="none",
        status="invalid",
        rationale=f"no discovery provider handles kind {cfg.kind!r} yet",
        machine_readable=False,
    )


# ---------------------------------------------------------------------------------------------
# Ranking and the table


def _scores(c: Candidate) -> dict[str, float]:
    if c.status != "valid":
        return {}
    w = PURPOSE_WEIGHTS.get(c.type, {})
    auth = _AUTHORITY.get(c.authority, 0.5)
    return {p: round(w[p] * c.confidence * auth, 4) for p in PURPOSES if w.get(p)}


def _rank(cands: Iterable[Candidate]) -> list[tuple[int, Candidate]]:
    unique: dict[tuple[str, str], Candidate] = {}
    for c in cands:  # a (URL, type) probed twice keeps the best verdict
        key = (c.url, c.type)
        old = unique.get(key)
        if old is None or (old.status != "valid" and c.status == "valid"):
            unique[key] = c
    valid = sorted(
        (c for c in unique.values() if c.status == "valid"),
        key=lambda c: (-INGEST_PRIORITY.get(c.type, 0), -c.confidence, c.url, c.type),
    )
    others = sorted(
        (c for c in unique.values() if c.status != "valid"),
        key=lambda c: (c.url, c.type, c.discovered_by),
    )
    return [(i + 1, c) for i, c in enumerate(valid)] + [(0, c) for c in others]


def purpose_ranking(discovered: pa.Table) -> dict[str, Any]:
    """Per purpose: the recommended candidate, the ranked list and a one-line rationale."""
    rows = discovered.to_pylist()
    out: dict[str, Any] = {}
    for purpose in PURPOSES:
        scored = []
        for r in rows:
            score = json.loads(r["metadata_json"]).get("purpose_scores", {}).get(purpose)
            if score:
                scored.append((score, r))
        scored.sort(key=lambda x: (-x[0], -INGEST_PRIORITY.get(x[1]["type"], 0), x[1]["url"]))
        ranked = [
            {"url": r["url"], "type": r["type"], "score": s, "authority": r["authority"]}
            for s, r in scored
        ]
        if scored:
            s, r = scored[0]
            why = (
                f"{purpose}: {LABELS.get(r['type'], r['type'])} {r['url']} "
                f"({r['authority']}, {'machine-readable' if r['machine_readable'] else 'not machine-readable'}, "
                f"score {s:.2f}) - {r['rationale']}"
            )
            out[purpose] = {"recommended": ranked[0], "ranked": ranked, "rationale": why}
        else:
            out[purpose] = {
                "recommended": None,
                "ranked": [],
                "rationale": f"{purpose}: no valid candidate serves it",
            }
    return out


def discover(
    cfg: SourceConfig,
    project_root: Path,
    *,
    providers: Sequence[Provider] | None = None,
    allow_hosts: Sequence[str] = (),
) -> pa.Table:
    """Run the applicable providers and rank their candidates (one ``discovered`` table).

    ``allow_hosts`` (registry-wide and per-run allowances) are merged with ``cfg.allow_hosts``.
    """
    cfg = with_allow_hosts(cfg, allow_hosts)
    ctx = ProbeContext(cfg, project_root)
    found: list[Candidate] = []
    applicable = [p for p in (PROVIDERS if providers is None else providers) if cfg.kind in p.kinds]
    for provider in applicable:
        found.extend(provider.probe(ctx))
    if not applicable:
        found.append(_no_provider(cfg))
    ranked = _rank(found)
    best: dict[str, tuple[float, str, str]] = {}
    for _, c in ranked:
        for p, sc in _scores(c).items():
            if p not in best or sc > best[p][0]:
                best[p] = (sc, c.url, c.type)
    rows = []
    for rank, c in ranked:
        scores = _scores(c)
        chosen = [p for p in PURPOSES if p in best and best[p][1:] == (c.url, c.type)]
        meta = {**c.metadata}
        if scores:
            meta["purpose_scores"] = scores
        if chosen:
            meta["recommended_for"] = chosen
        rationale = c.rationale
        if chosen:
            rationale = f"recommended for {', '.join(chosen)}; {rationale}"
        rows.append(
            {
                "source": cfg.name,
                "url": c.url,
                "type": c.type,
                "discovered_by": c.discovered_by,
                "status": c.status,
                "content_type": c.content_type,
                "confidence": float(c.confidence),
                "authority": c.authority,
                "machine_readable": c.machine_readable,
                "purposes": sorted(scores, key=lambda p: -scores[p])
                if scores
                else list(c.purposes),
                "rank": rank,
                "rationale": rationale,
                "metadata_json": canonical_json(meta),
            }
        )
    return pa.Table.from_pylist(rows, schema=SCHEMAS["discovered"])


def with_allow_hosts(cfg: SourceConfig, extra: Sequence[str]) -> SourceConfig:
    """``cfg`` with ``extra`` allowances appended (order kept, duplicates dropped)."""
    if not extra:
        return cfg
    return replace(cfg, allow_hosts=tuple(dict.fromkeys((*cfg.allow_hosts, *extra))))


def best_candidate(discovered: pa.Table) -> dict[str, Any] | None:
    """The best valid row that can be ingested (lowest rank among ingestible types), or None."""
    valid = [
        r
        for r in discovered.to_pylist()
        if r["status"] == "valid" and r["rank"] > 0 and INGEST_PRIORITY.get(r["type"], 0) > 0
    ]
    return min(valid, key=lambda r: r["rank"]) if valid else None
