"""Discovery providers. ``PROVIDERS`` lists every one, in the order ``discover`` runs them: ``local``,
``llms`` and ``markdown`` (one module each here), then the web providers below.

Every provider has the ``probe.Provider`` interface: ``probe(ctx: ProbeContext) ->
list[Candidate]``; every network access goes through ``ctx.get`` (the secure fetcher, cached
per URL) and every URL found in content passes ``ctx.check`` (the URL policy) before it is
probed. Validation, not guessing: a candidate is ``valid`` only when its payload is what it
claims.

- ``openapi`` (kinds web, openapi): ``/openapi.json``, ``/openapi.yaml``, ``/swagger.json``,
  ``/v3/api-docs`` at the source's folder and host root, and spec links in the source page's
  HTML (``<link rel="service-desc">``, ``type="application/openapi+json"``, ``<a href>`` to
  ``openapi.*`` / ``swagger.*``); kind ``openapi`` probes only the URL (a local file path is
  read and validated the same way, ``discovered_by`` ``local``). Valid only when
  ``openapi.inspect_spec`` accepts it (parsed safely, ``openapi`` 3.x or ``swagger`` 2.0).
- ``sitemap`` (kinds web, sitemap): ``/sitemap.xml`` at the folder and root, and the
  ``Sitemap:`` lines of robots.txt; indexes followed to depth 2 without loops
  (``sitemap.collect``). Valid when it lists at least one page on the source's site (every
  ``<loc>`` through the URL policy).
- ``skill`` (kind web): ``/skill.md`` (Markdown; YAML front matter ``name``/``description``
  raises the confidence) and ``/.well-known/skills/index.json`` (JSON with a ``skills`` list).
- ``web`` (kind web): the source URL as an HTML site: title, canonical link, framework markers
  (MkDocs / Material, Sphinx, Docusaurus, VitePress, Mintlify, GitBook), same-site navigation
  links. Valid when it is an HTML page with at least one same-site link (crawlable).
- ``github`` (kind web): ``https://github.com/OWNER/REPO`` links in the source page's HTML
  (repository and SDK links). Not fetched: valid as *declared by the site*
  (``metadata.verified`` false); ``official`` when the page marks it as its source repository
  (MkDocs ``md-source``, ``rel="me"``, a "repository"/"source"/"GitHub" label), else ``community``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from docorbit_assets.lib import openapi as _openapi
from docorbit_assets.lib import sitemap as _sitemap
from docorbit_assets.lib.probe import (
    Candidate,
    ProbeContext,
    Provider,
    Verdict,
    base_urls,
    check_markdown,
    decode_text,
    is_html,
    judge,
)
from docorbit_assets.lib.providers import llms, local, markdown
from docorbit_serve.errors import BlockedURL, FetchError

__all__ = ["FRAMEWORKS", "PROVIDERS", "WEB_PROVIDERS", "PageInfo", "page_info", "sitemap_pages"]

_SPEC_PATHS = ("openapi.json", "openapi.yaml", "swagger.json", "v3/api-docs")
_SPEC_LINK = re.compile(r"(openapi|swagger)[^/]*\.(json|ya?ml)$", re.I)
_GITHUB = re.compile(r"^https?://(?:www\.)?github\.com/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)", re.I)
_GITHUB_SKIP = {"sponsors", "orgs", "topics", "features", "marketplace", "about", "login"}

# name -> patterns over the page's lower-cased head/markup (first 512 KiB)
FRAMEWORKS: dict[str, tuple[str, ...]] = {
    "mkdocs-material": (r'generator" content="mkdocs-[\d.]+, mkdocs-material', r'class="md-header'),
    "mkdocs": (r'generator" content="mkdocs',),
    "sphinx": (r"documentation_options\.js", r'generator" content="(docutils|sphinx)', r"searchindex\.js"),
    "docusaurus": (r'generator" content="docusaurus', r"__docusaurus"),
    "vitepress": (r'generator" content="vitepress', r"__vp_hash_map__", r'class="vpnav'),
    "mintlify": (r"mintlify", r"mintcdn\.com"),
    "gitbook": (r'generator" content="gitbook', r"gitbook\.io", r"gitbook-cdn"),
}  # fmt: skip


class PageInfo(HTMLParser):
    """Title, canonical, generator, spec / llms links, anchors and their labels of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.canonical = ""
        self.generator = ""
        self.spec_links: list[str] = []
        self.anchors: list[tuple[str, str, str]] = []  # (href, class+rel, text)
        self._in_title = False
        self._anchor: list[Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        if tag == "title":
            self._in_title = True
        elif tag == "link":
            rel = a.get("rel", "").lower()
            if "canonical" in rel.split() and not self.canonical:
                self.canonical = a.get("href", "")
            if "service-desc" in rel or "openapi" in a.get("type", "").lower():
                self.spec_links.append(a.get("href", ""))
        elif tag == "meta" and a.get("name", "").lower() == "generator":
            self.generator = a.get("content", "")
        elif tag == "a" and len(self.anchors) < 2000 and a.get("href"):
            self._anchor = [a["href"], f"{a.get('class', '')} {a.get('rel', '')}".lower(), ""]

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag == "a" and self._anchor is not None:
            self.anchors.append((self._anchor[0], self._anchor[1], self._anchor[2].strip()[:80]))
            self._anchor = None

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        if self._anchor is not None:
            self._anchor[2] += data


def page_info(body: bytes) -> PageInfo:
    info = PageInfo()
    text = body[: 2 * 1024 * 1024].decode("utf-8", "replace")
    for i in range(0, len(text), 65536):
        info.feed(text[i : i + 65536])
    info.title = " ".join(info.title.split())
    return info


def _source_page(ctx: ProbeContext) -> tuple[Any, PageInfo] | None:
    resp = ctx.get(ctx.location)
    if (
        isinstance(resp, Exception)
        or resp.status != 200
        or not is_html(resp.body, resp.content_type)
    ):
        return None
    return resp, page_info(resp.body)


# ---------------------------------------------------------------------------------------------
# OpenAPI


def _spec_validator(ctx: ProbeContext) -> Any:
    def validate(resp: Any) -> Verdict:
        info = _openapi.inspect_spec(
            resp.body, content_type=resp.content_type, url=resp.final_url, check=ctx.check
        )
        meta = {"spec": info.to_json()}
        if not info.valid:
            return "invalid", 0.0, f"not an OpenAPI document: {info.reason} ({info.message})", meta
        conf = 0.9 if info.operations or info.webhooks else 0.6
        return "valid", conf, info.message, meta

    return validate


_SPEC_MAX_BYTES = _openapi.MAX_BYTES


def _probe_local_spec(ctx: ProbeContext) -> Candidate:
    """Kind ``openapi`` with a file path: the file itself, validated like a fetched spec."""
    path = Path(ctx.cfg.resolved_location(ctx.project_root))
    base: dict[str, Any] = {
        "url": "file://" + path.as_posix(),
        "type": "openapi",
        "discovered_by": "local",
        "purposes": ("api", "examples"),
    }
    if not path.is_file():
        return Candidate(**base, status="invalid", rationale=f"file {path} does not exist")
    with path.open("rb") as f:
        body = f.read(_SPEC_MAX_BYTES + 1)
    info = _openapi.inspect_spec(body, url=base["url"], check=ctx.check)
    meta = {"spec": info.to_json()}
    if not info.valid:
        why = f"not an OpenAPI document: {info.reason} ({info.message})"
        return Candidate(**base, status="invalid", rationale=why, metadata=meta)
    conf = 0.9 if info.operations or info.webhooks else 0.6
    return Candidate(**base, status="valid", confidence=conf, rationale=info.message, metadata=meta)


def _probe_openapi(ctx: ProbeContext) -> list[Candidate]:
    if ctx.cfg.kind == "openapi":
        if not ctx.cfg.is_web:
            return [_probe_local_spec(ctx)]
        return [judge(ctx, ctx.location, "openapi", "given_url", _spec_validator(ctx))]
    targets: dict[str, str] = {}
    for base in base_urls(ctx.location):
        for path in _SPEC_PATHS:
            targets.setdefault(urljoin(base, path), f"probe:{path}")
    page = _source_page(ctx)
    if page:
        resp, info = page
        hrefs = [
            *info.spec_links,
            *(h for h, _, _ in info.anchors if _SPEC_LINK.search(urlsplit(h).path)),
        ]
        for href in hrefs:
            url = urljoin(resp.final_url, href)
            if ctx.check(url) is None and url not in targets:
                targets[url] = "html_link"
    return [
        judge(ctx, u, "openapi", by, _spec_validator(ctx), html_ok=False)
        for u, by in sorted(targets.items())
    ]


# ---------------------------------------------------------------------------------------------
# Sitemaps


def _scope(ctx: ProbeContext) -> Any:
    return ctx.same_site


def _sitemap_get(ctx: ProbeContext) -> Any:
    def get(url: str) -> bytes:
        resp = ctx.get(url)
        if isinstance(resp, (BlockedURL, FetchError)):
            raise resp
        if resp.status >= 400:
            raise FetchError(f"HTTP {resp.status}", code="http_status", detail={"url": url})
        return bytes(resp.body)

    return get


def sitemap_pages(ctx: ProbeContext, url: str) -> _sitemap.Collected:
    """Pages listed by the sitemap at ``url`` (indexes followed), policy-checked, on this site."""
    return _sitemap.collect(url, _sitemap_get(ctx), ctx.check, scope=_scope(ctx), max_depth=2)


def _sitemap_candidate(ctx: ProbeContext, url: str, by: str) -> Candidate:
    def validate(resp: Any) -> Verdict:
        parsed = _sitemap.parse_sitemap(resp.body)
        if parsed.error:
            return "invalid", 0.0, f"not a sitemap: {parsed.error} ({parsed.message})", {}
        got = sitemap_pages(ctx, url)
        meta = {
            "kind": parsed.kind,
            "pages": len(got.pages),
            "sample": got.pages[:5],
            "sitemaps": got.sitemaps,
            "skipped": dict(sorted(got.skipped.items())),
            "errors": got.errors,
            "loops": got.loops,
            "depth_capped": got.depth_capped,
        }
        if not got.pages:
            return "invalid", 0.0, "sitemap lists no page on this site", meta
        return "valid", 0.85, f"sitemap ({parsed.kind}) with {len(got.pages)} pages", meta

    return judge(ctx, url, "sitemap", by, validate)


def _probe_sitemap(ctx: ProbeContext) -> list[Candidate]:
    if ctx.cfg.kind == "sitemap":
        return [_sitemap_candidate(ctx, ctx.location, "given_url")]
    targets: dict[str, str] = {}
    for base in base_urls(ctx.location):
        targets.setdefault(urljoin(base, "sitemap.xml"), "probe:sitemap.xml")
    for sm in ctx.robots_sitemaps():
        if ctx.check(sm) is None and ctx.same_site(sm):
            targets[sm] = "robots.txt"
    return [_sitemap_candidate(ctx, u, by) for u, by in sorted(targets.items())]


# ---------------------------------------------------------------------------------------------
# Skills


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


# ---------------------------------------------------------------------------------------------
# Generic web site and GitHub links


def frameworks(body: bytes) -> list[str]:
    low = body[: 512 * 1024].decode("utf-8", "replace").lower()
    found = [name for name, pats in FRAMEWORKS.items() if any(re.search(p, low) for p in pats)]
    if "mkdocs-material" in found and "mkdocs" not in found:
        found.append("mkdocs")
    return sorted(found)


def _probe_web(ctx: ProbeContext) -> list[Candidate]:
    def validate(resp: Any) -> Verdict:
        if not is_html(resp.body, resp.content_type):
            return "invalid", 0.0, f"not an HTML page ({resp.content_type or 'no type'})", {}
        info = page_info(resp.body)
        links = set()
        for href, _, _ in info.anchors:
            url = urljoin(resp.final_url, href).split("#", 1)[0]
            if (
                url.startswith(("http://", "https://"))
                and ctx.same_site(url)
                and url != resp.final_url
            ):
                links.add(url)
        marks = frameworks(resp.body)
        meta = {
            "title": info.title[:200],
            "canonical": urljoin(resp.final_url, info.canonical) if info.canonical else "",
            "generator": info.generator[:100],
            "frameworks": marks,
            "nav_links": len(links),
        }
        if not links:
            return "invalid", 0.0, "HTML page without same-site links (nothing to crawl)", meta
        conf = 0.7 if marks else 0.5
        label = f" ({', '.join(marks)})" if marks else ""
        why = f"HTML docs site{label} '{info.title[:60]}' with {len(links)} same-site links"
        return "valid", conf, why, meta

    return [
        judge(ctx, ctx.location, "html", "root", validate, html_ok=True, machine_readable=False)
    ]


def _probe_github(ctx: ProbeContext) -> list[Candidate]:
    page = _source_page(ctx)
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


WEB_PROVIDERS: list[Provider] = [
    Provider("openapi", frozenset({"web", "openapi"}), _probe_openapi),
    Provider("sitemap", frozenset({"web", "sitemap"}), _probe_sitemap),
    Provider("skill", frozenset({"web"}), _probe_skill),
    Provider("web", frozenset({"web"}), _probe_web),
    Provider("github", frozenset({"web"}), _probe_github),
]

# Every provider, in the order discovery runs them (``discover.PROVIDERS``).
PROVIDERS: list[Provider] = [local.PROVIDER, llms.PROVIDER, markdown.PROVIDER, *WEB_PROVIDERS]
