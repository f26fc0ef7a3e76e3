"""Verification of code's API calls against the served contract (issue 15 point 3).

Contract:
- ``Contract``: endpoint rows per library for the version verified against (``current``), the
  rows of every other ingested version/snapshot of those libraries (``others``), and the
  version notices. ``load_contract(home, workspace=None)`` builds it from the published
  snapshot (the version the workspace pins, via ``versioned.workspace_pins``; else the highest
  published version) plus every snapshot on disk; ``Contract.from_rows(current, others)``
  builds one from rows (tests, other services).
- ``verify_calls(calls, contract) -> VerifyResult``: one ``CallReport`` per call with the
  findings of the rules ``endpoint_exists``, ``method_allowed``, ``required_parameters``,
  ``unknown_parameters``, ``deprecated_api``, ``removed_api``, ``version_mismatch``,
  ``response_field_exists``, ``auth_present``; each ``verified`` / ``warning`` / ``mismatch`` /
  ``insufficient_evidence`` with evidence (endpoint, pointer, spec url, library, version,
  snapshot) and a fix when the docs state one (the replacement named by a deprecation note,
  the missing required field, the allowed methods). A call's status is its worst finding; a
  call whose URL or SDK method cannot be resolved to one operation is
  ``insufficient_evidence``, never ``verified``.
- URL matching: the call's path is matched segment by segment against path templates, after
  the path prefix of one of the operation's ``servers`` (``/v1``) when there is one; when the
  call's host is literal and the library declares servers, only libraries serving that host
  are considered. A variable in the code may fill a variable of the contract, never a literal
  segment (that match is ambiguous).
- SDK calls (``client.chat.completions.create``) map to the operation whose literal path words
  equal the chain's resource words with a compatible verb, or whose ``operation_id`` words
  equal the chain's words (from the served endpoints, no vendor table). More than one
  candidate is ``insufficient_evidence``.
- ``verification_hints(rows) -> list[dict]``: for endpoint rows a context pack returns, what code
  calling each must get right (method + path, required query parameters and body fields,
  credentials, deprecation and its note), for ``get_implementation_context`` to attach; built
  from the rows alone, no I/O.
- ``verify_paths(home, paths, *, workspace=None)`` / ``verify_text(home, code, *, language,
  workspace=None)``: extract calls (``codecalls``) and verify them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from docorbit_serve.changes import endpoints as ep
from docorbit_serve.changes.snapshots import list_snapshots, read_rows, version_key
from docorbit_serve.codecalls import extract_calls, scan_paths
from docorbit_serve.codecalls.urls import PLACEHOLDER
from docorbit_serve.home import Home
from docorbit_serve.manifest import published_manifest
from docorbit_serve.models.change import ApiCall, CallReport, Finding, VerifyResult

__all__ = [
    "Contract",
    "Match",
    "load_contract",
    "match_call",
    "sdk_candidates",
    "verify_calls",
    "verify_paths",
    "verify_text",
    "verification_hints",
]

_CREDENTIAL_FIELDS = {"token", "access_token", "api_key", "apikey", "key", "auth_token"}
_ORDER = {"verified": 0, "insufficient_evidence": 1, "warning": 2, "mismatch": 3}
_VERSION_SEG = re.compile(r"^v\d+(?:\.\d+)*[a-z]*\d*$|^api$")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_VERB_METHODS = {
    "create": {"POST", "PUT"}, "add": {"POST", "PUT"}, "send": {"POST"}, "post": {"POST"},
    "list": {"GET"}, "all": {"GET"}, "retrieve": {"GET"}, "get": {"GET"}, "fetch": {"GET"},
    "read": {"GET"}, "find": {"GET"}, "search": {"GET", "POST"},
    "delete": {"DELETE"}, "del": {"DELETE"}, "remove": {"DELETE"}, "destroy": {"DELETE"},
    "update": {"POST", "PUT", "PATCH"}, "modify": {"POST", "PUT", "PATCH"},
    "edit": {"POST", "PUT", "PATCH"}, "replace": {"PUT"}, "patch": {"PATCH"},
}  # fmt: skip
_BY_ID = {"retrieve", "get", "read", "delete", "del", "remove", "destroy", "update", "modify",
          "edit", "replace", "patch", "fetch"}  # fmt: skip


@dataclass
class Contract:
    current: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    others: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    pin_notices: dict[str, str] = field(default_factory=dict)  # library -> version mismatch text
    notices: list[str] = field(default_factory=list)

    @classmethod
    def from_rows(
        cls, current: list[dict[str, Any]], others: list[dict[str, Any]] | None = None
    ) -> Contract:
        c = cls()
        for r in current:
            if not r.get("webhook"):
                c.current.setdefault(r["library"], []).append(r)
                c.versions[r["library"]] = str(r.get("version") or "")
        for r in others or []:
            if not r.get("webhook"):
                c.others.setdefault(r["library"], []).append(r)
        return c


# --------------------------------------------------------------------------- loading


def _pins(home: Home, workspace: Path | None, manifest: dict[str, Any]) -> dict[str, Any]:
    if workspace is None:
        return {}
    from docorbit_serve.versioned import workspace_pins

    return workspace_pins(workspace, manifest)


def load_contract(home: Home, workspace: Path | None = None) -> Contract:
    """Endpoint rows served for the workspace's pins (else the highest version of each library)
    plus every other ingested snapshot's rows (for removed_api and version_mismatch)."""
    manifest = published_manifest(home.published_path)
    published = {
        s: v.get("snapshot")
        for s, v in (manifest.get("sources") or {}).items()
        if isinstance(v, dict)
    }
    snaps = list_snapshots(home)
    served = [s for s in snaps if published.get(s.source) == s.id]
    by_lib: dict[str, list[Any]] = {}
    for s in served:
        by_lib.setdefault(s.library, []).append(s)
    pins = _pins(home, workspace, manifest)
    c = Contract()
    chosen_ids: set[str] = set()
    for lib, refs in sorted(by_lib.items()):
        pin = pins.get(lib)
        want = pin.resolution.version if pin is not None and pin.status == "available" else None
        pick = [r for r in refs if want and r.version == want]
        if not pick:
            top = max(refs, key=lambda r: version_key(r.version)).version
            pick = [r for r in refs if r.version == top]
        if pin is not None and pin.status != "available":
            c.pin_notices[lib] = (
                f"the workspace uses {lib} {pin.resolution.wanted or pin.dependency.spec}, "
                f"but the served docs are {pick[0].version or 'unversioned'} ({pin.status})"
            )
        for r in pick:
            chosen_ids.add(r.id)
            rows = [x for x in read_rows(home, r, "endpoints") if not x.get("webhook")]
            for x in rows:
                x["snapshot"] = r.id
            c.current.setdefault(lib, []).extend(rows)
            c.versions[lib] = r.version
    if not any(c.current.values()):
        c.notices.append(
            "no published source has API endpoints (OpenAPI): calls cannot be checked; "
            "add a spec with `docorbit add PATH_OR_URL --kind openapi --library L`"
        )
    for s in snaps:
        if s.id in chosen_ids or not s.library:
            continue
        rows = [x for x in read_rows(home, s, "endpoints") if not x.get("webhook")]
        for x in rows:
            x["snapshot"] = s.id
        if rows:
            c.others.setdefault(s.library, []).extend(rows)
    return c


# --------------------------------------------------------------------------- URL matching


@dataclass
class Match:
    rows: list[dict[str, Any]]  # every method of the matched path template
    library: str
    weak: bool  # a code variable filled a literal segment of the template


@lru_cache(maxsize=65536)
def _segments(path: str) -> list[str]:
    return [s for s in path.strip("/").split("/") if s]


@lru_cache(maxsize=65536)
def _host_prefix(server: str) -> tuple[str | None, str]:
    m = re.match(r"^[a-zA-Z][\w+.-]*://([^/]+)(/.*)?$", server)
    if m:
        return m.group(1).lower(), (m.group(2) or "").rstrip("/")
    return None, server.rstrip("/") if server.startswith("/") else ""


def _fit(call: list[str], tmpl: list[str]) -> tuple[int, bool] | None:
    """(literal matches, weak) when the call's segments fill the template, else None."""
    if len(call) != len(tmpl):
        return None
    score, weak = 0, False
    for c, t in zip(call, tmpl, strict=True):
        c_var, t_var = bool(PLACEHOLDER.fullmatch(c)), bool(PLACEHOLDER.fullmatch(t))
        if t_var:
            continue
        if c_var:
            weak = True
        elif c == t:
            score += 1
        else:
            return None
    return score, weak


def _path_candidates(call: ApiCall, rows: list[dict[str, Any]]) -> list[tuple[int, bool, str]]:
    """(score, weak, template key) of every template of ``rows`` the call's path fits."""
    segs = _segments(call.path or "")
    host = (call.host or "").lower()
    host_known = bool(host) and not PLACEHOLDER.search(host)
    out = []
    for r in rows:
        tmpl = _segments(str(r["path"]))
        prefixes: list[list[str]] = []
        servers = list(r.get("servers") or [])
        for s in servers:
            h, prefix = _host_prefix(str(s))
            if host_known and h and h != host:
                continue
            prefixes.append(_segments(prefix))
        if not servers or not host_known:
            prefixes.append([])
            prefixes += [segs[:i] for i in range(1, len(segs) - len(tmpl) + 1)]
        for pre in prefixes:
            if segs[: len(pre)] != pre:
                continue
            fit = _fit(segs[len(pre) :], tmpl)
            if fit is not None:
                out.append((fit[0], fit[1], ep.endpoint_key("X", str(r["path"]))))
                break
    return out


def _libraries_for_host(call: ApiCall, rows_by_lib: dict[str, list[dict[str, Any]]]) -> set[str]:
    host = (call.host or "").lower()
    if not host or PLACEHOLDER.search(host):
        return set()
    return {
        lib
        for lib, rows in rows_by_lib.items()
        if any(_host_prefix(str(s))[0] == host for r in rows for s in r.get("servers") or [])
    }


def match_call(call: ApiCall, rows_by_lib: dict[str, list[dict[str, Any]]]) -> list[Match]:
    """The best-fitting path templates (one Match each; several = ambiguous)."""
    libs = _libraries_for_host(call, rows_by_lib) or set(rows_by_lib)
    found: list[tuple[int, bool, str, str]] = []
    for lib in sorted(libs):
        for score, weak, key in _path_candidates(call, rows_by_lib[lib]):
            found.append((score, weak, lib, key))
    if not found:
        return []
    strong = [f for f in found if not f[1]] or found
    best = max(f[0] for f in strong)
    keys = sorted({(f[2], f[3], f[1]) for f in strong if f[0] == best})
    return [
        Match(
            [r for r in rows_by_lib[lib] if ep.endpoint_key("X", str(r["path"])) == key],
            lib,
            weak,
        )
        for lib, key, weak in keys
    ]


# --------------------------------------------------------------------------- SDK mapping


@lru_cache(maxsize=65536)
def _words(text: str) -> list[str]:
    return [w.lower() for w in _CAMEL.findall(text)]


_SUFFIXES = ("ations", "ation", "ates", "ate", "ions", "ion", "ings", "ing", "ies", "es", "s", "e")


@lru_cache(maxsize=65536)
def _stem(w: str) -> str:
    """A crude common root so that 'images'/'image' and 'generate'/'generations' meet."""
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            return w[: -len(suf)]
    return w


@lru_cache(maxsize=65536)
def _resource_words(path: str) -> tuple[list[str], bool]:
    segs = _segments(path)
    lits = [s for s in segs if not PLACEHOLDER.fullmatch(s) and not _VERSION_SEG.match(s)]
    words = [_stem(w) for s in lits for w in _words(s.replace("-", " ").replace("_", " "))]
    return words, bool(segs) and bool(PLACEHOLDER.fullmatch(segs[-1]))


def _chain_candidates(chain: list[str], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    verb_words = _words(chain[-1])
    verb = chain[-1].lower()
    res = [_stem(w) for part in chain[:-1] for w in _words(part)]
    if len(verb_words) > 1 and verb_words[0] in _VERB_METHODS:  # create_variation, listEvents
        verb, res = verb_words[0], res + [_stem(w) for w in verb_words[1:]]
    all_words = sorted([_stem(w) for part in chain for w in _words(part)])
    by_path, by_id = [], []
    for r in rows:
        words, ends_with_id = _resource_words(str(r["path"]))
        methods = _VERB_METHODS.get(verb)
        if words == res and methods and r["method"] in methods:
            if verb in ("list", "all", "create") and ends_with_id:
                continue
            if verb in _BY_ID and r["method"] == "GET" and not ends_with_id:
                continue
            by_path.append(r)
        elif words == res + [_stem(verb)] and r["method"] in ("POST", "GET"):
            by_path.append(r)  # the verb is the last segment: /fine-tunes/{id}/cancel
        op = str(r.get("operation_id") or "")
        if op and sorted(_stem(w) for w in _words(op)) == all_words:
            by_id.append(r)
    both = [r for r in by_path if r in by_id]
    return both or by_path or by_id


def _path_params(row: dict[str, Any]) -> int:
    return len(PLACEHOLDER.findall(str(row["path"])))


def _by_arity(call: ApiCall, found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Among several operations, those whose path variables match the call's id arguments."""
    if len({(r["method"], r["path"]) for r in found}) < 2:
        return found
    same = [r for r in found if _path_params(r) == call.positional_args]
    return same or found


def sdk_candidates(call: ApiCall, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Operations an SDK chain maps to; leading namespaces (``client.beta.…``) that match no
    operation are dropped one at a time."""
    chain = list(call.sdk_chain)
    while len(chain) >= 2:
        found = _chain_candidates(chain, rows)
        if found:
            return _by_arity(call, found)
        chain = chain[1:]
    return []


# --------------------------------------------------------------------------- rules


def _evidence(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "endpoint": f"{row['method']} {row['path']}",
        "operation_id": row.get("operation_id") or "",
        "library": row.get("library") or "",
        "version": row.get("version") or "",
        "snapshot": row.get("snapshot") or "",
        "url": row.get("spec_url") or "",
        "pointer": ep.pointer(row),
    }


def _f(
    rule: str, status: str, message: str, ev: dict[str, Any] | None = None, fix: str | None = None
) -> Finding:
    return Finding(rule=rule, status=status, message=message, evidence=ev or {}, fix=fix)  # type: ignore[arg-type]


def _param_findings(call: ApiCall, row: dict[str, Any], ev: dict[str, Any]) -> list[Finding]:
    out: list[Finding] = []
    params = ep.parameters(row)
    q_req = sorted(n for (w, n), p in params.items() if w == "query" and p.get("required"))
    missing_q = [n for n in q_req if n not in call.query_fields]
    body = ep.body_properties(row)
    # a required field the schema does not define, or that names a path variable, is the spec
    # contradicting itself (OpenAI's CreateRunRequest requires thread_id, a path variable)
    path_vars = {n for (w, n) in params if w == "path"}
    body_req = [
        n
        for n in ep.required_body(row) or []
        if n not in path_vars
        and (body is None or not body["properties"] or n in body["properties"])
    ]
    rb = ep.json_col(row, "request_body_json")
    missing_b = [n for n in body_req if n not in call.body_fields]
    body_dynamic = "body" in call.dynamic
    params_dynamic = "params" in call.dynamic
    if missing_q and not params_dynamic:
        out.append(
            _f(
                "required_parameters",
                "mismatch",
                f"required query parameter(s) missing: {', '.join(missing_q)}",
                ev,
                f"add {', '.join(missing_q)} to the query",
            )
        )
    if (
        call.client != "sdk"
        and isinstance(rb, dict)
        and rb.get("required")
        and not call.body_fields
        and not body_dynamic
    ):
        out.append(
            _f(
                "required_parameters",
                "mismatch",
                "the operation requires a request body and the call sends none",
                ev,
                "send a body" + (f" with {', '.join(body_req)}" if body_req else ""),
            )
        )
    elif missing_b and (call.body_fields or call.client == "sdk") and not body_dynamic:
        out.append(
            _f(
                "required_parameters",
                "mismatch",
                f"required body field(s) missing: {', '.join(missing_b)}",
                ev,
                f"add {', '.join(missing_b)}",
            )
        )
    elif (missing_q and params_dynamic) or (missing_b and body_dynamic):
        out.append(
            _f(
                "required_parameters",
                "insufficient_evidence",
                "the parameters or body are built dynamically: required fields cannot be checked",
                ev,
            )
        )
    else:
        out.append(
            _f(
                "required_parameters",
                "verified",
                "every required parameter and body field is sent",
                ev,
            )
        )
    known_q = {n for (w, n) in params if w == "query"}
    unknown_q = [n for n in call.query_fields if n not in known_q]
    unknown_b = []
    if body is not None and not body["open"]:
        unknown_b = [n for n in call.body_fields if n not in body["properties"]]
    if unknown_q or unknown_b:
        names = [f"query {n}" for n in unknown_q] + [f"body {n}" for n in unknown_b]
        out.append(
            _f(
                "unknown_parameters",
                "warning",
                f"not in the contract: {', '.join(names)}",
                ev,
                "check the spelling against the documented parameters",
            )
        )
    return out


def _response_findings(call: ApiCall, row: dict[str, Any], ev: dict[str, Any]) -> list[Finding]:
    if not call.response_fields:
        return []
    schemas = {k: v for k, v in ep.response_schemas(row).items() if k.startswith("2")}
    props: set[str] = set()
    readable = False
    for sch in schemas.values():
        obj = ep._object_schema(sch)  # noqa: SLF001 - shared reader of this package
        if obj is not None:
            readable = True
            props |= set(obj["properties"])
    if not readable:
        return [
            _f(
                "response_field_exists",
                "insufficient_evidence",
                "the success response has no readable object schema",
                ev,
            )
        ]
    missing = [f for f in call.response_fields if f not in props]
    if missing:
        return [
            _f(
                "response_field_exists",
                "mismatch",
                f"response field(s) not in the documented response: {', '.join(missing)}",
                ev,
                f"documented fields: {', '.join(sorted(props)[:20])}",
            )
        ]
    return [
        _f(
            "response_field_exists",
            "verified",
            f"response field(s) documented: {', '.join(call.response_fields)}",
            ev,
        )
    ]


def _auth_findings(call: ApiCall, row: dict[str, Any], ev: dict[str, Any]) -> list[Finding]:
    sec = ep.security(row)
    if call.client == "sdk" or not isinstance(sec, list) or not sec:
        return []
    if any(isinstance(alt, list) and not alt for alt in sec):
        return []  # an empty alternative: auth is optional
    names: set[str] = set()
    for alt in sec:
        for scheme in alt if isinstance(alt, list) else []:
            if isinstance(scheme, dict):
                names.add(str(scheme.get("name") or "Authorization").lower())
    sent = set(call.headers) | {q.lower() for q in call.query_fields}
    # a credential passed as a documented parameter (Slack's token, an api_key query field)
    documented = {n.lower() for (_, n) in ep.parameters(row)} | set(
        (ep.body_properties(row) or {}).get("properties", {})
    )
    fields = {f.lower() for f in call.query_fields + call.body_fields}
    if fields & _CREDENTIAL_FIELDS & {d.lower() for d in documented}:
        return [
            _f("auth_present", "verified", "the call sends a documented credential parameter", ev)
        ]
    if names & sent:
        return [
            _f(
                "auth_present",
                "verified",
                "the call sends the credentials the operation requires",
                ev,
            )
        ]
    return [
        _f(
            "auth_present",
            "warning",
            f"the operation requires authentication ({', '.join(sorted(names))}) and this call sends none (unless its client adds it)",
            ev,
            f"send the {sorted(names)[0]} header",
        )
    ]


def _row_findings(call: ApiCall, row: dict[str, Any], contract: Contract) -> list[Finding]:
    ev = _evidence(row)
    out = [
        _f("endpoint_exists", "verified", f"{row['method']} {row['path']} is in the contract", ev)
    ]
    if call.client != "sdk":
        out.append(_f("method_allowed", "verified", f"{row['method']} is allowed", ev))
    if row.get("deprecated"):
        note = str(row.get("deprecation_note") or "")
        out.append(
            _f(
                "deprecated_api",
                "warning",
                f"{row['method']} {row['path']} is deprecated" + (f": {note}" if note else ""),
                ev,
                note or None,
            )
        )
    out += (
        _param_findings(call, row, ev)
        + _response_findings(call, row, ev)
        + _auth_findings(call, row, ev)
    )
    lib = str(row.get("library") or "")
    if lib in contract.pin_notices:
        out.append(_f("version_mismatch", "warning", contract.pin_notices[lib], ev))
    return out


def _absent_findings(
    call: ApiCall, contract: Contract, where: str
) -> tuple[list[Finding], dict[str, Any] | None]:
    """The call fits nothing served now: removed, other version, or unknown."""
    old = _resolve(call, contract.others)
    if old is not None:
        lib = str(old.get("library") or "")
        cur = contract.versions.get(lib, "")
        ev = _evidence(old)
        newer = version_key(str(old.get("version") or "")) > version_key(cur)
        if newer:
            msg = f"{old['method']} {old['path']} exists in {lib} {old.get('version')}, not in {cur}, the version verified against"
            return [
                _f(
                    "version_mismatch",
                    "mismatch",
                    msg,
                    ev,
                    f"upgrade {lib} to {old.get('version')} or use an endpoint of {cur}",
                )
            ], old
        note = str(old.get("deprecation_note") or "")
        msg = f"{old['method']} {old['path']} was in {lib} {old.get('version')} and is removed in {cur}"
        return [
            _f("removed_api", "mismatch", msg, ev, note or "see docorbit diff for what replaced it")
        ], old
    if where == "host":
        return [
            _f(
                "endpoint_exists",
                "mismatch",
                "no operation of the served contract has this path",
                {"url": call.url or ""},
                "check the path against docorbit api / find_api",
            )
        ], None
    return [
        _f(
            "endpoint_exists",
            "insufficient_evidence",
            "no served contract covers this URL",
            {"url": call.url or ""},
        )
    ], None


def _resolve(call: ApiCall, rows_by_lib: dict[str, list[dict[str, Any]]]) -> dict[str, Any] | None:
    """One row (the newest version) for the call in ``rows_by_lib``, when unambiguous."""
    if call.client == "sdk":
        cands = [r for rows in rows_by_lib.values() for r in sdk_candidates(call, rows)]
    else:
        matches = [m for m in match_call(call, rows_by_lib) if not m.weak]
        cands = [r for m in matches for r in m.rows if r["method"] == call.method]
    keys = {(r["library"], ep.endpoint_key(r["method"], r["path"])) for r in cands}
    if len(keys) != 1:
        return None
    return max(cands, key=lambda r: version_key(str(r.get("version") or "")))


def _report(call: ApiCall, findings: list[Finding], row: dict[str, Any] | None) -> CallReport:
    status = max((f.status for f in findings), key=lambda s: _ORDER[s])
    return CallReport(
        call=call,
        status=status,  # type: ignore[arg-type]
        endpoint=f"{row['method']} {row['path']}" if row else None,
        library=str(row.get("library")) if row else None,
        version=str(row.get("version")) if row else None,
        findings=findings,
    )


def _sdk_report(call: ApiCall, contract: Contract) -> CallReport:
    cands = [r for rows in contract.current.values() for r in sdk_candidates(call, rows)]
    keys = sorted({(r["library"], f"{r['method']} {r['path']}") for r in cands})
    name = ".".join(call.sdk_chain)
    if len(keys) == 1:
        return _report(call, _row_findings(call, cands[0], contract), cands[0])
    if len(keys) > 1:
        return _report(
            call,
            [
                _f(
                    "endpoint_exists",
                    "insufficient_evidence",
                    f"{name} matches several operations: {', '.join(k[1] for k in keys[:5])}",
                    {"candidates": [k[1] for k in keys[:10]]},
                )
            ],
            None,
        )
    findings, old = _absent_findings(call, contract, "sdk")
    if old is None:
        findings = [
            _f(
                "endpoint_exists",
                "insufficient_evidence",
                f"no served operation maps to {name}",
                {},
            )
        ]
    return _report(call, findings, old)


def _http_report(call: ApiCall, contract: Contract) -> CallReport:
    if call.url_kind == "dynamic" or not call.path:
        return _report(
            call,
            [
                _f(
                    "endpoint_exists",
                    "insufficient_evidence",
                    "the URL is built at run time: it cannot be checked statically",
                    {"dynamic": call.dynamic},
                )
            ],
            None,
        )
    matches = match_call(call, contract.current)
    if not matches:
        hosted = _libraries_for_host(call, contract.current)
        findings, old = _absent_findings(call, contract, "host" if hosted else "")
        return _report(call, findings, old)
    if len(matches) > 1 or matches[0].weak:
        cands = [f"{m.library}: {m.rows[0]['path']}" for m in matches]
        return _report(
            call,
            [
                _f(
                    "endpoint_exists",
                    "insufficient_evidence",
                    "a variable in the URL fills a fixed part of the documented path, or several operations fit: "
                    + ", ".join(cands[:5]),
                    {"candidates": cands[:10]},
                )
            ],
            None,
        )
    m = matches[0]
    if call.method is None:
        return _report(
            call,
            [
                _f(
                    "method_allowed",
                    "insufficient_evidence",
                    "the HTTP method is chosen at run time",
                    _evidence(m.rows[0]),
                )
            ],
            None,
        )
    row = next((r for r in m.rows if r["method"] == call.method), None)
    if row is None:
        allowed = sorted({r["method"] for r in m.rows})
        ev = _evidence(m.rows[0])
        findings = [
            _f("endpoint_exists", "verified", f"{m.rows[0]['path']} is in the contract", ev),
            _f(
                "method_allowed",
                "mismatch",
                f"{call.method} is not allowed on {m.rows[0]['path']}; documented: {', '.join(allowed)}",
                ev,
                f"use {' or '.join(allowed)}",
            ),
        ]
        return _report(call, findings, None)
    return _report(call, _row_findings(call, row, contract), row)


def verify_calls(calls: list[ApiCall], contract: Contract) -> VerifyResult:
    reports = [(_sdk_report if c.client == "sdk" else _http_report)(c, contract) for c in calls]
    counts = {s: sum(r.status == s for r in reports) for s in _ORDER}
    status = max((r.status for r in reports), key=lambda s: _ORDER[s]) if reports else "no_calls"
    return VerifyResult(
        status=status,  # type: ignore[arg-type]
        counts=counts,
        calls=reports,
        versions=dict(sorted(contract.versions.items())),
        notices=sorted(contract.pin_notices.values()) + contract.notices,
    )


def verify_paths(home: Home, paths: list[Path], *, workspace: Path | None = None) -> VerifyResult:
    root = workspace or (paths[0] if len(paths) == 1 and paths[0].is_dir() else None)
    calls, _, _ = scan_paths(paths, root=root)
    return verify_calls(calls, load_contract(home, workspace))


def verify_text(
    home: Home, code: str, *, language: str, workspace: Path | None = None
) -> VerifyResult:
    return verify_calls(extract_calls(code, language=language), load_contract(home, workspace))


def _auth_hint(row: dict[str, Any]) -> str | None:
    sec = ep.security(row)
    if not isinstance(sec, list) or not sec or any(isinstance(a, list) and not a for a in sec):
        return None
    names = sorted(
        {
            f"{s.get('in') or 'header'} {s.get('name') or 'Authorization'}"
            for alt in sec
            if isinstance(alt, list)
            for s in alt
            if isinstance(s, dict)
        }
    )
    return "send credentials: " + " or ".join(names) if names else None


def verification_hints(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        params = ep.parameters(row)
        req_q = sorted(n for (w, n), p in params.items() if w == "query" and p.get("required"))
        checks = [f"{row['method']} {row['path']}"]
        if req_q:
            checks.append("required query parameters: " + ", ".join(req_q))
        body = ep.required_body(row)
        if body:
            checks.append("required body fields: " + ", ".join(body))
        auth = _auth_hint(row)
        if auth:
            checks.append(auth)
        if row.get("deprecated"):
            note = str(row.get("deprecation_note") or "")
            checks.append("deprecated" + (f": {note}" if note else ""))
        out.append(
            {
                "endpoint": f"{row['method']} {row['path']}",
                "operation_id": row.get("operation_id") or "",
                "checks": checks,
                "verify_with": "check_api (MCP) or docorbit verify PATH",
            }
        )
    return out
