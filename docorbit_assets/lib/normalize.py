"""normalize: ``fetches`` → ``pages`` (one row per fetched document, schema ``PAGES``).

Contract: ``normalize(cfg, fetches, project_root=None) -> pa.Table`` with the ``PAGES`` schema, sorted by ``path``
(then ``url``), deterministic for the same input.

- Rows with ``ok = false`` are skipped: the failure is already recorded in ``fetches``.
- **Markdown** bodies (``.md``, ``.mdx``, ``.markdown``, ``.txt``; else, when the body is not
  HTML, content type ``text/markdown``, ``text/x-markdown``, ``text/plain``) become pages through
  ``normalize_markdown``: YAML front matter dropped, a leading BOM dropped, CRLF (and lone CR)
  → LF, otherwise the text is kept verbatim.
- **HTML** bodies (``text/html``, ``.html``/``.htm``, or a body starting ``<!doctype html``/
  ``<html``) are converted by ``html_to_md.html_to_markdown(body, url=page_url)``: main content
  only, headings with the page's own anchors as ``{ #id }``, absolute links, fenced code with its
  language, every admonition dialect as a GitHub-alert blockquote. Its ``truncated`` and
  reason (parser depth, table/element/input caps, word coverage below 0.95) become the page's.
- **OpenAPI / Swagger** bodies (``endpoints.looks_like_spec``: JSON or YAML whatever the
  content type, never a ``.md``/``.html`` file) become one page rendered by
  ``endpoints.render_markdown`` (one section per operation, title = the spec's title) through
  ``normalize_spec``; a body that is not a usable spec (``SpecError``) is no page (logged).
- Any other ``ok`` body is read as Markdown (fetch's contract: ``ok`` rows hold Markdown whatever
  the served content type), except binary types (images, PDF, archives), which are not pages:
  they are logged at INFO level and stay recorded in ``fetches``.
- A body the fetcher cut at its byte cap (``error_code = "truncated"``, or ``bytes`` larger than
  the body) gives ``truncated = true`` with ``body_capped`` first in ``truncation_reason``
  (reasons are joined with ``"; "``).

``path``: for local sources (``file://`` URLs) the path relative to the source folder
(``advanced/timeouts.md``); for web sources the URL path (``/docs/quickstart/``). The source
folder is exact when ``project_root`` is given (``cfg.resolved_location(project_root)``, what
fetch listed; the Dagster asset passes it); without it an absolute ``cfg.location`` is used as
is and a relative one is found as the deepest ``…/<location>`` folder holding every fetched file.

Page fields: ``id = stable_id("p_", source, path)``; ``title`` = front-matter ``title`` → first
H1 → file stem; ``headings`` (level, text, anchor) with MkDocs anchors (``markdown_scan``);
``links`` (text, url, is_external) with relative URLs resolved against the page URL;
``code_examples`` (id, language, code) from fenced blocks; ``content_hash`` = SHA-256 hex of
``markdown``; ``tokens`` = ``count_tokens(markdown)`` (cl100k, vendored BPE);
``security_annotations`` = ``injection.annotate(markdown, html=raw_html, learned=…)``
(``learned``: ``injection_classifier.enabled()``, read once per ``normalize`` call; ``html`` only for
HTML pages, so carriers the conversion drops — comments, CSS-hidden elements, ``alt``/``aria``
text — are still found; those get a ``near text[o:o]`` place in the Markdown from
``injection.place_html_annotations`` so the slicer can hand them to a chunk). The text is never
changed by annotation.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import pyarrow as pa

from docorbit_assets.lib import injection_classifier
from docorbit_assets.lib.endpoints import looks_like_spec, parse_spec, render_markdown
from docorbit_assets.lib.html_to_md import decode_html, html_to_markdown
from docorbit_assets.lib.injection import annotate, place_html_annotations
from docorbit_assets.lib.markdown_scan import iter_links, scan_markdown, split_front_matter
from docorbit_assets.lib.openapi import SpecError
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS, stable_id
from docorbit_serve.tokens import count_tokens

__all__ = [
    "normalize",
    "normalize_html",
    "normalize_markdown",
    "normalize_spec",
    "page_path",
    "page_paths",
]

log = logging.getLogger(__name__)

_MD_EXT = (".md", ".mdx", ".markdown")
_MD_TYPES = ("text/markdown", "text/x-markdown", "text/plain")
_HTML_EXT = (".html", ".htm")
_HTML_TYPES = ("text/html", "application/xhtml+xml")
_BINARY_TYPES = ("application/octet-stream", "application/pdf", "application/zip")
_EXTERNAL_SCHEMES = ("http", "https", "ftp", "mailto")


def normalize(cfg: SourceConfig, fetches: pa.Table, project_root: Path | None = None) -> pa.Table:
    """Pages of one source from its fetched bodies (see module docstring)."""
    rows: list[dict[str, Any]] = []
    local_root = _local_root(cfg, fetches, project_root)
    learned = injection_classifier.enabled()  # the environment is read once per source
    for f in fetches.to_pylist():
        if not f.get("ok"):
            continue
        url = f.get("final_url") or f.get("url") or ""
        path = page_path(cfg, f.get("url") or url, local_root)
        body: bytes = f.get("body") or b""
        kind = _body_kind(path, url, f.get("content_type") or "", body)
        fetched_at = f.get("fetched_at") or ""
        if looks_like_spec(body, url, f.get("content_type") or ""):
            spec_row = normalize_spec(
                cfg=cfg, path=path, url=url, body=body, fetched_at=fetched_at, learned=learned
            )
            if spec_row is None:
                continue
            row = spec_row
        elif kind == "markdown":
            text = body.decode(_charset(f.get("content_type") or ""), errors="replace")
            row = normalize_markdown(
                cfg=cfg,
                path=path,
                url=url,
                text=text,
                fetched_at=fetched_at,
                raw_bytes=len(body),
                learned=learned,
            )
        elif kind == "html":
            row = normalize_html(
                cfg=cfg,
                path=path,
                url=url,
                body=body,
                fetched_at=fetched_at,
                raw_bytes=len(body),
                learned=learned,
            )
        else:
            log.info("normalize: %s is not a document (%s); not a page", url, f.get("content_type"))
            continue
        capped = f.get("error_code") == "truncated" or (f.get("bytes") or 0) > len(body)
        if capped:
            row["truncated"] = True
            row["truncation_reason"] = "; ".join(
                r for r in ("body_capped", row["truncation_reason"]) if r
            )
        rows.append(row)
    rows.sort(key=lambda r: (r["path"], r["url"]))
    return pa.Table.from_pylist(rows, schema=SCHEMAS["pages"])


def normalize_markdown(
    *,
    cfg: SourceConfig,
    path: str,
    url: str,
    text: str,
    fetched_at: str,
    raw_bytes: int,
    learned: bool | None = None,
) -> dict[str, Any]:
    """One ``PAGES`` row from a Markdown document."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    front, markdown = split_front_matter(text)
    return _page_row(
        cfg=cfg,
        path=path,
        url=url,
        markdown=markdown,
        title=str(front.get("title") or "").strip(),
        fetched_at=fetched_at,
        raw_bytes=raw_bytes,
        reasons=[],
        html=None,
        learned=learned,
    )


def normalize_spec(
    *,
    cfg: SourceConfig,
    path: str,
    url: str,
    body: bytes,
    fetched_at: str,
    learned: bool | None = None,
) -> dict[str, Any] | None:
    """One ``PAGES`` row rendering an OpenAPI / Swagger document (``endpoints.render_markdown``:
    one section per operation), or None when it is not a usable spec (logged; the fetch row
    stays the record)."""
    try:
        parsed = parse_spec(body, spec_url=url)
    except SpecError as e:
        log.warning("normalize: %s is not a usable OpenAPI document: %s", url, e.message)
        return None
    markdown, _ = render_markdown(parsed)
    return _page_row(
        cfg=cfg,
        path=path,
        url=url,
        markdown=markdown,
        title=parsed.title or _stem(path),
        fetched_at=fetched_at,
        raw_bytes=len(body),
        reasons=[],
        html=None,
        learned=learned,
    )


def page_paths(
    cfg: SourceConfig, fetches: pa.Table, project_root: Path | None = None
) -> dict[str, str]:
    """``{fetch url: page path}`` for every fetched row, as ``normalize`` computes them."""
    root = _local_root(cfg, fetches, project_root)
    return {u: page_path(cfg, u, root) for u in fetches.column("url").to_pylist() if u}


def normalize_html(
    *,
    cfg: SourceConfig,
    path: str,
    url: str,
    body: bytes | str,
    fetched_at: str,
    raw_bytes: int,
    learned: bool | None = None,
) -> dict[str, Any]:
    """One ``PAGES`` row from an HTML document, converted by ``html_to_md.html_to_markdown``.

    The raw HTML is handed to the annotator as well, so carriers the conversion drops on
    purpose (comments, CSS-hidden elements, ``alt``/``aria-*`` text) are still annotated."""
    html = decode_html(body) if isinstance(body, bytes) else body
    conv = html_to_markdown(html, url=url)
    return _page_row(
        cfg=cfg,
        path=path,
        url=url,
        markdown=conv.markdown,
        title=conv.title.strip(),
        fetched_at=fetched_at,
        raw_bytes=raw_bytes,
        reasons=[conv.truncation_reason] if conv.truncated else [],
        html=html,
        learned=learned,
    )


def _page_row(
    *,
    cfg: SourceConfig,
    path: str,
    url: str,
    markdown: str,
    title: str,
    fetched_at: str,
    raw_bytes: int,
    reasons: list[str],
    html: str | None,
    learned: bool | None,
) -> dict[str, Any]:
    scan = scan_markdown(markdown)
    if not title:
        title = next((h.text for h in scan.headings if h.level == 1), "") or _stem(path)
    page_parts = urlsplit(url)
    links = []
    for _, link_text, target in iter_links(scan):
        resolved = urljoin(url, target)
        links.append(
            {"text": link_text, "url": resolved, "is_external": _is_external(page_parts, resolved)}
        )
    code_examples = [
        {"id": stable_id("x_", cfg.name, path, str(k)), "language": f.language, "code": f.code}
        for k, f in enumerate(scan.fences)
    ]
    annotations = annotate(markdown, html=html, learned=learned)
    if html is not None:
        annotations = place_html_annotations(annotations, html, markdown)
    return {
        "id": stable_id("p_", cfg.name, path),
        "source": cfg.name,
        "library": cfg.library,
        "version": cfg.version,
        "url": url,
        "path": path,
        "title": title,
        "markdown": markdown,
        "headings": [{"level": h.level, "text": h.text, "anchor": h.anchor} for h in scan.headings],
        "links": links,
        "code_examples": code_examples,
        "content_hash": hashlib.sha256(markdown.encode("utf-8")).hexdigest(),
        "fetched_at": fetched_at,
        "raw_bytes": raw_bytes,
        "tokens": count_tokens(markdown),
        "security_annotations": annotations,
        "truncated": bool(reasons),
        "truncation_reason": "; ".join(reasons),
    }


def page_path(cfg: SourceConfig, url: str, local_root: str | None = None) -> str:
    """The page ``path``: relative to the source folder for ``file://`` URLs, else the URL path."""
    parts = urlsplit(url)
    if parts.scheme != "file":
        return parts.path or "/"
    # fetch writes "file://" + the POSIX path (not percent-encoded); as_uri() URLs are encoded.
    abs_path = url[len("file://") :] if "%" not in url else unquote(parts.path)
    root = local_root if local_root is not None else _root_from_location(cfg, [abs_path])
    if root and (abs_path == root or abs_path.startswith(root.rstrip("/") + "/")):
        # a one-file source (its location is the file itself) is named by the file
        return abs_path[len(root.rstrip("/")) + 1 :] or PurePosixPath(abs_path).name
    return PurePosixPath(abs_path).name


def _local_root(cfg: SourceConfig, fetches: pa.Table, project_root: Path | None) -> str | None:
    urls = [u for u in fetches.column("url").to_pylist() if u and u.startswith("file:")]
    if not urls:
        return None
    if project_root is not None:  # exact: the folder fetch listed (SourceConfig.resolved_location)
        loc = cfg.resolved_location(Path(project_root)).rstrip("/") or "/"
        return str(Path(loc).parent) if Path(loc).is_file() else loc  # one-file source (a spec)
    return _root_from_location(
        cfg, [u[len("file://") :] if "%" not in u else unquote(urlsplit(u).path) for u in urls]
    )


def _root_from_location(cfg: SourceConfig, paths: list[str]) -> str:
    """The source folder as it appears in the fetched file paths.

    ``cfg.location`` is absolute (used as is, or resolved when the files were listed under
    its resolved form), or relative to the project root, which this stage is not given: then
    the folder is the deepest ``…/<location>`` that contains every fetched file.
    """
    loc = Path(cfg.location).expanduser()
    if loc.is_absolute():
        for root in (str(loc), str(loc.resolve())):
            if _prefix_of(root, paths):
                return root.rstrip("/")
        return str(loc).rstrip("/")
    rel = "/" + PurePosixPath(cfg.location).as_posix().strip("/").removeprefix("./").strip("/")
    common = str(PurePosixPath(paths[0]).parent)
    for p in paths[1:]:
        while not (p + "/").startswith(common.rstrip("/") + "/"):
            common = str(PurePosixPath(common).parent)
    if rel == "/" or rel == "/.":
        return common
    probe = common + "/"
    k = probe.rfind(rel + "/")
    return probe[: k + len(rel)] if k >= 0 else common


def _prefix_of(root: str, paths: list[str]) -> bool:
    root = root.rstrip("/") + "/"
    return all(p.startswith(root) for p in paths)


def _body_kind(path: str, url: str, content_type: str, body: bytes) -> str:
    ctype = content_type.split(";", 1)[0].strip().lower()
    suffix = PurePosixPath(urlsplit(url).path or path).suffix.lower()
    if suffix in _MD_EXT or suffix == ".txt":
        return "markdown"
    if (
        suffix in _HTML_EXT
        or ctype in _HTML_TYPES
        or body.lstrip()[:15].lower().startswith((b"<!doctype html", b"<html"))
    ):
        return "html"
    if ctype in _MD_TYPES:
        return "markdown"
    if ctype.startswith(("image/", "audio/", "video/", "font/")) or ctype in _BINARY_TYPES:
        return "other"
    return "markdown"  # fetch's contract: ok rows hold Markdown whatever the served type


def _charset(content_type: str) -> str:
    for part in content_type.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        if key.lower() == "charset" and value:
            name = value.strip().strip('"')
            try:
                "".encode(name)
            except LookupError:
                return "utf-8"
            return name
    return "utf-8"


def _stem(path: str) -> str:
    p = PurePosixPath(path.rstrip("/") or "index")
    return p.stem or "index"


def _is_external(page: Any, resolved: str) -> bool:
    target = urlsplit(resolved)
    if target.scheme not in _EXTERNAL_SCHEMES:
        return False
    return page.scheme not in ("http", "https") or target.netloc.lower() != page.netloc.lower()
