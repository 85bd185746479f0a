"""Lesson 05: average precision, MAP and reciprocal rank."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge
from .questions import question, right, wrong

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

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "05-what-ap-rewards",
        LESSON,
        "why a tool reports AP = 1 for a ranker that found one relevant item",
        mark("A query has 10 relevant items.\n"
             "Ranker X finds one of them, at position 1, and nothing else; a tool reports AP = 1 for it.\n"
             "What has happened?"),
        wrong(mark("X is a perfect ranker: its only result is on top."),
              mark("X left nine relevant items unfound; a user who needs them gets nothing from X.")),
        wrong(mark("AP stops at the first relevant item, as RR does."),
              mark("That is RR. AP adds the precision at every relevant item's position, and a relevant item never retrieved adds 0 to that sum.")),
        right(mark("The tool divides by the relevant items retrieved, not by all 10 of the query."),
              mark("Dividing by the relevant items retrieved lets one hit at rank 1 score 1, however many were missed; the standard AP divides by all 10 and gives X 0.1.")),
        wrong(mark("The relevance threshold was set too low."),
              mark("A lower threshold only makes more grades count as relevant, so X would have even more relevant items left to find; it cannot turn one found out of ten into a perfect score.")),
    ),
    question(
        "05-rr-or-ap",
        LESSON,
        "when reciprocal rank is the right metric",
        mark("When is mean reciprocal rank the better choice than MAP?"),
        right(mark("For navigational search, such as finding a company's home page: the user needs one good result and leaves."),
              mark("RR asks only how far down the first good result is, which is all this user needs; the other relevant results do not matter to them.")),
        wrong(mark("For a patent search in which the examiner must see every relevant patent."),
              mark("RR ignores everything after the first hit, so it cannot see whether the other relevant patents were found; AP charges for every one missed.")),
        wrong(mark("For comparing rankers that place many relevant items in different orders."),
              mark("[1, 0, 0, 0, 0] and [1, 1, 1, 1, 1] both have RR = 1: RR cannot tell such lists apart, AP can.")),
        wrong(mark("For graded judgements with many grades."),
              mark("RR, like AP, needs binary relevance: it would first cut the grades at a threshold, and graded data points to NDCG rather than to RR.")),
    ),
)
