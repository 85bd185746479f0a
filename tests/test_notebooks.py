"""The lessons as committed: executed, without widget state, in the lesson shape, with current navigation.

nbval (``pytest --nbval-lax notebooks/``) re-runs them and compares the cells
marked ``# NBVAL_CHECK_OUTPUT``; these tests check what nbval does not.
"""

import re
from pathlib import Path

import build_lessons
import nbformat
import pytest
from nbval.plugin import find_comment_markers

from ndcg_teach.exercises import EXERCISES

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = build_lessons.lessons(NOTEBOOKS)
ALL = build_lessons.notebooks(NOTEBOOKS)
ZH_LESSONS = build_lessons.lessons(build_lessons.ZH.directory)
EVERY = ALL + ZH_LESSONS  # checks that do not depend on the language run on both editions
FIRST_LESSONS = [
    "00-start-here",
    "01-relevance-and-cg",
    "02-dcg-discounting",
    "03-ideal-ranking-ndcg",
    "04-precision-recall-at-k",
    "05-average-precision-map-rr",
    "06-playground",
    "07-checking-the-documents",
    "08-why-libraries-disagree",
    "09-evaluating-a-model",
    "10-precision-recall-curves",
    "11-user-models",
    "12-incomplete-judgements",
    "13-significance",
    "14-recommender-evaluation",
    "15-judges-and-agreement",
    "16-diversity-and-intent",
    "17-evaluating-retrieval-for-rag",
    "18-online-evaluation",
    "19-counterfactual-evaluation",
    "20-evaluate-your-own-system",
    "21-evaluating-generated-answers",
]
SECTIONS = ["Why it matters", "You will learn", "Summary", "Exercises", "References"]
SECTIONS_ZH = ["为什么重要", "学习目标", "小结", "练习", "参考文献"]
SOLUTIONS = {"Solutions", "参考答案"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
NOT_IN_BINDER = ("sklearn", "pytrec_eval", "hypothesis", "pytest", "playwright")


def read(path):
    return nbformat.read(path, as_version=4)


def ids(paths):
    return [path.relative_to(ROOT).as_posix() for path in paths]


def headings(notebook, level):
    marker = "#" * level + " "
    return [
        line[len(marker) :].strip()
        for cell in notebook.cells
        if cell.cell_type == "markdown"
        for line in cell.source.splitlines()
        if line.startswith(marker)
    ]


def code_cells(notebook):
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def test_the_course_has_its_lessons_in_order():
    assert [path.stem for path in LESSONS][: len(FIRST_LESSONS)] == FIRST_LESSONS


def test_the_template_is_kept_apart_from_the_lessons():
    # In notebooks/ it was listed first in the file browser and looked like a lesson.
    assert build_lessons.TEMPLATE.exists() and build_lessons.TEMPLATE.parent != NOTEBOOKS
    assert build_lessons.TEMPLATE in ALL
    assert not list(NOTEBOOKS.glob("_*.ipynb"))


@pytest.mark.parametrize("path", EVERY, ids=ids(EVERY))
def test_committed_executed_top_to_bottom(path):
    counts = [cell.execution_count for cell in code_cells(read(path)) if cell.source.strip()]
    assert counts, "a lesson runs code"
    assert counts == list(range(1, len(counts) + 1)), "run it with `python tools/build_lessons.py --execute NAME`"


@pytest.mark.parametrize("path", EVERY, ids=ids(EVERY))
def test_committed_without_widget_state_or_errors(path):
    notebook = read(path)
    assert "widgets" not in notebook.metadata
    errors = [output for cell in code_cells(notebook) for output in cell.outputs if output.output_type == "error"]
    assert errors == []


@pytest.mark.parametrize("path", EVERY, ids=ids(EVERY))
def test_lesson_shape(path):
    notebook = read(path)
    sections = SECTIONS_ZH if path in ZH_LESSONS else SECTIONS
    assert len(headings(notebook, 1)) == 1, "exactly one title"
    seconds = headings(notebook, 2)
    missing = [section for section in sections if section not in seconds]
    assert missing == []
    positions = [seconds.index(section) for section in sections]
    assert positions == sorted(positions), f"sections in the order {sections}"
    assert seconds[0] == sections[0]


@pytest.mark.parametrize("path", EVERY, ids=ids(EVERY))
def test_solutions_come_last_and_apart(path):
    seconds = headings(read(path), 2)
    if SOLUTIONS & set(seconds):
        assert seconds[-1] in SOLUTIONS


@pytest.mark.parametrize("path", EVERY, ids=ids(EVERY))
def test_key_numbers_are_checked_by_nbval(path):
    # nbval reads a marker only when it is a comment line of its own: ask nbval's own parser, not a substring search.
    cells = code_cells(read(path))
    marked = [cell for cell in cells if dict(find_comment_markers(cell.source)).get("check")]
    assert marked, "mark the cells that print key numbers with # NBVAL_CHECK_OUTPUT on a line of its own"
    assert all(cell.outputs for cell in marked), "a checked cell must print something"
    unread = [cell.source for cell in cells if "NBVAL_CHECK_OUTPUT" in cell.source and cell not in marked]
    assert not unread, f"nbval ignores these markers (not on a line of their own): {unread}"


@pytest.mark.parametrize("path", EVERY, ids=ids(EVERY))
def test_widget_cells_are_ignored_by_nbval(path):
    for cell in code_cells(read(path)):
        shows_widget = any(WIDGET_VIEW in output.get("data", {}) for output in cell.outputs)
        if shows_widget:
            assert "nbval-ignore-output" in cell.metadata.get("tags", []), cell.source


@pytest.mark.parametrize("path", EVERY, ids=ids(EVERY))
def test_lessons_need_nothing_beyond_binder_requirements(path):
    for cell in code_cells(read(path)):
        for module in NOT_IN_BINDER:
            assert not re.search(rf"^\s*(import|from)\s+{module}\b", cell.source, re.M), cell.source


@pytest.mark.parametrize("path", ALL, ids=ids(ALL))
def test_markdown_has_one_sentence_per_line(path):
    crowded, section = [], None
    for cell in read(path).cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("## "):
                section = line[3:].strip()
            if section == "References" or line.startswith(("|", "#")):
                continue  # citations, table rows and numbered headings are not prose
            prose = re.sub(r"\$[^$]*\$|`[^`]*`|\[[^\]]*\]\([^)]*\)|\b(e\.g|i\.e|cf|vs|et al)\.", "", line)
            if re.search(r"[a-z0-9)][.!?] +[A-Z]", prose):
                crowded.append(line)
    assert crowded == []


def test_every_exercise_is_asked_in_its_lesson():
    for key, exercise in EXERCISES.items():
        path = NOTEBOOKS / f"{exercise.lesson}.ipynb"
        if not path.exists():
            pytest.skip(f"{path.name} is not written yet")
        sources = "\n".join(cell.source for cell in code_cells(read(path)))
        assert f'check("{key}"' in sources, f"{key} is not asked in {path.name}"


def test_every_checked_exercise_exists():
    for path in EVERY:
        for cell in code_cells(read(path)):
            for key in re.findall(r'check\("([^"]+)"', cell.source):
                assert key in EXERCISES, f"{path.name} checks an unknown exercise {key!r}"


def test_navigation_and_contents_have_not_drifted():
    assert build_lessons.drift_all() == []


def test_the_readme_table_lists_every_lesson_with_its_binder_link():
    table = build_lessons.readme_table(build_lessons._entries(LESSONS))
    for path in LESSONS:
        assert f"(notebooks/{path.name})" in table
        assert build_lessons.binder_url(path.name) in table


def test_the_readme_table_is_kept_between_its_markers_only():
    entries = build_lessons._entries(LESSONS)
    start, end = build_lessons.README_START, build_lessons.README_END
    text = f"intro\n{start}\nstale\n{end}\noutro\n"
    assert build_lessons.readme_with_table(text, entries) == (
        f"intro\n{start}\n{build_lessons.readme_table(entries)}\n{end}\noutro\n"
    )
    assert build_lessons.readme_with_table("no markers\n", entries) == "no markers\n"


def copy_lessons(directory):
    for path in LESSONS:
        (directory / path.name).write_bytes(path.read_bytes())


def test_the_drift_check_notices_a_hand_edited_navigation_cell(tmp_path):
    copy_lessons(tmp_path)
    assert build_lessons.drift(tmp_path, readme=None) == []
    edited = read(tmp_path / LESSONS[1].name)
    edited.cells[0].source = edited.cells[0].source.replace("Contents", "Index")
    nbformat.write(edited, tmp_path / LESSONS[1].name)
    assert build_lessons.drift(tmp_path, readme=None) == [
        f"{LESSONS[1].name}: navigation, contents or questions to think about are out of date"
    ]


def test_the_drift_check_notices_a_hand_edited_question_and_the_refresh_writes_it_back(tmp_path):
    # A question's stem and options are written in ndcg_teach/exercises; the lesson's cell is written from them.
    copy_lessons(tmp_path)
    notebook = read(tmp_path / LESSONS[1].name)
    asked = next(cell for cell in notebook.cells if cell.get("id", "").startswith("question-"))
    written = asked.source
    asked.source = written.replace("- **B.** ", "- **B.** (edited) ")
    nbformat.write(notebook, tmp_path / LESSONS[1].name)
    assert build_lessons.drift(tmp_path, readme=None) == [
        f"{LESSONS[1].name}: navigation, contents or questions to think about are out of date"
    ]
    refreshed = build_lessons.refreshed(notebook, build_lessons._entries(build_lessons.lessons(tmp_path)), 1)
    assert next(cell.source for cell in refreshed.cells if cell.get("id") == asked.id) == written


def test_the_drift_check_notices_widget_state(tmp_path):
    copy_lessons(tmp_path)
    notebook = read(tmp_path / LESSONS[1].name)
    notebook.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    nbformat.write(notebook, tmp_path / LESSONS[1].name)
    assert build_lessons.drift(tmp_path, readme=None) == [f"{LESSONS[1].name}: widget state is saved"]


def test_the_drift_check_notices_execution_timings_and_the_refresh_drops_them(tmp_path):
    # JupyterLab records when each cell ran; kept, the timings would change a lesson every time someone runs it.
    copy_lessons(tmp_path)
    notebook = read(tmp_path / LESSONS[1].name)
    code = next(cell for cell in notebook.cells if cell.cell_type == "code")
    code.metadata["execution"] = {"iopub.status.busy": "2026-11-25T18:00:00.000000Z"}
    nbformat.write(notebook, tmp_path / LESSONS[1].name)
    assert build_lessons.drift(tmp_path, readme=None) == [f"{LESSONS[1].name}: cells carry execution timings"]
    refreshed = build_lessons.refreshed(notebook, build_lessons._entries(build_lessons.lessons(tmp_path)), 1)
    assert all("execution" not in cell.metadata for cell in refreshed.cells)


def test_every_lesson_opens_and_closes_with_navigation():
    for path in LESSONS + ZH_LESSONS:
        cells = read(path).cells
        for cell in (cells[0], cells[-1]):
            assert build_lessons.NAVIGATION_TAG in cell.metadata.get("tags", [])
        assert build_lessons.binder_url(path.name, build_lessons.edition_of(path.parent)) in cells[0].source


def test_navigation_links_point_at_lessons_that_exist_and_at_the_twin():
    for path in LESSONS + ZH_LESSONS:
        notebook = read(path)
        twin = build_lessons.twin(path.name, build_lessons.edition_of(path.parent))
        for cell in (notebook.cells[0], notebook.cells[-1]):
            targets = re.findall(r"\]\(([^)#]+\.ipynb)", cell.source)
            assert twin in targets, f"{path.name} links to its twin in the other edition"
            for target in targets:
                if not target.startswith("https://"):
                    assert (path.parent / target).resolve().is_file(), target


def test_the_binder_link_opens_a_lesson_in_jupyterlab():
    url = build_lessons.binder_url("00-start-here.ipynb")
    assert url == (
        f"https://mybinder.org/v2/gh/{build_lessons.REPOSITORY}/HEAD?urlpath=lab/tree/notebooks/00-start-here.ipynb"
    )


# Run All must not do the learner's task, and the prose must match the widgets (issue 9).

RECORD_DISPLAYS = '''
import anywidget as _anywidget
import ipywidgets as _ipywidgets

_INPUTS = ("relevance", "unjudged", "k", "gain", "discount", "threshold", "labels", "max_grade", "a", "b")
_displayed = []
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
            _displayed.append((get_ipython().execution_count, self, _state(self)))
        return show(self, **kwargs)
    return _record


_anywidget.AnyWidget._repr_mimebundle_ = _recorder(_show)
_ipywidgets.Box._repr_mimebundle_ = _recorder(_show_box)
'''

REPORT_CHANGED = '''
import json as _json
print(_json.dumps({"shown": len(_displayed), "changed": [
    {"cell": cell, "shown": then, "now": _state(widget)} for cell, widget, then in _displayed if _state(widget) != then
]}))
'''


def displayed_explorer_changes(path):
    """Execute ``path`` with a cell before and after it; what each displayed explorer was and is at the end."""
    import json

    from nbclient import NotebookClient

    notebook = read(path)
    notebook.cells = [nbformat.v4.new_code_cell(RECORD_DISPLAYS), *notebook.cells, nbformat.v4.new_code_cell(REPORT_CHANGED)]
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    return json.loads(notebook.cells[-1].outputs[0].text)


@pytest.mark.parametrize("path", ALL, ids=ids(ALL))
def test_run_all_leaves_every_displayed_explorer_as_it_was_shown(path):
    # The collapsed cell that replays a learner's drags makes them on a copy of the explorer, so after Run All
    # every explorer still shows the state the text beside it describes, and the task is left to the learner.
    report = displayed_explorer_changes(path)
    assert report["changed"] == []
    shown = sum(
        1 for cell in code_cells(read(path)) if any(WIDGET_VIEW in output.get("data", {}) for output in cell.outputs)
    )
    assert report["shown"] == shown, "every displayed explorer is recorded"


def displayed_names(notebook):
    """The variable each widget cell shows (its last line, a bare name)."""
    names = []
    for cell in code_cells(notebook):
        if any(WIDGET_VIEW in output.get("data", {}) for output in cell.outputs):
            last = cell.source.strip().splitlines()[-1].split("#")[0].strip()
            if last.isidentifier():
                names.append(last)
    return names


@pytest.mark.parametrize("path", ALL, ids=ids(ALL))
def test_the_numbers_a_displayed_explorer_shows_are_asserted(path):
    # The prose beside a widget states what it shows; a cell asserts those numbers, so prose and widget cannot drift apart.
    notebook = read(path)
    sources = [cell.source for cell in code_cells(notebook)]
    for name in displayed_names(notebook):
        asserted = [s for s in sources if re.search(rf"^\s*assert\b.*\b{name}\.(metrics|differences|order)\b", s, re.M)]
        assert asserted, f"{path.name}: no cell asserts what the explorer {name!r} shows"


def solution_cells(notebook):
    cells, inside = [], False
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and any(line.strip() == "## Solutions" for line in cell.source.splitlines()):
            inside = True
        elif inside and cell.cell_type == "code" and "check(" in cell.source:
            cells.append(cell)
    return cells


def shown_text(cell):
    parts = []
    for output in cell.outputs:
        if output.output_type == "stream":
            parts.append(output.text)
        else:
            data = output.get("data", {})
            parts.append(data.get("text/plain", ""))
    return "\n".join(parts)


@pytest.mark.parametrize("path", ALL, ids=ids(ALL))
def test_every_solution_prints_the_working_before_the_verdict(path):
    notebook = read(path)
    cells = solution_cells(notebook)
    if "Solutions" not in headings(notebook, 2):
        pytest.skip(f"{path.name} has no Solutions section")
    assert cells, "the Solutions section checks its answers"
    for cell in cells:
        keys = re.findall(r'check\("([^"]+)"', cell.source)
        lines = [line for line in shown_text(cell).splitlines() if line.strip()]
        working = [line for line in lines if not any(line.startswith(f"{key}: ") for key in keys)]
        assert len(working) >= 2, f"{path.name}: a solution shows how the answer comes about, not only 'right':\n{cell.source}"
        assert lines[-1].startswith(tuple(f"{key}: right" for key in keys)), "the verdict comes last, and it is right"


def test_lesson_07_shows_what_each_document_claimed_and_every_audit_table():
    # A learner on Binder has no copy of the documents: the lesson quotes the lines it corrects, with titles.
    from ndcg_teach.course.examples import QUOTATIONS, SOURCES

    notebook = read(NOTEBOOKS / "07-checking-the-documents.ipynb")
    shown = "\n".join(shown_text(cell) for cell in code_cells(notebook))
    for quote in QUOTATIONS:
        assert quote.chinese in shown and quote.english in shown, quote
    for document in SOURCES:
        assert f"\n{document.citation}\n" in shown, f"the audit table of {document.file} is not shown"
    prose = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    assert not re.search(r"\b(first|second|third|fourth|fifth) document", prose), "name documents by number, 000 to 004"
    assert "seeds" not in prose


@pytest.mark.parametrize("path", ALL, ids=ids(ALL))
def test_every_number_the_text_beside_an_explorer_states_is_printed_by_a_checked_cell(path):
    # "It starts at NDCG@3 = 0.4465": the number must come out of a cell that nbval checks, computed from the widget.
    notebook = read(path)
    checked = "\n".join(
        shown_text(cell) for cell in code_cells(notebook) if dict(find_comment_markers(cell.source)).get("check")
    )
    cells = notebook.cells
    for index, cell in enumerate(cells):
        if cell.cell_type == "code" and any(WIDGET_VIEW in output.get("data", {}) for output in cell.outputs):
            beside = [other for other in (cells[index - 1], cells[index + 1]) if other.cell_type == "markdown"]
            for number in re.findall(r"\b\d+\.\d{4}\b", "\n".join(other.source for other in beside)):
                assert number in checked, f"{path.name}: the text says {number}, which no checked cell prints"


@pytest.mark.parametrize("path", EVERY, ids=ids(EVERY))
def test_numbered_sections_count_from_one_without_gaps(path):
    # Lessons 02 and 03 had lost a section number ("see section 3" pointed at nothing).
    numbers = [int(match.group(1)) for heading in headings(read(path), 2) if (match := re.match(r"(\d+)\.", heading))]
    assert numbers == list(range(1, len(numbers) + 1))


# A learner's drags, replayed so that the saved lesson shows where they lead, are scaffolding: one sentence and
# one collapsed cell, not cells of prose and a second explorer (issue 23, point 10).

REPLAY = re.compile(r"\.(move|ideal|worst|shuffle|reset)\(|\.(order|gain|discount|threshold|k)\s*=(?!=)")
TEACHES_THE_PYTHON_CALLS = {"06-playground"}  # its section 2 teaches move() and `order =` on a second, shown explorer
SAYS_IT_IS_COLLAPSED = ("collapsed cell below", "折叠起来的单元格")


def collapsed(cell):
    return cell.cell_type == "code" and cell.metadata.get("jupyter", {}).get("source_hidden", False)


@pytest.mark.parametrize("path", EVERY, ids=ids(EVERY))
def test_replayed_drags_sit_in_one_collapsed_checked_cell_that_the_text_announces(path):
    cells = read(path).cells
    for index, cell in enumerate(cells):
        if collapsed(cell):
            # Hidden code must still show checked numbers, and the sentence before it says what it does.
            assert dict(find_comment_markers(cell.source)).get("check") and shown_text(cell).strip(), cell.source
            # JupyterLab shows a collapsed cell's first line in its place: a comment saying what it does, not a marker.
            first = cell.source.splitlines()[0]
            assert first.startswith("# ") and not list(find_comment_markers(first)), first
            assert cells[index - 1].cell_type == "markdown"
            assert any(words in cells[index - 1].source for words in SAYS_IT_IS_COLLAPSED), cells[index - 1].source
        elif cell.cell_type == "code" and path.name[:-len(".ipynb")].split(".")[0] not in TEACHES_THE_PYTHON_CALLS:
            where = f"{path.name}: replay a learner's drags in a collapsed cell"
            assert not REPLAY.search(cell.source), f"{where}:\n{cell.source}"


def test_the_replay_check_notices_a_visible_replay_and_an_unannounced_collapsed_cell(tmp_path):
    # The check above must be able to fail: a lesson whose replay shows its code, or whose collapsed cell
    # nobody announces, is caught.
    lesson = next(path for path in LESSONS if any(collapsed(cell) for cell in read(path).cells))
    notebook = read(lesson)
    index = next(i for i, cell in enumerate(notebook.cells) if collapsed(cell))
    visible = nbformat.from_dict(notebook)
    visible.cells[index].metadata.pop("jupyter")
    nbformat.write(visible, tmp_path / lesson.name)
    with pytest.raises(AssertionError, match="replay a learner's drags in a collapsed cell"):
        test_replayed_drags_sit_in_one_collapsed_checked_cell_that_the_text_announces(tmp_path / lesson.name)
    unannounced = nbformat.from_dict(notebook)
    unannounced.cells[index - 1].source = "Some other sentence."
    nbformat.write(unannounced, tmp_path / lesson.name)
    with pytest.raises(AssertionError, match="Some other sentence"):
        test_replayed_drags_sit_in_one_collapsed_checked_cell_that_the_text_announces(tmp_path / lesson.name)


EXPLORER_LESSONS = {  # the sentence of lesson 00 that names the lessons with an explorer, in each edition
    "en": re.compile(r"^These lessons have one: (.+)\.$", re.M),
    "zh-CN": re.compile(r"^有探索器的课是：(.+)。$", re.M),
}
EDITION_IDS = [edition.language for edition in build_lessons.EDITIONS]


@pytest.mark.parametrize("edition", build_lessons.EDITIONS, ids=EDITION_IDS)
def test_lesson_00_names_exactly_the_lessons_that_have_an_explorer(edition):
    # Lesson 00 once promised an explorer in every lesson; 07, 08, 12 and 13 had none.
    start = read(edition.directory / edition.file(build_lessons.START))
    text = "\n".join(cell.source for cell in start.cells if cell.cell_type == "markdown")
    named = re.findall(r"\b\d\d\b", EXPLORER_LESSONS[edition.language].search(text).group(1))
    with_explorer = [
        path.name[:2]
        for path in build_lessons.lessons(edition.directory)
        if any(WIDGET_VIEW in output.get("data", {}) for cell in code_cells(read(path)) for output in cell.outputs)
    ]
    assert named == with_explorer
