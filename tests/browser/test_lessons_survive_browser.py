"""A lesson run, saved (by the learner or by autosave) and reopened later shows every widget's picture, not an error.

ipywidgets saves no widget state, so a saved widget output points at a model
that is gone once the kernel is; reopened, JupyterLab and Notebook 7 showed
"Error displaying widget: model not found" in place of every explorer. The
course's server extension (enabled by installing ndcg_teach) saves such an
output with its static picture, its widget view moved into the output's
metadata, and puts the view back when a page is reloaded while the kernel that
holds the model still runs. Here a lesson with four explorers is run, saved or autosaved, its
kernel shut down and the lesson reopened in a new page: each explorer shows
its picture, and running the lesson brings the live explorers back. Without
the extension the same steps show the error, so the test can tell the two apart.
"""

import json
import os
import shutil
from pathlib import Path

import build_lessons
import pytest
from jupyter_harness import KERNEL_IDLE, JupyterServer, NotebookPage

from ndcg_teach.jupyter.server_extension import WIDGET_VIEW

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PLAYGROUND = "06-playground"
LIVE = "[data-testid=ranking-explorer], [data-testid=compare-explorer]"
PICTURE = ".ndcg-x-static"
ERROR = "Error displaying widget"
AUTOSAVE = "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings"
MODEL = "window.jupyterapp.shell.currentWidget.context.model"
CASES = [  # (front end, how the lesson is saved, edition): each front end and each way, both editions
    ("lab", "save", build_lessons.EN),
    ("lab", "autosave", build_lessons.ZH),
    ("notebook", "save", build_lessons.ZH),
    ("notebook", "autosave", build_lessons.EN),
]


def widget_outputs(notebook):
    """The widget outputs of a notebook file's JSON: (views, pictures)."""
    outputs = [output for cell in notebook["cells"] for output in cell.get("outputs", []) if "data" in output]
    views = sum(WIDGET_VIEW in output["data"] for output in outputs)
    pictures = sum(PICTURE[1:] in "".join(output["data"].get("text/html", "")) for output in outputs)
    return views, pictures


def run_and_save(browser, server, name, how, shots, label):
    """Open the lesson, run it, let it be saved ``how``, shut its kernel down; return the saved file's JSON."""
    path = server.root / name
    before = path.stat().st_mtime_ns
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        lesson = NotebookPage(page, server, name).open()
        lesson.run_all()
        page.locator(LIVE).nth(3).wait_for(timeout=120_000)
        shoot(page, LIVE, shots / f"survive-{label}-1-ran.png")
        if how == "save":
            lesson.save()
        # Autosave (every 2 s here) writes once the lesson has changed; either way nothing is left unsaved.
        page.wait_for_function(f"() => !{MODEL}.dirty", timeout=60_000)
        if how == "autosave" and widget_outputs(json.loads(path.read_text(encoding="utf-8")))[1] < 4:
            # An autosave that began before the last explorer was shown writes the lesson without it, and JupyterLab
            # marks the lesson saved when that save ends, whatever changed meanwhile (seen once under load: 3 of 4).
            # The learner's next change would have it saved again: make that change, and wait for the next autosave.
            page.evaluate(f"() => {{ {MODEL}.dirty = true; }}")
            page.wait_for_function(f"() => !{MODEL}.dirty", timeout=60_000)
        assert path.stat().st_mtime_ns != before, "the lesson was written"
        lesson.shut_down_kernel()
    finally:
        page.close()
    return json.loads(path.read_text(encoding="utf-8"))


def reopen(browser, server, name):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    lesson = NotebookPage(page, server, name).open()
    page.locator(".jp-OutputArea-output").first.wait_for(timeout=60_000)
    page.wait_for_timeout(1000)  # the widget renderer reports a missing model asynchronously
    return page, lesson


def shoot(page, selector, path):
    """A screenshot with the first element matching ``selector`` in view."""
    page.locator(selector).first.scroll_into_view_if_needed()
    page.screenshot(path=str(path))


@pytest.mark.parametrize("app, how, edition", CASES, ids=[f"{app}-{how}-{edition.language}" for app, how, edition in CASES])
def test_a_saved_lesson_reopens_with_every_widgets_picture_and_runs_live_again(browser, screenshots, app, how, edition):
    name = edition.file(PLAYGROUND)
    source = edition.directory / name
    committed = json.loads(source.read_text(encoding="utf-8"))
    assert widget_outputs(committed) == (4, 4), "the premise: the committed lesson has four explorers"
    settings = {AUTOSAVE: {"autosave": how == "autosave", "autosaveInterval": 2}}
    with JupyterServer(app, settings=settings) as server:
        shutil.copy(source, server.root / name)
        os.utime(server.root / name, ns=(0, 0))
        label = f"{app}-{how}-{edition.language}"
        saved = run_and_save(browser, server, name, how, screenshots, label)
        assert widget_outputs(saved) == (0, 4), "saved with each explorer's picture and no widget view"
        assert "widgets" not in saved["metadata"], "no widget state is saved"
        size = (server.root / name).stat().st_size
        # It may grow by the four stashed widget views (about 100 bytes each), never by a widget state (kilobytes).
        assert size <= source.stat().st_size + 4 * 200, f"the lesson grew when saved: {source.stat().st_size} -> {size} bytes"
        page, lesson = reopen(browser, server, name)
        try:
            shoot(page, PICTURE, screenshots / f"survive-{label}-2-reopened.png")
            assert page.locator(PICTURE).count() == 4
            assert page.get_by_text(ERROR).count() == 0
            assert page.locator(LIVE).count() == 0
            lesson.run_all()
            page.locator(LIVE).nth(3).wait_for(timeout=120_000)
            assert page.locator(PICTURE).count() == 0
            assert page.get_by_text(ERROR).count() == 0
            shoot(page, LIVE, screenshots / f"survive-{label}-3-ran-again.png")
        finally:
            page.close()


def test_without_the_extension_a_saved_lesson_reopens_with_model_not_found(browser, screenshots):
    # The failure the extension prevents, seen the same way: if this stops failing, ipywidgets has changed.
    name = build_lessons.EN.file(PLAYGROUND)
    with JupyterServer("lab", course_extension=False) as server:
        shutil.copy(build_lessons.EN.directory / name, server.root / name)
        saved = run_and_save(browser, server, name, "save", screenshots, "without-extension")
        assert widget_outputs(saved) == (4, 4)
        page, _ = reopen(browser, server, name)
        try:
            page.get_by_text(ERROR).first.wait_for(timeout=30_000)
            shoot(page, f"text={ERROR}", screenshots / "survive-without-extension-2-reopened.png")
            assert page.get_by_text(ERROR).count() == 4
            assert page.locator(PICTURE).count() == 0
        finally:
            page.close()


RELOADS = [("lab", True), ("notebook", True), ("lab", False)]


@pytest.mark.parametrize("app, extension", RELOADS, ids=[f"{app}-{'with' if on else 'without'}-extension" for app, on in RELOADS])
def test_a_page_reloaded_while_the_kernel_runs_brings_the_live_explorers_back(browser, screenshots, app, extension):
    # Learners reload pages all the time. Before, the extension saved the explorers as pictures only, and a reload
    # showed 0 of 4 live (without it, ipywidgets restores all 4 from the running kernel). The views it stashes at
    # saving now come back when the kernel still holds their models.
    name = build_lessons.EN.file(PLAYGROUND)
    with JupyterServer(app, course_extension=extension) as server:
        shutil.copy(build_lessons.EN.directory / name, server.root / name)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        try:
            lesson = NotebookPage(page, server, name).open()
            lesson.run_all()
            page.locator(LIVE).nth(3).wait_for(timeout=120_000)
            lesson.save()
            page.wait_for_function(f"() => !{MODEL}.dirty", timeout=60_000)
            saved = json.loads((server.root / name).read_text(encoding="utf-8"))
            assert widget_outputs(saved) == ((0, 4) if extension else (4, 4))
            page.reload()
            page.wait_for_function(KERNEL_IDLE, timeout=120_000, polling=250)
            page.locator(LIVE).nth(3).wait_for(timeout=60_000)
            shoot(page, LIVE, screenshots / f"reload-{app}-{'with' if extension else 'without'}-extension.png")
            assert page.locator(LIVE).count() == 4
            assert page.locator(PICTURE).count() == 0
            assert page.get_by_text(ERROR).count() == 0
        finally:
            page.close()
