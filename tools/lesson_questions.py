"""The cells of the lessons' questions to think about, written from their definitions (build_lessons.py calls it).

A question to think about is defined once, in ``ndcg_teach/exercises/lesson_NN.py``
(:mod:`ndcg_teach.exercises.questions`); its lesson shows it in three cells, found by their ids:

- ``question-KEY``, Markdown: the stem and the lettered options in the edition's language, as
  ``Question.markdown`` writes them (the lesson's first question opens with the heading and how to answer);
- ``answer-KEY``, code: ``answer = ...`` then ``check("KEY", answer)``, the answer cell every exercise has;
- ``solution-KEY``, code, in the Solutions: every option with why it is right or wrong, then ``check`` of the
  right letter.

The first question goes after the lesson's last exercise, each next one after the one before, and their
solutions after the lesson's last solution.  ``questions`` adds the cells of a question the lesson lacks,
removes those of a question that no longer exists and rewrites the sources of the others, so that a lesson
and its definitions cannot drift apart (``build_lessons.py --check`` reports a difference).  A new code cell
has no output until the lesson is executed (``build_lessons.py --execute``).
"""

from __future__ import annotations

import re

import nbformat

from ndcg_teach.exercises import EXERCISES

GENERATED = "<!-- Written by tools/build_lessons.py from ndcg_teach/exercises/lesson_{number}.py: edit the question there, not this cell. -->"
ANSWER = re.compile(r'\Aanswer = \.\.\.\s*\ncheck\("(?P<key>[^"]+)", answer\)\s*\Z')
KINDS = ("question", "answer", "solution")


def asked(slug: str) -> list[str]:
    """The keys of lesson ``slug``'s questions to think about, in the order the lesson asks them."""
    return [key for key, exercise in EXERCISES.items() if exercise.lesson == slug and exercise.question is not None]


def letters(answer: str | tuple[str, ...]) -> str:
    """The right answer as a learner types it: ``"B"``, or ``("A", "C")``."""
    return f'"{answer}"' if isinstance(answer, str) else "(" + ", ".join(f'"{letter}"' for letter in answer) + ")"


def sources(key: str, number: int, language: str) -> dict[str, str]:
    """The three cells' sources of question ``key``, the lesson's question ``number``, in ``language``."""
    question = EXERCISES[key].question
    return {
        "question": GENERATED.format(number=key[:2]) + "\n" + question.markdown(number, language),
        "answer": f'answer = ...\ncheck("{key}", answer)',
        "solution": "\n".join(
            [
                "# NBVAL_CHECK_OUTPUT",
                "from ndcg_teach.exercises import discussion",
                "",
                f'print(discussion("{key}"))',
                f'check("{key}", {letters(question.answer)})',
            ]
        ),
    }


def _new(kind: str, key: str, source: str) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_markdown_cell(source) if kind == "question" else nbformat.v4.new_code_cell(source)
    cell.id = f"{kind}-{key}"
    return cell


def _kind(cell: nbformat.NotebookNode) -> tuple[str, str] | None:
    """(kind, key) of a question's cell, found by its id; None for every other cell."""
    kind, _, key = cell.get("id", "").partition("-")
    return (kind, key) if kind in KINDS and key else None


def questions(cells: list[nbformat.NotebookNode], slug: str, language: str) -> list[nbformat.NotebookNode]:
    """``cells`` of lesson ``slug`` (without navigation) with the cells of its questions current, in ``language``."""
    keys = asked(slug)
    cells = [cell for cell in cells if _kind(cell) is None or _kind(cell)[1] in keys]
    for number, key in enumerate(keys, start=1):
        wanted = sources(key, number, language)
        found = {kind: next((i for i, cell in enumerate(cells) if _kind(cell) == (kind, key)), None) for kind in KINDS}
        for kind, index in found.items():
            if index is not None:
                cells[index].source = wanted[kind]
        if found["question"] is None and found["answer"] is None:
            after = _last(cells, lambda cell: cell.cell_type == "code" and ANSWER.match(cell.source))
            if after is None:
                raise ValueError(f"{slug} needs an exercise (answer = ... then check(KEY, answer)) before its questions.")
            cells[after + 1 : after + 1] = [_new(kind, key, wanted[kind]) for kind in ("question", "answer")]
        elif None in (found["question"], found["answer"]):
            raise ValueError(f"{slug}: question {key} has only one of its cells question-{key} and answer-{key}.")
        if found["solution"] is None:
            after = _last(cells, lambda cell: _kind(cell) is not None and _kind(cell)[0] == "solution")
            cells.insert(len(cells) if after is None else after + 1, _new("solution", key, wanted["solution"]))
    return cells


def _last(cells: list[nbformat.NotebookNode], holds) -> int | None:
    found = [index for index, cell in enumerate(cells) if holds(cell)]
    return found[-1] if found else None
