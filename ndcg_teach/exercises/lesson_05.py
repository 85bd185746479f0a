"""Lesson 05: average precision, MAP and reciprocal rank."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge

LESSON = "05-average-precision-map-rr"
_RELEVANCES = [1, 0, 1, 0, 0, 1]


def _precisions(inp: Inputs) -> list[tuple[float, bool]]:
    """(P@i, relevant at i) for every position, read from the library's own AP trace."""
    return [(row.precision, row.relevant) for row in nt.explain_average_precision(**inp).rows]


LESSON_EXERCISES = (
    Exercise(
        "05-ap",
        LESSON,
        "AP of [1, 0, 1, 0, 0, 1]",
        "number",
        inputs={"relevances": _RELEVANCES},
        judge=_number_judge(
            lambda inp: nt.average_precision(**inp),
            mark("Take the precision at each relevant position, add them, and divide by the number of relevant results in the list."),
            [
                (
                    lambda inp: nt.average_precision(inp["relevances"], n_relevant=5),
                    mark("That is the standard AP, over all 5 relevant items of the query; the variant divides by the relevant results in the list."),
                ),
                (
                    lambda inp: sum(p for p, _ in _precisions(inp)) / len(inp["relevances"]),
                    mark("You averaged precision at every position; AP uses the positions of relevant results only."),
                ),
                (
                    lambda inp: sum(p for p, relevant in _precisions(inp) if relevant) / len(inp["relevances"]),
                    mark("You divided by the length of the list; divide by the number of relevant results."),
                ),
            ],
        ),
        right=mark("That is the variant: it forgives the relevant items the ranker never retrieved."),
    ),
    Exercise(
        "05-ap-all-relevant",
        LESSON,
        "AP of [1, 0, 1, 0, 0, 1] when the query has 5 relevant items",
        "number",
        inputs={"relevances": _RELEVANCES, "n_relevant": 5},
        judge=_number_judge(
            lambda inp: nt.average_precision(**inp),
            mark("Add the precision at each relevant position, then divide by all relevant items of the query, retrieved or not."),
            [
                (
                    lambda inp: nt.average_precision(inp["relevances"]),
                    mark("You divided by the relevant results in the list (the variant); the query has 5."),
                )
            ],
        ),
        right=mark("This is the standard AP, trec_eval's: relevant items never retrieved count as precision 0."),
    ),
    Exercise(
        "05-rr",
        LESSON,
        "RR of [0, 0, 1, 0, 1]",
        "number",
        inputs={"relevances": [0, 0, 1, 0, 1]},
        judge=_number_judge(
            lambda inp: nt.reciprocal_rank(**inp),
            mark("Find the position of the first relevant result and take one over it."),
            [
                (lambda inp: 1 / nt.reciprocal_rank(**inp), mark("That is the position itself; RR is one over it.")),
                (
                    lambda inp: nt.average_precision(**inp),
                    mark("That is AP; RR looks at the first relevant result only."),
                ),
            ],
        ),
        right=mark("RR is all about how far a user scrolls to the first good result."),
    ),
    Exercise(
        "05-map",
        LESSON,
        "MAP of the queries [1, 0, 1] and [0, 1, 0]",
        "number",
        inputs={"queries": [[1, 0, 1], [0, 1, 0]]},
        judge=_number_judge(
            lambda inp: nt.mean_average_precision(**inp),
            mark("Compute AP for each query, then take the mean of the two."),
            [
                (
                    lambda inp: nt.average_precision([grade for query in inp["queries"] for grade in query]),
                    mark("You joined the two lists into one; MAP averages the per-query APs."),
                )
            ],
        ),
        right=mark("Every query weighs the same in MAP, however many relevant items it has."),
    ),
)
