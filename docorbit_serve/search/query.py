"""Query understanding without an LLM: normalization, intent, weighted expansion.

Contract: ``understand(query, cfg) -> Query`` with

- ``text``: the query with pasted-error noise removed (traceback ``File "…", line N`` frames,
  memory addresses, URLs, long numbers, quoted user values kept only as words);
- ``terms``: ``{term: weight}`` — the analysed terms of ``text`` (``analyze.terms``; identifiers
  in ``camelCase``, ``snake_case`` and dotted paths are kept whole *and* split into words) at
  weight 1.0, plus expansions from ``SYNONYMS`` (a small, general programming-docs
  synonym/abbreviation map) at ``cfg.w_synonym``; an expansion never lowers a term's weight;
  the words of an alternative the asker does not want ("... instead of asyncio", "rather than
  JSON": ``_INSTEAD``, up to the next punctuation or preposition) count at ``cfg.w_instead``
  unless they are also typed elsewhere in the query;
- ``intents``: the detected intents, a subset of ``INTENTS`` (``api``, ``examples``,
  ``configuration``, ``troubleshooting``, ``implementation``, ``conceptual``, ``migration``),
  from cue words and the shape of the text (an exception name or ``Error:`` line means
  ``troubleshooting``; code-like identifiers mean ``api``);
- ``identifiers``: the code-like tokens of the query (lowercased), for symbol matching.

Bounds (the same for the CLI, MCP and REST faces, which all reach ``understand`` through
``search``): a query longer than ``MAX_QUERY_CHARS`` characters, or whose text analyses to more
than ``MAX_QUERY_TERMS`` distinct terms, raises ``InputError`` (``bad_input``) before any
pattern runs over it (``check_query``). The code-token pattern runs per whitespace-separated
token and skips tokens longer than ``MAX_TOKEN_CHARS`` (no identifier is that long), so the cost
of understanding is linear in the query's length (a 10,000-character word took ~20 s before).

Deterministic; depends only on the query text and the config.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from docorbit_serve.errors import InputError
from docorbit_serve.search.analyze import terms

__all__ = [
    "INTENTS",
    "MAX_QUERY_CHARS",
    "MAX_QUERY_TERMS",
    "MAX_TOKEN_CHARS",
    "SYNONYMS",
    "Query",
    "base_forms",
    "check_query",
    "normalize",
    "understand",
]

# A pasted traceback with its question fits in 2,000 characters; the dev questions are under
# 100 characters and 15 terms. Beyond these caps a query is refused, not truncated, so the
# caller knows what was searched.
MAX_QUERY_CHARS = 2000
MAX_QUERY_TERMS = 64
MAX_TOKEN_CHARS = 200

INTENTS = (
    "api",
    "conceptual",
    "configuration",
    "examples",
    "implementation",
    "migration",
    "troubleshooting",
)

# General programming-documentation vocabulary: abbreviations, old/new names and the everyday
# words developers type for what docs call something else. Keys and values are plain words;
# both go through the analyzer (so stems match). Not tuned to any one library.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "auth": ("authentication", "authorization"),
    "authn": ("authentication",),
    "authz": ("authorization",),
    "login": ("authentication", "oauth2"),
    "config": ("configuration", "settings"),
    "conf": ("configuration",),
    "configure": ("configuration", "settings"),
    "setting": ("configuration", "config"),
    "settings": ("configuration", "config"),
    "option": ("configuration", "parameter"),
    "env": ("environment", "variables"),
    "envvar": ("environment", "variable"),
    "err": ("error",),
    "exc": ("exception",),
    "exception": ("error",),
    "crash": ("error", "exception"),
    "fails": ("error",),
    "fail": ("error",),
    "broken": ("error",),
    "args": ("arguments", "parameters"),
    "arg": ("argument", "parameter"),
    "param": ("parameter",),
    "params": ("parameters",),
    "kwargs": ("keyword", "arguments"),
    "dict": ("dictionary", "mapping"),
    "obj": ("object",),
    "func": ("function",),
    "fn": ("function",),
    "lib": ("library",),
    "pkg": ("package",),
    "deps": ("dependencies",),
    "dep": ("dependency",),
    "db": ("database",),
    "sql": ("database",),
    "repo": ("repository",),
    "req": ("request",),
    "res": ("response",),
    "resp": ("response",),
    "msg": ("message",),
    "async": ("asynchronous", "await"),
    "sync": ("synchronous",),
    "docs": ("documentation",),
    "swagger": ("openapi", "docs"),
    "openapi": ("swagger", "schema"),
    "hide": ("exclude", "hidden"),
    "omit": ("exclude",),
    "skip": ("disable", "ignore"),
    "turn": ("disable", "enable"),
    "switch": ("disable", "enable"),
    "remove": ("delete", "exclude"),
    "drop": ("exclude", "ignore"),
    "keep": ("allow", "preserve"),
    "extra": ("additional",),
    "globally": ("global",),
    "prod": ("production", "deployment"),
    "production": ("deployment",),
    "deploy": ("deployment",),
    "dynamically": ("dynamic",),
    "nested": ("recursive",),
    "cert": ("certificate", "ssl"),
    "certs": ("certificates", "ssl"),
    "certificate": ("ssl", "tls"),
    "https": ("ssl", "tls"),
    "tls": ("ssl",),
    "ssl": ("tls",),
    "verify": ("verification",),
    "check": ("verify", "validate"),
    "compression": ("encoding",),
    "gzip": ("encoding", "compression"),
    "serialize": ("dump", "serialization"),
    "serialise": ("dump", "serialization"),
    "deserialize": ("parse", "validate"),
    "json": ("serialization",),
    "convert": ("serialization", "coerce"),
    "timeout": ("timeouts",),
    "retry": ("retries",),
    "upload": ("files", "multipart"),
    "download": ("stream", "streaming"),
    "stream": ("streaming",),
    "proxy": ("proxies",),
    "cookie": ("cookies",),
    "header": ("headers",),
    "test": ("testing",),
    "tests": ("testing",),
    "mock": ("testing", "override"),
    "log": ("logging",),
    "logs": ("logging",),
    "perf": ("performance",),
    "upgrade": ("migration",),
    "upgrading": ("migration",),
    "migrate": ("migration",),
    "deprecated": ("migration", "removed"),
    "renamed": ("migration",),
    "v1": ("migration",),
    "v2": ("migration",),
    "background": ("tasks",),
    "websocket": ("websockets",),
    "ws": ("websockets",),
    "middleware": ("middlewares",),
    "cors": ("origins", "middleware"),
    "html": ("template", "templates"),
    "template": ("templates",),
    "example": ("examples",),
    "default": ("defaults",),
    "id": ("identifier",),
    "uuid": ("id",),
    "worker": ("workers", "processes"),
    "workers": ("processes",),
    "process": ("workers",),
    # Verbs developers type for what docs call otherwise.
    "turn off": ("disable",),
    "switch off": ("disable",),
    "turn on": ("enable",),
    "switch on": ("enable",),
    "set up": ("installation", "configure"),
    "setup": ("installation", "configuration"),
    "install": ("installation",),
    "ignore": ("skip", "exclude"),
    "prevent": ("disable", "forbid"),
    "block": ("forbid", "deny"),
    "reject": ("forbid", "error"),
    "allow": ("enable", "permit"),
    "change": ("override", "customize"),
    "modify": ("override", "customize"),
    "customise": ("customize", "custom"),
    "override": ("custom", "customize"),
    "replace": ("override",),
    "reuse": ("share", "common"),
    "share": ("reuse", "common"),
    "shared": ("common", "global"),
    "startup": ("lifespan", "start"),
    "shutdown": ("lifespan", "close"),
    "send": ("request",),
    "fetch": ("request",),
    "return": ("response",),
    "reply": ("response",),
    "parse": ("validate", "load"),
    "validate": ("validation", "validator"),
    "cast": ("coerce", "conversion"),
    "coerce": ("conversion", "strict"),
    "raise": ("exception",),
    "throw": ("raise", "exception"),
    "bug": ("error",),
    "problem": ("error",),
    "debug": ("debugging", "logging"),
    "encode": ("encoding",),
    "decode": ("decoding", "encoding"),
    "rename": ("alias",),
    "copy": ("clone", "duplicate"),
    "memoize": ("cache",),
    "inherit": ("inheritance", "subclass"),
    "subclass": ("inheritance",),
    # Nouns and adjectives.
    "api key": ("authentication", "security"),
    "sign in": ("login", "authentication"),
    "credentials": ("authentication", "password"),
    "permission": ("authorization", "scopes"),
    "limit": ("limits", "max"),
    "max": ("maximum", "limit"),
    "min": ("minimum",),
    "concurrent": ("concurrency", "async", "parallel"),
    "parallel": ("concurrency", "async"),
    "thread": ("threads", "concurrency"),
    "file": ("files",),
    "form": ("forms",),
    "string": ("str",),
    "str": ("string",),
    "int": ("integer",),
    "integer": ("int",),
    "bool": ("boolean",),
    "boolean": ("bool",),
    "list": ("array", "sequence"),
    "array": ("list",),
    "map": ("dict", "mapping"),
    "mapping": ("dict",),
    "required": ("mandatory", "optional"),
    "mandatory": ("required",),
    "date": ("datetime",),
    "timestamp": ("datetime",),
    "enum": ("choices", "literal"),
    "choices": ("enum", "literal"),
    "callback": ("hook", "hooks"),
    "hook": ("hooks", "callback"),
    "plugin": ("plugins", "extension"),
    "extension": ("plugin", "extensions"),
    "endpoint": ("route",),
    "route": ("endpoint",),
    "querystring": ("query", "parameters"),
    "query string": ("query", "parameters"),
    "reverse proxy": ("proxy",),
    "load balancer": ("proxy",),
    "documentation": ("docs",),
    "old": ("deprecated", "migration"),
    "legacy": ("deprecated", "migration"),
    "alias": ("aliases", "rename"),
    "private": ("internal",),
    "internal": ("private",),
    "immutable": ("frozen", "readonly"),
    "readonly": ("frozen", "immutable"),
    "read only": ("frozen", "immutable"),
    "frozen": ("immutable",),
    "cache": ("caching", "cached"),
    "fake": ("mock", "testing"),
    "stub": ("mock",),
    "pytest": ("testing",),
    "charset": ("encoding",),
    "unicode": ("encoding",),
    "utf8": ("encoding",),
    "chunked": ("streaming",),
    "cli": ("command", "terminal"),
    "command line": ("cli",),
    "terminal": ("cli", "command"),
    "dotenv": ("env", "environment"),
    "redoc": ("docs", "openapi"),
}

_INTENT_CUES: dict[str, tuple[str, ...]] = {
    "api": (
        "api",
        "method",
        "function",
        "class",
        "attribute",
        "signature",
        "parameter",
        "argument",
        "return",
        "returns",
        "decorator",
        "property",
        "field",
        "object",
    ),
    "conceptual": (
        "why",
        "what",
        "difference",
        "vs",
        "versus",
        "concept",
        "explain",
        "overview",
        "understand",
        "meaning",
        "purpose",
        "which",
        "should",
        "instead",
        "when",
    ),
    "configuration": (
        "config",
        "configure",
        "configuration",
        "setting",
        "settings",
        "option",
        "options",
        "enable",
        "disable",
        "default",
        "env",
        "environment",
        "turn",
        "timeout",
        "globally",
    ),
    "examples": ("example", "examples", "sample", "snippet", "demo", "show"),
    "implementation": (
        "implement",
        "build",
        "create",
        "write",
        "make",
        "add",
        "custom",
        "integrate",
        "run",
    ),
    "migration": (
        "migrate",
        "migration",
        "upgrade",
        "upgrading",
        "deprecated",
        "renamed",
        "removed",
        "v1",
        "v2",
        "breaking",
    ),
    "troubleshooting": (
        "error",
        "exception",
        "fails",
        "failed",
        "failing",
        "crash",
        "broken",
        "traceback",
        "warning",
        "raise",
        "raises",
        "debug",
        "wrong",
        "instead",
        "still",
        "doesn",
        "not",
    ),
}

_INFLECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ies", ("y",)),
    ("es", ("", "e")),
    ("s", ("",)),
    ("ing", ("", "e")),
    ("ed", ("", "e")),
    ("ly", ("",)),
)
# Latin abbreviations of prose ("e.g.", "i.e.") are not search terms.
_ABBREV = re.compile(r"(?<![\w.])(?:e\.g|i\.e|etc|cf|vs)\.?(?![\w])", re.I)
# "from a.b import C, D" names the dotted paths a.b.C and a.b.D, as API references spell them.
_FROM_IMPORT = re.compile(
    r"\bfrom\s+([A-Za-z_][\w.]*)\s+import\s+\(?\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)"
)
# "... to pydantic 2", "after moving to v2", "version 2.x": a major-version move means migration.
_VERSION_MOVE = re.compile(
    r"\b(?:to|from|after|since|before|into)\s+(?:[A-Za-z][\w-]*\s+)?v?\d+(?:\.(?:\d+|x))?(?![\w.])"
    r"|\bv\d+(?:\.(?:\d+|x))?\b",
    re.I,
)
# "X instead of Y" / "X rather than Y": Y is the alternative the asker does not want (English,
# not any one library). Y runs to the next punctuation mark (a dot inside a dotted name such as
# httpx.get is not one) or preposition/conjunction.
_INSTEAD = re.compile(r"\b(?:instead\s+of|rather\s+than)\s+((?:[^,.;:!?()]|\.(?=\w))*)", re.I)
_SPAN_END = re.compile(
    r"\s(?:in|on|from|for|to|with|at|by|when|so|and|but|because|since|after|before|while)\s",
    re.I,
)
_TRACE_FRAME = re.compile(r'^\s*File "[^"\n]*", line \d+(?:, in [^\n]*)?$', re.M)
_TRACE_HEAD = re.compile(r"Traceback \(most recent call last\):")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.I)
_HEX = re.compile(r"\b0x[0-9a-fA-F]+\b")
_LONGNUM = re.compile(r"\b\d{5,}\b")
_ERROR_NAME = re.compile(r"\b[A-Z][A-Za-z0-9]*(?:Error|Exception|Warning)\b|\b[A-Z]\w*Error:")
_CODE_TOKEN = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+"  # dotted path
    r"|[a-z0-9]+_[a-z0-9_]+"  # snake_case
    r"|[a-z]+[A-Z][A-Za-z0-9]*"  # camelCase
    r"|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*"  # PascalCase compound
    r"|[A-Za-z_]\w*\(\)"  # call()
)


@dataclass(frozen=True)
class Query:
    raw: str
    text: str
    terms: dict[str, float]
    intents: tuple[str, ...]
    identifiers: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "terms": dict(sorted(self.terms.items())),
            "intents": list(self.intents),
            "identifiers": list(self.identifiers),
        }


def check_query(query: str) -> None:
    """Raise ``InputError`` (``bad_input``) when ``query`` is beyond the length cap."""
    if len(query) > MAX_QUERY_CHARS:
        raise InputError(
            f"the query is {len(query):,} characters long; the limit is {MAX_QUERY_CHARS:,}. "
            "Search with the words that matter (an error's last line, an API name)",
            detail={"chars": len(query), "max_chars": MAX_QUERY_CHARS},
            code="bad_input",
        )


def _check_terms(count: int) -> None:
    if count > MAX_QUERY_TERMS:
        raise InputError(
            f"the query has {count} distinct search terms; the limit is {MAX_QUERY_TERMS}. "
            "Search with fewer, more specific words",
            detail={"terms": count, "max_terms": MAX_QUERY_TERMS},
            code="bad_input",
        )


def _code_tokens(text: str) -> list[str]:
    """Code-like tokens of ``text``, matched per whitespace-separated token (linear time)."""
    return [
        m.group()
        for tok in text.split()
        if len(tok) <= MAX_TOKEN_CHARS
        for m in _CODE_TOKEN.finditer(tok)
    ]


def normalize(query: str) -> str:
    """The query without pasted-error noise (frames, addresses, URLs, long numbers)."""
    text = _TRACE_HEAD.sub(" ", query)
    text = _TRACE_FRAME.sub(" ", text)
    text = _URL.sub(" ", text)
    text = _HEX.sub(" ", text)
    text = _LONGNUM.sub(" ", text)
    text = _ABBREV.sub(" ", text)
    return " ".join(text.split())


def base_forms(word: str) -> list[str]:
    """``word`` and its plausible uninflected forms (checks -> check, dropping -> drop,
    configured -> configure), most literal first: how a query word finds its ``SYNONYMS`` key."""
    out = [word]
    for end, repls in _INFLECTIONS:
        if len(word) > len(end) + 2 and word.endswith(end):
            stem = word[: -len(end)]
            out.extend(stem + r for r in repls)
            if end in ("ing", "ed") and len(stem) > 2 and stem[-1] == stem[-2]:
                out.append(stem[:-1])  # dropping -> drop
    return list(dict.fromkeys(out))


def _expansions(words: list[str]) -> list[str]:
    """Synonym expansions of the query's words and two-word phrases (first key found wins)."""
    out: list[str] = []
    for a, b in zip(words, words[1:], strict=False):
        for fa in base_forms(a):
            hit = SYNONYMS.get(f"{fa} {b}")
            if hit:
                out.extend(hit)
                break
    for w in dict.fromkeys(words):
        for form in base_forms(w):
            hit = SYNONYMS.get(form)
            if hit:
                out.extend(hit)
                break
    return out


def _unwanted(text: str) -> set[str]:
    """Terms of the alternatives ``text`` rejects ("instead of Y") and types nowhere else."""
    out: set[str] = set()
    kept, last = [], 0
    for m in _INSTEAD.finditer(text):
        span = m.group(1)
        end = _SPAN_END.search(f" {span} ")  # padded: a preposition first or last still counts
        span = span[: max(end.start() - 1, 0)] if end else span
        out.update(terms(span))
        kept.append(text[last : m.start()])
        last = m.start(1) + len(span)
    kept.append(text[last:])
    return out - set(terms(" ".join(kept)))


def _intents(raw: str, words: set[str]) -> tuple[str, ...]:
    found = {name for name, cues in _INTENT_CUES.items() if words & set(cues)}
    if _ERROR_NAME.search(raw):
        found.add("troubleshooting")
    if _code_tokens(raw):
        found.add("api")
    if _VERSION_MOVE.search(raw):
        found.add("migration")
    return tuple(sorted(found))


def understand(query: str, cfg: Any = None) -> Query:
    """Normalized text, weighted terms, intents and identifiers of ``query``.

    Raises ``InputError`` beyond ``MAX_QUERY_CHARS`` / ``MAX_QUERY_TERMS``."""
    w_syn = float(getattr(cfg, "w_synonym", 0.4)) if cfg is not None else 0.4
    w_instead = float(getattr(cfg, "w_instead", 0.5)) if cfg is not None else 0.5
    check_query(query)
    text = normalize(query)
    weights: dict[str, float] = {t: 1.0 for t in terms(text)}
    _check_terms(len(weights))
    for m in _FROM_IMPORT.finditer(text):
        for name in re.split(r"\s*,\s*", m.group(2)):
            weights.setdefault(f"{m.group(1)}.{name}".lower(), 1.0)
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9]+", text)]
    if w_syn > 0:
        for syn in _expansions(words):
            for t in terms(syn):
                if weights.get(t, 0.0) < w_syn:
                    weights[t] = w_syn
    if w_instead < 1.0:
        for t in _unwanted(text):
            if t in weights:
                weights[t] = min(weights[t], w_instead)
    idents = tuple(dict.fromkeys(t.rstrip("()").lower() for t in _code_tokens(text)))
    return Query(
        raw=query,
        text=text,
        terms=weights,
        intents=_intents(text, set(words)),
        identifiers=idents,
    )
