"""Build the nbgrader course of the lessons' exercises, one per edition (``make assignments``).

For every lesson with exercises, in each edition (notebooks/ and
notebooks/zh-CN/), this writes an nbgrader *source* notebook:

- a title, and how the assignment is answered and graded, in the edition's language;
- a setup cell: the lesson's own imports (with ``nt.set_language`` in the Chinese edition);
- the lesson's Exercises section, its questions as they are, with each answer
  cell (``answer = ...`` then ``check("KEY", answer)``) replaced by two cells:

  * a solution cell: a function of the exercise's inputs that the student
    completes (the model solution of tools/assignment_solutions.py sits
    between nbgrader's BEGIN and END SOLUTION), called on the lesson's numbers;
  * an autograded test cell, one point: the visible test is the library's own
    ``check`` on the lesson's numbers, so a wrong answer gets the lesson's hint;
    the hidden tests (BEGIN and END HIDDEN TESTS) call the function on other
    inputs and judge each answer with the same exercise's judge, so a number
    typed in or copied from the lesson's worked solution gets no point.

A question to think about (an exercise answered with a letter, which has no
inputs) becomes two cells too: the student's ``answer = "B"`` (the right
letter between BEGIN and END SOLUTION), and an autograded cell, one point,
whose visible test only takes the answer (``recorded``: is it one of the
letters?) and whose hidden test is ``check`` itself, so the verdict and its
explanation reach the student with the feedback, not by trying letters there.

The lessons keep their worked solutions after "References"; they are not
copied.  Then nbgrader's ``generate_assignment`` makes each student version
(release/), with the solutions and the hidden tests taken out.

Each edition is a course of its own (``build/nbgrader/en``,
``build/nbgrader/zh-CN``) with its ``nbgrader_config.py``; an assignment is
named after its English lesson (``03-ideal-ranking-ndcg``) in both, so the
two courses line up.  docs/instructors.md walks through using them.

Usage (from the repository root)::

    python tools/assignments.py                      # both editions, source and release
    python tools/assignments.py --edition zh-CN      # one edition
    python tools/assignments.py --out DIR --no-release
"""

from __future__ import annotations

import argparse
import ast
import inspect
import os
import re
import shutil
import sys
import textwrap
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))

from assignment_solutions import SOLUTIONS, Solution  # noqa: E402
from build_lessons import COURSE_ID, EDITIONS, ROOT, Edition, binder_url, lessons, title  # noqa: E402
from lesson_questions import ANSWER, letters  # noqa: E402

from ndcg_teach.exercises import EXERCISES, inputs  # noqa: E402

OUT = ROOT / "build" / "nbgrader"
POINTS = 1
CODE_STUB = {
    "en": "# YOUR CODE HERE\nraise NotImplementedError()",
    "zh-CN": "# 在这里写你的代码\nraise NotImplementedError()",
}
INTRO = {
    "en": """# {label}

**Graded exercises.** These are the exercises of lesson {number}: [open the lesson]({lesson_url}) and read it first.

**How to answer.** Each exercise asks for a function, such as `{example}`, that computes the answer from the exercise's inputs.
Its parameters are the inputs, named as in the library (`inputs("{example_key}")` gives the lesson's numbers).
Replace `raise NotImplementedError()` with your code and run the cell: it shows your function's answer for the lesson's numbers.
The cell after it checks that answer with `check` and gives a hint when it is not right yet.

**How it is graded.** Each exercise is worth {points} point.
When your work is graded, hidden tests also call your function with other numbers, so write the method, not the number:
an answer typed in, or copied from the lesson's worked solution, gets no point.
`check` knows only the lesson's numbers, so do not call it inside your function.
You may use the library (`nt.dcg`, `nt.ndcg`, ...) or compute by hand, as the lesson does.

{questions}Before you submit, restart the kernel and run all cells (or press **Validate**).
""",
    "zh-CN": """# {label}

**计分练习。** 这些是第 {number} 课的练习：请先[打开这一课]({lesson_url})读完。

**怎样作答。** 每道练习要你写一个函数（例如 `{example}`），由练习的输入算出答案。
函数的参数就是这些输入，名字与库里的参数相同（`inputs("{example_key}")` 给出课里用的数字）。
把 `raise NotImplementedError()` 换成你的代码并运行这个单元格：它会显示你的函数对课里数字给出的答案。
下一个单元格用 `check` 核对这个答案，答得不对时会给出提示。

**怎样计分。** 每道练习 {points} 分。
批改时，隐藏的测试还会用别的数字调用你的函数，所以要写出方法，而不是数字：
直接填写的数字，或从课里参考答案抄来的数字，都得不到分。
`check` 只认识课里的数字，所以不要在函数里调用它。
你可以用库（`nt.dcg`、`nt.ndcg` 等），也可以像课里那样手算。

{questions}提交之前，请重启内核并运行全部单元格（或者点 **Validate**）。
""",
}
QUESTIONS = {
    "en": """**Questions to think about.** The last questions are answered with a letter, not a function.
Replace `raise NotImplementedError()` with your answer, such as `answer = "B"`, or a tuple of letters, such as `answer = ("A", "C")`, where the question says that more than one option is right.
The cell after it only takes your answer; whether it is right, and why, your feedback says once your work is graded.
Each question is worth {points} point.

""",
    "zh-CN": """**思考题。** 最后几道题用字母作答，不用写函数。
把 `raise NotImplementedError()` 换成你的答案，例如 `answer = "B"`；题目说明正确选项不止一个时，用字母的元组作答，例如 `answer = ("A", "C")`。
下一个单元格只是收下你的答案；答得对不对、为什么，批改之后的反馈会告诉你。
每道思考题 {points} 分。

""",
}
QUESTION_PROMPT = {
    "en": '# Your answer: the letter of the right option, such as answer = "B" (a tuple of letters where more than one is right).',
    "zh-CN": '# 你的答案：正确选项的字母，例如 answer = "B"（正确选项不止一个时，用字母的元组）。',
}
CONFIG = '''"""nbgrader's configuration for {course_id}: ndcg_teach's graded exercises, {language} edition.

Written by tools/assignments.py (`make assignments`); docs/instructors.md explains each step.
"""

c = get_config()  # noqa: F821 (nbgrader provides it)
c.CourseDirectory.course_id = {course_id!r}
c.ClearSolutions.code_stub = {{"python": {stub!r}}}
# Where released assignments and submissions meet: a folder the instructor and every student can write to.
# The class hub makes it in graded mode (hub/README.md); elsewhere create it once, sticky as /tmp:
#   sudo mkdir -p /srv/nbgrader/exchange && sudo chmod 1777 /srv/nbgrader/exchange
c.Exchange.root = "/srv/nbgrader/exchange"
# A lesson's exercises run in a few seconds; this bounds a submission that loops forever.
c.ExecutePreprocessor.timeout = 120
'''


def _nbgrader(cell: nbformat.NotebookNode, grade_id: str, *, grade=False, solution=False, locked=True, points=None):
    """``cell`` with nbgrader's metadata (schema 3) and ``grade_id`` as its id."""
    metadata = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3, "solution": solution, "task": False}
    if points is not None:
        metadata["points"] = points
    cell.metadata["nbgrader"] = metadata
    cell.id = grade_id
    return cell


def answer_cells(notebook: nbformat.NotebookNode) -> list[tuple[int, str]]:
    """(index, exercise key) of every answer cell, in order."""
    found = []
    for index, cell in enumerate(notebook.cells):
        match = ANSWER.match(cell.source) if cell.cell_type == "code" else None
        if match:
            found.append((index, match["key"]))
    return found


def exercises_section(notebook: nbformat.NotebookNode, name: str) -> list[nbformat.NotebookNode]:
    """The lesson's Exercises section: from the heading above its first answer cell to its last answer cell.

    The heading is the last level-2 heading (``## ``) before the first answer cell, so the section is found in
    either language; text above it in the same cell (the Summary) is left out.
    """
    answers = answer_cells(notebook)
    if not answers:
        raise ValueError(f"{name} needs an answer cell (answer = ... then check(KEY, answer)). Found none.")
    first, last = answers[0][0], answers[-1][0]
    for start in range(first - 1, -1, -1):
        cell = notebook.cells[start]
        headings = [m.start() for m in re.finditer(r"^## ", cell.source, re.M)] if cell.cell_type == "markdown" else []
        if headings:
            opening = nbformat.v4.new_markdown_cell(cell.source[headings[-1] :])
            return [opening, *(nbformat.from_dict(c) for c in notebook.cells[start + 1 : last + 1])]
    raise ValueError(f"{name} needs a '## ' heading above its first exercise. Found none.")


def setup_source(notebook: nbformat.NotebookNode, code: list[str]) -> str:
    """The lesson's first code cell cut down to ``nt``, the imports that ``code`` uses, and its ``set_language`` call.

    Imports nothing else (no plots, no widgets): every submission starts a kernel of its own when it is graded.
    ``check`` and ``inputs`` are imported from ``ndcg_teach.exercises`` whether the lesson did or not, and
    ``recorded`` when ``code`` uses it (questions to think about).
    """
    used = {"nt"} | {node.id for source in code for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}
    first = next(cell.source for cell in notebook.cells if cell.cell_type == "code")
    python = "\n".join(line for line in first.splitlines() if not line.startswith("%"))
    kept, exercises = [], None
    for node in ast.parse(python).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            node.names = [alias for alias in node.names if (alias.asname or alias.name).split(".")[0] in used]
            if not node.names:
                continue
            if isinstance(node, ast.ImportFrom) and node.module == "ndcg_teach.exercises":
                exercises = node
            kept.append(node)
        elif isinstance(node, ast.Expr) and "set_language" in ast.unparse(node):
            kept.append(ast.get_source_segment(python, node))
    if exercises is None:
        exercises = ast.ImportFrom(module="ndcg_teach.exercises", names=[], level=0)
        kept.append(exercises)
    wanted = ("check", "inputs", *(["recorded"] if "recorded" in used else []))
    exercises.names += [ast.alias(name) for name in wanted if name not in {a.name for a in exercises.names}]
    return "\n".join(node if isinstance(node, str) else ast.unparse(node) for node in kept)


def solution_source(solution: Solution, key: str) -> str:
    """The answer cell: the lesson's inputs, the function with its body between BEGIN and END SOLUTION, its call."""
    lines = textwrap.dedent(inspect.getsource(solution.function)).splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith("def "))
    header, body = lines[start], lines[start + 1 :]
    if not header.endswith(":"):
        raise ValueError(f"{solution.function.__name__}'s signature must fit on one line. Got {header!r} instead.")
    name = solution.function.__name__
    return "\n".join(
        [
            f'# inputs("{key}") == {inputs(key)!r}',
            header,
            "    ### BEGIN SOLUTION",
            *body,
            "    ### END SOLUTION",
            "",
            "",
            f'{name}(**inputs("{key}"))',
        ]
    )


def test_source(solution: Solution, key: str) -> str:
    """The autograded cell: ``check`` on the lesson's numbers, then the hidden tests on the other inputs."""
    name = solution.function.__name__
    return "\n".join(
        [
            f'feedback = check("{key}", {name}(**inputs("{key}")))',
            "assert feedback, feedback",
            "### BEGIN HIDDEN TESTS",
            "from dataclasses import replace",
            "from ndcg_teach.exercises import EXERCISES",
            f"for other in {list(solution.others)!r}:",
            f'    exercise, call = replace(EXERCISES["{key}"], inputs=other), f"{name}(**{{other!r}})"',
            f"    verdict = exercise.check({name}(**other))",
            '    assert verdict, f"{call}: {verdict}"',
            "### END HIDDEN TESTS",
            "feedback",
        ]
    )


def question_source(key: str, language: str) -> str:
    """The answer cell of question ``key``: the right letter between BEGIN and END SOLUTION.

    It opens with ``answer = ...``, so an answer cell left as released holds no answer, not the previous question's.
    """
    answer = letters(EXERCISES[key].question.answer)
    return "\n".join([QUESTION_PROMPT[language], "answer = ...", "### BEGIN SOLUTION", f"answer = {answer}", "### END SOLUTION"])


def question_test_source(key: str) -> str:
    """The autograded cell of question ``key``: the visible test takes the answer, the hidden test judges it.

    A question has no inputs, so its hidden test is ``check`` itself on the student's letter.
    """
    return "\n".join(
        [
            f'feedback = recorded("{key}", answer)',
            "### BEGIN HIDDEN TESTS",
            f'verdict = check("{key}", answer)',
            "assert verdict, verdict",
            "### END HIDDEN TESTS",
            "feedback",
        ]
    )


def source_notebook(path: Path, edition: Edition) -> nbformat.NotebookNode:
    """The nbgrader source notebook of the lesson at ``path``, a lesson of ``edition``."""
    lesson = nbformat.read(path, as_version=4)
    keys = [key for _, key in answer_cells(lesson)]
    unknown = [key for key in keys if key not in EXERCISES or (key not in SOLUTIONS and EXERCISES[key].question is None)]
    if unknown:
        raise ValueError(f"every exercise needs a model solution in tools/solutions_lessons_*.py (registered through tools/assignment_solutions.py). Missing: {unknown}.")
    computed = [key for key in keys if EXERCISES[key].question is None]
    if not computed:
        raise ValueError(f"{path.name} needs an exercise that asks for a function, not only questions to think about.")
    number = path.name[:2]
    intro = INTRO[edition.language].format(
        label=f"{number} · {title(lesson, path.name)}",
        number=number,
        lesson_url=binder_url(path.name, edition),
        example=SOLUTIONS[computed[0]].function.__name__,
        example_key=computed[0],
        points=POINTS,
        questions=QUESTIONS[edition.language].format(points=POINTS) if any(EXERCISES[key].question for key in keys) else "",
    )
    cells, texts = [], 0
    for cell in exercises_section(lesson, path.name):
        match = ANSWER.match(cell.source) if cell.cell_type == "code" else None
        if match and EXERCISES[match["key"]].question is not None:
            key = match["key"]
            cells.append(_nbgrader(nbformat.v4.new_code_cell(question_source(key, edition.language)), f"{key}-answer", solution=True, locked=False))
            cells.append(_nbgrader(nbformat.v4.new_code_cell(question_test_source(key)), f"{key}-test", grade=True, points=POINTS))
        elif match:
            key, solution = match["key"], SOLUTIONS[match["key"]]
            cells.append(_nbgrader(nbformat.v4.new_code_cell(solution_source(solution, key)), f"{key}-answer", solution=True, locked=False))
            cells.append(_nbgrader(nbformat.v4.new_code_cell(test_source(solution, key)), f"{key}-test", grade=True, points=POINTS))
        else:
            texts += 1
            fresh = nbformat.v4.new_markdown_cell(cell.source) if cell.cell_type == "markdown" else nbformat.v4.new_code_cell(cell.source)
            cells.append(_nbgrader(fresh, f"text-{texts}"))
    setup = setup_source(lesson, [cell.source for cell in cells if cell.cell_type == "code"])
    cells[:0] = [
        _nbgrader(nbformat.v4.new_markdown_cell(intro.strip()), "intro"),
        _nbgrader(nbformat.v4.new_code_cell(setup), "setup"),
    ]
    notebook = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": dict(lesson.metadata["kernelspec"])})
    nbformat.validate(notebook)
    return notebook


def twins(edition: Edition) -> list[tuple[Path, Path]]:
    """(lesson, its English twin) for every lesson of ``edition`` that has exercises, matched by number.

    An assignment is named after the English twin (its file name without ``.ipynb``) in both editions.
    """
    english = {path.name[:2]: path for path in lessons(EDITIONS[0].directory)}
    found = []
    for path in lessons(edition.directory):
        if answer_cells(nbformat.read(path, as_version=4)):
            found.append((path, english.get(path.name[:2], path)))
    return found


def write_course(out: Path, edition: Edition) -> Path:
    """Write ``edition``'s course (config and source notebooks) into ``out/<language>``; return its root."""
    root = out / edition.language
    shutil.rmtree(root / "source", ignore_errors=True)
    root.mkdir(parents=True, exist_ok=True)
    names = {"en": "English", "zh-CN": "Simplified Chinese"}
    (root / "nbgrader_config.py").write_text(
        CONFIG.format(course_id=COURSE_ID[edition.language], language=names[edition.language], stub=CODE_STUB[edition.language]),
        encoding="utf-8",
    )
    for path, english in twins(edition):
        target = root / "source" / english.stem / f"{english.stem}.ipynb"
        target.parent.mkdir(parents=True)
        nbformat.write(source_notebook(path, edition), target)
    return root


def api(root: Path):
    """nbgrader's Python API for the course at ``root``, configured by its nbgrader_config.py."""
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config, PyFileConfigLoader

    # nbgrader runs the `alembic` command to open its gradebook: find it beside this Python, as in an activated venv.
    bin_dir = str(Path(sys.executable).parent)
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
    config = Config()
    config.merge(PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config())
    config.CourseDirectory.root = str(root)
    return NbGraderAPI(config=config)


def release(root: Path) -> list[str]:
    """Run nbgrader's generate_assignment on every source assignment of the course at ``root``."""
    grader = api(root)
    names = sorted(path.name for path in (root / "source").iterdir() if path.is_dir())
    for name in names:
        result = grader.generate_assignment(name)
        if not result["success"]:
            raise RuntimeError(f"nbgrader generate_assignment {name} failed:\n{result.get('error') or result.get('log')}")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"where the courses go (default: {OUT.relative_to(ROOT)})")
    parser.add_argument("--edition", choices=[edition.language for edition in EDITIONS], help="only this edition")
    parser.add_argument("--no-release", action="store_true", help="write the source notebooks only")
    args = parser.parse_args(argv)
    for edition in EDITIONS:
        if args.edition and edition.language != args.edition:
            continue
        root = write_course(args.out, edition)
        count = len(list((root / "source").iterdir()))
        if not args.no_release:
            release(root)
        done = "source" if args.no_release else "source and release"
        print(f"{edition.language}: {count} assignments ({done}) in {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
