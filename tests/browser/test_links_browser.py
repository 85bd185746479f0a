"""A lesson's link to its twin in the other edition opens that twin, and the two tabs can be told apart.

The server serves the lessons as `make lab` does, both editions under one
root (tests/test_links.py checks every link without a browser). Here the
learner clicks "English" at the top of a Chinese lesson and "中文" at the top
of the English one, in JupyterLab (a new tab) and Notebook 7 (a new browser
tab); the tabs are titled by the file names, which now name the edition.
"""

import shutil

import build_lessons
import pytest
from jupyter_harness import APPS, JupyterServer, NotebookPage

pytestmark = pytest.mark.browser

CHINESE = "zh-CN/" + build_lessons.ZH.file("06-playground")
ENGLISH = build_lessons.EN.file("06-playground")
CURRENT_PATH = "() => { const app = window.jupyterapp; const widget = app && app.shell.currentWidget; return widget && widget.context && widget.context.path; }"
TAB_TITLES = "() => [...document.querySelectorAll('.lm-DockPanel .lm-TabBar-tabLabel')].map((tab) => tab.textContent)"


@pytest.fixture(scope="module", params=APPS)
def server(request):
    with JupyterServer(request.param) as server:
        for edition in build_lessons.EDITIONS:
            for path in build_lessons.lessons(edition.directory):
                target = server.root / edition.folder / path.name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(path, target)
        yield server


def follow(page, server, text):
    """Click the top navigation cell's link ``text``; return the page that shows the lesson it opens."""
    link = page.locator(".jp-MarkdownCell").first.get_by_role("link", name=text, exact=True)
    if server.app == "notebook":  # Notebook 7 opens a document in a new browser tab
        with page.context.expect_page() as opened:
            link.click()
        page = opened.value
    else:
        link.click()
    return page


@pytest.mark.parametrize("start, text, twin", [(CHINESE, "English", ENGLISH), (ENGLISH, "中文", CHINESE)])
def test_the_link_to_the_twin_lesson_opens_it(browser, server, start, text, twin, screenshots):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        NotebookPage(page, server, start).open()
        shown = follow(page, server, text)
        shown.wait_for_function(f"() => ({CURRENT_PATH})() === {twin!r}", timeout=60_000)
        if server.app == "lab":
            titles = page.evaluate(TAB_TITLES)
            assert {start.rsplit("/", 1)[-1], twin.rsplit("/", 1)[-1]} <= set(titles), titles
        shown.screenshot(path=str(screenshots / f"twin-{server.app}-{text}.png"))
    finally:
        for opened in page.context.pages:
            opened.close()
