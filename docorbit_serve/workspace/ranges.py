"""Version requirements under each ecosystem's own rules.

    satisfies(ecosystem, version, spec) -> bool      raises InvalidSpec for a spec it cannot read
    is_valid_spec(ecosystem, spec) -> bool
    exact_pin(ecosystem, spec) -> str | None         the one version a spec allows, if it pins one
    compare_versions(ecosystem, a, b) -> int         -1 / 0 / 1 under the ecosystem's ordering

Who decides, per ecosystem:

- pypi: ``packaging`` (PEP 440), pre-releases allowed (a lockfile may pin one).
- npm: ``nodesemver`` (loose).
- pub: Dart's caret (``^0.0.3`` means ``<0.1.0``, unlike npm) rewritten to explicit bounds, the
  rest read by ``nodesemver``; ``any`` is ``*``.
- cargo: ``semantic_version.SimpleSpec`` after normalizing (bare ``1.2`` means ``^1.2``, no space
  after commas), plus Cargo's pre-release rule, which SimpleSpec lacks: a pre-release matches
  only a comparator that names a pre-release of the same major.minor.patch.
- composer: ``composer_constraint`` translates ``^ ~ * - || ,`` into intervals over Composer's
  normalized versions (``>=1.2`` means ``>=1.2.0.0-dev``, as in Composer's VersionParser).
- rubygems: ``gem_requirement`` translates ``~> = != > < >= <=`` (several joined by commas)
  into intervals over Gem::Version ordering.
- go: versions are exact (go.mod names the selected version); ``satisfies`` is Go's minimal
  version selection meaning (at least this version, same major), ordering is semver with
  pseudo-versions ordered as the pre-releases they are, ``+incompatible`` ignored.
- maven: a bare version is a soft pin of that version; ``[a,b)`` style ranges, unions by comma.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

import nodesemver
import semantic_version
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from docorbit_serve.errors import InputError

__all__ = [
    "Comparator",
    "Constraint",
    "InvalidSpec",
    "cargo_simple_spec",
    "compare_versions",
    "composer_compare",
    "composer_constraint",
    "exact_pin",
    "gem_compare",
    "gem_requirement",
    "go_compare",
    "is_valid_spec",
    "maven_compare",
    "pub_to_npm",
    "SCHEMES",
    "VersionScheme",
    "satisfies",
    "scheme",
]


class InvalidSpec(InputError):
    code = "invalid_spec"


# --------------------------------------------------------------------------------------------
# A small interval algebra shared by the translators: OR of ANDs of comparisons.


@dataclass(frozen=True)
class Comparator:
    op: str  # one of == != > >= < <=
    bound: str
    on_release: bool = False  # compare the version's release part only (Gem's ~> upper bound)


@dataclass(frozen=True)
class Constraint:
    alternatives: tuple[tuple[Comparator, ...], ...]
    cmp: Callable[[str, str], int]
    release: Callable[[str], str] | None = None  # the release part, for on_release comparators

    def allows(self, version: str) -> bool:
        return any(all(self._check(version, c) for c in alt) for alt in self.alternatives)

    def _check(self, version: str, c: Comparator) -> bool:
        v = self.release(version) if c.on_release and self.release else version
        r = self.cmp(v, c.bound)
        return {
            "==": r == 0,
            "!=": r != 0,
            ">": r > 0,
            ">=": r >= 0,
            "<": r < 0,
            "<=": r <= 0,
        }[c.op]


# --------------------------------------------------------------------------------------------
# Composer

_STABILITY = {"dev": 0, "alpha": 1, "a": 1, "beta": 2, "b": 2, "rc": 3, "stable": 4, "patch": 5,
              "pl": 5, "p": 5}  # fmt: skip
_COMPOSER_VERSION = re.compile(
    r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?"
    r"(?:[._-]?(stable|beta|b|rc|alpha|a|patch|pl|p|dev)(?:[.-]?(\d+))?)?$",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=4096)
def _composer_key(version: str) -> tuple:
    v = version.strip().lower()
    if v.startswith("dev-"):
        return (0, v)  # a branch: only equal to itself, below every numbered version
    m = _COMPOSER_VERSION.match(v)
    if not m:
        raise InvalidSpec(f"not a Composer version: {version!r}", detail={"version": version})
    nums = tuple(int(g) if g else 0 for g in m.group(1, 2, 3, 4))
    stab = _STABILITY[(m.group(5) or "stable").lower()]
    return (1, nums, stab, int(m.group(6) or 0))


def composer_compare(a: str, b: str) -> int:
    ka, kb = _composer_key(a), _composer_key(b)
    return -1 if ka < kb else (1 if ka > kb else 0)


def _composer_parts(v: str) -> tuple[list[int], str]:
    """Numeric parts as written (1 to 4) and the stability suffix as written ('' if none)."""
    m = _COMPOSER_VERSION.match(v.strip().lower())
    if not m:
        raise InvalidSpec(f"not a Composer version: {v!r}", detail={"version": v})
    parts = [int(g) for g in m.group(1, 2, 3, 4) if g is not None]
    suffix = f"-{m.group(5).lower()}{m.group(6) or ''}" if m.group(5) else ""
    return parts, suffix


def _bump(parts: list[int], position: int) -> str:
    """Composer's manipulateVersionString(parts, position, +1) with lower parts zeroed."""
    p = (parts + [0, 0, 0, 0])[:4]
    p[position - 1] += 1
    for i in range(position, 4):
        p[i] = 0
    return ".".join(map(str, p))


def _low(parts: list[int], suffix: str) -> str:
    base = ".".join(map(str, (parts + [0, 0, 0, 0])[:4]))
    return base + (suffix if suffix else "-dev")


def _composer_atom(atom: str) -> list[Comparator]:
    atom = atom.strip()
    atom = re.sub(r"@(stable|rc|beta|alpha|dev)$", "", atom, flags=re.IGNORECASE)
    if atom in ("*", "x", "X", "*.*", "*.*.*"):
        return []
    if atom.lower().startswith("dev-"):
        return [Comparator("==", atom.lower())]
    if atom.startswith("^"):
        parts, suffix = _composer_parts(atom[1:])
        if parts[0] != 0 or len(parts) == 1:
            pos = 1
        elif parts[1] != 0 or len(parts) == 2:
            pos = 2
        else:
            pos = 3
        return [Comparator(">=", _low(parts, suffix)), Comparator("<", _bump(parts, pos) + "-dev")]
    if atom.startswith("~") and not atom.startswith("~="):
        parts, suffix = _composer_parts(atom[1:])
        high = max(1, len(parts) - 1)
        return [Comparator(">=", _low(parts, suffix)), Comparator("<", _bump(parts, high) + "-dev")]
    m = re.fullmatch(r"v?(\d+(?:\.\d+){0,2})\.[*xX]", atom)
    if m:
        parts = [int(x) for x in m.group(1).split(".")]
        return [
            Comparator(">=", _low(parts, "")),
            Comparator("<", _bump(parts, len(parts)) + "-dev"),
        ]
    m = re.fullmatch(r"(>=|<=|<>|!=|==|=|>|<)?\s*(.+)", atom)
    if not m:
        raise InvalidSpec(f"not a Composer constraint: {atom!r}", detail={"spec": atom})
    op, ver = m.group(1) or "==", m.group(2)
    op = {"=": "==", "<>": "!="}.get(op, op)
    parts, suffix = _composer_parts(ver)
    if op in (">=", "<") and not suffix:
        bound = _low(parts, "")  # Composer: >=1.2 is >=1.2.0.0-dev, <2.0 is <2.0.0.0-dev
    else:
        bound = ".".join(map(str, (parts + [0, 0, 0, 0])[:4])) + suffix
    return [Comparator(op, bound)]


@functools.lru_cache(maxsize=2048)
def composer_constraint(spec: str) -> Constraint:
    """Translate a Composer constraint (``^1.2 || ~2.0.3, !=2.0.5``) into intervals."""
    s = spec.strip()
    if not s:
        raise InvalidSpec("empty Composer constraint", detail={"spec": spec})
    s = re.sub(r"\s+as\s+\S+", "", s)  # inline aliases: the real version comes first
    alternatives: list[tuple[Comparator, ...]] = []
    for alt in re.split(r"\s*\|\|?\s*", s):
        if not alt:
            raise InvalidSpec(f"empty alternative in {spec!r}", detail={"spec": spec})
        hyphen = re.fullmatch(r"(\S+)\s+-\s+(\S+)", alt)
        if hyphen:
            lo_parts, lo_suf = _composer_parts(hyphen.group(1))
            hi_parts, hi_suf = _composer_parts(hyphen.group(2))
            lo = Comparator(">=", _low(lo_parts, lo_suf))
            if len(hi_parts) < 3 and not hi_suf:  # a partial upper bound acts as a wildcard
                hi = Comparator("<", _bump(hi_parts, len(hi_parts)) + "-dev")
            else:
                hi = Comparator("<=", ".".join(map(str, (hi_parts + [0, 0, 0, 0])[:4])) + hi_suf)
            alternatives.append((lo, hi))
            continue
        alt = re.sub(r"(>=|<=|<>|!=|==|=|>|<|\^|~)\s+", r"\1", alt)
        comps: list[Comparator] = []
        for atom in re.split(r"\s*,\s*|\s+", alt):
            if atom:
                comps.extend(_composer_atom(atom))
        alternatives.append(tuple(comps))
    return Constraint(tuple(alternatives), composer_compare)


# --------------------------------------------------------------------------------------------
# RubyGems

_GEM_VERSION = re.compile(r"^\s*[0-9]+(?:\.[0-9a-zA-Z]+)*(?:-[0-9A-Za-z.-]+)?\s*$")


@functools.lru_cache(maxsize=4096)
def _gem_segments(version: str) -> tuple:
    v = version.strip()
    if not _GEM_VERSION.match(v):
        raise InvalidSpec(f"not a RubyGems version: {version!r}", detail={"version": version})
    v = v.replace("-", ".pre.")
    segs = [int(p) if p.isdigit() else p for p in re.findall(r"[0-9]+|[a-zA-Z]+", v)]
    # canonical segments: trailing zeros dropped from the release and the pre-release parts
    first_str = next((i for i, s in enumerate(segs) if isinstance(s, str)), len(segs))
    num, pre = segs[:first_str], segs[first_str:]
    while len(num) > 1 and num[-1] == 0:
        num.pop()
    while pre and pre[-1] == 0:
        pre.pop()
    return tuple(num + pre)


def gem_compare(a: str, b: str) -> int:
    """Gem::Version#<=>: pad with 0; number vs number, string vs string; a string is lower."""
    sa, sb = _gem_segments(a), _gem_segments(b)
    for i in range(max(len(sa), len(sb))):
        x = sa[i] if i < len(sa) else 0
        y = sb[i] if i < len(sb) else 0
        if x == y:
            continue
        if isinstance(x, str) and isinstance(y, int):
            return -1
        if isinstance(x, int) and isinstance(y, str):
            return 1
        return -1 if x < y else 1  # type: ignore[operator]
    return 0


def _gem_release(version: str) -> str:
    segs = _gem_segments(version)
    num = [
        s for s in segs[: next((i for i, s in enumerate(segs) if isinstance(s, str)), len(segs))]
    ]
    return ".".join(map(str, num)) or "0"


def _gem_bump(version: str) -> str:
    segs = [s for s in re.findall(r"[0-9]+|[a-zA-Z]+", version.replace("-", ".pre."))]
    while any(not s.isdigit() for s in segs):
        segs.pop()
    if len(segs) > 1:
        segs.pop()
    segs[-1] = str(int(segs[-1]) + 1)
    return ".".join(segs)


@functools.lru_cache(maxsize=2048)
def gem_requirement(spec: str) -> Constraint:
    """Translate a RubyGems requirement (``~> 2.3, >= 2.3.4``) into intervals."""
    comps: list[Comparator] = []
    parts = [p.strip() for p in spec.split(",")] if spec.strip() else []
    for part in parts:
        m = re.fullmatch(r"(~>|>=|<=|!=|=|>|<)?\s*(\S+)", part)
        if not m:
            raise InvalidSpec(f"not a RubyGems requirement: {part!r}", detail={"spec": spec})
        op, ver = m.group(1) or "=", m.group(2)
        _gem_segments(ver)  # validates
        if op == "~>":
            comps += [Comparator(">=", ver), Comparator("<", _gem_bump(ver), on_release=True)]
        else:
            comps.append(Comparator({"=": "=="}.get(op, op), ver))
    return Constraint((tuple(comps),), gem_compare, _gem_release)


# --------------------------------------------------------------------------------------------
# Cargo


def cargo_simple_spec(spec: str) -> str:
    """Cargo requirement -> semantic_version.SimpleSpec text (bare ``1.2`` is ``^1.2``)."""
    out = []
    for part in spec.split(","):
        p = part.strip()
        if not p:
            raise InvalidSpec(
                f"empty comparator in Cargo requirement {spec!r}", detail={"spec": spec}
            )
        p = re.sub(r"^(>=|<=|=|>|<|\^|~)\s+", r"\1", p)
        if p == "*":
            pass
        elif re.fullmatch(r"\d+(\.(\d+|\*))?(\.(\d+|\*))?(-[0-9A-Za-z.-]+)?(\+\S+)?", p):
            p = "==" + p if "*" in p else "^" + p
        elif p.startswith("=") and not p.startswith("=="):
            p = "=" + p
        out.append(p)
    return ",".join(out)


def _cargo_pre_allowed(version: semantic_version.Version, spec: str) -> bool:
    if not version.prerelease:
        return True
    for part in spec.split(","):
        m = re.search(r"(\d+)\.(\d+)\.(\d+)-", part)
        if m and tuple(map(int, m.groups())) == (version.major, version.minor, version.patch):
            return True
    return False


@functools.lru_cache(maxsize=2048)
def _cargo_spec(spec: str) -> semantic_version.SimpleSpec:
    try:
        return semantic_version.SimpleSpec(cargo_simple_spec(spec))
    except ValueError as e:
        raise InvalidSpec(f"not a Cargo requirement: {spec!r}", detail={"spec": spec}) from e


def _cargo_satisfies(version: str, spec: str) -> bool:
    sp = _cargo_spec(spec)
    try:
        v = semantic_version.Version(version.lstrip("v"))
    except ValueError:
        return False
    return _cargo_pre_allowed(v, spec) and sp.match(v)


# --------------------------------------------------------------------------------------------
# Go

_GO_VERSION = re.compile(r"^v(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")


def _go_semver(v: str) -> semantic_version.Version:
    m = _GO_VERSION.match(v.strip())
    if not m:
        raise InvalidSpec(f"not a Go module version: {v!r}", detail={"version": v})
    return semantic_version.Version(v.strip()[1:].split("+", 1)[0])


def go_compare(a: str, b: str) -> int:
    """Semver order of Go versions; pseudo-versions sort as pre-releases, build metadata ignored."""
    va, vb = _go_semver(a), _go_semver(b)
    return -1 if va < vb else (1 if va > vb else 0)


def _go_satisfies(version: str, spec: str) -> bool:
    if _go_semver(version).major != _go_semver(spec).major:
        return False
    return go_compare(version, spec) >= 0


# --------------------------------------------------------------------------------------------
# pub (Dart)


def pub_to_npm(spec: str) -> str:
    """Dart constraint -> npm range: ``any`` is ``*``; ``^`` follows Dart (``^0.0.3`` < 0.1.0)."""
    s = spec.strip()
    if s in ("", "any"):
        return "*"

    def caret(m: re.Match[str]) -> str:
        v = semantic_version.Version.coerce(m.group(1))
        upper = f"{v.major + 1}.0.0" if v.major > 0 else f"0.{v.minor + 1}.0"
        return f">={m.group(1)} <{upper}"

    return re.sub(r"\^\s*([0-9][0-9A-Za-z.+-]*)", caret, s)


# --------------------------------------------------------------------------------------------
# Maven

_MAVEN_QUALIFIERS = {"alpha": 0, "a": 0, "beta": 1, "b": 1, "milestone": 2, "m": 2, "rc": 3,
                     "cr": 3, "snapshot": 4, "": 5, "ga": 5, "final": 5, "release": 5, "sp": 6}  # fmt: skip


def _maven_key(v: str) -> tuple:
    tokens = re.findall(r"\d+|[A-Za-z]+", v.lower())
    nums: list[int] = []
    i = 0
    while i < len(tokens) and tokens[i].isdigit():
        nums.append(int(tokens[i]))
        i += 1
    while len(nums) > 1 and nums[-1] == 0:
        nums.pop()
    qual = tokens[i] if i < len(tokens) else ""
    rank = _MAVEN_QUALIFIERS.get(qual, 5.5 if qual else 5)
    rest = tuple(int(t) if t.isdigit() else 0 for t in tokens[i + 1 :])
    return (tuple(nums), rank, qual if qual not in _MAVEN_QUALIFIERS else "", rest)


def maven_compare(a: str, b: str) -> int:
    ka, kb = _maven_key(a), _maven_key(b)
    la, lb = list(ka[0]), list(kb[0])
    n = max(len(la), len(lb))
    la += [0] * (n - len(la))
    lb += [0] * (n - len(lb))
    ka2, kb2 = (tuple(la), *ka[1:]), (tuple(lb), *kb[1:])
    return -1 if ka2 < kb2 else (1 if ka2 > kb2 else 0)


def _maven_satisfies(version: str, spec: str) -> bool:
    s = spec.strip()
    if not s or s[0] not in "[(":
        return maven_compare(version, s) == 0 if s else True
    for m in re.finditer(r"([\[(])([^\[\]()]*)([\])])", s):
        lo_b, body, hi_b = m.groups()
        if "," not in body:
            if maven_compare(version, body.strip()) == 0:
                return True
            continue
        lo, hi = (x.strip() for x in body.split(",", 1))
        ok = True
        if lo:
            c = maven_compare(version, lo)
            ok &= c > 0 or (c == 0 and lo_b == "[")
        if hi:
            c = maven_compare(version, hi)
            ok &= c < 0 or (c == 0 and hi_b == "]")
        if ok:
            return True
    return False


# --------------------------------------------------------------------------------------------
# Dispatch


def _pypi_set(spec: str) -> SpecifierSet:
    try:
        return SpecifierSet(spec)
    except InvalidSpecifier as e:
        raise InvalidSpec(f"not a PEP 440 specifier: {spec!r}", detail={"spec": spec}) from e


def _npm_range(spec: str) -> str:
    s = spec.strip() or "*"
    if nodesemver.valid_range(s, True) is None:
        raise InvalidSpec(f"not an npm range: {spec!r}", detail={"spec": spec})
    return s


def _pypi_satisfies(version: str, spec: str) -> bool:
    try:
        return _pypi_set(spec).contains(Version(version), prereleases=True)
    except InvalidVersion:
        return False


def _npm_satisfies(version: str, spec: str) -> bool:
    return bool(nodesemver.satisfies(version, _npm_range(spec), True))


def _pub_satisfies(version: str, spec: str) -> bool:
    return bool(nodesemver.satisfies(version, _npm_range(pub_to_npm(spec)), True))


def _allows(constraint: Callable[[str], Constraint]) -> Callable[[str, str], bool]:
    """``satisfies`` for a constraint parser (composer, rubygems)."""

    def check(version: str, spec: str) -> bool:
        c = constraint(spec)  # an unreadable spec raises InvalidSpec
        try:
            return bool(c.allows(version))
        except InvalidSpec:
            return False

    return check


def _go_satisfies_spec(version: str, spec: str) -> bool:
    _go_semver(spec)
    try:
        return _go_satisfies(version, spec)
    except InvalidSpec:
        return False


def _pin(pattern: str, group: int = 1) -> Callable[[str], str | None]:
    def pin(s: str) -> str | None:
        m = re.fullmatch(pattern, s)
        return m.group(group) if m else None

    return pin


def _npm_pin(s: str) -> str | None:
    if not s or s.startswith(("^", "~")):
        return None
    valid = nodesemver.valid(s.lstrip("="), True)  # a SemVer object: the pin is its text
    return str(valid) if valid is not None else None


def _go_pin(s: str) -> str | None:
    return s if _GO_VERSION.match(s) else None


def _maven_pin(s: str) -> str | None:
    if re.fullmatch(r"\[([^,\[\]()]+)\]", s):
        return s[1:-1].strip()
    return s if s and s[0] not in "[(" and "${" not in s else None


def _pypi_compare(a: str, b: str) -> int:
    try:
        va, vb = Version(a), Version(b)
    except InvalidVersion as e:
        raise InvalidSpec(str(e), detail={"versions": [a, b]}) from e
    return -1 if va < vb else (1 if va > vb else 0)


def _semver_compare(a: str, b: str) -> int:
    try:
        return int(nodesemver.compare(a, b, True))
    except (ValueError, TypeError) as e:
        raise InvalidSpec(f"not semver: {a!r} / {b!r}", detail={"versions": [a, b]}) from e


@dataclass(frozen=True)
class VersionScheme:
    """How one ecosystem reads versions and ranges; each reader in ``ecosystems/`` names its own
    (``SCHEME``), and ``SCHEMES`` holds them by ecosystem name (no if-chains over names).

    ``satisfies(version, spec)`` (``InvalidSpec`` when the spec is unreadable), ``exact_pin(spec)``
    (the one version a pin allows, else None), ``compare(a, b)`` (-1/0/1) and ``probe``: a
    version any readable spec can be tested against (``is_valid_spec``).
    """

    name: str
    satisfies: Callable[[str, str], bool]
    exact_pin: Callable[[str], str | None]
    compare: Callable[[str, str], int] = _semver_compare
    probe: str = "0.0.0"


SCHEMES: dict[str, VersionScheme] = {
    s.name: s
    for s in (
        VersionScheme("pypi", _pypi_satisfies, _pin(r"(===?)\s*([^\s,;*]+)", 2), _pypi_compare),
        VersionScheme("npm", _npm_satisfies, _npm_pin),
        VersionScheme("pub", _pub_satisfies, _npm_pin),
        VersionScheme("cargo", _cargo_satisfies, _pin(r"=\s*(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)")),
        VersionScheme(
            "composer",
            _allows(composer_constraint),
            _pin(r"(?:==?)?\s*(v?\d+(?:\.\d+){2,3}(?:-[0-9A-Za-z.]+)?)"),
            composer_compare,
        ),
        VersionScheme(
            "rubygems",
            _allows(gem_requirement),
            _pin(r"=?\s*(\d+(?:\.[0-9A-Za-z]+)*)"),
            gem_compare,
            probe="0",
        ),
        VersionScheme("go", _go_satisfies_spec, _go_pin, go_compare, probe="v0.0.0"),
        VersionScheme("maven", _maven_satisfies, _maven_pin, maven_compare),
    )
}


def scheme(ecosystem: str) -> VersionScheme:
    """The ``VersionScheme`` of ``ecosystem``; ``InvalidSpec`` for an unknown one."""
    try:
        return SCHEMES[ecosystem]
    except KeyError:
        raise InvalidSpec(
            f"unknown ecosystem {ecosystem!r}", detail={"ecosystem": ecosystem}
        ) from None


def satisfies(ecosystem: str, version: str, spec: str) -> bool:
    """Whether ``version`` meets ``spec`` under ``ecosystem``'s rules; InvalidSpec if unreadable."""
    return scheme(ecosystem).satisfies(version, spec)


def is_valid_spec(ecosystem: str, spec: str) -> bool:
    try:
        sch = scheme(ecosystem)
        sch.satisfies(sch.probe, spec)
    except InvalidSpec:
        return False
    return True


def exact_pin(ecosystem: str, spec: str) -> str | None:
    """The single version ``spec`` allows when it is a pin (``==1.2.3``, ``=1.2.3``, go ``v1.2.3``)."""
    sch = SCHEMES.get(ecosystem)
    return sch.exact_pin(spec.strip()) if sch is not None else None


def compare_versions(ecosystem: str, a: str, b: str) -> int:
    """Order two versions under the ecosystem's rules (InvalidSpec if either is unreadable)."""
    sch = SCHEMES.get(ecosystem)
    return (sch.compare if sch is not None else _semver_compare)(a, b)
