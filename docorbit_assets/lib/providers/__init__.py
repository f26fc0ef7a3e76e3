"""Discovery providers. ``PROVIDERS`` lists every one, in the order ``discover`` runs them: ``local``,
``git``, ``llms`` and ``markdown`` then the web providers ``openapi``, ``sitemap``, ``skill``, ``web`` and
``github``: one module each here (``page`` holds the source-page reader they share).

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
- ``git`` (kind git): a local repository's tree at ``ref`` (``git_tree``), valid when it holds
  a document; ``metadata.commit`` is the commit the fetch reads.
- ``github`` (kind web): ``https://github.com/OWNER/REPO`` links in the source page's HTML
  (repository and SDK links). Not fetched: valid as *declared by the site*
  (``metadata.verified`` false); ``official`` when the page marks it as its source repository
  (MkDocs ``md-source``, ``rel="me"``, a "repository"/"source"/"GitHub" label), else ``community``.
"""

from __future__ import annotations

from docorbit_assets.lib.probe import Provider
from docorbit_assets.lib.providers import (
    git,
    github,
    llms,
    local,
    markdown,
    openapi,
    sitemap,
    skill,
    web,
)
from docorbit_assets.lib.providers.page import FRAMEWORKS, PageInfo, frameworks, page_info
from docorbit_assets.lib.providers.sitemap import sitemap_pages

__all__ = [
    "FRAMEWORKS",
    "PROVIDERS",
    "WEB_PROVIDERS",
    "PageInfo",
    "frameworks",
    "page_info",
    "sitemap_pages",
]

WEB_PROVIDERS: list[Provider] = [
    openapi.PROVIDER,
    sitemap.PROVIDER,
    skill.PROVIDER,
    web.PROVIDER,
    github.PROVIDER,
]

# Every provider, in the order discovery runs them (``discover.PROVIDERS``).
PROVIDERS: list[Provider] = [
    local.PROVIDER,
    git.PROVIDER,
    llms.PROVIDER,
    markdown.PROVIDER,
    *WEB_PROVIDERS,
]
