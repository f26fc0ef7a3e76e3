"""pitfalls: which sentences of documentation *say* a trap, and of which kind.

Contract: ``classify(sentence) -> str`` returns one of ``KINDS`` or "" — by explicit wording
only, precision over count (``docs/api.md`` has the measured precision). Code spans are blanked
first (``deprecated=True`` in code is not a deprecation); emphasis markers are dropped. Kinds are
tried in ``KINDS`` order, the first whose wording matches wins — except that a sentence that
says something is deprecated and only announces its removal (*will be removed*) is
``deprecated``:

- ``removed``: *has been removed*, *will be removed*, *removed in v2*, *no longer supported /
  available / exists / works*, *dropped support*, a changelog item *Remove … deprecated …*;
- ``breaking_change``: *breaking change(s)*, *backwards-incompatible*;
- ``deprecated``: *is / are / was / now deprecated*, *deprecated in / since / in favour of*,
  *(deprecated)*, *raises a DeprecationWarning*, *deprecate(s/d)*;
- ``security``: security risk / vulnerability, *never / do not commit / expose / log / hard-code
  secrets, keys, tokens, passwords*, injection, XSS, CSRF, *insecure*, *unsafe to*;
- ``permission``: a permission / scope / role that is required, *must have … permission*,
  *only admins / owners can*, *403 Forbidden*;
- ``rate_limit``: rate limits, *429*, *too many requests*, *N requests per minute*, throttling;
- ``server_only`` / ``client_only``: *only on the server / in the browser*, *server-side only*,
  *cannot be used in the browser / on the server*, *client components only*;
- ``runtime_restriction``: *only works / supported on Python 3.x / Node / Linux / Windows*,
  *not supported on …*, *not thread-safe*, *must be called from an async context*, *blocks the
  event loop*, *never share X between threads / event loops / processes*;
- ``required_config``: *you must / need to / have to install / set / configure / enable / add /
  declare …* or *… must be set / installed / configured / enabled*, *requires … to be set /
  installed*.

Policy is not a pitfall: a sentence about versioning policy (*major / minor / patch version(s)*,
*semantic versioning*, *deprecation policy*) with no code span names nothing to avoid and is
skipped, as are questions, lead-ins ending in ``:``, fragments under four words, speculation
(*I would expect*, *at some point*), changelog items about the project's own docs, CI, tooling or
translations (gitmoji 👷 🔨 📝 🌐 …), and sentences that mention a kind without stating it:
*no / without / non- breaking changes*, *could / might have breaking changes*, *to deprecate a
path operation* / *marked as deprecated* (documentation of the feature), *you don't need to*,
*if you need to*. ``required_config`` needs *must* wording or a necessity cue (*for this to
work*, *otherwise*, *make sure*), not a plain *you need to*.
"""

from __future__ import annotations

import re

__all__ = ["KINDS", "classify", "is_policy"]

KINDS = (
    "removed",
    "breaking_change",
    "deprecated",
    "security",
    "permission",
    "rate_limit",
    "server_only",
    "client_only",
    "runtime_restriction",
    "required_config",
)

_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_I = re.I

_PATTERNS: dict[str, re.Pattern[str]] = {
    "removed": re.compile(
        r"\b(?:has|have|had)\s+(?:now\s+|also\s+)?been\s+(?:fully\s+|completely\s+)?removed\b"
        r"|\b(?:will|to)\s+be\s+(?:fully\s+|completely\s+)?removed\b"
        r"|\b(?:is|are)\s+now\s+removed\b"
        r"|\bremoved\s+in\s+(?:v(?:ersion)?\s*\d|\d|[A-Z]\w*\s+v?\d)"
        r"|\bno\s+longer\s+(?:supported|available|exists?|works?|possible|accepted|allowed)\b"
        r"|\bdropp(?:ed|ing)\s+support\b"
        r"|^\W*(?:remove[sd]?|drop(?:s|ped)?)\b[^.]*\bdeprecated\b",  # "Remove deprecated X"
        _I,
    ),
    "breaking_change": re.compile(
        r"\bbreaking[- ]changes?\b|\bbackwards?[- ]incompatib\w*|\bnot\s+backwards?[- ]compatible\b",
        _I,
    ),
    "deprecated": re.compile(
        r"\b(?:is|are|was|were|been|be|being|now|become[sd]?|getting)\s+"
        r"(?:now\s+|also\s+|officially\s+|soft[- ])?deprecated\b"
        r"|\bdeprecat(?:e|es|ing)\b"
        r"|\bdeprecated\s+(?:in\b|since\b|as\s+of\b|for\b|alias|and\b|in\s+favou?r|CODE|"
        r"(?:parameters?|arguments?|fields?|methods?|functions?|class(?:es)?|features?|"
        r"attributes?|options?|settings?|config\w*|way|API|syntax|behaviou?r|module|package)\b)"
        r"|\(deprecated\)"
        r"|\b(?:raises?|emits?|issues?|shows?)\s+(?:a\s+)?deprecation\s*warning",
        _I,
    ),
    "security": re.compile(
        r"\bsecurity\s+(?:risks?|vulnerabilit\w+|holes?)\b"
        r"|\b(?:fix\w*|handle[sd]?|avoid\w*|potential|a|this)\s+security\s+issues?\b"
        r"|\bvulnerab\w+"
        r"|\b(?:never|do\s+not|don't|avoid)\s+(?:\w+\s+){0,3}(?:commit|expose|share|log|"
        r"hard[- ]?code|store|save|send|put|include)\w*\s+(?:\w+\W?\s+){0,4}(?:secrets?|api\s+keys?|"
        r"tokens?|passwords?|credentials|private\s+keys?)\b"
        r"|\b(?:sql|command|code|prompt|html)\s+injection\b|\binject\s+HTML\b|\bXSS\b"
        r"|\bCSRF\b|cross[- ]site\s+(?:scripting|request\s+forgery)"
        r"|\binsecure\b|\b(?:unsafe|dangerous)\s+(?:to|for|if|when|unless)\b"
        r"|\bleak(?:s|ed|ing)?\s+(?:\w+\s+)?(?:secrets?|credentials|tokens?|passwords?|information)\b",
        _I,
    ),
    "permission": re.compile(
        r"\brequires?\s+(?:the\s+)?(?:CODE|\w+)\s+(?:permissions?|scopes?|roles?)\b"
        r"|\b(?:permissions?|scopes?|roles?)\s+(?:is|are)\s+required\b"
        r"|\bmust\s+have\s+(?:the\s+)?(?:CODE\s+|\w+\s+)?(?:permissions?|scopes?|roles?|"
        r"admin\w*\s+(?:rights|privileges|access))\b"
        r"|\bonly\s+(?:admins?|administrators|owners|superusers)\s+(?:can|may)\b"
        r"|\b403\s+Forbidden\b",
        _I,
    ),
    "rate_limit": re.compile(
        r"\brate[- ]limit\w*|\btoo\s+many\s+requests\b|\b429\b"
        r"|\brequests?\s+per\s+(?:second|minute|hour|day)\b|\bthrottl(?:ed|ing|es)\b",
        _I,
    ),
    "server_only": re.compile(
        r"\bserver[- ]side\s+only\b|\bserver[- ]only\b"
        r"|\bonly\s+(?:works?\s+|runs?\s+|be\s+used\s+|available\s+|supported\s+)?"
        r"(?:on|in)\s+(?:the\s+)?(?:server|backend|server\s+components?)\b"
        r"|\b(?:cannot|can't|can\s+not|must\s+not|should\s+not)\s+be\s+(?:used|called|imported)\s+"
        r"(?:in|from|on)\s+(?:the\s+)?(?:client|browser|client\s+components?)\b",
        _I,
    ),
    "client_only": re.compile(
        r"\bclient[- ]side\s+only\b|\bclient[- ]only\b|\bbrowser[- ]only\b"
        r"|\bonly\s+(?:works?\s+|runs?\s+|be\s+used\s+|available\s+|supported\s+)?"
        r"(?:on|in)\s+(?:the\s+)?(?:client|browser|client\s+components?)\b"
        r"|\b(?:cannot|can't|can\s+not|must\s+not|should\s+not)\s+be\s+(?:used|called|imported)\s+"
        r"(?:in|from|on)\s+(?:the\s+)?(?:server|server\s+components?)\b",
        _I,
    ),
    "runtime_restriction": re.compile(
        r"\bonly\s+(?:works?|supported|available|runs?)\s+(?:on|in|with|under)\s+"
        r"(?:Python\s*\d|Node(?:\.js)?|Deno|Bun|Linux|Windows|macOS|(?:the\s+)?edge|\w+\s+runtime)"
        r"|\b(?:not|isn't|aren't)\s+(?:supported|available)\s+(?:on|in|with|under)\s+"
        r"(?:Python\s*\d|Node(?:\.js)?|Deno|Bun|Linux|Windows|macOS|(?:the\s+)?edge|PyPy|"
        r"WebAssembly|\w+\s+runtime)"
        r"|\brequires\s+(?:Python|Node(?:\.js)?)\s+\d"
        r"|\bnot\s+thread[- ]safe\b"
        r"|\b(?:must|can\s+only)\s+be\s+(?:called|used|run|awaited)\s+(?:from|in|inside|within)\s+"
        r"(?:an?\s+)?(?:async\w*|sync\w*|the\s+main\s+thread|an\s+event\s+loop|a\s+coroutine)"
        r"|\bblock(?:s|ing)\s+the\s+event\s+loop\b"
        r"|\b(?:never|do\s+not|don't|cannot|can't|must\s+not)\s+(?:be\s+)?shar\w*\s+(?:\w+\s+){0,3}"
        r"(?:between|across)\s+(?:\w+\s+)?(?:threads|event\s+loops|processes|workers|requests)\b",
        _I,
    ),
    "required_config": re.compile(
        r"\b(?:you\s+)?must\s+(?:first\s+|also\s+)?(?:install|set|configure|enable|add|declare|"
        r"define|provide|pass|register|import|create)\b"
        r"|\b(?:must|has\s+to|have\s+to|needs?\s+to)\s+be\s+(?:set|installed|configured|enabled|"
        r"provided|declared|defined|registered|passed|added)\b"
        r"|\b(?:for\s+(?:this|it)\s+to\s+work|otherwise|or\s+else|before\s+you\s+can|"
        r"make\s+sure)\b[^.]*\b(?:need\s+to|have\s+to|must)\b"
        r"|\b(?:need\s+to|have\s+to)\s+(?:\w+\s+){0,6}(?:for\s+(?:this|it)\s+to\s+work|"
        r"otherwise)\b"
        r"|\brequires?\s+(?:the\s+)?(?:CODE|\w+)\s+(?:to\s+be\s+(?:set|installed|configured|"
        r"enabled)|(?:environment\s+variable|setting|option|flag|package|extra|dependency))\b"
        r"|\brequires\s+the\s+extra\b",
        _I,
    ),
}

_POLICY = re.compile(
    r"\b(?:major|minor|patch)[\"'”*]*\s+(?:versions?|releases?)\b|\bsemantic\s+versioning\b"
    r"|\bsemver\b|\bversion\s+change\b"
    r"|\b(?:deprecation|versioning|support|release)\s+polic(?:y|ies)\b",
    _I,
)


# What a sentence says *about* a kind without stating one: negated, hypothetical, speculative,
# or documentation of the feature itself (how to mark something deprecated).
_NOT_A_STATEMENT = {
    "breaking_change": re.compile(
        r"(?:\bno\b|\bnon-|\bwithout\b|\bnor\b|\bnot\s+any\b|\bwon't\s+have\s+any\b)"
        r"\s*(?:\w+\s+){0,2}breaking"
        r"|\b(?:could|might|may|potentially|chance|in\s+case|if\s+there)\b",
        _I,
    ),
    "deprecated": re.compile(
        r"^\s*to\s+deprecate\b|\bmark(?:ed|s|ing)?\b[^.]{0,60}\bas\s+deprecated\b"
        r"|\bnon-deprecated\b|\bdeprecated\s+and\s+non-deprecated\b",
        _I,
    ),
    "required_config": re.compile(
        r"\b(?:don't|do\s+not|doesn't|does\s+not|no\s+need|not\s+necessarily|wouldn't|"
        r"if\s+you\s+(?:only\s+|just\s+)?need)\b",
        _I,
    ),
}
_REMOVED_NOW = re.compile(
    r"\b(?:has|have|had)\s+(?:now\s+|also\s+)?been\s+(?:fully\s+|completely\s+)?removed\b"
    r"|(?<!be )\bremoved\s+in\s+(?:v(?:ersion)?\s*\d|\d|[A-Z]\w*\s+v?\d)|\bno\s+longer\b"
    r"|\bdropp(?:ed|ing)\s+support\b|^\W*(?:remove[sd]?|drop(?:s|ped)?)\b",
    _I,
)
_SPECULATIVE = re.compile(r"\b(?:would\s+expect|at\s+some\s+point|I\s+think|probably)\b", _I)
# Changelog items about the project's own docs, CI, tooling or translations (gitmoji).
_INTERNAL_CHANGE = re.compile(r"^\W{0,2}(?:👷|🔨|📝|🌐|💚|✏️|✏|🎨|👥|🍱|🙈|💄|🔧)")
_MIN_WORDS = 4


def _plain(sentence: str) -> str:
    return _CODE_SPAN.sub(" CODE ", sentence).replace("*", "").replace("_", " ")


def is_policy(sentence: str) -> bool:
    """Versioning/deprecation policy that names nothing specific (no code span)."""
    return bool(_POLICY.search(sentence)) and not _CODE_SPAN.search(sentence)


def classify(sentence: str) -> str:
    """The pitfall kind the sentence explicitly states, or "" (see the module docstring)."""
    s = sentence.strip()
    if (
        len(s.split()) < _MIN_WORDS
        or s.endswith(("?", ":"))
        or is_policy(s)
        or _SPECULATIVE.search(s)
        or _INTERNAL_CHANGE.match(s)
    ):
        return ""
    plain = _plain(s)
    if (
        _PATTERNS["deprecated"].search(plain)
        and not _REMOVED_NOW.search(plain)
        and not _NOT_A_STATEMENT["deprecated"].search(plain)
    ):
        return "deprecated"  # deprecated now, its removal only announced
    for kind in KINDS:
        if _PATTERNS[kind].search(plain):
            veto = _NOT_A_STATEMENT.get(kind)
            return "" if veto is not None and veto.search(plain) else kind
    return ""
