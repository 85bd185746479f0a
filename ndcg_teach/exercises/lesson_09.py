"""Lesson 09: evaluating a model over several queries."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _number_judge

LESSON = "09-evaluating-a-model"

_RANKER_A = [[3, 2, 0, 1], [0, 1, 2, 0], [2, 2, 0, 0]]
_RANKER_B = [[2, 3, 1, 0], [2, 1, 0, 0], [0, 2, 2, 0]]
"""Two rankers' relevance lists for the same three queries (lesson 09)."""


LESSON_EXERCISES = (
    Exercise(
        "09-mean-ndcg",
        LESSON,
        "mean NDCG@3 of ranker A over its three queries",
        "number",
        inputs={"queries": _RANKER_A, "k": 3},
        judge=_number_judge(
            lambda inp: nt.mean_ndcg(**inp),
            mark("Compute NDCG@3 for each query of ranker A, then average the three."),
            [
                (lambda inp: nt.mean_ndcg(inp["queries"]), mark("That is mean NDCG over whole lists; cut each at k = 3.")),
                (
                    lambda inp: nt.mean_ndcg(**(inp | {"gain": "exponential"})),
                    mark("That uses the exponential gain; this exercise uses the linear one."),
                ),
            ],
        ),
        right=mark("The mean hides how different the queries are: the next exercise looks at them one by one."),
    ),
    Exercise(
        "09-wins",
        LESSON,
        "on how many queries ranker B beats ranker A on NDCG@3",
        "number",
        inputs={"ranker_a": _RANKER_A, "ranker_b": _RANKER_B, "k": 3},
        judge=_number_judge(
            lambda inp: sum(
                nt.ndcg(b, k=inp["k"]) > nt.ndcg(a, k=inp["k"]) for a, b in zip(inp["ranker_a"], inp["ranker_b"])
            ),
            mark("Compare NDCG@3 of A and B query by query and count B's wins."),
            tolerance=1e-9,
        ),
        right=mark("Counting wins per query tells you more than one mean."),
    ),
    Exercise(
        "09-smallest-p",
        LESSON,
        "the smallest two-sided p-value an exact randomisation test can give on three queries",
        "number",
        inputs={"n_queries": 3},
        judge=_number_judge(
            lambda inp: 2 / 2 ** inp["n_queries"],
            mark("Count the sign assignments of the three differences, and those at least as far from 0 as the observed one"
            " in the most extreme case: the observed signs, and all of them flipped."),
            [
                (
                    lambda inp: 1 / 2 ** inp["n_queries"],
                    mark("That counts the observed signs only; flipping every sign gives a mean just as far from 0."),
                ),
                (lambda inp: 0.05, mark("0.05 is the usual threshold, not the smallest p-value three queries can give.")),
            ],
            tolerance=1e-9,
        ),
        right=mark("Three queries can never give p below 0.25, however much better one ranker is: a handful of queries"
        " cannot show a difference."),
    ),
)
