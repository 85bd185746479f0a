"""Lesson 04: precision and recall at k."""

import ndcg_teach as nt

from .framework import Exercise, _number_judge

_PR_LIST = [2, 0, 1, 0, 3]
_SHORT_LIST = [1, 0, 1]


LESSON_EXERCISES = (
    Exercise(
        "04-precision",
        "04-precision-recall-at-k",
        "P@3 of [2, 0, 1, 0, 3] with threshold 1",
        "number",
        _number_judge(
            lambda: nt.precision_at_k(_PR_LIST, 3),
            "Count the grades of at least 1 among the first three, then divide by 3.",
            [
                (
                    lambda: nt.cg(_PR_LIST, k=3) / 3,
                    "You averaged the grades; precision counts relevant results, whatever their grade.",
                ),
                (
                    lambda: nt.precision_at_k(_PR_LIST, 3) * 3 / len(_PR_LIST),
                    "You divided by the length of the list; P@3 divides by 3.",
                ),
            ],
        ),
        right="Precision@k asks: of what I showed, how much was relevant?",
    ),
    Exercise(
        "04-recall",
        "04-precision-recall-at-k",
        "R@3 of [2, 0, 1, 0, 3] when the query has 4 relevant items",
        "number",
        _number_judge(
            lambda: nt.recall_at_k(_PR_LIST, 3, n_relevant=4),
            "Divide the relevant results among the first three by the relevant items of the whole query.",
            [
                (
                    lambda: nt.recall_at_k(_PR_LIST, 3),
                    "The query has 4 relevant items, not only the ones that made it into the list.",
                ),
                (lambda: nt.precision_at_k(_PR_LIST, 3), "That is precision, which divides by k."),
            ],
        ),
        right="Recall@k asks: of everything relevant, how much did I show?",
    ),
    Exercise(
        "04-threshold",
        "04-precision-recall-at-k",
        "P@3 of [2, 0, 1, 0, 3] with threshold 2",
        "number",
        _number_judge(
            lambda: nt.precision_at_k(_PR_LIST, 3, threshold=2),
            "Only grades of 2 or more count as relevant now.",
            [(lambda: nt.precision_at_k(_PR_LIST, 3), "That is the answer for threshold 1; the grade-1 result no longer counts.")],
        ),
        right="Raising the threshold can only keep or lower precision.",
    ),
    Exercise(
        "04-short-list",
        "04-precision-recall-at-k",
        "P@5 of the three-result list [1, 0, 1], dividing by k",
        "number",
        _number_judge(
            lambda: nt.precision_at_k(_SHORT_LIST, 5),
            "The two missing positions count as not relevant, and the division is still by 5.",
            [
                (
                    lambda: nt.precision_at_k(_SHORT_LIST, 5, adaptive_k=True),
                    "You divided by the length of the list; this exercise divides by k, as trec_eval does.",
                )
            ],
        ),
        right="A system that returns fewer than k results pays for the empty slots.",
    ),
)
