"""Fixtures for the real-browser tests: Chromium driven by Playwright against throw-away Jupyter servers.

The browser is Debian's ``chromium`` on the PATH, else Playwright's own
(``python -m playwright install chromium``). Without either (or without the
playwright package) the tests skip and say why; with ``REQUIRE_BROWSER=1``
(as ``.ci/run`` sets) a missing browser is a failure.
"""

import os
from pathlib import Path

import pytest
from jupyter_harness import NoBrowser, launch_chromium

SCREENSHOTS = Path(__file__).parent / "screenshots"


def missing(reason):
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1, but {reason}.", pytrace=False)
    pytest.skip(f"{reason}; set REQUIRE_BROWSER=1 to make this a failure")


# Module scope, not session: Playwright's sync API keeps an asyncio loop running in this thread
# until it stops, and the widget's own tests (which run after these) must not find one.
@pytest.fixture(scope="module")
def playwright_driver():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright package is not installed (pip install -r requirements-dev.txt)")
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright_driver, request):
    """The module's Chromium, started with the module's ``BROWSER_ARGS`` (command-line switches), if it has any."""
    try:
        chromium = launch_chromium(playwright_driver, args=getattr(request.module, "BROWSER_ARGS", ()))
    except NoBrowser as error:
        missing(str(error))
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def screenshots():
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="session")
def no_browser():
    """Skip (or fail, with ``REQUIRE_BROWSER=1``) a test that found no browser, saying why."""
    return missing
