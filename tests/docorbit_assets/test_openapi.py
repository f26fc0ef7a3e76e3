"""OpenAPI loading is safe on the bad-input kit and validates every real spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from docorbit_assets.lib.openapi import SPEC_REASONS, inspect_spec
from tests.support.paths import KIT_DATA, SHARED_DATA, shared_data

KIT = KIT_DATA / "badinputs" / "openapi"
# Every spec of the full kit when it is beside the checkout, else the examples copied here.
REAL = SHARED_DATA / "openapi" if (SHARED_DATA / "openapi").is_dir() else KIT_DATA / "openapi"

# kit file -> expected verdict: "" = valid, else the typed reason
KIT_VERDICTS = {
    "circular_immediate.json": "",
    "circular_mutual.yaml": "",
    "circular_self.json": "",
    "invalid_types.json": "unsupported_version",  # openapi: 3.1 as a number
    "json_bom.json": "",
    "json_deep_5000.json": "too_deep",
    "json_duplicate_keys.json": "duplicate_keys",
    "json_nan_infinity.json": "non_finite_number",
    "not_an_object.json": "not_an_object",
    "openapi_unknown_version.json": "unsupported_version",
    "ref_billion_laughs.json": "",
    "ref_chain_200.json": "",
    "ref_external.json": "",
    "ref_missing.json": "",
    "ref_pointer_escapes.json": "",
    "ref_sibling_keys.json": "",
    "swagger2_loopback_host.json": "",
    "swagger2_missing_info.json": "",
    "swagger2_missing_paths.json": "",
    "yaml_alias_bomb.yaml": "yaml_alias",
    "yaml_big_int.yaml": "value_too_large",
    "yaml_binary.yaml": "yaml_tag",
    "yaml_duplicate_keys.yaml": "duplicate_keys",
    "yaml_int_keys.yaml": "",
    "yaml_python_tag.yaml": "yaml_tag",
}


def test_the_kit_lists_exactly_the_cases_we_judge():
    assert sorted(p.name for p in KIT.iterdir()) == sorted(KIT_VERDICTS)


@pytest.mark.parametrize("name", sorted(KIT_VERDICTS))
def test_every_kit_spec_validates_or_fails_with_its_typed_reason(name: str):
    info = inspect_spec((KIT / name).read_bytes(), url=name)
    assert (info.valid, info.reason) == (not KIT_VERDICTS[name], KIT_VERDICTS[name])
    assert info.reason == "" or info.reason in SPEC_REASONS


def test_external_refs_and_server_urls_are_recorded_never_followed():
    calls: list[str] = []

    def check(url: str) -> str | None:
        calls.append(url)
        return "loopback" if "127.0.0.1" in url else None

    ext = inspect_spec((KIT / "ref_external.json").read_bytes())
    assert ext.refs["external"] == 4 and "never fetched" in ext.notes[0]
    host = inspect_spec((KIT / "swagger2_loopback_host.json").read_bytes(), check=check)
    assert {s["policy"] for s in host.servers} == {"loopback"}
    assert calls and all("127.0.0.1:1" in c for c in calls)
    missing = inspect_spec((KIT / "ref_missing.json").read_bytes())
    assert missing.refs["missing"] == 1
    escapes = inspect_spec((KIT / "ref_pointer_escapes.json").read_bytes())
    assert escapes.refs["missing"] == 0 and escapes.refs["internal"] > 0


def _real_specs() -> list[Path]:
    return sorted(p for p in REAL.rglob("*") if p.suffix in (".json", ".yaml", ".yml"))


@pytest.mark.parametrize("path", _real_specs(), ids=lambda p: str(p.relative_to(REAL)))
def test_every_real_spec_validates_or_fails_with_a_typed_reason(path: Path):
    info = inspect_spec(path.read_bytes(), url=str(path))
    if "petstore-separate" in str(path) and path.name not in ("swagger.json", "swagger.yaml"):
        # fragments of a multi-file spec: JSON/YAML, but not an OpenAPI document themselves
        assert (info.valid, info.reason) == (False, "not_openapi")
    else:
        assert info.valid, (info.reason, info.message)
        assert info.version.startswith(("2.0", "3."))
        assert info.operations > 0 or info.webhooks > 0


def test_json_and_yaml_forms_of_the_same_api_agree():
    twilio = shared_data("openapi/real-world/twilio/spec")  # optional: the full kit
    j = inspect_spec((twilio / "json/twilio_api_v2010.json").read_bytes())
    y = inspect_spec((twilio / "yaml/twilio_api_v2010.yaml").read_bytes())
    assert (j.format, y.format) == ("json", "yaml")
    assert (
        (j.paths, j.operations, j.version)
        == (y.paths, y.operations, y.version)
        == (121, 197, "3.0.1")
    )
