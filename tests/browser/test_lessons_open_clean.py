"""A lesson opens without an unsaved-changes mark on any Python, and keeps its tables readable before it runs.

JupyterLab and Notebook 7 replace a notebook's ``language_info`` with the
kernel's when the kernel starts, and any difference (the lessons are executed
on the author's Python) marked every lesson as unsaved before anything ran.
The course's server extension (enabled by installing ndcg_teach, see
docs/install.md) serves a lesson with the version of the kernel it names,
without writing the file. Here each lesson is stored with a Python version no
kernel has, as a lesson executed elsewhere would be. The page is a learner's:
none of the instructor's tools that this environment also holds (nbgrader's
menu, Validate button and sidebar) shows.
"""

import build_lessons
import nbformat
import pytest
from jupyter_harness import APPS, JupyterServer, NotebookPage

pytestmark = pytest.mark.browser

LESSONS = [build_lessons.EN.directory / "00-start-here.ipynb", build_lessons.ZH.directory / "06-playground.zh-CN.ipynb"]
STORED = "3.9.99"  # a version no kernel here reports
# The notebook's state once the kernel's info reply (which carries its language_info) has been applied.
OPENED = """async () => {
    const widget = window.jupyterapp.shell.currentWidget;
    await widget.sessionContext.ready;
    const info = await widget.sessionContext.session.kernel.info;
    await new Promise((resolve) => setTimeout(resolve, 500));
    return {dirty: widget.context.model.dirty, shown: widget.context.model.getMetadata("language_info").version,
            kernel: info.language_info.version};
}"""


@pytest.fixture(scope="module", params=APPS)
def server(request):
    with JupyterServer(request.param) as server:
        for path in LESSONS:
            notebook = nbformat.read(path, as_version=4)
            notebook.metadata["language_info"]["version"] = STORED
            nbformat.write(notebook, server.root / path.name)
        yield server


@pytest.mark.parametrize("path", LESSONS, ids=[path.name for path in LESSONS])
def test_a_lesson_stored_by_another_python_opens_without_an_unsaved_mark(browser, server, path, screenshots):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        NotebookPage(page, server, path.name).open()
        opened = page.evaluate(OPENED)
        # Shown with the kernel's version (so the kernel's reply changed nothing), and the file left as it was.
        assert opened == {"dirty": False, "shown": opened["kernel"], "kernel": opened["kernel"]} and opened["kernel"] != STORED
        assert nbformat.read(server.root / path.name, as_version=4).metadata["language_info"]["version"] == STORED
        instructors = [text for text in ("Nbgrader", "Validate", "Create Assignment") if page.get_by_text(text, exact=True).count()]
        assert instructors == [], "a learner's install has no nbgrader (jupyter_harness.INSTRUCTOR_LAB_EXTENSIONS)"
        page.screenshot(path=str(screenshots / f"opened-{server.app}-{path.stem}.png"))
    finally:
        page.close()


# What a just-opened lesson shows of the library's tables: untrusted, its outputs lose their <style> elements,
# and the layout written into the elements (table.LAYOUT) must still hold.
UNTRUSTED_TABLES = """() => {
    const blocks = [...document.querySelectorAll(".jp-OutputArea-output .ndcg-table")];
    const style = (selector, property) => [...document.querySelectorAll(`.jp-OutputArea-output .ndcg-table ${selector}`)]
        .map((node) => getComputedStyle(node)[property]);
    return {
        blocks: blocks.length,
        stylesheets: blocks.filter((block) => block.querySelector("style")).length,
        text: style("td.ndcg-text, th.ndcg-text", "textAlign"),
        numbers: style("td:not(.ndcg-text):not([colspan])", "textAlign"),
        formulas: style(".ndcg-formula", "whiteSpace"),
        formulaFonts: style(".ndcg-formula", "fontFamily"),
    };
}"""


def test_a_just_opened_lesson_keeps_its_tables_readable_without_their_stylesheet(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        NotebookPage(page, server, "00-start-here.ipynb").open()
        page.locator(".jp-OutputArea-output .ndcg-table").first.wait_for()
        shown = page.evaluate(UNTRUSTED_TABLES)
        assert shown["blocks"] >= 2 and shown["stylesheets"] == 0  # the premise: JupyterLab dropped the stylesheet
        assert shown["text"] and set(shown["text"]) == {"left"}
        assert shown["numbers"] and set(shown["numbers"]) == {"right"}
        assert shown["formulas"] and set(shown["formulas"]) == {"pre-wrap"}
        assert set(shown["formulaFonts"]) == {"monospace"}
    finally:
        page.close()
