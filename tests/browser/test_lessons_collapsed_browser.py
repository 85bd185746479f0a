"""A lesson's replayed drags show as one collapsed cell in JupyterLab and Notebook 7, its checked numbers in view.

Under an explorer, the code that checks what it shows and replays the drags the
text suggests (on a copy) is scaffolding, not part of the lesson: its cell is
saved with ``"jupyter": {"source_hidden": true}``. Both front ends honour that
metadata when a lesson opens: they show the cell's first line (a comment saying
what it does) in place of the code, keep its output in view, and open the code
on a click. nbval runs the cell like any other (tests/test_notebooks.py).
"""

import shutil

import build_lessons
import nbformat
import pytest
from jupyter_harness import APPS, JupyterServer, NotebookPage

pytestmark = pytest.mark.browser

LESSONS = [
    build_lessons.EN.directory / "00-start-here.ipynb",
    build_lessons.ZH.directory / "11-user-models.zh-CN.ipynb",
]
# Each code cell of the open notebook: whether its input is hidden, what is shown in its place, whether its
# editor and its output can be seen.
CELLS = """() => window.jupyterapp.shell.currentWidget.content.widgets
    .filter((cell) => cell.model.type === "code")
    .map((cell) => {
        const placeholder = cell.node.querySelector(".jp-InputPlaceholder");
        const editor = cell.node.querySelector(".jp-Cell-inputArea");
        const output = cell.node.querySelector(".jp-Cell-outputArea");
        return {
            hidden: cell.inputHidden,
            placeholder: placeholder && placeholder.offsetParent ? placeholder.innerText.trim() : null,
            editor: Boolean(editor && editor.offsetParent),
            code: editor && editor.offsetParent ? editor.innerText : "",
            output: output && output.offsetParent ? output.innerText : "",
        };
    })"""


def collapsed_sources(path):
    """The sources of the code cells saved with their input hidden, in order, and how many code cells there are."""
    cells = [cell for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"]
    return [cell.source for cell in cells if cell.metadata.get("jupyter", {}).get("source_hidden")], len(cells)


@pytest.fixture(scope="module", params=APPS)
def server(request):
    with JupyterServer(request.param) as server:
        for path in LESSONS:
            shutil.copy(path, server.root / path.name)
        yield server


@pytest.mark.parametrize("path", LESSONS, ids=[path.name for path in LESSONS])
def test_a_lesson_opens_with_its_replay_collapsed_and_its_numbers_shown(browser, server, path, screenshots):
    sources, count = collapsed_sources(path)
    assert sources, f"the premise: {path.name} has a collapsed cell"
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        NotebookPage(page, server, path.name).open()
        cells = page.evaluate(CELLS)
        assert len(cells) == count
        shown = [cell for cell in cells if cell["hidden"]]
        assert len(shown) == len(sources), "every cell saved collapsed opens collapsed, and no other"
        for cell, source in zip(shown, sources):
            # The placeholder shows the first line, a comment saying what the cell does; the code stays out of view.
            assert not cell["editor"] and cell["placeholder"] == source.splitlines()[0]
            assert cell["output"].strip(), "the checked numbers stay in view"
        assert all(cell["editor"] for cell in cells if not cell["hidden"])
        placeholder = page.locator(".jp-InputPlaceholder").first
        placeholder.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"collapsed-{server.app}-{path.stem}.png"))
        first = [cell["hidden"] for cell in cells].index(True)
        placeholder.click()  # a click opens the code
        page.wait_for_function(f"() => !({CELLS})()[{first}].hidden")
        opened = page.evaluate(CELLS)[first]
        assert opened["editor"] and opened["placeholder"] is None
        assert "NBVAL_CHECK_OUTPUT" in opened["code"]
    finally:
        page.close()
