"""One run of each lesson serves nbval and the checks that need the lesson run, not only its committed outputs.

nbval runs every lesson in a kernel of its own. Three more checks need a lesson run:
tests/test_lesson_explorers.py (Run All leaves every explorer a lesson displays as it was shown),
tests/test_zh_cn_figures.py (a Chinese lesson's figures, drawn again as SVG, are Chinese with every glyph) and
tests/test_widgets_picture.py (nbconvert's HTML of a run lesson shows each explorer's picture). Each ran the lesson
again in a kernel of its own, about 45 runs of `make test`'s lessons on top of nbval's; here nbval's run carries them.
Before a lesson's first cell its kernel runs :func:`setup_code`: a recorder of the explorers it displays and, in a
Chinese lesson with a figure, figures drawn as SVG beside the PNG (the inline backend's formats, and tests/zh_text.py's
``svg_too`` for the library's plots). This plugin keeps each cell's outputs as nbval received them, and once the last
cell has run, :data:`REPORT` prints how each recorded explorer changed since it was displayed.

What nbval compares does not change: the recorder only records, and SVG joins the outputs nbval leaves out of its
comparison (as it leaves out PNG), so a figure's SVG or a plot's extra SVG output is not compared.

Only a whole run is kept: every code cell of the lesson ran and none failed. Otherwise (a cell failed, or ``-k``
left some out) the check runs the lesson itself, and a failing cell fails it there too.

A check asks :func:`lesson_run` for a lesson. Under ``make test`` it runs on the worker that ran the lesson's nbval,
after it (tests/parallel.py puts a test that asks for the fixture ``lesson_run`` in its lesson's group), and finds the
run here. Run by itself (``pytest tests/test_lesson_explorers.py``), it runs the lesson with nbclient, with the same
code before and after.
"""

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from queue import Empty

import nbformat
import pytest
from numeric_settings import CHILD
from parallel import LESSON_RUN

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SVG = "image/svg+xml"

RECORD_DISPLAYS = '''
import anywidget as _anywidget
import ipywidgets as _ipywidgets

_INPUTS = ("relevance", "unjudged", "k", "gain", "discount", "threshold", "labels", "max_grade", "a", "b")
_displayed = []
_cells = [0]  # the lesson's code cells run so far (nbval keeps no history, so execution_count stays put)
get_ipython().events.register("pre_run_cell", lambda *_: _cells.__setitem__(0, _cells[0] + 1))
_show = _anywidget.AnyWidget._repr_mimebundle_
_show_box = _ipywidgets.Box._repr_mimebundle_


def _state(widget):
    names = [*getattr(widget, "_rankings", ()), *_INPUTS]
    state = {name: repr(getattr(widget, name)) for name in names if widget.has_trait(name)}
    if isinstance(widget, _ipywidgets.Box):  # lesson 20's RunExplorer: its per-query differences
        state["differences"] = repr(widget.differences.tolist())
    return state


def _recorder(show):
    def _record(self, **kwargs):
        if type(self).__module__.startswith("ndcg_teach.widgets"):  # the explorers, lesson 13's and 20's
            _displayed.append((_cells[0], self, _state(self)))  # the number of the lesson's code cell, from 1
        return show(self, **kwargs)
    return _record


_anywidget.AnyWidget._repr_mimebundle_ = _recorder(_show)
_ipywidgets.Box._repr_mimebundle_ = _recorder(_show_box)
'''

# Figures as SVG too, and every plot of the library handed over as SVG (displayed beside the cell's PNG).
DRAW_SVG_TOO = f'''
import sys as _sys
from matplotlib_inline.config import InlineBackend as _InlineBackend
_InlineBackend.instance().figure_formats = {{"png", "svg"}}
_sys.path.append({str(TESTS)!r})
from IPython.display import display as _display
from zh_text import svg_too as _svg_too
_svg_too(lambda svg: _display({{{SVG!r}: svg}}, raw=True))
'''

REPORT = '''
import json as _json
print(_json.dumps({"shown": len(_displayed), "changed": [
    {"cell": cell, "shown": then, "now": _state(widget)} for cell, widget, then in _displayed if _state(widget) != then
]}))
'''


def shows_a_figure(output):
    """True for a figure (PNG) or an explorer's saved picture with plots in it (HTML with PNGs)."""
    data = output.get("data", {})
    html = data.get("text/html", "")
    return "image/png" in data or ("ndcg-x-static" in html and "data:image/png" in html)


def figure_cells(notebook):
    """Numbers of the cells whose stored outputs hold a figure or an explorer's picture."""
    return [number for number, cell in enumerate(notebook.cells) if any(map(shows_a_figure, cell.get("outputs", [])))]


@functools.cache
def course():
    """The course's lessons and template (paths resolved), and the Chinese edition's folder."""
    import build_lessons  # tools/: imported only for a notebook of this repository (a test's copy of conftest.py has none)

    found = build_lessons.notebooks(build_lessons.NOTEBOOKS) + build_lessons.lessons(build_lessons.ZH.directory)
    return {path.resolve() for path in found}, build_lessons.ZH.directory.resolve()


def draws_svg_too(path, notebook):
    """A Chinese lesson with a figure: tests/test_zh_cn_figures.py reads its figures as SVG."""
    return path.parent == course()[1] and bool(figure_cells(notebook))


def setup_code(path, notebook):
    return RECORD_DISPLAYS + (DRAW_SVG_TOO if draws_svg_too(path, notebook) else "")


@dataclass
class LessonRun:
    """A lesson as run: the outputs of each of its cells (a markdown cell's are empty) and :data:`REPORT`'s result."""

    outputs: list
    report: dict


RUNS = {}  # path -> LessonRun, for the lessons nbval ran whole in this process
_UNDER_WAY = pytest.StashKey()  # on an nbval notebook being run: its path, code cells, outputs and cells run well


def lesson_run(path):
    """The run of the lesson at ``path``: nbval's in this process if it ran the lesson to the end, else one made now."""
    path = Path(path).resolve()
    if path not in RUNS:
        RUNS[path] = run_with_nbclient(path)
    return RUNS[path]


def run_with_nbclient(path):
    from kernels import AsyncUnixSocketKernelManager
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    cells = len(notebook.cells)
    notebook.cells = [nbformat.v4.new_code_cell(setup_code(path, notebook)), *notebook.cells,
                      nbformat.v4.new_code_cell(REPORT)]
    NotebookClient(notebook, timeout=600, kernel_name="python3", kernel_manager_class=AsyncUnixSocketKernelManager,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [cell.get("outputs", []) if cell.cell_type == "code" else [] for cell in notebook.cells[1 : cells + 1]]
    return LessonRun(outputs, json.loads(notebook.cells[-1].outputs[0].text))


def _execute(kernel, code):
    """Run ``code`` in nbval's kernel without a place in its history; what it printed. An error fails the test."""
    msg_id = kernel.kc.execute(code, store_history=False, allow_stdin=False)
    printed, failed = [], None
    while True:
        try:
            message = kernel.get_message("iopub", timeout=120)
        except Empty:
            raise RuntimeError("the lesson's kernel did not finish the code run before or after the lesson") from None
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = message["msg_type"], message["content"]
        if kind == "stream" and content["name"] == "stdout":
            printed.append(content["text"])
        elif kind == "error":
            failed = "\n".join(content["traceback"])
        elif kind == "status" and content["execution_state"] == "idle":
            break
    if failed:
        raise RuntimeError(f"the code run before or after the lesson failed:\n{failed}")
    return "".join(printed)


def _is_lesson_cell(item):
    if type(item).__module__ != "nbval.plugin" or os.environ.get(CHILD):
        return False
    path = item.path.resolve()
    return path.is_relative_to(ROOT) and path in course()[0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    yield  # nbval's file starts its kernel in its own setup, before its first cell's
    notebook_file = item.parent
    if _is_lesson_cell(item) and _UNDER_WAY not in notebook_file.stash and notebook_file.kernel is not None:
        path, notebook = item.path.resolve(), notebook_file.nb  # the notebook as nbval read it
        _execute(notebook_file.kernel, setup_code(path, notebook))
        if draws_svg_too(path, notebook):
            notebook_file.skip_compare = (*notebook_file.skip_compare, SVG)
        code_cells = [number for number, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
        notebook_file.stash[_UNDER_WAY] = (path, code_cells, [[] for _ in notebook.cells], set())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    outcome = yield
    under_way = item.parent.stash.get(_UNDER_WAY, None) if _is_lesson_cell(item) else None
    if under_way:
        _, code_cells, outputs, passed = under_way
        outputs[code_cells[item.cell_num]] = list(item.test_outputs or [])
        if outcome.excinfo is None:
            passed.add(item.cell_num)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    under_way = item.parent.stash.get(_UNDER_WAY, None) if _is_lesson_cell(item) else None
    if under_way and (nextitem is None or nextitem.parent is not item.parent):
        # The lesson's last cell: its kernel stops in the teardown that follows.
        path, code_cells, outputs, passed = under_way
        kernel = item.parent.kernel
        whole = len(passed) == len(code_cells) and kernel is not None and kernel.is_alive()
        if whole and not item.parent.timed_out:
            try:
                RUNS[path] = LessonRun(outputs, json.loads(_execute(kernel, REPORT)))
            except (RuntimeError, ValueError):
                pass  # kept out, so the check runs the lesson itself and says what failed; nbval's teardown must run
    yield


@pytest.fixture(name=LESSON_RUN)
def lesson_run_fixture():
    """:func:`lesson_run`, for a test parametrized by ``path``: tests/parallel.py runs it after its lesson's nbval."""
    return lesson_run
