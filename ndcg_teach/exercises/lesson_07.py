"""Lesson 07: checking the source documents' numbers."""

import math

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge
from .questions import question, right, wrong

LESSON = "07-checking-the-documents"

_PRODUCTS = [4, 5, 2, 3, 1]
"""Grades of the first document's products in the order B, A, D, C, E (lesson 07)."""

_TERM = 4
"""The position of the IDCG term that 07-idcg-term asks about."""


def _printed(example: str, quantity: str) -> float:
    """A number as a source document prints it, read from ndcg_teach.course.examples."""
    # Imported on first use: every lesson imports the exercises, only these need the documents' examples.
    from ndcg_teach.course.examples import example as worked_example

    return float(next(p.text for p in worked_example(example).printed if p.quantity == quantity))


def _ideal_row(inp: Inputs) -> nt.Row:
    return nt.explain_idcg(**inp).rows[_TERM - 1]


def _thresholds_giving_printed(relevances: list[float], k: int) -> list[int]:
    """The thresholds (1 to the top grade) at which P@k equals the P@k the document prints."""
    printed = _printed("products_p_at_k", f"P@{k}")
    return [
        threshold
        for threshold in range(1, int(max(relevances)) + 1)
        if math.isclose(nt.precision_at_k(relevances, k=k, threshold=threshold), printed, abs_tol=1e-3)
    ]


LESSON_EXERCISES = (
    Exercise(
        "07-idcg-term",
        LESSON,
        "the fourth term of the products' exponential-gain IDCG@5",
        "number",
        inputs={"relevances": _PRODUCTS, "k": 5, "gain": "exponential"},
        judge=_number_judge(
            lambda inp: _ideal_row(inp).contribution,
            mark("Position 4 of the ideal list holds grade 2: its gain is 2**2 - 1, divided by log2(4 + 1)."),
            [
                (
                    lambda inp: _printed("products_ndcg_exponential", f"IDCG@5 term {_TERM}"),
                    mark("That is the number the document prints; redo the division with the discount of position 4."),
                ),
                (
                    lambda inp: _ideal_row(inp).gain
                    / _printed("products_ndcg_exponential", f"IDCG@5 denominator {_TERM}"),
                    mark("You divided by the document's denominator 3.17; position 4 takes log2(4 + 1)."),
                ),
                (
                    lambda inp: _ideal_row(inp | {"gain": "linear"}).contribution,
                    mark("That uses the linear gain; the document uses 2**rel - 1."),
                ),
            ],
        ),
        right=mark("The ideal list has the same wrong denominators as the document's DCG, so both halves of NDCG are off."),
    ),
    Exercise(
        "07-ndcg-at-3",
        LESSON,
        "NDCG@3 of the products ranked B, A, D, C, E, exponential gain",
        "number",
        inputs={"relevances": _PRODUCTS, "k": 3, "gain": "exponential"},
        judge=_number_judge(
            lambda inp: nt.ndcg(**inp),
            mark("Cut both DCG and IDCG after position 3, with 2**rel - 1 and the discount 1/log2(i + 1)."),
            [
                (
                    lambda inp: nt.ndcg(**(inp | {"k": len(inp["relevances"])})),
                    mark("That is NDCG@5; stop both sums after position 3."),
                ),
                (
                    lambda inp: nt.ndcg(**(inp | {"gain": "linear"})),
                    mark("That uses the linear gain; the document uses 2**rel - 1."),
                ),
            ],
        ),
        right=mark("At k = 3 the swap of A and B at the top weighs more, so NDCG@3 is lower than NDCG@5."),
    ),
    Exercise(
        "07-threshold",
        LESSON,
        "the relevance threshold that gives the document's printed P@5 for the products",
        "number",
        inputs={"relevances": _PRODUCTS, "k": 5},
        judge=_number_judge(
            lambda inp: _thresholds_giving_printed(inp["relevances"], inp["k"])[0],
            mark("Compute P@5 of the products for thresholds 1 to 5 and find the one that matches the printed P@5."),
            # The document prints P@3 too; each threshold that explains only that number is a slip.
            [
                (
                    lambda inp: _thresholds_giving_printed(inp["relevances"], 3)[0],
                    mark("That threshold gives the printed P@3, not the printed P@5."),
                ),
                (
                    lambda inp: _thresholds_giving_printed(inp["relevances"], 3)[-1],
                    mark("That threshold gives the printed P@3, not the printed P@5."),
                ),
            ],
            tolerance=1e-9,
        ),
        right=mark("No single threshold gives both printed numbers: the document changed its mind between P@3 and P@5."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "07-errors-that-cancel",
        LESSON,
        "why wrong discounts can still give a nearly right NDCG",
        mark("Document 000 divides by wrong denominators from position 3 on, yet its NDCG@5 is wrong only in the third decimal.\n"
             "How can that be?"),
        right(mark("Its ideal list uses the same wrong denominators, so the errors partly cancel in the ratio."),
              mark("DCG and IDCG are wrong in the same way, and dividing one by the other cancels much of it: only checking every term shows the wrong steps.")),
        wrong(mark("Discounts barely matter to NDCG, so wrong ones do little harm."),
              mark("Discounts are what makes NDCG see order; here the harm was hidden because DCG and IDCG were wrong alike. Document 001's slips did not cancel: it prints 0.857 where the right value is about 0.96.")),
        wrong(mark("The exponential gain makes the discounts unimportant."),
              mark("Each term is a gain times a discount, so a wrong discount changes the term whatever the gain: the fourth term falls from 3.01 to 2.21.")),
        wrong(mark("Rounding to three decimals hides any error of that size."),
              mark("Rounding hides only the last digit; the wrong denominators change single terms by far more than that, and the final number is close only because the errors cancel.")),
    ),
    question(
        "07-what-a-number-needs",
        LESSON,
        "what you need to check a printed P@5",
        mark("You want to put a blog post's printed P@5 = 0.8 on a slide.\n"
             "What must you know to check it?"),
        wrong(mark("Only the grades of the list."),
              mark("Grades alone do not give a P@5: they must first be cut into relevant or not, and document 000 never said where it cut them (and cut them differently two lines later).")),
        wrong(mark("The author's code: a printed number can only be checked by running it."),
              mark("Code output is a claim too (document 000's code returns 0.8645 where it prints 0.8608); a number is checked from its inputs and its conventions.")),
        right(mark("The grades and the relevance threshold."),
              mark("P@k needs binary relevance: with the grades and the threshold (and k = 5) the number can be recomputed; without the threshold 0.8 cannot be checked.")),
        wrong(mark("The grades, and the gain and discount the author used."),
              mark("P@k has neither a gain nor a discount: those are DCG's conventions.\n"
                   "What P@k needs beside the grades is which of them count as relevant.")),
    ),
)
