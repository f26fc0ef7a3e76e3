"""Query understanding without an LLM: normalization, intent, weighted expansion.

Contract: ``understand(query, cfg) -> Query`` with

- ``text``: the query with pasted-error noise removed (traceback ``File "…", line N`` frames,
  memory addresses, URLs, long numbers, quoted user values kept only as words);
- ``terms``: ``{term: weight}`` — the analysed terms of ``text`` (``analyze.terms``; identifiers
  in ``camelCase``, ``snake_case`` and dotted paths are kept whole *and* split into words) at
  weight 1.0, plus expansions from ``SYNONYMS`` (a small, general programming-docs
  synonym/abbreviation map) at ``cfg.w_synonym``; an expansion never lowers a term's weight;
- ``intents``: the detected intents, a subset of ``INTENTS`` (``api``, ``examples``,
  ``configuration``, ``troubleshooting``, ``implementation``, ``conceptual``, ``migration``),
  from cue words and the shape of the text (an exception name or ``Error:`` line means
  ``troubleshooting``; code-like identifiers mean ``api``);
- ``identifiers``: the code-like tokens of the query (lowercased), for symbol matching.

Deterministic; depends only on the query text and the config.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from docorbit_serve.search.analyze import terms

__all__ = ["INTENTS", "SYNONYMS", "Query", "normalize", "understand"]

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
    "unknown": ("extra",),
    "extra": ("additional",),
    "every": ("global",),
    "everywhere": ("global",),
    "whole": ("global",),
    "globally": ("global",),
    "prod": ("production", "deployment"),
    "production": ("deployment",),
    "deploy": ("deployment",),
    "runtime": ("dynamic",),
    "dynamically": ("dynamic",),
    "tree": ("recursive", "nested"),
    "nested": ("recursive",),
    "self": ("recursive",),
    "cert": ("certificate", "ssl"),
    "certs": ("certificates", "ssl"),
    "certificate": ("ssl", "tls"),
    "https": ("ssl", "tls"),
    "tls": ("ssl",),
    "ssl": ("tls",),
    "verify": ("verification",),
    "check": ("verify", "validate"),
    "compressed": ("encoding", "decompress"),
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
    "ip": ("address",),
    "ssh": ("tunnel",),
    "worker": ("workers", "processes"),
    "workers": ("processes",),
    "process": ("workers",),
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


def normalize(query: str) -> str:
    """The query without pasted-error noise (frames, addresses, URLs, long numbers)."""
    text = _TRACE_HEAD.sub(" ", query)
    text = _TRACE_FRAME.sub(" ", text)
    text = _URL.sub(" ", text)
    text = _HEX.sub(" ", text)
    text = _LONGNUM.sub(" ", text)
    return " ".join(text.split())


def _intents(raw: str, words: set[str]) -> tuple[str, ...]:
    found = {name for name, cues in _INTENT_CUES.items() if words & set(cues)}
    if _ERROR_NAME.search(raw):
        found.add("troubleshooting")
    if _CODE_TOKEN.search(raw):
        found.add("api")
    return tuple(sorted(found))


def understand(query: str, cfg: Any = None) -> Query:
    """Normalized text, weighted terms, intents and identifiers of ``query``."""
    w_syn = float(getattr(cfg, "w_synonym", 0.4)) if cfg is not None else 0.4
    text = normalize(query)
    weights: dict[str, float] = {t: 1.0 for t in terms(text)}
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9]+", text)]
    if w_syn > 0:
        for w in dict.fromkeys(words):
            for syn in SYNONYMS.get(w, ()):
                for t in terms(syn):
                    if weights.get(t, 0.0) < w_syn:
                        weights[t] = w_syn
    idents = tuple(
        dict.fromkeys(m.group().rstrip("()").lower() for m in _CODE_TOKEN.finditer(text))
    )
    return Query(
        raw=query,
        text=text,
        terms=weights,
        intents=_intents(text, set(words)),
        identifiers=idents,
    )
