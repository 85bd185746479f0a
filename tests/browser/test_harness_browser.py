"""The browser tests run wherever a Chromium can be had: Playwright's own browser serves where no chromium is on PATH.

On macOS and Windows there is no Debian ``chromium``; the README has learners
run ``python -m playwright install chromium``, and the harness must then
launch that browser. Here the harness runs in a child process whose PATH
holds no chromium. Playwright cannot download its browser on this project's
machines, so where Debian's chromium exists a stand-in for the download is put
where Playwright keeps its own browser (``PLAYWRIGHT_BROWSERS_PATH``): a
script that runs Debian's chromium and leaves a mark, so the test sees which
browser was launched.
"""

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

HARNESS = Path(__file__).resolve().parent
LAUNCH = f"""
import sys
sys.path.insert(0, {str(HARNESS)!r})
from jupyter_harness import NoBrowser, launch_chromium
from playwright.sync_api import sync_playwright

with sync_playwright() as driver:
    try:
        browser = launch_chromium(driver)
    except NoBrowser as error:
        print("missing", error.path)
        sys.exit(3)
    page = browser.new_page()
    page.set_content("<p>launched</p>")
    print(page.text_content("p"), browser.version)
    browser.close()
"""


def launch(tmp_path, browsers=None):
    """Run the harness's launch in a child process with no chromium on PATH; (exit status, first printed line)."""
    empty = tmp_path / "bin"
    empty.mkdir(exist_ok=True)
    env = {**os.environ, "PATH": str(empty)}
    if browsers is not None:
        env["PLAYWRIGHT_BROWSERS_PATH"] = str(browsers)
    result = subprocess.run([sys.executable, "-c", LAUNCH], env=env, capture_output=True, text=True, timeout=180)
    assert result.returncode in (0, 3), result.stderr
    return result.returncode, result.stdout.strip()


def test_without_chromium_on_path_the_harness_launches_playwrights_own_browser(tmp_path, no_browser):
    if importlib.util.find_spec("playwright") is None:
        no_browser("the playwright package is not installed (pip install -r requirements-dev.txt)")
    debian = shutil.which("chromium")
    if debian is None:
        status, printed = launch(tmp_path)  # Playwright's own browser where the user installed it
        if status == 3:
            no_browser(f"no chromium on PATH and no browser of Playwright's own ({printed})")
        assert printed.startswith("launched ")
        return
    browsers = tmp_path / "ms-playwright"
    status, printed = launch(tmp_path, browsers)
    assert status == 3, "with neither browser the harness says where Playwright looked"
    own = Path(printed.removeprefix("missing "))
    assert browsers in own.parents
    mark = tmp_path / "launched-by-playwright"
    own.parent.mkdir(parents=True)
    own.write_text(f'#!/bin/sh\necho yes > "{mark}"\nPATH=/usr/bin:/bin exec "{debian}" "$@"\n')
    own.chmod(0o755)
    status, printed = launch(tmp_path, browsers)
    assert status == 0 and printed.startswith("launched ")
    assert mark.read_text() == "yes\n", "the browser launched is the one in Playwright's own place"
