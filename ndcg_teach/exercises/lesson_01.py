"""Lesson 01: relevance grades and cumulative gain."""

import math

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _choice_judge, _number_judge

LESSON = "01-relevance-and-cg"
_RELEVANCES = [3, 0, 2, 1]


def _compare(new: float, old: float) -> str:
    if math.isclose(new, old, rel_tol=1e-12, abs_tol=1e-12):
        return "same"
    return "up" if new > old else "down"


LESSON_EXERCISES = (
    Exercise(
        "01-cg",
        LESSON,
        "CG of [3, 0, 2, 1]",
        "number",
        inputs={"relevances": _RELEVANCES},
        judge=_number_judge(
            lambda inp: nt.cg(**inp),
            mark("Add the grades of every position."),
            [
                (
                    lambda inp: sum(1 for grade in inp["relevances"] if grade > 0),
                    mark("You counted the relevant results; CG adds their grades."),
                )
            ],
        ),
        right=mark("CG adds the grades and ignores where they sit."),
    ),
    Exercise(
        "01-cg-at-k",
        LESSON,
        "CG@2 of [3, 0, 2, 1]",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 2},
        judge=_number_judge(
            lambda inp: nt.cg(**inp),
            mark("CG@k adds the grades of positions 1 to k only."),
            [(lambda inp: nt.cg(inp["relevances"]), mark("You added the whole list; CG@2 stops after position 2."))],
        ),
        right=mark("The cut-off k decides how much of the list is looked at."),
    ),
    Exercise(
        "01-cg-order",
        LESSON,
        "does reversing [3, 0, 2, 1] change CG@4",
        "choice",
        inputs={"relevances": _RELEVANCES, "k": 4},
        judge=_choice_judge(
            ("up", "down", "same"),
            lambda inp: _compare(nt.cg(inp["relevances"][::-1], k=inp["k"]), nt.cg(**inp)),
            mark("Compute CG@4 for both orders and compare."),
        ),
        right=mark("That blindness to order is why DCG exists: lesson 02."),
    ),
)
