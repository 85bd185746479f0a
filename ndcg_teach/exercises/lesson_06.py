"""Lesson 06: the playground's order challenges."""

from collections.abc import Mapping
from types import MappingProxyType

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _Condition, _order_judge
from .questions import question, right, wrong

LESSON = "06-playground"

PLAYGROUND_RELEVANCE: Mapping[str, int] = MappingProxyType({"A": 4, "B": 1, "C": 1, "D": 0, "E": 0, "F": 0})
"""The grades of the playground's six items (lesson 06)."""

# Both challenges play with the same items, cut-off and gain.
_INPUTS = {"relevance": PLAYGROUND_RELEVANCE, "k": 3, "gain": "exponential"}


def _ndcg(relevances: list[float], inp: Inputs) -> float:
    return nt.ndcg(relevances, k=inp["k"], gain=inp["gain"])


def _precision(relevances: list[float], inp: Inputs) -> float:
    return nt.precision_at_k(relevances, k=inp["k"])


LESSON_EXERCISES = (
    Exercise(
        "06-high-ndcg-low-precision",
        LESSON,
        "an order with NDCG@3 above 0.95 (exponential gain) but P@3 below 0.7",
        "order",
        inputs=_INPUTS,
        judge=_order_judge(
            (
                _Condition("NDCG@3", _ndcg, lambda value: value > 0.95, mark("above 0.95")),
                _Condition("P@3", _precision, lambda value: value < 0.7, mark("below 0.7")),
            )
        ),
        right=mark("With exponential gain the grade-4 item carries almost all the gain: put it first and the rest barely matters."),
    ),
    Exercise(
        "06-full-precision-low-ndcg",
        LESSON,
        "an order with P@3 equal to 1 but NDCG@3 below 0.6 (exponential gain)",
        "order",
        inputs=_INPUTS,
        judge=_order_judge(
            (
                _Condition("P@3", _precision, lambda value: value == 1.0, mark("equal to 1")),
                _Condition("NDCG@3", _ndcg, lambda value: value < 0.6, mark("below 0.6")),
            )
        ),
        right=mark("P@3 only counts relevant results; NDCG also asks whether the best one is on top."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "06-swap-cost",
        LESSON,
        "why a swap at the top costs DCG more",
        mark("In the ideal list [5, 4, 3, 2, 1], swapping positions 1 and 2 costs DCG more than swapping positions 4 and 5.\n"
             "Why?"),
        wrong(mark("The items at the top have higher grades, and the cost grows with the grades themselves."),
              mark("The cost depends on the gap between the two grades, not on their size: both pairs differ by 1.")),
        wrong(mark("Swapping positions 4 and 5 costs DCG nothing: both items are relevant."),
              mark("It costs 0.0438: a swap of two different grades costs the gap in gain times the gap in discount, and the discounts of positions 4 and 5 differ too, only by less.")),
        wrong(mark("A swap at the top changes the IDCG as well."),
              mark("The IDCG depends only on the grades, which no swap changes; only the DCG moves.")),
        right(mark("The discounts of positions 1 and 2 differ more than those of positions 4 and 5."),
              mark("A swap costs the gap in gain times the gap in discount; both gain gaps are 1, so the discount gap decides, and the discount falls fastest at the top.")),
    ),
    question(
        "06-one-bad-result-on-top",
        LESSON,
        "what one irrelevant item on top does to each metric",
        mark("Ranker 2 puts one grade-0 item first and is otherwise perfect (section 5).\n"
             "Which statement about its metrics at k = 3 is right?"),
        wrong(mark("Every metric loses the same share, since one slot in three is lost."),
              mark("P@3 loses one slot in three, but NDCG@3 loses 0.41 and RR half its value: metrics that weigh the top lose more than one third.")),
        right(mark("RR halves and NDCG@3 falls by more than P@3, because they weigh position 1 the most."),
              mark("The irrelevant item pushes the first relevant one to position 2, where RR is 1/2, and every gain down one discount, so NDCG@3 loses 0.41; P@3 loses only the one slot it takes, 0.33.")),
        wrong(mark("Only P@3 changes: NDCG divides by the IDCG, which cancels the loss."),
              mark("The IDCG does not change (the grades are the same), so the lower DCG shows in full in NDCG.")),
        wrong(mark("Nothing changes, because the same items are still in the list."),
              mark("At k = 3 one relevant item is pushed out of the top 3, and every metric that looks at positions sees it.")),
    ),
    question(
        "06-blind-to-a-swap",
        LESSON,
        "which numbers a swap of two relevant items leaves alone",
        mark("A list's top 3 holds relevant items graded 3, 2 and 1, in that order.\n"
             "You swap positions 2 and 3, so that it reads 3, 1, 2.\n"
             "Which numbers stay the same (threshold 1)?"),
        wrong(mark("Its NDCG@3."),
              mark("The two grades differ and so do the discounts of positions 2 and 3, so the swap changes DCG@3, and NDCG@3 with it.")),
        right(mark("Its P@3."),
              mark("P@3 counts the relevant items in the top 3, and the same three are still there.")),
        right(mark("Its RR."),
              mark("RR looks only at the first relevant item, which stays at position 1.")),
        wrong(mark("Its DCG@3."),
              mark("The grade-2 item moves to a smaller discount and the grade-1 item to a larger one: the swap costs the gap in gain times the gap in discount, which is not 0 here.")),
        right(mark("Its AP@3."),
              mark("Both items are relevant, so every relevant item keeps its precision: AP sees relevant or not, not the grade.")),
    ),
)
