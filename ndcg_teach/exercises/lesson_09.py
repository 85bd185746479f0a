"""Lesson 09: evaluating a model over several queries."""

import ndcg_teach as nt

from .framework import Exercise, _number_judge

_RUN_A = [[3, 2, 0, 1], [0, 1, 2, 0], [2, 2, 0, 0]]
_RUN_B = [[2, 3, 1, 0], [2, 1, 0, 0], [0, 2, 2, 0]]
"""Two rankers' relevance lists for the same three queries (lesson 09)."""


LESSON_EXERCISES = (
    Exercise(
        "09-mean-ndcg",
        "09-evaluating-a-model",
        "mean NDCG@3 of ranker A over its three queries",
        "number",
        _number_judge(
            lambda: nt.mean_ndcg(_RUN_A, k=3),
            "Compute NDCG@3 for each query of ranker A, then average the three.",
            [
                (lambda: nt.mean_ndcg(_RUN_A), "That is mean NDCG over whole lists; cut each at k = 3."),
                (
                    lambda: nt.mean_ndcg(_RUN_A, k=3, gain="exponential"),
                    "That uses the exponential gain; this exercise uses the linear one.",
                ),
            ],
        ),
        right="The mean hides how different the queries are: the next exercise looks at them one by one.",
    ),
    Exercise(
        "09-wins",
        "09-evaluating-a-model",
        "on how many queries ranker B beats ranker A on NDCG@3",
        "number",
        _number_judge(
            lambda: sum(nt.ndcg(b, k=3) > nt.ndcg(a, k=3) for a, b in zip(_RUN_A, _RUN_B)),
            "Compare NDCG@3 of A and B query by query and count B's wins.",
            tolerance=1e-9,
        ),
        right="Counting wins per query tells you more than one mean.",
    ),
)
