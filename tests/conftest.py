"""Repository-wide pytest options.

``--update-goldens`` (or the environment variable ``DOCORBIT_UPDATE_GOLDENS=1``) makes golden
tests rewrite their expected files (``fixtures/golden/**``) from the current output instead of
comparing; review the diff afterwards. Registered here, at the root, so it works whichever test
folder or file pytest is pointed at (``pytest --update-goldens tests/docorbit_assets/test_slice.py``).
"""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite golden files (fixtures/golden/**) from the current output",
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    """True when golden files are to be rewritten instead of compared."""
    flag = bool(request.config.getoption("--update-goldens", default=False))
    return flag or os.environ.get("DOCORBIT_UPDATE_GOLDENS") == "1"


# ``slow`` / ``e2e`` markers (pyproject): ``make test-quick`` deselects ``slow``. A test is slow
# when it uses a fixture that runs the real pipeline or a server (listed here, session-scoped
# corpora included) or lives in a module that drives subprocesses end to end (``e2e``, also
# slow). Tests may mark themselves too.
SLOW_FIXTURES = frozenset(
    {
        "published_home", "ingest_home", "two_versions", "dev", "hybrid_home", "oai_home",
        "published_template", "real", "served", "served_env", "three_generations", "inspector",
        "real_doc_sets", "big_cases", "big",
    }
)  # fmt: skip
E2E_MODULES = frozenset(
    {
        "test_cli_subprocess", "test_client_configs", "test_mcp", "test_mcp_abuse",
        "test_mcp_http", "test_mcp_inspector", "test_mcp_tools", "test_version_mcp",
        "test_web_dashboard", "test_pipeline", "test_pipeline_ingest", "test_schedules",
        "test_refresh", "test_gc", "test_openapi_ingest", "test_retrieval_check",
        "test_search_corpus", "test_hybrid", "test_rest_api", "test_api_mcp",
        "test_evaluate", "test_search_real", "test_cli_ops", "test_web_cli",
    }
)  # fmt: skip


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        module = item.path.stem if item.path else ""
        if module in E2E_MODULES:
            item.add_marker(pytest.mark.e2e)
        if module in E2E_MODULES or SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
