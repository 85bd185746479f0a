"""Lesson 11: user models behind NDCG, ERR and RBP."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _choice_judge, _number_judge
from .questions import question, right, wrong

LESSON = "11-user-models"


def _prefers_many(inp: Inputs) -> str:
    """Which of ERR and RBP score the list of many fair results above the one with a single great result."""
    err = nt.expected_reciprocal_rank(inp["many_fair"], max_grade=inp["max_grade"]) > nt.expected_reciprocal_rank(
        inp["one_great"], max_grade=inp["max_grade"]
    )
    rbp = nt.rank_biased_precision(inp["many_fair"], p=inp["p"]) > nt.rank_biased_precision(inp["one_great"], p=inp["p"])
    return {(True, True): "both", (True, False): "err", (False, True): "rbp", (False, False): "neither"}[(err, rbp)]


def _rbp_weights(inp: Inputs, first: int) -> float:
    """RBP with the weights p**i counted from ``first`` instead of 0: the off-by-one slip."""
    p = inp["p"]
    return (1 - p) * sum(p ** (i + first) for i, grade in enumerate(inp["relevances"]) if grade >= 1)


LESSON_EXERCISES = (
    Exercise(
        "11-rbp",
        LESSON,
        "RBP of [1, 0, 0, 1] with persistence p = 0.5",
        "number",
        inputs={"relevances": [1, 0, 0, 1], "p": 0.5},
        judge=_number_judge(
            lambda inp: nt.rank_biased_precision(**inp),
            mark("Weigh rank i by p^(i-1), add the weights of the relevant ranks, and multiply by (1 - p)."),
            [
                (
                    lambda inp: nt.rank_biased_precision(**inp) / (1 - inp["p"]),
                    mark("You left out the factor (1 - p), which turns the sum into a share between 0 and 1."),
                ),
                (lambda inp: _rbp_weights(inp, 1), mark("Rank 1 has weight p^0 = 1: the user always reads the first result.")),
            ],
        ),
        right=mark("The relevant result at rank 1 gives 0.5 by itself: half the user's attention goes there."),
    ),
    Exercise(
        "11-rbp-residual",
        LESSON,
        "RBP residual of [1, 0, 0, 1] with p = 0.5",
        "number",
        inputs={"relevances": [1, 0, 0, 1], "p": 0.5},
        judge=_number_judge(
            lambda inp: nt.rbp_residual(**inp),
            mark("Add (1 - p) p^(i-1) over every rank after the list: a geometric series."),
            [
                (
                    lambda inp: (1 - inp["p"]) * inp["p"] ** len(inp["relevances"]),
                    mark("That is the weight of rank 5 alone; the residual adds every rank after the list."),
                ),
                (
                    lambda inp: 1 - nt.rank_biased_precision(**inp),
                    mark("That is 1 - RBP; the residual counts only ranks nobody judged, not the judged misses."),
                ),
            ],
        ),
        right=mark("The residual is the chance the user reads past the list: p to the power of its length."),
    ),
    Exercise(
        "11-err",
        LESSON,
        "ERR of [1, 2] with max_grade 2",
        "number",
        inputs={"relevances": [1, 2], "max_grade": 2},
        judge=_number_judge(
            lambda inp: nt.expected_reciprocal_rank(**inp),
            mark("R(g) = (2^g - 1) / 2^max_grade; rank 2 is reached only when rank 1 did not satisfy."),
            [
                (
                    lambda inp: sum(
                        (2**grade - 1) / 2 ** inp["max_grade"] / i for i, grade in enumerate(inp["relevances"], start=1)
                    ),
                    mark("You forgot the cascade: rank 2 counts only for users that rank 1 did not satisfy."),
                ),
                (
                    lambda inp: nt.reciprocal_rank(inp["relevances"]),
                    mark("That is RR; ERR weighs each rank by the chance the user stops there."),
                ),
            ],
        ),
        right=mark("Three users in four read on past the grade-1 result, and most of them stop at the grade-2 one."),
    ),
    Exercise(
        "11-which-prefers-many",
        LESSON,
        "which of ERR and RBP score [1, 1, 1, 1] above [2, 0, 0, 0]",
        "choice",
        inputs={"one_great": [2, 0, 0, 0], "many_fair": [1, 1, 1, 1], "max_grade": 2, "p": 0.8},
        judge=_choice_judge(
            ("err", "rbp", "both", "neither"),
            _prefers_many,
            mark("Compute ERR (max_grade 2) and RBP (p = 0.8, threshold 1) of both lists and compare."),
            {
                "err": mark("Check ERR again: a grade-2 result on top satisfies three users in four."),
                "both": mark("Check ERR again: a grade-2 result on top satisfies three users in four."),
                "neither": mark("Check RBP again: it counts relevant results read, whatever their grade."),
            },
        ),
        right=mark("ERR's user is happy with one great result; RBP's collects every relevant one."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "11-the-cascade",
        LESSON,
        "why a result below good ones adds almost nothing to ERR",
        mark("In [2, 3, 0, 1] (top grade 3), the grade-1 result at rank 4 adds almost nothing to ERR.\n"
             "In RBP, a relevant result at rank 4 adds (1 - p)·p^3 whatever sits above it.\n"
             "Why the difference?"),
        wrong(mark("ERR's discount falls faster than RBP's."),
              mark("ERR's 1/4 at rank 4 alone would leave this result 0.125/4 = 0.031; what makes it almost nothing is the chance, 0.078, that the user reaches rank 4 at all, which depends on the results above it, while RBP's weight depends only on the rank.")),
        right(mark("ERR's user stops once a result satisfies them, so a result counts only for users whom the results above did not satisfy."),
              mark("Two good results above it stop most users before rank 4: in ERR a result's worth depends on what sits above it, in NDCG and RBP it does not.")),
        wrong(mark("ERR ignores grade-1 results."),
              mark("A grade-1 result satisfies with probability 1/8 on a scale that ends at 3: it counts, but only for the users who reach it.")),
        wrong(mark("RBP counts only the first three ranks."),
              mark("RBP weighs every rank by p^(i-1); rank 4 gets p^3, a smaller share but never 0.")),
    ),
    question(
        "11-which-user",
        LESSON,
        "which metric matches a voice assistant and a researcher",
        mark("A voice assistant reads out one answer, and the user acts on it.\n"
             "A researcher collects every relevant paper on a topic.\n"
             "Which metrics match these users?"),
        wrong(mark("RBP with p = 0.95 for the voice assistant, ERR for the researcher."),
              mark("Swapped: p = 0.95 is a user who reads 20 results on average, and ERR's user stops at the first good one, which is not how someone collecting every paper reads.")),
        wrong(mark("NDCG for both, because it is the standard."),
              mark("NDCG's user never stops and still values rank 20, which may suit the researcher, but the listener hears one answer and never reaches rank 2: that user needs a metric that stops at the first satisfying result.")),
        wrong(mark("Any of them: the three metrics always agree on which list is better."),
              mark("Section 4 shows they can disagree: ERR prefers the one excellent result on top, NDCG and RBP the several good ones.")),
        right(mark("ERR for the voice assistant, RBP with a high persistence p for the researcher."),
              mark("ERR's user stops at the first satisfying result, as the listener does; RBP with p near 1 keeps reading and counts every relevant result, as the researcher does.")),
    ),
)
