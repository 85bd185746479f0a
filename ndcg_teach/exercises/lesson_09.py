"""Lesson 09: evaluating a model over several queries."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _number_judge
from .questions import question, right, wrong

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

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "09-a-large-p-value",
        LESSON,
        "what a large p-value on 12 queries means",
        mark("On 12 queries, ranker B's mean NDCG@5 is 0.015 above ranker A's, and a paired randomisation test gives a large p-value.\n"
             "What can you conclude?"),
        wrong(mark("The two rankers are equally good."),
              mark("A large p-value does not show that they are equal: in this lesson B is better by construction, and 12 queries still gave a large p-value.")),
        wrong(mark("B is better, since its mean is higher."),
              mark("A higher mean on 12 queries can come from the luck of a few queries: here a difference this large often arises by chance.")),
        wrong(mark("A is better, since B loses on more queries than it wins."),
              mark("Counting wins ignores how large each difference is, and on 12 queries wins and losses are as noisy as the mean.")),
        right(mark("The 12 queries cannot tell the rankers apart: a difference this small may be real, but so few queries cannot show it."),
              mark("The p-value says how often random signs give a difference at least this large; a large one means these data cannot separate the rankers, and with 200 queries the lesson's small real difference showed clearly.")),
    ),
    question(
        "09-two-metrics-disagree",
        LESSON,
        "what it means when NDCG and MAP pick different winners",
        mark("On the same queries, ranker B has the higher mean NDCG@5 and ranker A the higher MAP.\n"
             "What does that tell you?"),
        wrong(mark("One of the two metrics must be computed wrongly."),
              mark("Both can be right: NDCG@5 uses the grades and stops at 5, MAP cuts the grades at a threshold and looks at every relevant item.")),
        right(mark("The metrics weigh different mistakes, so the choice of metric can decide the winner: choose it before you look at the results."),
              mark("Each metric stands for a different user; picking the one that favours your model after seeing the results is how a comparison misleads.")),
        wrong(mark("B is better, because NDCG is the more modern metric."),
              mark("A metric's age says nothing about which mistakes matter to your users.")),
        wrong(mark("Average the two metrics to settle it."),
              mark("NDCG@5 and MAP measure different things; their mean stands for no user, and choosing how to combine them after seeing the results is the same trap.")),
    ),
)
