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

