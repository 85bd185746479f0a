"""Lesson 08: why libraries disagree."""

import ndcg_teach as nt

from .framework import Exercise, _number_judge

_TIES_TRUE, _TIES_SCORE = [3, 2, 0], [0.9, 0.9, 0.1]
_AP_SHORT = [1, 0, 0, 1]


LESSON_EXERCISES = (
    Exercise(
        "08-ties",
        "08-why-libraries-disagree",
        "NDCG of y_true [3, 2, 0] scored [0.9, 0.9, 0.1], ties averaged as scikit-learn does",
        "number",
        _number_judge(
            lambda: nt.ndcg_score(_TIES_TRUE, _TIES_SCORE, ties="average"),
            "The two tied items share positions 1 and 2: each gets the mean of those two discounts.",
            [
                (
                    lambda: nt.ndcg_score(_TIES_TRUE, _TIES_SCORE, ties="optimistic"),
                    "You put the better of the tied items first; scikit-learn averages over the tie.",
                ),
                (
                    lambda: nt.ndcg_score(_TIES_TRUE, _TIES_SCORE, ties="pessimistic"),
                    "You put the worse of the tied items first; scikit-learn averages over the tie.",
                ),
            ],
        ),
        right="Averaging means a tie is neither rewarded nor punished for luck.",
    ),
    Exercise(
        "08-ap-trec",
        "08-why-libraries-disagree",
        "AP of [1, 0, 0, 1] the trec_eval way, when the query has 3 relevant items",
        "number",
        _number_judge(
            lambda: nt.average_precision(_AP_SHORT, n_relevant=3),
            "trec_eval divides by every relevant item of the query, retrieved or not.",
            [
                (
                    lambda: nt.average_precision(_AP_SHORT),
                    "That divides by the relevant results retrieved (torchmetrics' way); trec_eval divides by all 3.",
                )
            ],
        ),
        right="The relevant item that was never retrieved adds 0 to the sum but 1 to the denominator.",
    ),
    Exercise(
        "08-short-list",
        "08-why-libraries-disagree",
        "P@5 of [1, 1, 0] the Evidently way (divide by the list length when it is shorter than k)",
        "number",
        _number_judge(
            lambda: nt.precision_at_k([1, 1, 0], 5, adaptive_k=True),
            "Divide the relevant results by min(k, length of the list).",
            [
                (
                    lambda: nt.precision_at_k([1, 1, 0], 5),
                    "That divides by k, as trec_eval and ranx do; here the list is shorter than k.",
                )
            ],
        ),
        right="Same list, same k, two conventions: always say which one you report.",
    ),
)
