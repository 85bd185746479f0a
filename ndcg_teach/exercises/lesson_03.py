"""Lesson 03: the ideal ranking, IDCG and NDCG."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge
from .questions import question, right, wrong

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

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "03-ideal-from-the-list",
        LESSON,
        "what NDCG = 1 means when the ideal is built from the list",
        mark("A ranker retrieves three items graded 2, 1 and 0, in that order, and a library that builds the ideal ranking from the ranked list itself reports NDCG@3 = 1.\n"
             "The assessors had also judged two grade-3 items that the ranker did not retrieve.\n"
             "What does the 1 say?"),
        wrong(mark("The ranker is perfect for this query."),
              mark("It missed the two best items: with the ideal built from every judged item, its NDCG@3 is 0.4465.")),
        wrong(mark("The query has no relevant items left to find."),
              mark("Two grade-3 items are left to find; an ideal built from the list simply does not know about them.")),
        right(mark("Only that the three retrieved items are in their best order among themselves."),
              mark("An ideal built from the list compares the list with a reshuffle of itself, so items the ranker never returned cannot lower its score: pass the pool.")),
        wrong(mark("The library reports 1 because the IDCG is 0."),
              mark("The list holds positive grades, so its IDCG is positive: the 1 comes from comparing the list with itself, not from the convention for 0/0.")),
    ),
    question(
        "03-a-hopeless-query",
        LESSON,
        "what NDCG = 1 on a query with nothing good hides",
        mark("A ranker scores NDCG@3 = 1 on a query whose best judged item is a single grade-1 item, and 0.7654 on a query with three grade-3 items, where it put two of them on top and a grade-0 item third.\n"
             "Which statement is right?"),
        right(mark("Each query is compared with its own best, so the 1 says nothing about how useful the first query's results were."),
              mark("Dividing by the query's own IDCG erases how good its best list could be: a hopeless query can score 1, so read the per-query scores and the grades, not only the mean.")),
        wrong(mark("The ranker served the first query's user better."),
              mark("The first user got one marginally relevant item, the best there was; the second got two highly relevant ones. The 1 only says the ranker did the best the collection allowed.")),
        wrong(mark("The 0.7654 is wrong: finding two of three grade-3 items at the top deserves 1."),
              mark("The ideal top 3 holds all three grade-3 items; with one of them missing, DCG@3 falls short of IDCG@3.")),
        wrong(mark("The mean of the two, 0.8827, says how useful the ranker's results were to its users."),
              mark("Each NDCG says how close a query came to its own best, not how useful its results were: the 1 counts in full, though the first user got only a marginally relevant item.")),
    ),
)
