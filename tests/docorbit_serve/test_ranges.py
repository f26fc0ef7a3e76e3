"""Version-range rules per ecosystem; property tests for the translators.

The composer, rubygems and cargo properties compare our translation with a reference
evaluator written here from each ecosystem's documented rules (Composer's "Versions and
constraints" page, Gem::Requirement/Gem::Version, the Cargo book's "Specifying dependencies"),
stated differently (prefix equality instead of computed upper bounds) so that the two can
disagree.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docorbit_serve.workspace.ranges import (
    InvalidSpec,
    compare_versions,
    composer_constraint,
    exact_pin,
    gem_requirement,
    go_compare,
    is_valid_spec,
    satisfies,
)

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True)
small = st.integers(min_value=0, max_value=3)

# ------------------------------------------------------------------------------------------
# Composer reference

_RANK = {"dev": 0, "alpha": 1, "beta": 2, "RC": 3, "": 4}


def _cv(text):
    """(nums padded to 4, stability rank, stability number) from a generated version string."""
    m = re.fullmatch(r"(\d+(?:\.\d+)*)(?:-(dev|alpha|beta|RC)(\d*))?", text)
    nums = tuple((list(map(int, m.group(1).split("."))) + [0, 0, 0, 0])[:4])
    return nums, _RANK[m.group(2) or ""], int(m.group(3) or 0)


def _given_parts(text):
    return list(map(int, text.split("-")[0].split(".")))


def _ref_atom(v, atom):
    vk = _cv(v)
    if atom.startswith("^"):
        x = atom[1:]
        p = _given_parts(x)
        if p[0] != 0 or len(p) == 1:
            n = 1
        elif p[1] != 0 or len(p) == 2:
            n = 2
        else:
            n = 3
        return _ref_ge(vk, _cv(x)) and vk[0][:n] == _cv(x)[0][:n]
    if atom.startswith("~"):
        x = atom[1:]
        n = max(1, len(_given_parts(x)) - 1)
        return _ref_ge(vk, _cv(x)) and vk[0][:n] == _cv(x)[0][:n]
    if atom.endswith(".*"):
        p = tuple(_given_parts(atom[:-2]))
        return vk[0][: len(p)] == p
    m = re.fullmatch(r"(>=|<=|>|<|!=)?(.+)", atom)
    op, x = m.group(1) or "==", m.group(2)
    xk = _cv(x)
    if op == ">=":
        return _ref_ge(vk, xk)
    if op == "<":
        return not _ref_ge(vk, xk)
    return {"<=": vk <= xk, ">": vk > xk, "!=": vk != xk, "==": vk == xk}[op]


def _ref_ge(vk, xk):
    """Composer: a stable lower bound admits the pre-releases of that version."""
    if xk[1] == 4 and vk[0] == xk[0]:
        return True
    return vk >= xk


def _ref_composer(v, alternatives):
    for alt in alternatives:
        if isinstance(alt, tuple):  # hyphen range
            lo, hi = alt
            vk = _cv(v)
            ok_hi = (
                vk[0][: len(_given_parts(hi))] <= tuple(_given_parts(hi))
                if len(_given_parts(hi)) < 3
                else vk <= _cv(hi)
            )
            if _ref_ge(vk, _cv(lo)) and ok_hi:
                return True
        elif all(_ref_atom(v, a) for a in alt):
            return True
    return False


def _version(max_parts=4, stab=True):
    parts = st.lists(small, min_size=1, max_size=max_parts).map(lambda p: ".".join(map(str, p)))
    if not stab:
        return parts
    suffix = st.sampled_from(["", "", "", "-dev", "-alpha1", "-beta", "-RC2"])
    return st.tuples(parts, suffix).map("".join)


_composer_atom = st.one_of(
    _version(3, stab=False).map(lambda v: "^" + v),
    _version(4, stab=False).map(lambda v: "~" + v),
    _version(3, stab=False).map(lambda v: v + ".*"),
    st.tuples(st.sampled_from([">=", "<=", ">", "<", "!=", ""]), _version()).map("".join),
)
_composer_and = st.lists(_composer_atom, min_size=1, max_size=2)
_composer_hyphen = st.tuples(_version(3, stab=False), _version(3, stab=False))
_composer_constraint = st.lists(st.one_of(_composer_and, _composer_hyphen), min_size=1, max_size=3)


def _composer_text(alternatives):
    out = []
    for alt in alternatives:
        out.append(f"{alt[0]} - {alt[1]}" if isinstance(alt, tuple) else ", ".join(alt))
    return " || ".join(out)


@SETTINGS
@given(_composer_constraint, st.data())
def test_composer_translation_agrees_with_the_reference_rules(alternatives, data):
    bases = [re.sub(r"^[^0-9]*|\.\*$", "", a) for alt in alternatives for a in alt]
    version = _near(data, bases, _version(), suffixes=("", "-dev", "-beta1"))
    spec = _composer_text(alternatives)
    assert composer_constraint(spec).allows(version) == _ref_composer(version, alternatives), spec


def test_composer_examples_from_its_documentation():
    assert satisfies("composer", "1.9.9", "^1.2.3") and not satisfies("composer", "2.0.0", "^1.2.3")
    assert satisfies("composer", "0.3.9", "^0.3") and not satisfies("composer", "0.4.0", "^0.3")
    assert satisfies("composer", "1.2.9", "~1.2.3") and not satisfies("composer", "1.3.0", "~1.2.3")
    assert satisfies("composer", "1.9", "~1.2") and not satisfies("composer", "2.0", "~1.2")
    assert satisfies("composer", "v5.4.47", "^5.4.47 || ^6.4.25 || ^7.1.10 || ^8.0")
    assert not satisfies("composer", "2.0.0-beta1", "^1.0")
    assert satisfies("composer", "2.0.0-beta1", ">=2.0")  # >=2.0 means >=2.0.0.0-dev
    assert satisfies("composer", "1.4.9", "1.0 - 1.4") and not satisfies(
        "composer", "1.5", "1.0 - 1.4"
    )
    assert satisfies("composer", "dev-main", "dev-main")
    with pytest.raises(InvalidSpec):
        composer_constraint("^^1")


# ------------------------------------------------------------------------------------------
# RubyGems reference


def _gem_key(v):
    segs = [int(s) if s.isdigit() else s for s in re.findall(r"\d+|[a-z]+", v)]
    return segs


def _gem_cmp(a, b):
    x, y = _gem_key(a), _gem_key(b)

    def canon(s):
        i = next((k for k, e in enumerate(s) if isinstance(e, str)), len(s))
        num, pre = s[:i], s[i:]
        while len(num) > 1 and num[-1] == 0:
            num = num[:-1]
        while pre and pre[-1] == 0:
            pre = pre[:-1]
        return num + pre

    x, y = canon(x), canon(y)
    n = max(len(x), len(y))
    for i in range(n):
        a_, b_ = (x[i] if i < len(x) else 0), (y[i] if i < len(y) else 0)
        if a_ == b_:
            continue
        if type(a_) is not type(b_):
            return -1 if isinstance(a_, str) else 1
        return -1 if a_ < b_ else 1
    return 0


def _gem_release(v):
    return [s for s in _gem_key(v) if isinstance(s, int)][
        : next((i for i, s in enumerate(_gem_key(v)) if isinstance(s, str)), 99)
    ]


def _ref_gem(v, reqs):
    for op, r in reqs:
        c = _gem_cmp(v, r)
        if op == "~>":
            rel_r = _gem_release(r)
            n = max(1, len(rel_r) - 1)
            rel_v = (_gem_release(v) + [0] * 8)[:n]
            if not (c >= 0 and rel_v == (rel_r + [0] * 8)[:n]):
                return False
        elif not {"=": c == 0, "!=": c != 0, ">": c > 0, "<": c < 0, ">=": c >= 0, "<=": c <= 0}[
            op
        ]:
            return False
    return True


_gem_version = st.tuples(
    st.lists(small, min_size=1, max_size=4).map(lambda p: ".".join(map(str, p))),
    st.sampled_from(["", "", "", ".a", ".rc.1", ".pre"]),
).map("".join)
_gem_req = st.lists(
    st.tuples(st.sampled_from(["~>", "~>", ">=", "<", "=", "!=", ">", "<="]), _gem_version),
    min_size=1,
    max_size=3,
)


def _near(data, versions, fallback, max_parts=4, suffixes=("",)):
    """A version close to one of ``versions`` (one segment nudged, maybe extended), or any."""
    if data.draw(st.integers(0, 3)) == 3:
        return data.draw(fallback)
    base = data.draw(st.sampled_from(versions))
    nums = [
        int(x)
        for x in re.findall(
            r"\d+", base.split("-")[0].split(".a")[0].split(".rc")[0].split(".pre")[0]
        )
    ]
    i = data.draw(st.sampled_from(range(len(nums) - 1, -1, -1)))  # last segments first
    nums[i] = max(0, nums[i] + data.draw(st.sampled_from([1, -1, 2, 0])))
    if data.draw(st.booleans()):
        nums = nums[: i + 1]  # the next release line itself, e.g. 3 (or 3.a) for 2.3
    nums += data.draw(st.lists(small, max_size=1))
    return ".".join(map(str, nums[:max_parts])) + data.draw(st.sampled_from(suffixes))


@SETTINGS
@given(_gem_req, st.data())
def test_gem_translation_agrees_with_gem_requirement_rules(reqs, data):
    version = _near(data, [v for _, v in reqs], _gem_version, suffixes=("", ".a", ".pre.1"))
    spec = ", ".join(f"{op} {v}" for op, v in reqs)
    assert gem_requirement(spec).allows(version) == _ref_gem(version, reqs), spec


def test_gem_pessimistic_operator_and_multiple_constraints():
    assert satisfies("rubygems", "8.1.3.1", "~> 8.1.3")
    assert not satisfies("rubygems", "8.2.0", "~> 8.1.3")
    assert satisfies("rubygems", "2.9", "~> 2.3, >= 2.3.4") and not satisfies(
        "rubygems", "2.3.3", "~> 2.3, >= 2.3.4"
    )
    assert not satisfies("rubygems", "3.0.a", "~> 2.3")  # the pre-release of the bump is out
    assert satisfies("rubygems", "3.0.0.rc1", "~> 3.0.0.rc1")
    assert exact_pin("rubygems", "0.6.4") == "0.6.4" and exact_pin("rubygems", "~> 1") is None


# ------------------------------------------------------------------------------------------
# Cargo reference (the Cargo book)


def _cargo_bounds(op, parts):
    """(lower inclusive, upper exclusive) as 3-tuples; None for unbounded."""
    full = tuple((parts + [0, 0, 0])[:3])

    def bump(n):
        p = list(parts[:n]) + [0] * (3 - n)
        p[n - 1] += 1
        return tuple(p)

    if op == "^":
        if parts[0] != 0 or len(parts) == 1:
            return full, bump(1)
        if parts[1] != 0 or len(parts) == 2:
            return full, bump(2)
        return full, bump(3)
    if op == "~":
        return full, bump(1 if len(parts) == 1 else 2)
    if op == "=":
        return full, bump(len(parts))
    if op == ">=":
        return full, None
    if op == ">":
        return bump(len(parts)), None
    if op == "<":
        return None, full
    if op == "<=":
        return None, bump(len(parts))
    raise AssertionError(op)


def _ref_cargo(version, comps):
    m = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(-\S+)?", version)
    v = tuple(map(int, m.group(1, 2, 3)))
    if m.group(4):  # a pre-release matches no comparator without a pre-release
        return False
    for op, parts in comps:
        lo, hi = _cargo_bounds(op, parts)
        if lo is not None and v < lo or hi is not None and v >= hi:
            return False
    return True


_cargo_comp = st.tuples(
    st.sampled_from(["^", "~", "=", ">=", ">", "<", "<=", ""]),
    st.lists(small, min_size=1, max_size=3),
)
_cargo_ver = st.tuples(
    st.lists(small, min_size=3, max_size=3), st.sampled_from(["", "", "", "-alpha.1"])
).map(lambda t: ".".join(map(str, t[0])) + t[1])


@SETTINGS
@given(st.lists(_cargo_comp, min_size=1, max_size=2), _cargo_ver)
def test_cargo_normalized_simplespec_agrees_with_the_cargo_book(comps, version):
    comps = [(op or "^", parts) for op, parts in comps]
    spec = ", ".join(
        f"{op}{'.'.join(map(str, p))}" if op != "^" or i % 2 else ".".join(map(str, p))
        for i, (op, p) in enumerate(comps)
    )
    assert satisfies("cargo", version, spec) == _ref_cargo(version, comps), spec


def test_cargo_bare_requirement_is_caret_and_prerelease_needs_opt_in():
    assert satisfies("cargo", "1.0.104", "1.0.75") and not satisfies("cargo", "2.0.0", "1.0.75")
    assert satisfies("cargo", "0.4.33", "0.4.29") and not satisfies("cargo", "0.5.0", "0.4.29")
    assert not satisfies("cargo", "1.2.0-alpha", "^1.1")
    assert satisfies("cargo", "1.2.0-alpha.2", ">=1.2.0-alpha.1")
    assert satisfies("cargo", "1.3.0", ">=1.2, <1.5")


# ------------------------------------------------------------------------------------------
# Go, npm, pub, PyPI, Maven


@SETTINGS
@given(
    st.tuples(small, small, small),
    st.integers(20200101000000, 20261231235959),
    st.integers(20200101000000, 20261231235959),
)
def test_go_pseudo_versions_sort_between_their_base_and_the_release_by_time(base, t1, t2):
    major, minor, patch = base
    release = f"v{major}.{minor}.{patch + 1}"
    p1 = f"v{major}.{minor}.{patch + 1}-0.{t1}-abcdefabcdef"
    p2 = f"v{major}.{minor}.{patch + 1}-0.{t2}-abcdefabcdef"
    assert go_compare(f"v{major}.{minor}.{patch}", p1) == -1
    assert go_compare(p1, release) == -1
    assert go_compare(p1, p2) == (t1 > t2) - (t1 < t2)


def test_go_requirement_means_at_least_that_version_within_the_major():
    assert satisfies("go", "v1.1.1-0.20250404203927-76690c660834", "v1.1.0")
    assert not satisfies("go", "v2.0.0", "v1.0.0")
    assert go_compare("v2.0.0+incompatible", "v2.0.0") == 0
    with pytest.raises(InvalidSpec):
        satisfies("go", "v1.0.0", "latest")


def test_npm_and_pub_carets_differ_below_one():
    assert not satisfies("npm", "0.0.9", "^0.0.3")
    assert satisfies("pub", "0.0.9", "^0.0.3") and not satisfies("pub", "0.1.0", "^0.0.3")
    assert satisfies("pub", "0.7.0", ">=0.6.1 <0.8.0") and satisfies("pub", "9.9.9", "any")
    assert satisfies("npm", "1.30.2", "^1.30.0") and not is_valid_spec("npm", "^^1..2")


def test_pypi_specifiers_allow_a_locked_prerelease_and_reject_bad_specs():
    assert satisfies("pypi", "1.0rc1", ">=0.9")
    assert satisfies("pypi", "1.0.5", "==1.*") and not satisfies("pypi", "2.0", "==1.*")
    assert exact_pin("pypi", "==5.2.0") == "5.2.0" and exact_pin("pypi", "==1.*") is None
    assert not is_valid_spec("pypi", ">>1")


def test_maven_ranges_and_ordering():
    assert satisfies("maven", "1.5", "[1.0,2.0)") and not satisfies("maven", "2.0", "[1.0,2.0)")
    assert satisfies("maven", "3.1", "[1.0,2.0),[3.0,)")
    assert compare_versions("maven", "1.0-SNAPSHOT", "1.0") == -1
    assert compare_versions("maven", "1.0-RC1", "1.0-SNAPSHOT") == -1
    assert exact_pin("maven", "[1.2.3]") == "1.2.3"
