"""Lesson 05: average precision, MAP and reciprocal rank."""

import ndcg_teach as nt

from .framework import Exercise, _number_judge

_AP_LIST = [1, 0, 1, 0, 0, 1]
_RR_LIST = [0, 0, 1, 0, 1]
_MAP_QUERIES = [[1, 0, 1], [0, 1, 0]]


LESSON_EXERCISES = (
    Exercise(
        "05-ap",
        "05-average-precision-map-rr",
        "AP of [1, 0, 1, 0, 0, 1]",
        "number",
        _number_judge(
            lambda: nt.average_precision(_AP_LIST),
            "Take the precision at each relevant position, add them, and divide by the number of relevant results.",
            [
                (
                    lambda: sum(nt.precision_at_k(_AP_LIST, k) for k in range(1, len(_AP_LIST) + 1)) / len(_AP_LIST),
                    "You averaged precision at every position; AP uses the positions of relevant results only.",
                ),
                (
                    lambda: nt.average_precision(_AP_LIST) * 3 / 6,
                    "You divided by the length of the list; divide by the number of relevant results.",
                ),
            ],
        ),
        right="Each relevant result contributes the precision at its position.",
    ),
    Exercise(
        "05-ap-all-relevant",
        "05-average-precision-map-rr",
        "AP of [1, 0, 1, 0, 0, 1] when the query has 5 relevant items",
        "number",
        _number_judge(
            lambda: nt.average_precision(_AP_LIST, n_relevant=5),
            "Same sum of precisions as before, but divide by all relevant items of the query.",
            [(lambda: nt.average_precision(_AP_LIST), "You divided by the relevant results in the list; the query has 5.")],
        ),
        right="This is trec_eval's AP: relevant items never retrieved count as precision 0.",
    ),
    Exercise(
        "05-rr",
        "05-average-precision-map-rr",
        "RR of [0, 0, 1, 0, 1]",
        "number",
        _number_judge(
            lambda: nt.reciprocal_rank(_RR_LIST),
            "Find the position of the first relevant result and take one over it.",
            [
                (lambda: 1 / nt.reciprocal_rank(_RR_LIST), "That is the position itself; RR is one over it."),
                (lambda: nt.average_precision(_RR_LIST), "That is AP; RR looks at the first relevant result only."),
            ],
        ),
        right="RR is all about how far a user scrolls to the first good result.",
    ),
    Exercise(
        "05-map",
        "05-average-precision-map-rr",
        "MAP of the queries [1, 0, 1] and [0, 1, 0]",
        "number",
        _number_judge(
            lambda: nt.mean_average_precision(_MAP_QUERIES),
            "Compute AP for each query, then take the mean of the two.",
            [
                (
                    lambda: nt.average_precision(_MAP_QUERIES[0] + _MAP_QUERIES[1]),
                    "You joined the two lists into one; MAP averages the per-query APs.",
                )
            ],
        ),
        right="Every query weighs the same in MAP, however many relevant items it has.",
    ),
)
