"""Lesson 01: relevance grades and cumulative gain."""

import math

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _choice_judge, _number_judge
from .questions import question, right, wrong

LESSON = "01-relevance-and-cg"
_RELEVANCES = [3, 0, 2, 1]


def _compare(new: float, old: float) -> str:
    if math.isclose(new, old, rel_tol=1e-12, abs_tol=1e-12):
        return "same"
    return "up" if new > old else "down"


LESSON_EXERCISES = (
    Exercise(
        "01-cg",
        LESSON,
        "CG of [3, 0, 2, 1]",
        "number",
        inputs={"relevances": _RELEVANCES},
        judge=_number_judge(
            lambda inp: nt.cg(**inp),
            mark("Add the grades of every position."),
            [
                (
                    lambda inp: sum(1 for grade in inp["relevances"] if grade > 0),
                    mark("You counted the relevant results; CG adds their grades."),
                )
            ],
        ),
        right=mark("CG adds the grades and ignores where they sit."),
    ),
    Exercise(
        "01-cg-at-k",
        LESSON,
        "CG@2 of [3, 0, 2, 1]",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 2},
        judge=_number_judge(
            lambda inp: nt.cg(**inp),
            mark("CG@k adds the grades of positions 1 to k only."),
            [(lambda inp: nt.cg(inp["relevances"]), mark("You added the whole list; CG@2 stops after position 2."))],
        ),
        right=mark("The cut-off k decides how much of the list is looked at."),
    ),
    Exercise(
        "01-cg-order",
        LESSON,
        "does reversing [3, 0, 2, 1] change CG@4",
        "choice",
        inputs={"relevances": _RELEVANCES, "k": 4},
        judge=_choice_judge(
            ("up", "down", "same"),
            lambda inp: _compare(nt.cg(inp["relevances"][::-1], k=inp["k"]), nt.cg(**inp)),
            mark("Compute CG@4 for both orders and compare."),
        ),
        right=mark("That blindness to order is why DCG exists: lesson 02."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "01-why-order",
        LESSON,
        "why CG@5 scores the best item first and last alike",
        mark("Two rankers return the same five items for a query: one puts the best item first, the other puts it last.\n"
             "Why does CG@5 give both lists the same score?"),
        right(mark("It adds the grades, and a sum is the same in any order."),
              mark("CG@5 is the sum of the five grades, and addition does not care about order: only which items reach the top 5 counts, not where they sit.")),
        wrong(mark("CG weighs the top position more too, but one item is not enough to change the total."),
              mark("CG gives every position the same weight: a grade counts as much at position 5 as at position 1.\n"
                   "Weighing positions is what DCG adds (lesson 02).")),
        wrong(mark("CG divides by the best score the list could reach, so both lists score 1."),
              mark("CG divides by nothing; dividing by the best reachable score is what NDCG does (lesson 03).")),
        wrong(mark("CG@5 counts the relevant items and ignores their grades."),
              mark("CG adds the grades themselves, so a grade-3 item adds three times what a grade-1 item adds; counting relevant items is what precision does (lesson 04).")),
    ),
    question(
        "01-what-cg-says",
        LESSON,
        "what a CG@10 of 6 tells about a shop's ranking",
        mark("A shop grades its items by what users did: a purchase is grade 2, a click grade 1, nothing grade 0.\n"
             "One ranking has CG@10 = 6.\n"
             "What does that tell you?"),
        wrong(mark("Six of the top 10 items were relevant."),
              mark("CG adds grades, not relevant items: a purchase adds 2, so three purchases also give 6.")),
        right(mark("The grades of the top 10 add up to 6: three purchases, six clicks, or any mix that sums to 6."),
              mark("That is all CG@10 says: the total of the first ten grades, with no word on how it is made up or where those items sit.")),
        wrong(mark("The ranking reaches 60% of what it could."),
              mark("CG has no maximum to compare with: 6 out of what? Dividing by the best possible score is NDCG's step (lesson 03).")),
        wrong(mark("The items users bought sit at the top of the list."),
              mark("CG@10 cannot see order inside the top 10: the same six points anywhere in positions 1 to 10 give the same CG.")),
    ),
)
