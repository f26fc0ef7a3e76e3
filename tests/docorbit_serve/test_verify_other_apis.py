"""Verification is not tuned to one vendor: the petstore, Twilio (OpenAPI 3.0) and Slack
(Swagger 2.0) contracts of fixtures/apiintel (see its PROVENANCE.md), parsed by the pipeline,
checked with calls in several styles."""

from __future__ import annotations

from pathlib import Path

import pytest

from docorbit_assets.lib.endpoints import endpoint_rows, parse_spec
from docorbit_serve.codecalls import extract_calls
from docorbit_serve.verify import Contract, verify_calls

API = Path(__file__).resolve().parents[2] / "fixtures" / "apiintel"
SPECS = {
    "petstore": API / "petstore" / "petstore.yaml",
    "twilio": API / "twilio" / "twilio_api_v2010.json",
    "slack": API / "slack" / "slack_web_openapi_v2.json",
}


@pytest.fixture(scope="module")
def contract() -> Contract:
    rows = []
    for lib, path in SPECS.items():
        parsed = parse_spec(path.read_bytes(), spec_url=str(path))
        rows += endpoint_rows(parsed, source=lib, library=lib, version="1", spec_url=str(path))
    return Contract.from_rows(rows)


TW = "https://api.twilio.com/2010-04-01/Accounts"
CASES = [
    ("python", 'import requests\nrequests.get("http://petstore.swagger.io/v1/pets", params={"limit": 3})', "verified", "petstore", None),
    ("python", 'import httpx\nhttpx.delete("http://petstore.swagger.io/v1/pets/1")', "mismatch", None, "method_allowed"),
    ("javascript", 'await fetch("http://petstore.swagger.io/v1/owners")', "mismatch", None, "endpoint_exists"),
    ("python", f'import requests\nrequests.post(f"{TW}/{{sid}}/Messages.json", data={{"To": "+1", "From": "+2", "Body": "hi"}}, auth=(sid, tok))', "verified", "twilio", None),
    ("python", f'import requests\nrequests.post(f"{TW}/{{sid}}/Messages.json", data={{"Body": "hi"}}, auth=(sid, tok))', "mismatch", "twilio", "required_parameters"),
    ("shell", f'curl -X POST "{TW}/$SID/Messages.json" -u "$SID:$TOKEN" --data-urlencode "To=+1" --data-urlencode "From=+2" --data-urlencode "Body=hi"', "verified", "twilio", None),
    ("javascript", "await axios.get(`https://api.twilio.com/2010-04-01/Accounts/${sid}/Calls.json`, { auth: { username: sid, password: token } });", "verified", "twilio", None),
    ("python", 'import requests\nrequests.post("https://slack.com/api/chat.postMessage", data={"channel": "C1", "text": "hi"}, headers={"Authorization": "Bearer x"})', "verified", "slack", None),
    ("python", 'import requests\nrequests.get("https://slack.com/api/conversations.list", params={"token": "x", "limit": 10})', "verified", "slack", None),
    ("javascript", "await fetch('https://slack.com/api/chat.postMessage', { method: 'POST', body: JSON.stringify({ channel: 'C1', text: 'hi' }) });", "warning", "slack", "auth_present"),
    ("python", 'import requests\nrequests.get(f"https://slack.com/api/{method_name}", params={"token": t})', "insufficient_evidence", None, "endpoint_exists"),
    # SDK clients made by factories, mapped by path words (no vendor table)
    ("javascript", 'import PetStore from "petstore-sdk";\nconst api = PetStore({ key });\nawait api.pets.list({ limit: 2 });', "verified", "petstore", None),
    ("javascript", 'const api = require("petstore-sdk")("k");\nawait api.pets.retrieve("42");', "verified", "petstore", None),
    ("python", "import petstore\npetstore.Pets.delete('42')", "insufficient_evidence", None, "endpoint_exists"),  # no such SDK method: never guessed
]  # fmt: skip


@pytest.mark.parametrize(("language", "code", "status", "library", "rule"), CASES)
def test_calls_to_other_apis_get_their_status(contract, language, code, status, library, rule):
    (call,) = extract_calls(code, language=language)
    report = verify_calls([call], contract).calls[0]
    assert report.status == status, report.model_dump()
    assert report.library == library
    if rule:
        assert rule in {f.rule for f in report.findings if f.status == status}
