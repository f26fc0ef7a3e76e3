"""examples: what a code example is — its language, framework, the names it uses, the HTTP
endpoints it defines or calls, and include markers that stand for code kept elsewhere.

Contract (pure functions of their input; ``extract.extract_examples`` puts them together):

- ``example_language(info, fallback="")``: the language of a fence info string — its first word
  (``python``, ``Python`` → ``python``), or the first ``.class`` of an attribute list
  (``{ .py title="x" }`` → ``py``); never an attribute (``hl_lines="5"`` alone → "").
- ``detect_framework(language, code)``: the first framework of ``FRAMEWORKS`` whose import or
  distinctive call appears in the code (``from fastapi import``, ``FastAPI(``, ``require("express")``,
  ``new Hono(``, ``org.springframework``, ``gin.Default()`` …); "" without such evidence (a bare
  ``@app.get`` says nothing: Flask has it too).
- ``code_symbols(language, code)``: names the code imports (``module.name``) and calls
  (``name`` / ``obj.attr``), keywords and builtins aside; sorted, at most ``MAX_SYMBOLS``.
- ``client_endpoints(code)``: ``"METHOD /path"`` of HTTP client calls with a literal URL or path
  (``requests.get("https://x/v1/items")``, ``client.post("/items/")``, ``axios.put('/a')``,
  ``fetch("/a", {method: "POST"})``) and ``curl`` commands (``-X``, else POST with a body flag,
  else GET).
- ``include_markers(text)``: fastapi ``{* ../../docs_src/x.py hl[3] *}`` lines outside fences
  and mkdocs snippets ``--8<-- "path"`` lines: (line index, path).
- ``resolve_include(path, page_dir, root)``: the included file's text when it exists inside
  ``root`` (never outside it: no ``../../etc/passwd``), is a regular file with a code suffix and
  at most ``MAX_INCLUDE_BYTES``; tried against ``page_dir`` and each ancestor up to ``root``.
  ``None`` otherwise (the example is then ``missing_code``).
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

__all__ = [
    "FRAMEWORKS",
    "MAX_INCLUDE_BYTES",
    "MAX_SYMBOLS",
    "client_endpoints",
    "code_symbols",
    "detect_framework",
    "example_language",
    "include_markers",
    "language_of_path",
    "resolve_include",
]

MAX_SYMBOLS = 50
MAX_INCLUDE_BYTES = 256 * 1024

_PY = {"python", "py", "python3", "py3", "pycon", "ipython"}
_JS = {"js", "javascript", "jsx", "mjs", "cjs", "ts", "typescript", "tsx", "mts", "cts", "vue"}

# (framework, languages it is written in, evidence) — most specific first (next before react).
FRAMEWORKS: tuple[tuple[str, frozenset[str], re.Pattern[str]], ...] = tuple(
    (name, frozenset(langs), re.compile(rx, re.M))
    for name, langs, rx in (
        (
            "fastapi",
            _PY,
            r"^\s*(?:from\s+fastapi\b|import\s+fastapi\b)|\bFastAPI\(|\bAPIRouter\("
            r"|\bDepends\(|\bHTTPException\(|\bUploadFile\b|\bBackgroundTasks\b",
        ),
        ("flask", _PY, r"^\s*(?:from\s+flask\b|import\s+flask\b)|\bFlask\(__name__"),
        ("django", _PY, r"^\s*(?:from\s+django\b|import\s+django\b)"),
        ("starlette", _PY, r"^\s*(?:from\s+starlette\b|import\s+starlette\b)"),
        ("litestar", _PY, r"^\s*from\s+litestar\b"),
        ("next", _JS, r"""from\s+['"]next(?:/[\w/-]+)?['"]|require\(\s*['"]next['"]"""),
        ("nestjs", _JS, r"""from\s+['"]@nestjs/"""),
        ("express", _JS, r"""from\s+['"]express['"]|require\(\s*['"]express['"]\s*\)"""),
        (
            "fastify",
            _JS,
            r"""from\s+['"]fastify['"]|require\(\s*['"]fastify['"]\s*\)|\bFastify\(""",
        ),
        ("hono", _JS, r"""from\s+['"]hono(?:/[\w/-]+)?['"]|\bnew\s+Hono\("""),
        ("koa", _JS, r"""from\s+['"]koa['"]|require\(\s*['"]koa['"]\s*\)|\bnew\s+Koa\("""),
        ("elysia", _JS, r"""from\s+['"]elysia['"]|\bnew\s+Elysia\("""),
        ("react", _JS, r"""from\s+['"]react(?:-dom)?(?:/[\w/-]+)?['"]|require\(\s*['"]react['"]"""),
        ("vue", _JS, r"""from\s+['"]vue['"]|\bcreateApp\("""),
        ("svelte", _JS | {"svelte"}, r"""from\s+['"]svelte(?:/[\w/-]+)?['"]"""),
        (
            "spring",
            frozenset({"java", "kotlin", "kt"}),
            r"\borg\.springframework\b|@(?:RestController|SpringBootApplication|GetMapping|PostMapping)\b",
        ),
        ("gin", frozenset({"go", "golang"}), r"github\.com/gin-gonic/gin|\bgin\.(?:Default|New)\("),
        ("echo", frozenset({"go", "golang"}), r"github\.com/labstack/echo"),
        ("fiber", frozenset({"go", "golang"}), r"github\.com/gofiber/fiber"),
        (
            "rails",
            frozenset({"ruby", "rb"}),
            r"\bRails\.application\b|<\s*(?:ApplicationController|ActiveRecord::Base)\b",
        ),
        ("laravel", frozenset({"php"}), r"\bIlluminate\\"),
        ("actix", frozenset({"rust", "rs"}), r"\buse\s+actix_web\b"),
        ("axum", frozenset({"rust", "rs"}), r"\buse\s+axum\b"),
    )
)


def example_language(info: str, fallback: str = "") -> str:
    """The language of a fence info string (see the module docstring)."""
    s = info.strip()
    if not s:
        return fallback if "=" not in fallback else ""
    if s.startswith("{"):
        classes = [t[1:] for t in s.strip("{}").split() if t.startswith(".") and len(t) > 1]
        return classes[0].lower() if classes else ""
    word = s.split(maxsplit=1)[0].split("{", 1)[0].split(",", 1)[0].lstrip(".")
    if "=" in word or not re.fullmatch(r"[\w+#.-]+", word):
        return ""
    return word.lower()


def detect_framework(language: str, code: str) -> str:
    lang = language.lower()
    for name, langs, rx in FRAMEWORKS:
        if (lang in langs or not lang) and rx.search(code):
            return name
    return ""


_PY_FROM = re.compile(r"^\s*from\s+(?P<mod>[\w.]+)\s+import\s+(?P<names>\(?[^#\n]+)", re.M)
_PY_IMPORT = re.compile(
    r"^\s*import\s+(?P<mods>[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)", re.M
)
_JS_IMPORT = re.compile(
    r"""^\s*import\s+(?:type\s+)?(?P<what>[^'"]+?)\s+from\s+['"](?P<mod>[^'"]+)['"]""", re.M
)
_JS_REQUIRE = re.compile(r"""require\(\s*['"](?P<mod>[^'"]+)['"]\s*\)""")
_CALL = re.compile(r"(?<![\w.$])(?P<name>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\(")
_NOT_CALLS = {
    # keywords and control flow
    "if", "elif", "for", "while", "switch", "catch", "return", "function", "def", "class",
    "with", "async", "await", "new", "typeof", "not", "and", "or", "in", "is", "lambda",
    "yield", "assert", "del", "raise", "except", "print", "super", "this", "self",
    # builtins that say nothing about the API
    "len", "str", "int", "float", "bool", "dict", "list", "set", "tuple", "range", "isinstance",
    "type", "repr", "open", "sorted", "enumerate", "zip", "map", "filter", "min", "max", "sum",
    "console.log", "JSON.stringify", "JSON.parse", "require", "import", "String", "Number",
}  # fmt: skip


def code_symbols(language: str, code: str) -> list[str]:
    """Imported and called names (see the module docstring)."""
    lang = language.lower()
    found: set[str] = set()
    if lang in _PY or not lang:
        for m in _PY_FROM.finditer(code):
            for part in m.group("names").strip("()").split(","):
                name = part.strip().split(" as ")[0].strip()
                if re.fullmatch(r"\w+", name):
                    found.add(f"{m.group('mod')}.{name}")
        for m in _PY_IMPORT.finditer(code):
            for part in m.group("mods").split(","):
                found.add(part.strip().split(" as ")[0].strip())
    if lang in _JS or not lang:
        for m in _JS_IMPORT.finditer(code):
            names = re.findall(r"[A-Za-z_$][\w$]*", m.group("what").replace(" as ", " "))
            found.update(f"{m.group('mod')}.{n}" for n in names if n not in ("type", "from"))
        found.update(m.group("mod") for m in _JS_REQUIRE.finditer(code))
    if lang in _PY | _JS or lang in ("go", "java", "kotlin", "rust", "ruby", "php") or not lang:
        for m in _CALL.finditer(_strip_strings(code)):
            name = m.group("name")
            if name not in _NOT_CALLS and name.split(".", 1)[0] not in ("self", "this"):
                found.add(name)
    return sorted(found)[:MAX_SYMBOLS]


def _strip_strings(code: str) -> str:
    """Code with string literals and comments blanked (calls inside them are not calls)."""
    code = re.sub(r"(?s)\"\"\".*?\"\"\"|'''.*?'''", '""', code)
    code = re.sub(r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`", '""', code)
    return re.sub(r"(?m)(?:#|//).*$", "", code)


_CLIENT_CALL = re.compile(
    r"""\b(?:requests|httpx|client|session|axios|api|http|ky|got|superagent|request|test_client|"""
    r"""async_client|ac|c)\.(?P<method>get|post|put|patch|delete|head|options)\(\s*f?"""
    r"""(?P<q>['"`])(?P<url>[^'"`\s]+)(?P=q)""",
    re.I,
)
_FETCH = re.compile(
    r"""\bfetch\(\s*(?P<q>['"`])(?P<url>[^'"`\s]+)(?P=q)\s*(?:,\s*\{(?P<opts>[^}]*)\})?""", re.S
)
_FETCH_METHOD = re.compile(r"""method\s*:\s*['"`](?P<m>[A-Za-z]+)['"`]""")


def _path_of(url: str) -> str:
    if url.startswith("/"):
        path = url.split("?", 1)[0].split("#", 1)[0]
    elif url.startswith(("http://", "https://")) or "${" in url[:10]:
        path = urlsplit(url).path if url.startswith("http") else "/" + url.split("/", 3)[-1]
    else:
        return ""
    return path if len(path) > 1 else ""


_CURL_CMD = re.compile(r"\bcurl\b(?P<args>[^\n]*)")
_CURL_METHOD = re.compile(r"(?:-X|--request)\s*['\"]?(?P<m>[A-Za-z]+)")
_CURL_DATA = re.compile(r"\s(?:-d|--data[\w-]*|-F|--form|--json)\b")
_CURL_URL = re.compile(r"""['"]?(?P<url>https?://[^\s'"]+)""")


def _curl_endpoints(code: str) -> list[str]:
    """``curl`` commands (continuation lines joined): ``-X`` method, else POST with a body
    flag (``-d``, ``--data*``, ``-F``, ``--json``), else GET; the path of the first URL."""
    joined = re.sub(r"\\\s*\n", " ", code)
    out = []
    for m in _CURL_CMD.finditer(joined):
        args = m.group("args")
        url = _CURL_URL.search(args)
        path = _path_of(url.group("url")) if url else ""
        if not path:
            continue
        verb = _CURL_METHOD.search(args)
        method = verb.group("m").upper() if verb else "POST" if _CURL_DATA.search(args) else "GET"
        out.append(f"{method} {path}")
    return out


def client_endpoints(code: str) -> list[str]:
    out: set[str] = set(_curl_endpoints(code))
    for m in _CLIENT_CALL.finditer(code):
        path = _path_of(m.group("url"))
        if path:
            out.add(f"{m.group('method').upper()} {path}")
    for m in _FETCH.finditer(code):
        path = _path_of(m.group("url"))
        method = _FETCH_METHOD.search(m.group("opts") or "")
        if path:
            out.add(f"{(method.group('m') if method else 'GET').upper()} {path}")
    return sorted(out)


_FASTAPI_INCLUDE = re.compile(r"^\s*\{\*\s*(?P<path>[^\s*]+)[^*]*\*\}\s*$")
_SNIPPET = re.compile(r"""^\s*-{1,2}8<-{1,2}\s+["']?(?P<path>[^"'\s]+)["']?\s*$""")
_CODE_SUFFIXES = {
    ".py": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".jsx": "jsx",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".java": "java",
    ".kt": "kotlin",
    ".rs": "rust",
    ".rb": "ruby",
    ".php": "php",
    ".sh": "bash",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".html": "html",
    ".css": "css",
    ".sql": "sql",
    ".txt": "text",
    ".md": "markdown",
    ".dockerfile": "dockerfile",
}


def include_markers(lines: list[str], in_fence: list[bool]) -> list[tuple[int, str]]:
    """(line index, path) of include markers: fastapi ``{* … *}`` outside fences, snippets
    ``--8<-- "path"`` anywhere."""
    out = []
    for i, line in enumerate(lines):
        m = _SNIPPET.match(line) or (None if in_fence[i] else _FASTAPI_INCLUDE.match(line))
        if m:
            out.append((i, m.group("path")))
    return out


def language_of_path(path: str) -> str:
    return _CODE_SUFFIXES.get(PurePosixPath(path).suffix.lower(), "")


def resolve_include(path: str, page_dir: Path, root: Path) -> str | None:
    """The included file's text, or None (see the module docstring)."""
    if not language_of_path(path) or path.startswith(("/", "~")) or "\x00" in path:
        return None
    root = root.resolve()
    base = page_dir.resolve()
    if not base.is_relative_to(root):
        return None
    for folder in (base, *base.parents):
        target = (folder / path).resolve()
        if target.is_relative_to(root) and target.is_file():
            if target.stat().st_size > MAX_INCLUDE_BYTES:
                return None
            return target.read_text(encoding="utf-8", errors="replace")
        if folder == root:
            break
    return None
