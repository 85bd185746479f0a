"""Lesson 03: the ideal ranking, IDCG and NDCG."""

import ndcg_teach as nt

from .framework import Exercise, _number_judge

_IDEAL_LIST = [1, 0, 3, 2]
_POOL_RANKED, _POOL = [2, 0, 1], [3, 2, 1, 0]
_ZERO_LIST = [0, 3, 2]


LESSON_EXERCISES = (
    Exercise(
        "03-idcg",
        "03-ideal-ranking-ndcg",
        "IDCG@3 of [1, 0, 3, 2]",
        "number",
        _number_judge(
            lambda: nt.idcg(_IDEAL_LIST, k=3),
            "Sort all four grades from high to low, keep the first three, and take their DCG.",
            [
                (lambda: nt.dcg(_IDEAL_LIST, k=3), "That is the DCG of the list as ranked; IDCG ranks the grades best first."),
                (
                    lambda: nt.dcg(sorted(_IDEAL_LIST[:3], reverse=True)),
                    "You sorted only the first three results; the ideal list picks the best three of all four grades.",
                ),
            ],
        ),
        right="The ideal list is the best any ranker could do with these grades.",
    ),
    Exercise(
        "03-ndcg",
        "03-ideal-ranking-ndcg",
        "NDCG@3 of [1, 0, 3, 2]",
        "number",
        _number_judge(
            lambda: nt.ndcg(_IDEAL_LIST, k=3),
            "Divide DCG@3 of the list by IDCG@3 from the previous exercise.",
            [
                (lambda: nt.ndcg(_IDEAL_LIST), "That is NDCG@4; stop both sums after position 3."),
                (
                    lambda: nt.dcg(_IDEAL_LIST, k=3) / nt.dcg(sorted(_IDEAL_LIST[:3], reverse=True)),
                    "Your IDCG sorted only the first three results; the ideal list picks the best three of all four grades.",
                ),
            ],
        ),
        right="The grade-3 result sits at position 3: moving it up is where the score would come from.",
    ),
    Exercise(
        "03-pool",
        "03-ideal-ranking-ndcg",
        "NDCG@3 of [2, 0, 1] when a judged grade-3 item was not retrieved",
        "number",
        _number_judge(
            lambda: nt.ndcg(_POOL_RANKED, k=3, pool=_POOL),
            "Build the ideal list from every judged grade of the query, retrieved or not.",
            [(lambda: nt.ndcg(_POOL_RANKED, k=3), "Your ideal list forgot the grade-3 item the ranker missed.")],
        ),
        right="Missing the best item now costs the ranker, as it should.",
    ),
    Exercise(
        "03-worst-k",
        "03-ideal-ranking-ndcg",
        "the k from 1 to 3 that gives [0, 3, 2] its lowest NDCG@k",
        "number",
        _number_judge(
            lambda: min(range(1, 4), key=lambda k: nt.ndcg(_ZERO_LIST, k=k)),
            "Compute NDCG@1, NDCG@2 and NDCG@3 and pick the k of the smallest.",
            tolerance=1e-9,
        ),
        right="A small k judges the top alone, so one bad first result weighs everything.",
    ),
)
