"""Lesson 08: why libraries disagree."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _number_judge

LESSON = "08-why-libraries-disagree"


LESSON_EXERCISES = (
    Exercise(
        "08-ties",
        LESSON,
        "NDCG of y_true [3, 2, 0] scored [0.9, 0.9, 0.1], ties averaged as scikit-learn does",
        "number",
        # ndcg_score keeps scikit-learn's names for the grades and the scores.
        inputs={"y_true": [3, 2, 0], "y_score": [0.9, 0.9, 0.1], "ties": "average"},
        judge=_number_judge(
            lambda inp: nt.ndcg_score(**inp),
            mark("The two tied items share positions 1 and 2: each gets the mean of those two discounts."),
            [
                (
                    lambda inp: nt.ndcg_score(**(inp | {"ties": "optimistic"})),
                    mark("You put the better of the tied items first; scikit-learn averages over the tie."),
                ),
                (
                    lambda inp: nt.ndcg_score(**(inp | {"ties": "pessimistic"})),
                    mark("You put the worse of the tied items first; scikit-learn averages over the tie."),
                ),
            ],
        ),
        right=mark("Averaging means a tie is neither rewarded nor punished for luck."),
    ),
    Exercise(
        "08-ap-trec",
        LESSON,
        "AP of [1, 0, 0, 1] the trec_eval way, when the query has 3 relevant items",
        "number",
        inputs={"relevances": [1, 0, 0, 1], "n_relevant": 3},
        judge=_number_judge(
            lambda inp: nt.average_precision(**inp),
            mark("trec_eval divides by every relevant item of the query, retrieved or not."),
            [
                (
                    lambda inp: nt.average_precision(inp["relevances"]),
                    mark("That divides by the relevant results retrieved (torchmetrics' way); trec_eval divides by all 3."),
                )
            ],
        ),
        right=mark("The relevant item that was never retrieved adds 0 to the sum but 1 to the denominator."),
    ),
    Exercise(
        "08-short-list",
        LESSON,
        "P@5 of [1, 1, 0] the Evidently way (divide by the list length when it is shorter than k)",
        "number",
        inputs={"relevances": [1, 1, 0], "k": 5, "adaptive_k": True},
        judge=_number_judge(
            lambda inp: nt.precision_at_k(**inp),
            mark("Divide the relevant results by min(k, length of the list)."),
            [
                (
                    lambda inp: nt.precision_at_k(**(inp | {"adaptive_k": False})),
                    mark("That divides by k, as trec_eval and ranx do; here the list is shorter than k."),
                )
            ],
        ),
        right=mark("Same list, same k, two conventions: always say which one you report."),
    ),
)
