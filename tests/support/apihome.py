"""A published home holding the API fixture specs (``fixtures/apiintel``), built once per test
process by the real pipeline (``run_ingest``: discover → … → publish, kind ``openapi``).

``api_home(tmp_path_factory) -> Home``; the API-intelligence tests share it and must not change
it. Libraries and versions: openai 2.3.0, twilio 1.0, slack 1.7, petstore 1.0.0.
"""

from __future__ import annotations

import threading
from typing import Any

from docorbit_serve.home import Home, resolve_home
from docorbit_serve.registry import Registry, SourceConfig, save_registry
from tests.support.paths import FIXTURES

__all__ = ["API_SPECS", "QUESTIONS", "api_home"]

API = FIXTURES / "apiintel"
QUESTIONS = API / "questions.jsonl"
API_SPECS = (
    ("openai", "openai/openapi.yaml", "2.3.0"),
    ("twilio", "twilio/twilio_api_v2010.json", "1.0"),
    ("slack", "slack/slack_web_openapi_v2.json", "1.7"),
    ("petstore", "petstore/petstore-expanded.yaml", "1.0.0"),
)
_lock = threading.Lock()
_built: dict[str, Home] = {}


def api_home(tmp_path_factory: Any) -> Home:
    with _lock:
        if "home" not in _built:
            from docorbit_assets.ingest import run_ingest

            root = tmp_path_factory.mktemp("apiintel")
            home = resolve_home(home=root / ".docorbit", env={})
            home.path.mkdir(parents=True, exist_ok=True)
            sources = [
                SourceConfig(
                    name=name, kind="openapi", location=str(API / rel), library=name, version=ver
                )
                for name, rel, ver in API_SPECS
            ]
            save_registry(Registry(home.config_path, sources))
            report = run_ingest(home)
            assert report["ok"], report
            _built["home"] = home
        return _built["home"]
