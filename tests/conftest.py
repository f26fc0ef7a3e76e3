"""Repository-wide pytest options.

``--update-goldens`` (or the environment variable ``DOCORBIT_UPDATE_GOLDENS=1``) makes golden
tests rewrite their expected files (``fixtures/golden/**``) from the current output instead of
comparing; review the diff afterwards. Registered here, at the root, so it works whichever test
folder or file pytest is pointed at (``pytest --update-goldens tests/docorbit_assets/test_slice.py``).
"""

from __future__ import annotations

import os
import signal

import pytest

# A suite started in the background by a non-interactive shell (`make test &`, `setsid … &`, a
# CI runner's background step) inherits SIGINT ignored, and every process it starts inherits
# that too: `dg dev` then cannot stop its webserver and daemon on SIGTERM (it interrupts them
# with SIGINT), and the tests that stop it time out (session 32). A handled signal is reset to
# its default in a child, so handling it here gives every subprocess a SIGINT that works.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The learned injection classifier runs at ingest by default (docs/security.md, "Session 12").
# The suite switches it off for the hundreds of ingests that test other things (every window of
# every test page would be scored, and each CLI subprocess loads both models); its own tests
# (tests/docorbit_assets/test_injection_classifier.py) turn it on, or unset this, explicitly.
os.environ.setdefault("DOCORBIT_INJECTION_CLASSIFIER", "0")


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
        "test_export", "test_benchmark_history",
    }
)  # fmt: skip


# Single tests measured over ~5 s on the shared 2-core machine (`--durations`), by name (a
# parametrized test by its function name).
SLOW_TESTS = frozenset(
    {
        "test_crawl_ingest_of_the_built_httpx_site_needs_an_allowance_for_its_exact_port",
        "test_ingest_of_a_source_on_a_refused_host_fails_with_blocked_url_until_allowed",
        "test_inspect_json_prints_findings_validity_and_ranking_without_storing",
        "test_every_real_spec_validates_or_fails_with_a_typed_reason",
        "test_json_and_yaml_forms_of_the_same_api_agree",
        "test_a_failed_ingest_exits_8_with_the_report_in_the_error",
        "test_openai_31_spec_counts_match",
        "test_twilio_json_and_yaml_counts_match_and_rows_are_identical",
        "test_a_second_ingest_is_refused_at_once_before_dagster_is_imported",
        "test_httpx_site_through_normalize_and_slice_keeps_the_source_text_and_no_chrome",
        "test_every_hostile_route_ends_with_its_typed_outcome_and_no_canary_hit",
        "test_sensor_keeps_source_partitions_in_step_with_docorbit_toml",
        "test_snapshot_id_ignores_fetched_at_but_follows_content",
        "test_a_failed_fetch_is_listed_with_its_code_and_the_publication_is_shown",
        # the first caller of tests/support/dashboard.py's real ingest pays it (~50 s)
        "test_searches_feed_the_latency_plot_and_benchmark_rows_feed_theirs",
        "test_health_turns_stale_once_the_last_fetch_is_older_than_stale_after_hours",
    }
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        module = item.path.stem if item.path else ""
        if module in E2E_MODULES:
            item.add_marker(pytest.mark.e2e)
        name = getattr(item, "originalname", item.name)
        fixtures = set(getattr(item, "fixturenames", ()))
        if module in E2E_MODULES or name in SLOW_TESTS or SLOW_FIXTURES & fixtures:
            item.add_marker(pytest.mark.slow)
