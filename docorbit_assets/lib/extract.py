"""extract: structured knowledge from pages and chunks (``examples``, ``links``, ``symbols``,
``pitfalls``, ``endpoints``). Real extraction only: a table may be empty, never invented.

Contract (every function is deterministic; rows sorted by ``id``, ``links`` by
``(page_id, chunk_id, url, text)``; schemas from ``docorbit_serve.schemas``):

- ``extract_examples(chunks, source_root=None)``: one row per non-empty fenced code block of a
  chunk, ``id = stable_id("e_", chunk_id, <block index>)``, ``tokens = count_tokens(code)``;
  and one per include marker outside fences (fastapi ``{* ../../docs_src/x.py *}``),
  ``id = stable_id("e_", chunk_id, "include", <line index>)``. ``language`` from the fence info
  string (``examples.example_language``: never an attribute such as ``hl_lines="5"``);
  ``framework`` (``examples.detect_framework``), ``symbols`` (imports, calls and definitions),
  ``endpoints`` (route registrations, curl, ``METHOD /path`` in http/shell blocks, HTTP client
  calls with a literal URL). A marker (or a block that is only a ``--8<--`` snippet line) is
  replaced by the file it names when ``source_root`` is given and the file exists under
  ``include_root(source_root)``; else the row keeps the marker as ``code`` with
  ``missing_code = true`` (and no framework, symbols or endpoints).
- ``extract_links(pages, chunks)``: one row per distinct (chunk, url, text) link outside code,
  URLs resolved against the page URL; ``target_page_id`` is the id of the page of the same
  source the link points at (fragment ignored; ``x.md``, ``x/`` → ``x.md`` / ``x/index.md``
  tried), else "".
- ``extract_symbols(pages, chunks)``, from these evidences only (regexes over the chunk text
  and its fenced code, by the fence's language; nothing is guessed from other languages):
  1. mkdocstrings / mkautodoc directives ``::: pkg.Name`` → qualname as written, kind
     ``unknown`` (the directive does not say), language ``python``;
  2. headings that are a code identifier: a whole code span such as ``Client.get()`` /
     ``model_config``, or a bare dotted name such as ``httpx.AsyncClient``; ``()`` makes it a
     ``function`` (``method`` when the owner is capitalised), else ``unknown``;
  3. top-level ``def``/``class`` (and ``def`` directly inside such a class → ``method``) in
     Python code blocks, with the definition line as signature;
  4. JavaScript/TypeScript blocks (``_JS_LANGS``): ``function name(`` → ``function``,
     ``const|let|var name = (...) =>`` / ``= async x =>`` → ``arrow_function``, ``class Name`` →
     ``class`` (and ``name(...) {`` one level inside it → ``method``, qualname ``Class.name``),
     ``interface Name`` → ``interface``, ``type Name =`` → ``type``;
  5. REST endpoints, kind ``endpoint``, qualname ``"METHOD /path"`` (method upper-cased):
     ``METHOD /path`` (upper-case HTTP method, a path of at least two characters) in prose,
     headings and ``http``/shell blocks; ``curl -X METHOD <url>`` in shell blocks (the URL's
     path); route registrations ``app.get("/path"`` / ``@router.post('/path'`` in Python and
     JS/TS blocks (``all``/``use`` are not methods and are skipped);
  6. CLI flags ``--flag-name``, kind ``cli_flag``, in shell blocks (``_SHELL_LANGS``) and in
     code spans of prose;
  7. configuration keys, kind ``config_key``: ``key = value`` in ``toml``/``ini``/``cfg``
     blocks (qualname ``section.key`` under a ``[section]``), ``key: value`` in ``yaml`` blocks
     (qualname the dotted path of the enclosing keys), ``NAME=value`` in ``env``/``dotenv``
     blocks and ``export NAME=value`` in shell blocks.
  ``id = stable_id("y_", chunk_id, qualname, kind)``; duplicates within a chunk are merged;
  ``signature`` is the line the symbol was read from (stripped, at most 200 characters) for
  kinds 4–7.
- ``extract_pitfalls(chunks)``, conservative: admonitions of every dialect
  (``markdown_scan.admonitions``: MkDocs ``!!!``/``???``, pymdownx ``///``, GitHub ``> [!TYPE]``
  — also the form ``html_to_md`` writes for HTML pages —, Docusaurus/MyST ``:::``, Sphinx/rST
  ``.. warning::``/``.. deprecated::``, MyST ```` ```{warning} ````) whose title+body says one of
  the wordings below or whose type is ``warning|danger|caution|attention|error`` (→ ``warning``),
  ``deprecated`` (→ ``deprecation``) or ``versionremoved`` (→ ``removal``); and sentences or
  list items (outside code and admonitions) that say something *is deprecated*, *was removed* /
  *is no longer supported*, or is a *breaking change*. ``kind`` = ``breaking_change`` →
  ``deprecation`` → ``removal`` by the first matching wording, else the admonition type's kind. Mentions inside code spans (``deprecated=True``) and
  "deprecation warning" noise do not count. ``symbol`` = the first identifier in a code span of
  the text, else "". ``id = stable_id("f_", chunk_id, kind, text)``.
- ``extract_endpoints(cfg, fetches, project_root=None)``: ``endpoints.endpoint_rows`` of every
  fetched body that is an OpenAPI / Swagger document (``endpoints.looks_like_spec`` then
  ``parse_spec``; a ``SpecError`` is logged and the body skipped); ``page_id`` / ``chunk_id``
  are the ids ``normalize`` / ``slice`` give the spec's page and each operation's section (its
  explicit anchor), so they need no join.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

import pyarrow as pa

from docorbit_assets.lib.endpoints import (
    endpoint_rows,
    looks_like_spec,
    parse_spec,
    render_markdown,
)
from docorbit_assets.lib.examples import (
    MAX_SYMBOLS,
    client_endpoints,
    code_symbols,
    detect_framework,
    example_language,
    include_markers,
    language_of_path,
    resolve_include,
)
from docorbit_assets.lib.markdown_scan import Scan, admonitions, iter_links, scan_markdown
from docorbit_assets.lib.normalize import page_paths
from docorbit_assets.lib.openapi import SpecError
from docorbit_assets.lib.pitfalls import classify
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS, stable_id
from docorbit_serve.tokens import count_tokens

__all__ = [
    "example_id",
    "include_root",
    "extract_endpoints",
    "extract_examples",
    "extract_links",
    "extract_pitfalls",
    "extract_symbols",
]


log = logging.getLogger(__name__)


def _table(name: str, rows: list[dict[str, Any]], key: Any = None) -> pa.Table:
    rows = sorted(rows, key=key or (lambda r: r["id"]))
    return pa.Table.from_pylist(rows, schema=SCHEMAS[name])


def _provenance(chunk: dict[str, Any]) -> dict[str, Any]:
    return {
        "source": chunk["source"],
        "library": chunk["library"],
        "version": chunk["version"],
        "chunk_id": chunk["id"],
        "page_id": chunk["page_id"],
    }


# --- examples --------------------------------------------------------------------------------


def example_id(chunk_id: str, index: int) -> str:
    """The ``EXAMPLES`` id of code block ``index`` (0-based, in ``code_blocks``) of a chunk."""
    return stable_id("e_", chunk_id, str(index))


def extract_examples(chunks: pa.Table, source_root: Path | None = None) -> pa.Table:
    """One ``EXAMPLES`` row per non-empty code block of every chunk, plus one per include
    marker (``examples.include_markers``), resolved under ``source_root`` when given."""
    rows = []
    root = include_root(source_root) if source_root is not None else None
    for c in chunks.to_pylist():
        scan = scan_markdown(c["text"])
        blocks = c["code_blocks"] or []
        infos = [f.info for f in scan.fences] if len(scan.fences) == len(blocks) else []
        page_dir = (source_root / c["path"]).parent if source_root is not None else None
        for k, block in enumerate(blocks):
            if not block["code"].strip():
                continue
            language = example_language(infos[k] if infos else "", block["language"])
            code, missing = block["code"], False
            marker = include_markers(code.split("\n"), [False] * (code.count("\n") + 1))
            if len(marker) == 1 and len(code.strip().split("\n")) == 1:
                code, missing = _included(marker[0][1], page_dir, root, code)
            rows.append(_example_row(c, example_id(c["id"], k), language, code, missing))
        for i, path in include_markers(scan.lines, scan.in_fence):
            if scan.in_fence[i]:
                continue  # a snippet inside a fence is that fence's block, handled above
            code, missing = _included(path, page_dir, root, scan.lines[i].strip())
            eid = stable_id("e_", c["id"], "include", str(i))
            rows.append(_example_row(c, eid, language_of_path(path), code, missing))
    return _table("examples", _dedupe(rows))


def include_root(source_root: Path) -> Path:
    """Where include markers may read from: the nearest ancestor (at most 4 levels up) of the
    source folder that is a project root (``.git``, ``pyproject.toml``, ``package.json``), else
    the source folder itself."""
    here = source_root.resolve()
    for folder in [here, *here.parents][:5]:
        if any((folder / m).exists() for m in (".git", "pyproject.toml", "package.json")):
            return folder
    return here


def _included(path: str, page_dir: Path | None, root: Path | None, marker: str) -> tuple[str, bool]:
    text = resolve_include(path, page_dir, root) if page_dir and root else None
    return (text, False) if text is not None else (marker, True)


def _example_row(
    c: dict[str, Any], eid: str, language: str, code: str, missing: bool
) -> dict[str, Any]:
    found = _code_symbols(language, code) if not missing else []
    endpoints = {q for q, kind, _, _ in found if kind == "endpoint"}
    endpoints.update(client_endpoints(code) if not missing else [])
    defined = {q for q, kind, _, _ in found if kind in ("class", "function", "method")}
    symbols = set(code_symbols(language, code)) | defined if not missing else set()
    return {
        "id": eid,
        **_provenance(c),
        "language": language,
        "code": code,
        "heading": c["heading"],
        "path": c["path"],
        "anchor": c["anchor"],
        "tokens": count_tokens(code),
        "framework": "" if missing else detect_framework(language, code),
        "symbols": sorted(symbols)[:MAX_SYMBOLS],
        "endpoints": sorted(endpoints),
        "missing_code": missing,
    }


def _dedupe(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for r in rows:
        seen.setdefault(r["id"], r)
    return list(seen.values())


# --- links -----------------------------------------------------------------------------------


def extract_links(pages: pa.Table, chunks: pa.Table, targets: pa.Table | None = None) -> pa.Table:
    """One ``LINKS`` row per distinct link of every chunk (see module docstring); link targets
    resolve against ``targets`` (every page of the source; default ``pages``), so a refresh can
    extract the changed pages alone."""
    page_by_url: dict[str, str] = {}
    for p in (pages if targets is None else targets).select(["id", "url"]).to_pylist():
        page_by_url[urldefrag(p["url"])[0]] = p["id"]
    by_page: dict[str, list[dict[str, Any]]] = {}
    for c in chunks.select(["id", "page_id", "line_start", "line_end"]).to_pylist():
        by_page.setdefault(c["page_id"], []).append(c)
    rows: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for p in pages.select(["id", "source", "url", "markdown"]).to_pylist():
        spans = by_page.get(p["id"], [])
        page_parts = urlsplit(p["url"])
        for line, text, target in iter_links(scan_markdown(p["markdown"] or "")):
            chunk_id = next(
                (c["id"] for c in spans if c["line_start"] <= line + 1 <= c["line_end"]), ""
            )
            resolved = urljoin(p["url"], target)
            key = (p["id"], chunk_id, resolved, text)
            if key in rows:
                continue
            rows[key] = {
                "source": p["source"],
                "page_id": p["id"],
                "chunk_id": chunk_id,
                "text": text,
                "url": resolved,
                "is_external": _is_external(page_parts, resolved),
                "target_page_id": _target_page(page_by_url, resolved),
            }
    return _table(
        "links",
        list(rows.values()),
        key=lambda r: (r["page_id"], r["chunk_id"], r["url"], r["text"]),
    )


def _is_external(page: Any, resolved: str) -> bool:
    target = urlsplit(resolved)
    if target.scheme not in ("http", "https", "ftp", "mailto"):
        return False
    return page.scheme not in ("http", "https") or target.netloc.lower() != page.netloc.lower()


def _target_page(page_by_url: dict[str, str], resolved: str) -> str:
    url = urldefrag(resolved)[0]
    if not url:
        return ""
    candidates = [url]
    if url.endswith("/"):
        candidates += [url + "index.md", url[:-1] + ".md"]
    elif not url.rsplit("/", 1)[-1].count("."):
        candidates += [url + ".md", url + "/index.md"]
    return next((page_by_url[u] for u in candidates if u in page_by_url), "")


# --- symbols ---------------------------------------------------------------------------------

_DIRECTIVE = re.compile(r"^:::[ \t]+(?P<name>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)[ \t]*$")
_IDENT = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
_CODE_HEADING = re.compile(r"^`(?P<name>" + _IDENT + r")(?P<call>\([^`()]*\))?`$")
_DOTTED_HEADING = re.compile(r"^(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?P<call>\(\))?$")
_PY_DEF = re.compile(r"^(?P<indent>[ ]*)(?:async[ ]+)?def[ ]+(?P<name>[A-Za-z_]\w*)[ ]*\(")
_PY_CLASS = re.compile(r"^(?P<indent>[ ]*)class[ ]+(?P<name>[A-Za-z_]\w*)[ ]*[(:]")
_PY_LANGS = {"python", "py", "python3", "py3"}


def extract_symbols(pages: pa.Table, chunks: pa.Table) -> pa.Table:
    """``SYMBOLS`` from directives, identifier headings, code definitions, endpoints, CLI flags
    and configuration keys (module docstring).

    ``pages`` is accepted for the stage signature; everything needed is on the chunks.
    """
    del pages
    rows: list[dict[str, Any]] = []
    for c in chunks.to_pylist():
        found: list[tuple[str, str, str, str]] = []  # qualname, kind, signature, language
        scan = scan_markdown(c["text"])
        heading_lines = {h.line for h in scan.headings}
        for i, line in enumerate(scan.lines):
            if scan.in_fence[i]:
                continue
            m = _DIRECTIVE.match(line)
            if m:
                found.append((m.group("name"), "unknown", "", "python"))
            found.extend(_endpoints_in_text(line, ""))
            if i not in heading_lines:
                for span in _CODE_SPAN.finditer(line):
                    found.extend(_flags(span.group(0), ""))
        hit = _heading_symbol(c["heading"]) if c["level"] > 0 else None
        if hit:
            found.append(hit)
        for block in c["code_blocks"] or []:
            found.extend(_code_symbols(block["language"], block["code"]))
        for qualname, kind, signature, language in found:
            rows.append(
                {
                    "id": stable_id("y_", c["id"], qualname, kind),
                    **_provenance(c),
                    "name": _short_name(qualname, kind),
                    "qualname": qualname,
                    "kind": kind,
                    "signature": signature,
                    "language": language,
                    "path": c["path"],
                    "anchor": c["anchor"],
                }
            )
    return _table("symbols", _dedupe(rows))


_JS_LANGS = {"js", "javascript", "jsx", "mjs", "cjs", "ts", "typescript", "tsx", "mts", "cts"}
_SHELL_LANGS = {
    "bash",
    "sh",
    "shell",
    "console",
    "zsh",
    "shell-session",
    "shellsession",
    "sh-session",
}
_TOML_LANGS = {"toml", "ini", "cfg", "conf", "properties"}
_YAML_LANGS = {"yaml", "yml"}
_ENV_LANGS = {"env", "dotenv"}
_HTTP_METHODS = "GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS"
_ENDPOINT_TEXT = re.compile(
    r"(?<![\w/])(?P<method>"
    + _HTTP_METHODS
    + r")[ \t]+(?P<path>/[A-Za-z0-9_{}:.~%*$@!+,;=-][^\s`'\"<>)\]]*)"
)
_ROUTE = re.compile(
    r"\b[A-Za-z_$][\w$]*\.(?P<method>get|post|put|patch|delete|head|options)\(\s*"
    r"(?:path\s*=\s*)?(?P<q>[\"'`])(?P<path>/[^\"'`\s]*)(?P=q)"
)
_CURL = re.compile(r"\bcurl\b.*?(?:-X|--request)[ =]?(?P<method>[A-Z]+)\b")
_URL = re.compile(r"https?://[^\s'\"]+")
_FLAG = re.compile(r"(?<![\w-])--(?P<name>[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)(?![\w-])")
_JS_FUNCTION = re.compile(
    r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(?P<name>[A-Za-z_$][\w$]*)\s*\("
)
_JS_ARROW = re.compile(
    r"^\s*(?:export\s+)?(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*"
    r"(?:async\s+)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*(?::\s*[^=]+)?=>"
)
_JS_CLASS = re.compile(
    r"^(?P<indent>\s*)(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+(?P<name>[A-Za-z_$][\w$]*)"
)
_JS_INTERFACE = re.compile(
    r"^\s*(?:export\s+)?(?:declare\s+)?interface\s+(?P<name>[A-Za-z_$][\w$]*)"
)
_JS_TYPE = re.compile(
    r"^\s*(?:export\s+)?(?:declare\s+)?type\s+(?P<name>[A-Za-z_$][\w$]*)\s*(?:<[^=]*>)?\s*="
)
_JS_METHOD = re.compile(
    r"^(?P<indent>\s+)(?:(?:public|private|protected|static|async|get|set|override)\s+)*"
    r"(?P<name>[A-Za-z_$][\w$]*)\s*\([^()]*\)\s*(?::\s*[^{]+)?\{\s*$"
)
_JS_NOT_METHODS = {
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "function",
    "return",
    "with",
    "constructor",
}
_TOML_SECTION = re.compile(r"^\s*\[\[?(?P<name>[A-Za-z0-9_.\-\" ]+?)\]\]?\s*(?:#.*)?$")
_TOML_KEY = re.compile(r"^\s*(?P<name>[A-Za-z_][\w.-]*)\s*=")
_YAML_KEY = re.compile(r"^(?P<indent>[ ]*)(?:-[ ]+)?(?P<name>[A-Za-z_][\w.-]*)[ ]*:(?:[ \t]|$)")
_ENV_KEY = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Z][A-Z0-9_]*)=")
_EXPORT_KEY = re.compile(r"^\s*(?:\$\s+)?export\s+(?P<name>[A-Z][A-Z0-9_]*)=")
_MAX_SIGNATURE = 200


def _short_name(qualname: str, kind: str) -> str:
    if kind in ("endpoint", "cli_flag"):
        return qualname
    return qualname.rsplit(".", 1)[-1]


def _line_sig(line: str) -> str:
    line = line.strip()
    return line if len(line) <= _MAX_SIGNATURE else line[: _MAX_SIGNATURE - 1] + "…"


def _endpoints_in_text(line: str, language: str) -> list[tuple[str, str, str, str]]:
    return [
        (
            f"{m.group('method')} {m.group('path').rstrip('.,;:')}",
            "endpoint",
            _line_sig(line),
            language,
        )
        for m in _ENDPOINT_TEXT.finditer(line)
    ]


def _flags(text: str, language: str, line: str | None = None) -> list[tuple[str, str, str, str]]:
    return [
        (
            "--" + m.group("name"),
            "cli_flag",
            _line_sig(line if line is not None else text),
            language,
        )
        for m in _FLAG.finditer(text)
    ]


def _code_symbols(language: str, code: str) -> list[tuple[str, str, str, str]]:
    """The symbols of one fenced block, by its language (module docstring, 3–7)."""
    out: list[tuple[str, str, str, str]] = []
    lines = code.split("\n")
    if language in _PY_LANGS:
        out.extend(_python_definitions(code))
        out.extend(_routes(lines, language))
    elif language in _JS_LANGS:
        out.extend(_js_definitions(lines, language))
        out.extend(_routes(lines, language))
    elif language in _SHELL_LANGS or language == "http":
        for line in lines:
            if line.lstrip().startswith("#") and language != "console":
                continue
            out.extend(_endpoints_in_text(line, language))
            if language == "http":
                continue
            out.extend(_flags(line, language))
            m = _CURL.search(line)
            u = _URL.search(line)
            if m and u and m.group("method") in _HTTP_METHODS.split("|"):
                path = urlsplit(u.group(0)).path
                if path:
                    out.append(
                        (f"{m.group('method')} {path}", "endpoint", _line_sig(line), language)
                    )
            e = _EXPORT_KEY.match(line)
            if e:
                out.append((e.group("name"), "config_key", _line_sig(line), language))
    elif language in _TOML_LANGS:
        out.extend(_toml_keys(lines, language))
    elif language in _YAML_LANGS:
        out.extend(_yaml_keys(lines, language))
    elif language in _ENV_LANGS:
        for line in lines:
            m = _ENV_KEY.match(line)
            if m:
                out.append((m.group("name"), "config_key", _line_sig(line), language))
    return out


def _routes(lines: list[str], language: str) -> list[tuple[str, str, str, str]]:
    out = []
    for line in lines:
        for m in _ROUTE.finditer(line):
            out.append(
                (
                    f"{m.group('method').upper()} {m.group('path')}",
                    "endpoint",
                    _line_sig(line),
                    language,
                )
            )
    return out


def _js_definitions(lines: list[str], language: str) -> list[tuple[str, str, str, str]]:
    out: list[tuple[str, str, str, str]] = []
    cls, cls_indent, method_indent = "", -1, -1
    for line in lines:
        if not line.strip() or line.lstrip().startswith(("//", "/*", "*")):
            continue
        indent = len(line) - len(line.lstrip())
        if cls and indent <= cls_indent:
            cls, method_indent = "", -1
        sig = _line_sig(line)
        if m := _JS_CLASS.match(line):
            cls, cls_indent, method_indent = m.group("name"), indent, -1
            out.append((cls, "class", sig, language))
        elif m := _JS_INTERFACE.match(line):
            out.append((m.group("name"), "interface", sig, language))
        elif m := _JS_TYPE.match(line):
            out.append((m.group("name"), "type", sig, language))
        elif m := _JS_FUNCTION.match(line):
            out.append((m.group("name"), "function", sig, language))
        elif m := _JS_ARROW.match(line):
            out.append((m.group("name"), "arrow_function", sig, language))
        elif cls and (m := _JS_METHOD.match(line)) and m.group("name") not in _JS_NOT_METHODS:
            if method_indent < 0:
                method_indent = indent
            if indent == method_indent:
                out.append((f"{cls}.{m.group('name')}", "method", sig, language))
    return out


def _toml_keys(lines: list[str], language: str) -> list[tuple[str, str, str, str]]:
    out = []
    section = ""
    for line in lines:
        if line.lstrip().startswith(("#", ";")):
            continue
        if m := _TOML_SECTION.match(line):
            section = m.group("name").replace('"', "").replace(" ", "")
            continue
        if m := _TOML_KEY.match(line):
            name = m.group("name")
            out.append(
                (f"{section}.{name}" if section else name, "config_key", _line_sig(line), language)
            )
    return out


def _yaml_keys(lines: list[str], language: str) -> list[tuple[str, str, str, str]]:
    out = []
    stack: list[tuple[int, str]] = []  # (indent, key)
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _YAML_KEY.match(line)
        if m is None:
            continue
        indent = len(m.group("indent"))
        if line.lstrip().startswith("-"):
            indent += 2
        while stack and stack[-1][0] >= indent:
            stack.pop()
        name = m.group("name")
        qual = ".".join([k for _, k in stack] + [name])
        out.append((qual, "config_key", _line_sig(line), language))
        stack.append((indent, name))
    return out


def _heading_symbol(heading: str) -> tuple[str, str, str, str] | None:
    text = heading.strip()
    m = _CODE_HEADING.match(text) or _DOTTED_HEADING.match(text)
    if m is None:
        return None
    name = m.group("name")
    if m.group("call") is None:
        return name, "unknown", "", ""
    parts = name.split(".")
    kind = "method" if len(parts) > 1 and parts[-2][:1].isupper() else "function"
    return name, kind, name + m.group("call"), ""


def _python_definitions(code: str) -> list[tuple[str, str, str, str]]:
    out: list[tuple[str, str, str, str]] = []
    current_class = ""
    lines = code.split("\n")
    for n, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith(("#", "@")):
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0:
            current_class = ""
        cm = _PY_CLASS.match(line)
        if cm and indent == 0:
            current_class = cm.group("name")
            out.append((current_class, "class", _signature(lines, n), "python"))
            continue
        dm = _PY_DEF.match(line)
        if dm and indent == 0:
            out.append((dm.group("name"), "function", _signature(lines, n), "python"))
        elif dm and current_class and indent == 4:
            qual = f"{current_class}.{dm.group('name')}"
            out.append((qual, "method", _signature(lines, n), "python"))
    return out


_SIG_END = re.compile(r"^(?P<sig>.*?\)(?:\s*->\s*[^:]+?)?|class\s+\w+)\s*:\s*(?:#.*)?$")


def _signature(lines: list[str], n: int) -> str:
    """The definition starting at line ``n``, joined over up to 12 lines, without ``:``/comment."""
    parts: list[str] = []
    depth = 0
    for line in lines[n : n + 12]:
        parts.append(line.strip())
        depth += line.count("(") + line.count("[") - line.count(")") - line.count("]")
        if depth <= 0:
            break
    sig = " ".join(parts).replace("( ", "(").replace(" )", ")").replace(", )", ")")
    m = _SIG_END.match(sig)
    return m.group("sig") if m else sig.rstrip(":").rstrip()


# --- pitfalls --------------------------------------------------------------------------------

_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_ADMONITION_KINDS = {"deprecated": "deprecated", "versionremoved": "removed"}
"""Admonition types that state a pitfall by themselves (their first sentence is the evidence
when no sentence names a kind)."""
_SYMBOL_SPAN = re.compile(r"`(?P<name>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)(?:\([^`]*\)|=[^`]*)?`")
_LIST_ITEM = re.compile(r"^[ ]*(?:[*+-]|\d{1,9}[.)])[ \t]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*_`\[])")
_QUOTE = re.compile(r"^[ ]*>[ ]?")
_MAX_TEXT = 1000


def extract_pitfalls(chunks: pa.Table) -> pa.Table:
    """``PITFALLS``: sentences that explicitly state a trap (``pitfalls.classify``), from
    paragraphs, list items and admonitions."""
    rows: list[dict[str, Any]] = []
    for c in chunks.to_pylist():
        for kind, sentence, unit in _chunk_pitfalls(c["text"]):
            symbols = list(dict.fromkeys(m.group("name") for m in _SYMBOL_SPAN.finditer(sentence)))
            endpoints = sorted(
                {
                    f"{m.group('method')} {m.group('path').rstrip('.,;:')}"
                    for m in _ENDPOINT_TEXT.finditer(sentence)
                }
            )
            rows.append(
                {
                    "id": stable_id("f_", c["id"], kind, sentence),
                    **_provenance(c),
                    "kind": kind,
                    "symbol": symbols[0] if symbols else "",
                    "text": _cap(unit),
                    "path": c["path"],
                    "anchor": c["anchor"],
                    "sentence": _cap(sentence),
                    "heading": c["heading"],
                    "symbols": symbols,
                    "endpoints": endpoints,
                }
            )
    return _table("pitfalls", _dedupe(rows))


def _sentences(unit: str) -> list[str]:
    return [x.strip() for x in _SENTENCE_END.split(unit) if x.strip()]


def _chunk_pitfalls(text: str) -> list[tuple[str, str, str]]:
    """(kind, sentence, unit) of every pitfall sentence of a chunk."""
    scan = scan_markdown(text)
    used = [False] * len(scan.lines)
    out: list[tuple[str, str, str]] = []
    for adm in admonitions(scan):
        body = _collapse(" ".join([adm.title, adm.body]))
        for k in range(adm.start, adm.end):
            used[k] = True
        found = [(classify(x), x) for x in _sentences(body)]
        found = [(k, x) for k, x in found if k]
        if not found and adm.type in _ADMONITION_KINDS and body:
            found = [(_ADMONITION_KINDS[adm.type], _sentences(body)[0])]
        out.extend((k, x, body) for k, x in found)
    for unit in _text_units(scan, used):
        for sentence in _sentences(unit):
            kind = classify(sentence)
            if kind:
                out.append((kind, sentence, unit))
    return out


def _text_units(scan: Scan, used: list[bool]) -> list[str]:
    """Sentences of paragraphs and whole list items, outside fences, admonitions and headings."""
    units: list[str] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            para = _collapse(" ".join(buf))
            units.extend(s for s in _SENTENCE_END.split(para) if s.strip())
            buf.clear()

    heading_lines = {h.line for h in scan.headings} | {h.end_line for h in scan.headings}
    item: list[str] = []
    for i, line in enumerate(scan.lines):
        if scan.in_fence[i] or used[i] or i in heading_lines or not line.strip():
            flush()
            if item:
                units.append(_collapse(" ".join(item)))
                item = []
            continue
        if _LIST_ITEM.match(line):
            flush()
            if item:
                units.append(_collapse(" ".join(item)))
            item = [_LIST_ITEM.sub("", line, count=1)]
            continue
        if item and line.startswith((" ", "\t")):
            item.append(line)
            continue
        if item:
            units.append(_collapse(" ".join(item)))
            item = []
        buf.append(_QUOTE.sub("", line))
    flush()
    if item:
        units.append(_collapse(" ".join(item)))
    return units


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _cap(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 1].rstrip() + "…"


# --- endpoints -------------------------------------------------------------------------------


def extract_endpoints(
    cfg: SourceConfig, fetches: pa.Table, project_root: Path | None = None
) -> pa.Table:
    """``ENDPOINTS`` of every OpenAPI / Swagger document among the fetched bodies (delegates to
    ``endpoints``); each row points at its section of the spec's page."""
    rows: list[dict[str, Any]] = []
    paths = page_paths(cfg, fetches, project_root)
    for f in fetches.to_pylist():
        body = f.get("body") or b""
        url = f.get("final_url") or f.get("url") or ""
        if not f.get("ok") or not looks_like_spec(body, url, f.get("content_type") or ""):
            continue
        try:
            parsed = parse_spec(body, spec_url=url)
        except SpecError as e:
            log.warning("endpoints: %s is not a usable OpenAPI document: %s", url, e.message)
            continue
        for issue in parsed.issues[:20]:
            log.info("endpoints: %s %s at %s: %s", url, issue.code, issue.pointer, issue.message)
        path = paths.get(f.get("url") or "", "")
        _, anchors = render_markdown(parsed)
        rows.extend(
            endpoint_rows(
                parsed,
                source=cfg.name,
                library=cfg.library,
                version=cfg.version,
                spec_url=url,
                page_id=stable_id("p_", cfg.name, path),
                chunk_ids={a: stable_id("c_", cfg.name, path, a) for a in anchors},
            )
        )
    return _table("endpoints", _dedupe(rows))
