"""Verification of code's API calls against the served contract (issue 15 points 2-3).

The contract is the OpenAI spec of 2023-11-06 (fixtures/changes/openai, see PROVENANCE.md)
parsed by the pipeline's own OpenAPI parser; 1.3.0 and 2.0.0 are the older versions (for
removed_api). Snippets vary in client and style; each asserts the call's status and the rule
that decided it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docorbit_assets.lib.endpoints import endpoint_rows, parse_spec
from docorbit_serve.codecalls import extract_calls
from docorbit_serve.verify import Contract, verify_calls

SPECS = Path(__file__).resolve().parents[2] / "fixtures" / "changes" / "openai"


def _rows(version: str) -> list[dict]:
    path = SPECS / version / "openapi.yaml"
    parsed = parse_spec(path.read_bytes(), spec_url=str(path))
    rows = endpoint_rows(
        parsed, source=f"openai-{version}", library="openai", version=version, spec_url=str(path)
    )
    for r in rows:
        r["snapshot"] = f"s_{version}"
    return rows


@pytest.fixture(scope="module")
def contract() -> Contract:
    return Contract.from_rows(_rows("2023-11-06-devday"), _rows("1.3.0") + _rows("2.0.0"))


PY_HEAD = (
    "import requests, httpx, aiohttp\nimport urllib.request\nfrom openai import OpenAI\n"
    'BASE = "https://api.openai.com/v1"\nAUTH = {"Authorization": "Bearer k"}\n'
)
JS_HEAD = (
    'import axios from "axios";\nimport OpenAI from "openai";\n'
    'const BASE = "https://api.openai.com/v1";\nconst auth = { Authorization: `Bearer ${k}` };\n'
)

# (language, code, status, deciding rule, endpoint)
CASES = [
    # --- correct calls
    ("python", 'requests.get(f"{BASE}/models", headers=AUTH)', "verified", None, "GET /models"),
    ("python", 'r = httpx.post(BASE + "/embeddings", json={"model": "m", "input": "x"}, headers=AUTH)\nr.json()["data"]', "verified", None, "POST /embeddings"),
    ("python", 'with httpx.Client(base_url=BASE, headers=AUTH) as c:\n    c.delete(f"/models/{name}", headers=AUTH)', "verified", None, "DELETE /models/{model}"),
    ("python", "client = OpenAI()\nout = client.chat.completions.create(model='gpt-4', messages=[])\nprint(out.choices)", "verified", None, "POST /chat/completions"),
    ("python", "c = OpenAI()\nc.models.retrieve('gpt-4')", "verified", None, "GET /models/{model}"),
    ("python", "async def f():\n    async with aiohttp.ClientSession() as s:\n        async with s.get(BASE + '/files', headers=AUTH) as r:\n            return await r.json()", "verified", None, "GET /files"),
    ("javascript", 'await fetch(`${BASE}/moderations`, { method: "POST", headers: auth, body: JSON.stringify({ input: "x" }) });', "verified", None, "POST /moderations"),
    ("javascript", "const api = axios.create({ baseURL: BASE });\nawait api.get(`/files/${id}`, { headers: auth });", "verified", None, "GET /files/{file_id}"),
    ("typescript", "const client = new OpenAI();\nconst r = await client.embeddings.create({ model: 'm', input: 'x' });\nconsole.log(r.data);", "verified", None, "POST /embeddings"),
    ("shell", 'curl https://api.openai.com/v1/models -H "Authorization: Bearer $OPENAI_API_KEY"', "verified", None, "GET /models"),
    ("shell", "curl https://api.openai.com/v1/chat/completions \\\n  -H 'Authorization: Bearer $K' \\\n  -H 'Content-Type: application/json' \\\n  -d '{\"model\": \"gpt-4\", \"messages\": []}'", "verified", None, "POST /chat/completions"),
    # --- removed (present in 1.3.0, absent now)
    ("python", 'requests.post(f"{BASE}/answers", json={"question": "q"}, headers=AUTH)', "mismatch", "removed_api", "POST /answers"),
    ("python", "import openai\nopenai.Engine.list()", "mismatch", "removed_api", "GET /engines"),
    ("javascript", "await axios.get(BASE + '/engines/' + engineId, { headers: auth });", "mismatch", "removed_api", "GET /engines/{engine_id}"),
    ("shell", "curl -X POST https://api.openai.com/v1/classifications -H 'Authorization: Bearer x' -d '{\"query\": \"q\"}'", "mismatch", "removed_api", "POST /classifications"),
    ("javascript", "const c = new OpenAI();\nawait c.engines.retrieve('davinci');", "mismatch", "removed_api", "GET /engines/{engine_id}"),
    # --- deprecated
    ("python", 'requests.post(BASE + "/edits", json={"model": "m", "instruction": "fix"}, headers=AUTH)', "warning", "deprecated_api", "POST /edits"),
    ("javascript", "await fetch(`${BASE}/fine-tunes/${ft}/cancel`, { method: 'POST', headers: auth });", "warning", "deprecated_api", "POST /fine-tunes/{fine_tune_id}/cancel"),
    ("python", "client = OpenAI()\nclient.fine_tunes.list()", "warning", "deprecated_api", "GET /fine-tunes"),
    ("shell", "curl https://api.openai.com/v1/fine-tunes -H 'Authorization: Bearer k'", "warning", "deprecated_api", "GET /fine-tunes"),
    # --- wrong method
    ("python", 'requests.put(f"{BASE}/models/{m}", headers=AUTH)', "mismatch", "method_allowed", None),
    ("javascript", "await axios.delete(`${BASE}/chat/completions`, { headers: auth });", "mismatch", "method_allowed", None),
    ("shell", "curl -X PATCH https://api.openai.com/v1/files -H 'Authorization: Bearer k'", "mismatch", "method_allowed", None),
    ("python", "req = urllib.request.Request(BASE + '/models', data=b'{}', headers=AUTH)\nurllib.request.urlopen(req)", "mismatch", "method_allowed", None),
    # --- missing required field
    ("python", 'requests.post(f"{BASE}/chat/completions", json={"messages": []}, headers=AUTH)', "mismatch", "required_parameters", "POST /chat/completions"),
    ("python", "client = OpenAI()\nclient.images.generate(size='1024x1024')", "mismatch", "required_parameters", "POST /images/generations"),
    ("javascript", "await axios.post(`${BASE}/embeddings`, { input: 'x' }, { headers: auth });", "mismatch", "required_parameters", "POST /embeddings"),
    ("typescript", "const o = new OpenAI();\nawait o.chat.completions.create({ messages: [] });", "mismatch", "required_parameters", "POST /chat/completions"),
    ("shell", "curl https://api.openai.com/v1/moderations -H 'Authorization: Bearer k' -H 'Content-Type: application/json' -d '{\"model\": \"m\"}'", "mismatch", "required_parameters", "POST /moderations"),
    # --- response field that the contract does not have
    ("python", 'r = requests.get(f"{BASE}/models/{m}", headers=AUTH)\nprint(r.json()["owner"])', "mismatch", "response_field_exists", "GET /models/{model}"),
    # --- auth missing
    ("javascript", "await fetch(BASE + '/models');", "warning", "auth_present", "GET /models"),
    # --- dynamic: never verified
    ("python", "requests.get(url, headers=AUTH)", "insufficient_evidence", "endpoint_exists", None),
    ("python", 'requests.get(f"{base}{path}")', "insufficient_evidence", "endpoint_exists", None),
    ("python", 'requests.get(f"{BASE}/{resource}", headers=AUTH)', "insufficient_evidence", "endpoint_exists", None),
    ("python", "requests.request(method, BASE + '/models', headers=AUTH)", "insufficient_evidence", "method_allowed", None),
    ("javascript", "await fetch(endpointFor(kind), { headers: auth });", "insufficient_evidence", "endpoint_exists", None),
    ("javascript", "await axios.get(`${BASE}/${what}`, { headers: auth });", "insufficient_evidence", "endpoint_exists", None),
    ("shell", "curl $API_URL -H 'Authorization: Bearer k'", "insufficient_evidence", "endpoint_exists", None),
    ("python", "client = OpenAI()\nclient.beta.frobnicate.create()", "insufficient_evidence", "endpoint_exists", None),
]  # fmt: skip


def _head(language: str) -> str:
    return (
        PY_HEAD
        if language == "python"
        else JS_HEAD
        if language in ("javascript", "typescript")
        else ""
    )


@pytest.mark.parametrize(("language", "code", "status", "rule", "endpoint"), CASES)
def test_call_gets_the_status_the_contract_gives_it(
    contract, language, code, status, rule, endpoint
):
    head = _head(language)
    calls = extract_calls(head + code, language=language)
    assert len(calls) == 1, calls
    report = verify_calls(calls, contract).calls[0]
    assert report.status == status, report.model_dump()
    assert report.call.line > head.count("\n")
    if endpoint is not None:
        assert report.endpoint == endpoint
    if rule is not None:
        decided = [f for f in report.findings if f.status == status]
        assert rule in {f.rule for f in decided}, report.model_dump()
    if status in ("mismatch", "warning") and rule not in ("auth_present",):
        ev = next(f.evidence for f in report.findings if f.rule == rule)
        assert ev.get("endpoint") or ev.get("url"), ev
    if status == "verified":
        assert all(f.status == "verified" for f in report.findings)


def test_removed_and_deprecated_findings_carry_version_snapshot_and_fix(contract):
    code = (
        PY_HEAD + 'requests.post(f"{BASE}/chat/completions", json={"messages": []}, headers=AUTH)\n'
    )
    code += 'requests.get(BASE + "/engines", headers=AUTH)\n'
    res = verify_calls(extract_calls(code, language="python"), contract)
    missing, removed = res.calls
    f = next(x for x in missing.findings if x.rule == "required_parameters")
    assert f.fix == "add model" and f.evidence["version"] == "2023-11-06-devday"
    assert f.evidence["pointer"] == "/paths/~1chat~1completions/post"
    r = next(x for x in removed.findings if x.rule == "removed_api")
    assert r.evidence["version"] in ("1.3.0", "2.0.0") and r.evidence["snapshot"].startswith("s_")
    assert res.status == "mismatch" and res.counts["mismatch"] == 2


def test_endpoint_in_a_newer_version_than_verified_is_a_version_mismatch():
    old = Contract.from_rows(_rows("2.0.0"), _rows("2023-11-06-devday"))
    calls = extract_calls(
        PY_HEAD + 'requests.post(BASE + "/assistants", json={"model": "m"}, headers=AUTH)',
        language="python",
    )
    report = verify_calls(calls, old).calls[0]
    assert report.status == "mismatch"
    assert [f.rule for f in report.findings] == ["version_mismatch"]
    assert "2023-11-06-devday" in report.findings[0].message


def test_unknown_host_is_insufficient_evidence_and_unknown_path_on_a_served_host_a_mismatch(
    contract,
):
    code = (
        PY_HEAD
        + 'requests.get("https://example.org/v1/models")\nrequests.get(BASE + "/modelz", headers=AUTH)\n'
    )
    a, b = verify_calls(extract_calls(code, language="python"), contract).calls
    # example.org serves no contract: nothing to match the path against, so no endpoint either
    assert (a.status, a.endpoint) == ("insufficient_evidence", None)
    assert [f.rule for f in a.findings] == ["endpoint_exists"]
    assert b.status == "mismatch" and b.findings[0].rule == "endpoint_exists"


def test_code_without_calls_reports_no_calls(contract):
    res = verify_calls(extract_calls("x = 1\n", language="python"), contract)
    assert res.status == "no_calls" and res.calls == []


def test_verification_hints_name_required_fields_auth_and_deprecation(contract):
    from docorbit_serve.verify import verification_hints

    rows = contract.current["openai"]
    chat = next(r for r in rows if r["path"] == "/chat/completions")
    edits = next(r for r in rows if r["path"] == "/edits")
    a, b = verification_hints([chat, edits])
    assert a["endpoint"] == "POST /chat/completions"
    assert "required body fields: messages, model" in a["checks"]
    assert any(c.startswith("send credentials: header Authorization") for c in a["checks"])
    assert b["checks"][-1].startswith("deprecated")


BARE = [  # snippets as agents paste them: no imports, default headers on sessions/instances
    ("python", 'import requests\ns = requests.Session()\ns.headers.update({"Authorization": "Bearer k"})\ns.get("https://api.openai.com/v1/models")', "verified", "GET /models"),
    ("python", 'import httpx\nc = httpx.Client(base_url="https://api.openai.com/v1", headers={"Authorization": "k"})\nc.get("/engines")', "mismatch", "GET /engines"),
    ("python", 'resp = requests.post("https://api.openai.com/v1/embeddings", json={"input": "x"}, headers={"Authorization": "k"})', "mismatch", "POST /embeddings"),
    ("python", "client = OpenAI()\nclient.moderations.create(input='x')", "verified", "POST /moderations"),
    ("javascript", "const r = await axios.post('https://api.openai.com/v1/answers', { question: 'q' });", "mismatch", "POST /answers"),
    ("javascript", "const api = axios.create({ baseURL: 'https://api.openai.com/v1', headers: { Authorization: 'k' } });\nawait api.get('/models');", "verified", "GET /models"),
    ("typescript", "const openai = new OpenAI({ apiKey });\nawait openai.files.list();", "verified", "GET /files"),
    ("python", "client = OpenAI()\nclient.beta.threads.runs.create(thread_id, assistant_id='a')", "verified", "POST /threads/{thread_id}/runs"),
    ("python", "client = OpenAI()\nclient.beta.assistants.create(model='gpt-4')", "verified", "POST /assistants"),
    ("python", "client = OpenAI()\nclient.images.create_variation(image=f)", "verified", "POST /images/variations"),
    ("python", "client = OpenAI()\nclient.fine_tuning.jobs.list_events('ft-1')", "verified", "GET /fine_tuning/jobs/{fine_tuning_job_id}/events"),
    ("python", "import openai\nopenai.Completion.create(engine='davinci', prompt='x')", "mismatch", "POST /completions"),
    ("javascript", "const openai = new OpenAI();\nawait openai.beta.threads.runs.create(threadId, { assistant_id: 'a' });", "verified", "POST /threads/{thread_id}/runs"),
    ("python", 'import urllib3\nhttp = urllib3.PoolManager(headers={"Authorization": "k"})\nhttp.request("GET", "https://api.openai.com/v1/models")', "verified", "GET /models"),
    ("python", 'import urllib3\nurllib3.request("POST", "https://api.openai.com/v1/embeddings", json={"input": "x"}, headers={"Authorization": "k"})', "mismatch", "POST /embeddings"),
    ("javascript", 'import ky from "ky";\nawait ky.post("https://api.openai.com/v1/moderations", { json: { input: "x" }, headers: { Authorization: "k" } }).json();', "verified", "POST /moderations"),
    ("javascript", 'import got from "got";\nawait got("https://api.openai.com/v1/engines", { headers: { Authorization: "k" } });', "mismatch", "GET /engines"),
    ("javascript", 'const fetch = require("node-fetch");\nawait fetch("https://api.openai.com/v1/fine-tunes", { headers: { Authorization: "k" } });', "warning", "GET /fine-tunes"),
]  # fmt: skip


@pytest.mark.parametrize(("language", "code", "status", "endpoint"), BARE)
def test_snippets_without_imports_or_with_default_headers(
    contract, language, code, status, endpoint
):
    (call,) = extract_calls(code, language=language)
    report = verify_calls([call], contract).calls[0]
    assert (report.status, report.endpoint) == (status, endpoint), report.model_dump()


def test_verify_without_any_published_contract_says_so_and_exits_0(tmp_path):
    import json

    from click.testing import CliRunner

    from docorbit_serve.cli import cli

    code = tmp_path / "a.py"
    code.write_text('import requests\nrequests.get("https://api.example.com/v1/things")\n')
    r = CliRunner().invoke(cli, ["--home", str(tmp_path / "home"), "verify", str(code), "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["status"] == "insufficient_evidence"
    assert data["notices"] and "no published source has API endpoints" in data["notices"][0]
