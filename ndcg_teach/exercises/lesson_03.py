"""Lesson 03: the ideal ranking, IDCG and NDCG."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge

LESSON = "03-ideal-ranking-ndcg"
_RELEVANCES = [1, 0, 3, 2]


def _idcg_of_the_top_k_only(inp: Inputs) -> float:
    """The slip of building the ideal list from the first k results instead of from every grade."""
    return nt.dcg(sorted(inp["relevances"][: inp["k"]], reverse=True))


LESSON_EXERCISES = (
    Exercise(
        "03-idcg",
        LESSON,
        "IDCG@3 of [1, 0, 3, 2]",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 3},
        judge=_number_judge(
            lambda inp: nt.idcg(**inp),
            mark("Sort all four grades from high to low, keep the first three, and take their DCG."),
            [
                (
                    lambda inp: nt.dcg(**inp),
                    mark("That is the DCG of the list as ranked; IDCG ranks the grades best first."),
                ),
                (
                    _idcg_of_the_top_k_only,
                    mark("You sorted only the first three results; the ideal list picks the best three of all four grades."),
                ),
            ],
        ),
        right=mark("The ideal list is the best any ranker could do with these grades."),
    ),
    Exercise(
        "03-ndcg",
        LESSON,
        "NDCG@3 of [1, 0, 3, 2]",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 3},
        judge=_number_judge(
            lambda inp: nt.ndcg(**inp),
            mark("Divide DCG@3 of the list by IDCG@3 from the previous exercise."),
            [
                (lambda inp: nt.ndcg(inp["relevances"]), mark("That is NDCG@4; stop both sums after position 3.")),
                (
                    lambda inp: nt.dcg(**inp) / _idcg_of_the_top_k_only(inp),
                    mark("Your IDCG sorted only the first three results; the ideal list picks the best three of all four grades."),
                ),
            ],
        ),
        right=mark("The grade-3 result sits at position 3: moving it up is where the score would come from."),
    ),
    Exercise(
        "03-pool",
        LESSON,
        "NDCG@3 of [0, 2, 1] when a judged grade-3 item was not retrieved",
        "number",
        # Not [2, 0, 1]: its NDCG@3 is 0.525 like 03-ndcg's, which made learners think they had slipped.
        inputs={"relevances": [0, 2, 1], "k": 3, "pool": [3, 2, 1, 0]},
        judge=_number_judge(
            lambda inp: nt.ndcg(**inp),
            mark("Build the ideal list from every judged grade of the query, retrieved or not."),
            [
                (
                    lambda inp: nt.ndcg(inp["relevances"], k=inp["k"]),
                    mark("Your ideal list forgot the grade-3 item the ranker missed."),
                )
            ],
        ),
        right=mark("Missing the best item now costs the ranker, as it should."),
    ),
    Exercise(
        "03-worst-k",
        LESSON,
        "the k from 1 to 3 that gives [0, 3, 2] its lowest NDCG@k",
        "number",
        inputs={"relevances": [0, 3, 2]},
        judge=_number_judge(
            lambda inp: min(
                range(1, len(inp["relevances"]) + 1), key=lambda k: nt.ndcg(inp["relevances"], k=k)
            ),
            mark("Compute NDCG@1, NDCG@2 and NDCG@3 and pick the k of the smallest."),
            tolerance=1e-9,
            example="2",
        ),
        right=mark("A small k judges the top alone, so one bad first result weighs everything."),
    ),
)
