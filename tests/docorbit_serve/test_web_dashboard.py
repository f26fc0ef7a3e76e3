"""The dashboard in a real browser: headless Chromium (Debian's package, driven by Playwright)
over a corpus published by the real pipeline from fixtures/dashboard, served by the same app as
/mcp (mcp_http). Screenshots go to test-artifacts/ (gitignored); docs/img/dashboard.png is
refreshed from the overview when DOCORBIT_UPDATE_SCREENSHOT=1."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import httpx
import pytest

from tests.support.dashboard import REPO, dashboard_home, live_server

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return dashboard_home(tmp_path_factory)


def test_dashboard_pages_carry_a_csp_without_scripts_and_render_fetched_html_inert(home):
    with live_server(home) as (base, _port), httpx.Client(base_url=base, timeout=30) as c:
        overview = c.get("/")
        assert overview.status_code == 200
        csp = overview.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script" not in csp
        assert overview.headers["x-content-type-options"] == "nosniff"
        hit = c.get("/api/v1/search", params={"q": "hostile page untrusted", "library": "orbit"})
        page_id = next(h for h in hit.json()["hits"] if h["path"] == "hostile.md")["chunk_id"]
        html = c.get(f"/doc/{page_id}", params={"mode": "page"}).text
        assert "<script" not in html.lower() and "<img" not in html.lower()
        assert "&lt;script&gt;" in html  # shown as text
        assert 'href="javascript' not in html.lower()
        assert "tracker.example.net/pixel.png" in html  # the image became a link, not a load
        assert c.get("/", headers={"Host": "evil.example"}).status_code == 403


def test_browser_searches_opens_a_section_diffs_plots_and_never_runs_fetched_script(home):
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.is_file(), "chromium missing: apt-get install -y chromium (.ci/run does it)"
    ARTIFACTS.mkdir(exist_ok=True)
    requests: list[str] = []
    with live_server(home) as (base, port), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("request", lambda r: requests.append(r.url))
            page.set_default_timeout(30_000)

            page.goto(f"{base}/")
            assert page.locator("#sources tbody tr").count() == 5
            assert page.locator("#plot-sizes svg rect").count() >= 4  # bars rendered
            assert page.locator("#plot-sizes svg").bounding_box()["height"] > 50
            page.screenshot(path=str(ARTIFACTS / "dashboard-overview.png"), full_page=True)

            page.goto(f"{base}/endpoints")
            assert page.locator("#endpoints tbody tr").count() == 3  # petstore: 3 operations
            page.fill("main form.search input[name=q]", "list all pets")
            page.click("main form.search button")
            page.wait_for_selector("#endpoints-found")
            assert "/pets" in page.locator("#endpoints-found tbody tr").first.inner_text()

            page.fill("form.quick input[name=q]", "set a timeout")
            page.press("form.quick input[name=q]", "Enter")
            page.wait_for_selector("main form.search")
            page.fill("main form.search input[name=library]", "orbit")
            page.click("main form.search button")
            page.wait_for_url("**library=orbit**")
            first = page.locator("#hits li.hit").first
            assert first.locator(".prov-library").inner_text() == "orbit"
            assert first.locator(".prov-version").inner_text() in ("1.0", "2.0")
            assert first.locator(".prov-snapshot").inner_text().startswith("s_")
            assert first.locator(".prov-fetched").inner_text().startswith("20")
            assert first.locator(".prov-anchor").inner_text() == "timeouts"
            assert "timeout" in first.locator("mark").first.inner_text().lower()
            page.screenshot(path=str(ARTIFACTS / "dashboard-search.png"), full_page=True)

            first.locator("h3 a").click()
            page.wait_for_selector("#doc-content")
            assert "Timeouts" in page.locator("#doc-content h2").first.inner_text()

            page.goto(f"{base}/diff?target=orbit&from=1.0&to=2.0")
            assert page.locator("#diff tbody tr").count() >= 2
            assert page.locator("#diff .change-added").count() >= 1
            page.screenshot(path=str(ARTIFACTS / "dashboard-diff.png"), full_page=True)

            page.goto(f"{base}/search?q=hostile+page+untrusted&library=orbit")
            page.locator("#hits li.hit h3 a", has_text="Hostile").first.click()
            page.wait_for_selector("#doc-content")
            page.goto(page.url.split("?")[0] + "?mode=page")
            content = page.locator("#doc-content")
            assert "<script>" in content.inner_text()  # shown as text, not run
            assert page.evaluate("typeof window.__pwned") == "undefined"
            assert page.title() != "PWNED"
            assert content.locator("script, img, iframe").count() == 0
            ext = content.locator("a.external").first
            assert ext.get_attribute("rel") == "noopener noreferrer nofollow"
            assert ext.locator(".ext-marker").count() == 1
            page.screenshot(path=str(ARTIFACTS / "dashboard-hostile.png"), full_page=True)
        finally:
            browser.close()
    foreign = [u for u in requests if not u.startswith(base)]
    assert foreign == []  # no remote image or script was fetched
    if os.environ.get("DOCORBIT_UPDATE_SCREENSHOT") == "1":
        shutil.copy(ARTIFACTS / "dashboard-overview.png", REPO / "docs" / "img" / "dashboard.png")
