"""The graded assignments of tools/assignments.py: model solutions, hidden tests and nbgrader's round trip.

The first tests check tools/assignment_solutions.py against the library's own
judges: every exercise has a model solution that ``check`` accepts, and other
inputs for the hidden tests for which the model solution is right and the
lesson's answer is wrong.  Then the source notebooks' shape.  The round trip
builds both editions' courses in a temporary folder and does, for every lesson
with exercises, what an instructor does: generate_assignment (no solution and
no hidden test left in the release), autograde three submissions (the model
solutions get full marks, the untouched release zero, and a student who types
in the lesson's answers, and a wrong letter to every question to think about, only
the exercises whose answer is a law), generate_feedback (the library's hint,
and the wrong option's explanation, reach that student) and export.
"""

import copy
import csv
import dataclasses
import html
import inspect
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

import ndcg_teach as nt
from ndcg_teach.exercises import EXERCISES, check, inputs, recorded

import assignments
from assignment_solutions import LAWS, SOLUTIONS
from build_lessons import EDITIONS

ROOT = Path(__file__).resolve().parent.parent

STUB = "raise NotImplementedError()"
LESSONS = [(edition, path, english) for edition in EDITIONS for path, english in assignments.twins(edition)]


QUESTIONS = [key for key, exercise in EXERCISES.items() if exercise.question is not None]


def lesson_answer(key):
    return SOLUTIONS[key].function(**inputs(key))


def wrong_letter(key):
    """The first wrong option of question ``key``: what the typist answers."""
    question = EXERCISES[key].question
    return next(letter for letter, option in zip(question.letters, question.options) if not option.right)


# The model solutions and the hidden tests' inputs, judged by the library.

def test_every_exercise_has_a_model_solution_whose_parameters_are_its_inputs():
    # A question to think about has no inputs and no function: its model answer is the definition's letter.
    assert list(SOLUTIONS) == [key for key in EXERCISES if key not in QUESTIONS]
    for key, solution in SOLUTIONS.items():
        assert list(inspect.signature(solution.function).parameters) == list(EXERCISES[key].inputs), key
        assert solution.function.__name__.startswith("solve_"), key
    names = [solution.function.__name__ for solution in SOLUTIONS.values()]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("key", list(SOLUTIONS))
def test_the_model_solution_is_right_on_the_lessons_numbers_and_on_the_hidden_ones(key):
    assert check(key, lesson_answer(key)), check(key, lesson_answer(key))
    others = SOLUTIONS[key].others
    assert len(others) >= 2, "two sets of other numbers, at least"
    for other in others:
        assert list(other) == list(EXERCISES[key].inputs)
        exercise = dataclasses.replace(EXERCISES[key], inputs=other)
        verdict = exercise.check(SOLUTIONS[key].function(**copy.deepcopy(other)))
        assert verdict, f"{other}: {verdict}"


@pytest.mark.parametrize("key", list(SOLUTIONS))
def test_the_lessons_answer_typed_in_fails_the_hidden_tests_with_a_hint(key):
    answer = lesson_answer(key)
    verdicts = [dataclasses.replace(EXERCISES[key], inputs=other).check(answer) for other in SOLUTIONS[key].others]
    failed = [verdict for verdict in verdicts if not verdict]
    if key in LAWS:
        assert not failed, "a law's answer is the same for every input"
        return
    assert failed, f"{answer!r} passes every hidden test of {key}"
    if EXERCISES[key].kind != "choice":  # a choice between two words is right for some inputs by chance
        assert len(failed) == len(verdicts)
    for verdict in failed:
        assert verdict.correct is False and verdict.message.startswith(f"{key}: not yet. ")


# Questions to think about: the answer cell and the test cell, run here as nbgrader runs them.

def run_question(key, language, letter):
    """Run question ``key``'s two cells of the source notebook with the student's ``letter``: (visible, hidden) outcome."""
    answer_cell = assignments.question_source(key, language)
    assert answer_cell.splitlines()[:2] == [assignments.QUESTION_PROMPT[language], "answer = ..."]
    student = answer_cell.split("### BEGIN SOLUTION")[0] + ("" if letter is None else f"answer = {letter!r}")
    test_cell = assignments.question_test_source(key)
    visible, hidden = test_cell.split("### BEGIN HIDDEN TESTS")
    namespace = {"check": check, "recorded": recorded}
    exec(student, namespace)
    outcomes = []
    for part in (visible, hidden.split("### END HIDDEN TESTS")[0]):
        try:
            exec(part, namespace)
            outcomes.append("passed")
        except (AssertionError, TypeError, ValueError) as error:
            outcomes.append(f"{type(error).__name__}: {error}")
    return outcomes


@pytest.mark.parametrize("key", QUESTIONS)
def test_a_question_scores_its_right_letter_only_and_its_visible_test_does_not_tell(key):
    question = EXERCISES[key].question
    right_answer = eval(assignments.question_source(key, "en").split("### BEGIN SOLUTION")[1].split("### END")[0].split(" = ", 1)[1])
    assert right_answer == question.answer
    assert run_question(key, "en", right_answer) == ["passed", "passed"]
    assert run_question(key, "en", right_answer.lower() if isinstance(right_answer, str) else right_answer) == ["passed", "passed"]
    wrong = wrong_letter(key)
    visible, hidden = run_question(key, "en", wrong)
    assert visible == "passed", "the visible test takes any letter of the question"
    assert hidden == f"AssertionError: {check(key, wrong).message}"
    # No answer, or not a letter: the visible test already fails, with the refusal.
    assert run_question(key, "en", None)[0] == f"TypeError: answer must be {requirement(question)}. Got Ellipsis instead."
    assert run_question(key, "en", "Z")[0] == f"ValueError: answer must be {requirement(question)}. Got 'Z' instead."


def requirement(question):
    allowed = " / ".join(repr(letter) for letter in question.letters)
    return f"one of {allowed}, or a tuple of several of them" if question.several else f"one of {allowed}"


# The source notebooks.

@pytest.mark.parametrize(("edition", "path", "english"), LESSONS, ids=[f"{e.language}-{p.stem}" for e, p, _ in LESSONS])
def test_a_source_notebook_is_the_lessons_exercises_with_solution_and_test_cells(edition, path, english):
    lesson = nbformat.read(path, as_version=4)
    keys = [key for _, key in assignments.answer_cells(lesson)]
    notebook = assignments.source_notebook(path, edition)
    grading = [cell.metadata["nbgrader"] for cell in notebook.cells]
    ids = [meta["grade_id"] for meta in grading]
    assert len(set(ids)) == len(ids) and ids[:2] == ["intro", "setup"]
    assert [meta["grade_id"][: -len("-answer")] for meta in grading if meta["solution"]] == keys
    assert [meta["grade_id"][: -len("-test")] for meta in grading if meta["grade"]] == keys
    assert all(meta["points"] == assignments.POINTS for meta in grading if meta["grade"])
    assert all(meta["locked"] != meta["solution"] for meta in grading)
    # Every question of the lesson is there as it is, and nothing after the last exercise (References, Solutions).
    questions = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"][1:]
    lesson_text = [cell.source for cell in lesson.cells if cell.cell_type == "markdown"]
    assert questions[0].startswith("## ") and any(text.endswith(questions[0]) for text in lesson_text)
    assert all(question in lesson_text for question in questions[1:])
    after = lesson.cells[assignments.answer_cells(lesson)[-1][0] + 1 :]
    assert not any(cell.source in {c.source for c in notebook.cells} for cell in after if cell.source.strip())
    setup = notebook.cells[1].source
    assert "import ndcg_teach as nt" in setup and re.search(r"from ndcg_teach\.exercises import .*check, inputs", setup)
    assert ('nt.set_language("zh-CN")' in setup) == (edition.language == "zh-CN")
    assert english.name[:2] == path.name[:2]


def test_both_editions_ask_the_same_exercises_under_the_same_assignment_names():
    courses = [
        {english.stem: [key for _, key in assignments.answer_cells(nbformat.read(path, as_version=4))] for path, english in assignments.twins(edition)}
        for edition in EDITIONS
    ]
    assert courses[0] == courses[1]
    assert sorted(key for keys in courses[0].values() for key in keys) == sorted(EXERCISES)


# nbgrader's round trip, both editions at once (each in its own processes, on its own course folder).

def nbgrader(root, *arguments):
    # nbgrader runs `alembic` to open its gradebook: the venv's bin folder must be on PATH.
    environment = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *arguments], cwd=root, env=environment, capture_output=True, text=True, timeout=1200
    )
    assert done.returncode == 0, f"nbgrader {' '.join(arguments)} failed:\n{done.stdout}\n{done.stderr}"


def filled(release, language, bodies):
    """``release`` as a student hands it in: each answer cell's code stub replaced by ``bodies[key]``."""
    notebook = nbformat.from_dict(copy.deepcopy(release))
    for cell in notebook.cells:
        grading = cell.metadata.get("nbgrader", {})
        if grading.get("solution"):
            # A function's body is indented; a question's answer is not.
            indent = "" if grading["grade_id"].removesuffix("-answer") in QUESTIONS else "    "
            stub = [indent + line for line in assignments.CODE_STUB[language].splitlines()]
            source = cell.source.splitlines()
            start = source.index(stub[0])
            assert source[start : start + len(stub)] == stub
            source[start : start + len(stub)] = bodies[grading["grade_id"].removesuffix("-answer")]
            cell.source = "\n".join(source)
    return notebook


def model_bodies(source):
    """The model solution's lines of every answer cell of a source notebook, by exercise key."""
    bodies = {}
    for cell in source.cells:
        if cell.metadata["nbgrader"]["solution"]:
            lines = [line.strip() for line in cell.source.splitlines()]
            begin, end = lines.index("### BEGIN SOLUTION"), lines.index("### END SOLUTION")
            lines = cell.source.splitlines()
            bodies[cell.metadata["nbgrader"]["grade_id"].removesuffix("-answer")] = lines[begin + 1 : end]
    return bodies


def typed_in(key):
    """What a student writes who copies the lesson's answer: ``return`` that value, whatever the inputs.

    To a question to think about, this student answers a wrong letter.
    """
    if key in QUESTIONS:
        return [f"answer = {wrong_letter(key)!r}"]
    answer = lesson_answer(key)
    return [f"    return {float(answer) if isinstance(answer, float) else answer!r}"]


def run_course(tmp, edition):
    """Build ``edition``'s course in ``tmp``, hand in the three students' work for every assignment, grade it all."""
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "assignments.py"), "--edition", edition.language, "--out", str(tmp)],
        check=True, capture_output=True, timeout=600,
    )
    root = tmp / edition.language
    for folder in sorted((root / "source").iterdir()):
        name = folder.name
        source = nbformat.read(folder / f"{name}.ipynb", as_version=4)
        release = nbformat.read(root / "release" / name / f"{name}.ipynb", as_version=4)
        work = {
            "model": filled(release, edition.language, model_bodies(source)),
            "untouched": release,
            "typist": filled(release, edition.language, {key: typed_in(key) for key in model_bodies(source)}),
        }
        for student, notebook in work.items():
            target = root / "submitted" / student / name / f"{name}.ipynb"
            target.parent.mkdir(parents=True)
            nbformat.write(notebook, target)
    # Kernels over Unix sockets named in the course folder: two editions grading at once cannot take each other's
    # TCP ports (a kernel once failed with "Address already in use" while the other edition started its kernels).
    nbgrader(root, "autograde", "*", "--force", "--KernelManager.transport=ipc", f"--KernelManager.ip={root / 'kernel'}")
    nbgrader(root, "generate_feedback", "*", "--force")
    nbgrader(root, "export")
    return root


@pytest.fixture(scope="module")
def courses(tmp_path_factory):
    pytest.importorskip("nbgrader", reason="nbgrader 0.9 (requirements-instructor.txt) needs Python 3.11 or newer")
    tmp = tmp_path_factory.mktemp("nbgrader")
    with ThreadPoolExecutor(max_workers=len(EDITIONS)) as pool:
        roots = pool.map(lambda edition: run_course(tmp, edition), EDITIONS)
        return dict(zip((edition.language for edition in EDITIONS), roots))


def grades(root):
    with open(root / "grades.csv", newline="", encoding="utf-8") as table:
        return {(row["assignment"], row["student_id"]): (float(row["score"]), float(row["max_score"])) for row in csv.DictReader(table)}


ROUND_TRIP = pytest.mark.parametrize(
    ("edition", "path", "english"), LESSONS, ids=[f"{e.language}-{p.stem}" for e, p, _ in LESSONS]
)


@ROUND_TRIP
def test_the_release_keeps_no_solution_and_no_hidden_test(courses, edition, path, english):
    root, name = courses[edition.language], english.stem
    source = nbformat.read(root / "source" / name / f"{name}.ipynb", as_version=4)
    release = nbformat.read(root / "release" / name / f"{name}.ipynb", as_version=4)
    written = "\n".join(cell.source for cell in source.cells)
    released = "\n".join(cell.source for cell in release.cells)
    regions = re.findall(r"### BEGIN (SOLUTION|HIDDEN TESTS)\n(.*?)### END \1", written, re.S)
    exercises = len(model_bodies(source))
    assert len(regions) == 2 * exercises
    secret = {line.strip() for _, region in regions for line in region.splitlines() if line.strip()}
    assert not [line for line in released.splitlines() if line.strip() in secret]
    assert "SOLUTION" not in released and "HIDDEN" not in released and "EXERCISES" not in released
    assert sum(cell.source.count(STUB) for cell in release.cells if cell.cell_type == "code") == exercises


@ROUND_TRIP
def test_autograde_gives_the_model_solutions_full_marks_and_an_untouched_release_zero(courses, edition, path, english):
    scores, exercises = grades(courses[edition.language]), len(assignments.answer_cells(nbformat.read(path, as_version=4)))
    assert scores[english.stem, "model"] == (exercises, exercises)
    assert scores[english.stem, "untouched"] == (0.0, exercises)


@ROUND_TRIP
def test_answers_typed_in_score_only_the_laws_and_the_feedback_gives_the_librarys_hint(courses, edition, path, english):
    root, name = courses[edition.language], english.stem
    keys = [key for _, key in assignments.answer_cells(nbformat.read(path, as_version=4))]
    assert grades(root)[name, "typist"] == (sum(key in LAWS for key in keys), len(keys))
    feedback = html.unescape((root / "feedback" / "typist" / name / f"{name}.html").read_text(encoding="utf-8"))
    with nt.language_set(edition.language):
        for key in keys:
            if key in QUESTIONS:
                # The explanation of the wrong option chosen, never a word of the right one.
                assert check(key, wrong_letter(key)).message in feedback
                assert EXERCISES[key].question.why_right() not in feedback
                continue
            if key in LAWS:
                continue
            other = next(o for o in SOLUTIONS[key].others if not dataclasses.replace(EXERCISES[key], inputs=o).check(lesson_answer(key)))
            hint = dataclasses.replace(EXERCISES[key], inputs=other).check(lesson_answer(key)).message
            assert f"{SOLUTIONS[key].function.__name__}(**{other!r}): {hint}" in feedback
