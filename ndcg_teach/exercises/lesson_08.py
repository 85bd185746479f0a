"""Lesson 08: why libraries disagree."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _number_judge
from .questions import question, right, wrong

LESSON = "08-why-libraries-disagree"


LESSON_EXERCISES = (
    Exercise(
        "08-ties",
        LESSON,
        "NDCG of y_true [3, 2, 0] scored [0.9, 0.9, 0.1], ties averaged as scikit-learn does",
        "number",
        # ndcg_score keeps scikit-learn's names for the grades and the scores.
        inputs={"y_true": [3, 2, 0], "y_score": [0.9, 0.9, 0.1], "ties": "average"},
        judge=_number_judge(
            lambda inp: nt.ndcg_score(**inp),
            mark("The two tied items share positions 1 and 2: each gets the mean of those two discounts."),
            [
                (
                    lambda inp: nt.ndcg_score(**(inp | {"ties": "optimistic"})),
                    mark("You put the better of the tied items first; scikit-learn averages over the tie."),
                ),
                (
                    lambda inp: nt.ndcg_score(**(inp | {"ties": "pessimistic"})),
                    mark("You put the worse of the tied items first; scikit-learn averages over the tie."),
                ),
            ],
        ),
        right=mark("Averaging means a tie is neither rewarded nor punished for luck."),
    ),
    Exercise(
        "08-ap-trec",
        LESSON,
        "AP of [1, 0, 0, 1] the trec_eval way, when the query has 3 relevant items",
        "number",
        inputs={"relevances": [1, 0, 0, 1], "n_relevant": 3},
        judge=_number_judge(
            lambda inp: nt.average_precision(**inp),
            mark("trec_eval divides by every relevant item of the query, retrieved or not."),
            [
                (
                    lambda inp: nt.average_precision(inp["relevances"]),
                    mark("That divides by the relevant results retrieved (torchmetrics' way); trec_eval divides by all 3."),
                )
            ],
        ),
        right=mark("The relevant item that was never retrieved adds 0 to the sum but 1 to the denominator."),
    ),
    Exercise(
        "08-short-list",
        LESSON,
        "P@5 of [1, 1, 0] the Evidently way (divide by the list length when it is shorter than k)",
        "number",
        inputs={"relevances": [1, 1, 0], "k": 5, "adaptive_k": True},
        judge=_number_judge(
            lambda inp: nt.precision_at_k(**inp),
            mark("Divide the relevant results by min(k, length of the list)."),
            [
                (
                    lambda inp: nt.precision_at_k(**(inp | {"adaptive_k": False})),
                    mark("That divides by k, as trec_eval and ranx do; here the list is shorter than k."),
                )
            ],
        ),
        right=mark("Same list, same k, two conventions: always say which one you report."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "08-which-choices",
        LESSON,
        "which choices make two correct libraries disagree on NDCG",
        mark("Two libraries, both computing correctly, report different NDCG for the same run of the same query: the same documents with the same scores and the same judgements.\n"
             "Which of these choices can explain the gap?"),
        right(mark("Whether the ideal list is built from the retrieved items or from every judged item."),
              mark("An ideal from the retrieved items cannot see the relevant items the run missed, so it can call a run perfect that the pool's ideal does not.")),
        wrong(mark("The base of the logarithm in the discount."),
              mark("Another base multiplies every discount, and so DCG and IDCG, by the same factor, which cancels in NDCG (lesson 02).")),
        right(mark("How tied scores are broken."),
              mark("Tied scores do not fix the order: scikit-learn averages NDCG over every order of the tie, trec_eval takes one order by document id, and section 4's two numbers differ (0.8804 against 0.9725).")),
        right(mark("Linear or exponential gain."),
              mark("scikit-learn and trec_eval both use linear gain, but ranx's ndcg_burges and LightGBM use 2**rel - 1, which weighs the best grades far more and gives another number.")),
        wrong(mark("The order in which the run file lists documents whose scores all differ."),
              mark("Both libraries rank by score; when no two scores are equal, the order of the lines cannot change the ranking, so it cannot change the number.")),
    ),
    question(
        "08-what-to-report",
        LESSON,
        "what to write next to a published NDCG",
        mark("You publish NDCG@10 = 0.71 for your system.\n"
             "What must you write next to it so that others can reproduce it?"),
        wrong(mark("Nothing more: NDCG@10 is a standard metric with one definition."),
              mark("One ranking gave five different NDCGs in section 10, every one computed correctly: the name alone does not fix the number.")),
        wrong(mark("The number of queries and the standard error of the mean."),
              mark("They say how sure the mean is, not how it was computed: two libraries give different numbers on the very same queries, so the conventions are what is missing.")),
        right(mark("The library and its version, or its choices: the gain, where the ideal comes from, how ties are broken, what a query with nothing relevant scores."),
              mark("These choices are what make correct libraries disagree; with them, anyone can reproduce the number, for instance with the matching keywords of ndcg_teach.")),
        wrong(mark("More decimals, such as 0.7134."),
              mark("More digits of a number nobody can reproduce do not help: conventions change NDCG in the first or second decimal.")),
    ),
)
