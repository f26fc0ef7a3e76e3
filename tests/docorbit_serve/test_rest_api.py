"""The REST API (/api/v1) on a live loopback server over a corpus published by the real
pipeline: its OpenAPI document is valid, schemathesis-generated requests get responses that
match it (bounded examples), errors are typed, and a foreign Host or Origin is refused."""

from __future__ import annotations

import httpx
import pytest
from hypothesis import HealthCheck, given, settings

from tests.support.dashboard import dashboard_home, live_server


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return dashboard_home(tmp_path_factory)


def test_openapi_document_is_valid_openapi_3_1_and_names_every_endpoint():
    from openapi_spec_validator import validate

    from docorbit_serve.rest import ENDPOINTS, openapi_document

    doc = openapi_document()
    validate(doc)
    assert doc["openapi"].startswith("3.1")
    assert sorted(doc["paths"]) == sorted(e.path for e in ENDPOINTS)
    assert {"/search", "/context", "/docs/{id}", "/sources", "/endpoints", "/diff"} <= set(
        doc["paths"]
    )
    limit = next(p for p in doc["paths"]["/search"]["get"]["parameters"] if p["name"] == "limit")
    assert (limit["schema"]["minimum"], limit["schema"]["maximum"]) == (1, 50)


def test_rest_responses_match_the_openapi_document_under_generated_requests(home):
    import schemathesis
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    # Conformance of every response to the document; a generated cursor or id is rightly
    # refused (400/404, documented), so "valid data must be accepted" is not one of the checks.
    checks = [status_code_conformance, content_type_conformance, response_schema_conformance]

    with live_server(home) as (base, _port):
        schema = schemathesis.openapi.from_url(f"{base}/api/v1/openapi.json")
        schema.config.update(base_url=f"{base}/api/v1")
        checked: list[str] = []
        for result in schema.get_all_operations():
            op = result.ok()

            @settings(
                max_examples=12,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            @given(case=op.as_strategy())
            def run(case):
                response = case.call(base_url=f"{base}/api/v1", timeout=60)
                case.validate_response(response, checks=checks)
                assert response.status_code < 500, response.text

            run()
            checked.append(op.path)
        assert len(checked) == 6


def test_rest_search_pages_by_cursor_and_errors_are_typed(home):
    with live_server(home) as (base, _port), httpx.Client(base_url=base, timeout=60) as c:
        first = c.get("/api/v1/search", params={"q": "timeout", "limit": 1}).json()
        assert first["hits"] and first["hits"][0]["untrusted"] is True
        assert first["hits"][0]["snapshot"].startswith("s_")
        second = c.get(
            "/api/v1/search", params={"q": "timeout", "limit": 1, "cursor": first["next_cursor"]}
        ).json()
        assert second["hits"][0]["chunk_id"] != first["hits"][0]["chunk_id"]
        bad = c.get("/api/v1/search", params={"q": "x", "limit": 51})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_input"
        long = c.get("/api/v1/search", params={"q": "a" * 2001})
        assert long.status_code == 400
        missing = c.get("/api/v1/docs/c_doesnotexist")
        assert missing.status_code == 404 and set(missing.json()["error"]) == {
            "code",
            "message",
            "detail",
        }
        eps = c.get("/api/v1/endpoints", params={"library": "petstore", "limit": 2}).json()
        assert [e["method"].upper() for e in eps["endpoints"]] and eps["next_cursor"]
        rest = c.get(
            "/api/v1/endpoints",
            params={"library": "petstore", "limit": 2, "cursor": eps["next_cursor"]},
        ).json()
        assert len(eps["endpoints"]) + len(rest["endpoints"]) == 3 and rest["next_cursor"] is None
        diff = c.get("/api/v1/diff", params={"target": "orbit", "from": "1.0", "to": "2.0"}).json()
        assert diff["from"]["version"] == "1.0" and diff["total"] >= 1


@pytest.mark.parametrize(
    "headers",
    [
        {"Host": "evil.example"},
        {"Host": "127.0.0.1:{port}@evil"},
        {"Origin": "http://evil.example"},
        {"Origin": "http://localhost:{port}.evil.example"},
    ],
)
def test_rest_and_dashboard_refuse_a_foreign_host_or_origin(home, headers):
    with live_server(home) as (base, port), httpx.Client(base_url=base, timeout=30) as c:
        h = {k: v.format(port=port) for k, v in headers.items()}
        for path in ("/api/v1/sources", "/", "/api/v1/openapi.json"):
            r = c.get(path, headers=h)
            assert r.status_code == 403, (path, h)
        assert (
            c.get("/api/v1/sources", headers={"Origin": f"http://127.0.0.1:{port}"}).status_code
            == 200
        )
