"""The lessons' explorers as committed: Run All leaves the learner's task undone, and the text matches the widgets.

The lessons' other committed-state checks are in tests/test_notebooks.py, whose helpers these tests share.
"""

import re

import build_lessons
import nbformat
import pytest
from nbval.plugin import find_comment_markers
from test_notebooks import ALL, EVERY, LESSONS, NOTEBOOKS, WIDGET_VIEW, code_cells, headings, ids, read


@pytest.mark.parametrize("path", ALL, ids=ids(ALL))
def test_run_all_leaves_every_displayed_explorer_as_it_was_shown(path, lesson_run):
    # The collapsed cell that replays a learner's drags makes them on a copy of the explorer, so after Run All
    # every explorer still shows the state the text beside it describes, and the task is left to the learner.
    # The lesson's run (tests/lesson_runs.py) records each explorer it displays, and reports what changed at the end.
    report = lesson_run(path).report
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
