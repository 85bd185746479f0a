"""Lesson 04: precision and recall at k."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _number_judge

LESSON = "04-precision-recall-at-k"
_RELEVANCES = [2, 0, 1, 0, 3]


LESSON_EXERCISES = (
    Exercise(
        "04-precision",
        LESSON,
        "P@3 of [2, 0, 1, 0, 3] with threshold 1",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 3, "threshold": 1},
        judge=_number_judge(
            lambda inp: nt.precision_at_k(**inp),
            mark("Count the grades of at least 1 among the first three, then divide by 3."),
            [
                (
                    lambda inp: nt.cg(inp["relevances"], k=inp["k"]) / inp["k"],
                    mark("You averaged the grades; precision counts relevant results, whatever their grade."),
                ),
                (
                    lambda inp: nt.precision_at_k(**inp) * inp["k"] / len(inp["relevances"]),
                    mark("You divided by the length of the list; P@3 divides by 3."),
                ),
            ],
        ),
        right=mark("Precision@k asks: of what I showed, how much was relevant?"),
    ),
    Exercise(
        "04-recall",
        LESSON,
        "R@3 of [2, 0, 1, 0, 3] when the query has 4 relevant items",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 3, "n_relevant": 4},
        judge=_number_judge(
            lambda inp: nt.recall_at_k(**inp),
            mark("Divide the relevant results among the first three by the relevant items of the whole query."),
            [
                (
                    lambda inp: nt.recall_at_k(inp["relevances"], k=inp["k"]),
                    mark("The query has 4 relevant items, not only the ones that made it into the list."),
                ),
                (
                    lambda inp: nt.precision_at_k(inp["relevances"], k=inp["k"]),
                    mark("That is precision, which divides by k."),
                ),
            ],
        ),
        right=mark("Recall@k asks: of everything relevant, how much did I show?"),
    ),
    Exercise(
        "04-threshold",
        LESSON,
        "P@3 of [2, 0, 1, 0, 3] with threshold 2",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 3, "threshold": 2},
        judge=_number_judge(
            lambda inp: nt.precision_at_k(**inp),
            mark("Only grades of 2 or more count as relevant now."),
            [
                (
                    lambda inp: nt.precision_at_k(**(inp | {"threshold": 1})),
                    mark("That is the answer for threshold 1; the grade-1 result no longer counts."),
                )
            ],
        ),
        right=mark("Raising the threshold can only keep or lower precision."),
    ),
    Exercise(
        "04-short-list",
        LESSON,
        "P@5 of the three-result list [1, 0, 1], dividing by k",
        "number",
        inputs={"relevances": [1, 0, 1], "k": 5, "adaptive_k": False},
        judge=_number_judge(
            lambda inp: nt.precision_at_k(**inp),
            mark("The two missing positions count as not relevant, and the division is still by 5."),
            [
                (
                    lambda inp: nt.precision_at_k(**(inp | {"adaptive_k": True})),
                    mark("You divided by the length of the list; this exercise divides by k, as trec_eval does."),
                )
            ],
        ),
        right=mark("A system that returns fewer than k results pays for the empty slots."),
    ),
)
