"""Lesson 01: relevance grades and cumulative gain."""

import math

import ndcg_teach as nt

from .framework import Exercise, _choice_judge, _number_judge

_CG_LIST = [3, 0, 2, 1]


def _compare(new: float, old: float) -> str:
    if math.isclose(new, old, rel_tol=1e-12, abs_tol=1e-12):
        return "same"
    return "up" if new > old else "down"


LESSON_EXERCISES = (
    Exercise(
        "01-cg",
        "01-relevance-and-cg",
        "CG of [3, 0, 2, 1]",
        "number",
        _number_judge(
            lambda: nt.cg(_CG_LIST),
            "Add the grades of every position.",
            [(lambda: sum(1 for grade in _CG_LIST if grade > 0), "You counted the relevant results; CG adds their grades.")],
        ),
        right="CG adds the grades and ignores where they sit.",
    ),
    Exercise(
        "01-cg-at-k",
        "01-relevance-and-cg",
        "CG@2 of [3, 0, 2, 1]",
        "number",
        _number_judge(
            lambda: nt.cg(_CG_LIST, k=2),
            "CG@k adds the grades of positions 1 to k only.",
            [(lambda: nt.cg(_CG_LIST), "You added the whole list; CG@2 stops after position 2.")],
        ),
        right="The cut-off k decides how much of the list is looked at.",
    ),
    Exercise(
        "01-cg-order",
        "01-relevance-and-cg",
        "does reversing [3, 0, 2, 1] change CG@4",
        "choice",
        _choice_judge(
            ("up", "down", "same"),
            lambda: _compare(nt.cg(_CG_LIST[::-1]), nt.cg(_CG_LIST)),
            "Compute CG@4 for both orders and compare.",
        ),
        right="That blindness to order is why DCG exists: lesson 02.",
    ),
)
