"""Lesson 04: precision and recall at k."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _number_judge
from .questions import question, right, wrong

LESSON = "04-precision-recall-at-k"
_RELEVANCES = [2, 0, 1, 0, 3]


LESSON_EXERCISES = (
    Exercise(
        "04-precision",
        LESSON,
        "P@3 of [2, 0, 1, 0, 3] with threshold 1",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 3, "threshold": 1},
        judge=_number_judge(
            lambda inp: nt.precision_at_k(**inp),
            mark("Count the grades of at least 1 among the first three, then divide by 3."),
            [
                (
                    lambda inp: nt.cg(inp["relevances"], k=inp["k"]) / inp["k"],
                    mark("You averaged the grades; precision counts relevant results, whatever their grade."),
                ),
                (
                    lambda inp: nt.precision_at_k(**inp) * inp["k"] / len(inp["relevances"]),
                    mark("You divided by the length of the list; P@3 divides by 3."),
                ),
            ],
        ),
        right=mark("Precision@k asks: of what I showed, how much was relevant?"),
    ),
    Exercise(
        "04-recall",
        LESSON,
        "R@3 of [2, 0, 1, 0, 3] when the query has 4 relevant items",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 3, "n_relevant": 4},
        judge=_number_judge(
            lambda inp: nt.recall_at_k(**inp),
            mark("Divide the relevant results among the first three by the relevant items of the whole query."),
            [
                (
                    lambda inp: nt.recall_at_k(inp["relevances"], k=inp["k"]),
                    mark("The query has 4 relevant items, not only the ones that made it into the list."),
                ),
                (
                    lambda inp: nt.precision_at_k(inp["relevances"], k=inp["k"]),
                    mark("That is precision, which divides by k."),
                ),
            ],
        ),
        right=mark("Recall@k asks: of everything relevant, how much did I show?"),
    ),
    Exercise(
        "04-threshold",
        LESSON,
        "P@3 of [2, 0, 1, 0, 3] with threshold 2",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 3, "threshold": 2},
        judge=_number_judge(
            lambda inp: nt.precision_at_k(**inp),
            mark("Only grades of 2 or more count as relevant now."),
            [
                (
                    lambda inp: nt.precision_at_k(**(inp | {"threshold": 1})),
                    mark("That is the answer for threshold 1; the grade-1 result no longer counts."),
                )
            ],
        ),
        right=mark("Raising the threshold can only keep or lower precision."),
    ),
    Exercise(
        "04-short-list",
        LESSON,
        "P@5 of the three-result list [1, 0, 1], dividing by k",
        "number",
        inputs={"relevances": [1, 0, 1], "k": 5, "adaptive_k": False},
        judge=_number_judge(
            lambda inp: nt.precision_at_k(**inp),
            mark("The two missing positions count as not relevant, and the division is still by 5."),
            [
                (
                    lambda inp: nt.precision_at_k(**(inp | {"adaptive_k": True})),
                    mark("You divided by the length of the list; this exercise divides by k, as trec_eval does."),
                )
            ],
        ),
        right=mark("A system that returns fewer than k results pays for the empty slots."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "04-which-metric",
        LESSON,
        "precision or recall for a legal search and a phone screen",
        mark("A legal team must find every document relevant to a case.\n"
             "A shopping app shows four products on a phone screen.\n"
             "Which metrics fit?"),
        wrong(mark("Precision@k for the legal team, recall@4 for the app."),
              mark("Swapped: precision does not notice the relevant documents the team never saw, and recall@4 divides by every relevant product in the catalogue, most of which four slots could never show.")),
        right(mark("Recall@k for the legal team, precision@4 for the app."),
              mark("Missing a relevant document is what hurts the legal team, and recall counts the share of all relevant documents found; the app's user sees four slots, and P@4 says how many of them were useful.")),
        wrong(mark("Either metric for both: they always agree on which of two systems is better."),
              mark("They can disagree: a system that shows a few sure hits has high precision and low recall, one that shows everything the reverse.")),
        wrong(mark("Neither: with graded judgements only NDCG is meaningful."),
              mark("Both tasks can be judged as relevant or not; precision and recall need only a threshold, stated with the number.")),
    ),
    question(
        "04-two-papers",
        LESSON,
        "why two papers report different P@5 for one ranker",
        mark("Two papers evaluate the same ranker on the same data, graded 0 to 3.\n"
             "One reports P@5 = 0.6, the other P@5 = 0.2.\n"
             "What is the most likely explanation?"),
        wrong(mark("One of the papers made an arithmetic slip."),
              mark("A slip is possible, but both numbers fit one list exactly (section 4's list gives 0.6 and 0.2); look for a convention nobody stated before you blame the arithmetic.")),
        wrong(mark("One of them ignored the order within the top 5."),
              mark("Every P@5 ignores the order within the top 5, so that cannot make two of them differ.")),
        wrong(mark("One of them divided by the length of a shorter list instead of by 5."),
              mark("Dividing by a shorter list's length only raises P@5, and a P@5 of 0.2 means one hit: one hit over a list of 1 to 4 results gives 1, 0.5, 0.33 or 0.25, never 0.6.")),
        right(mark("They used different relevance thresholds."),
              mark("Precision needs relevant or not: counting grade 1 up as relevant, or only grade 3, takes P@5 of the same list from 0.6 to 0.2. Neither number means anything without its threshold.")),
    ),
)
