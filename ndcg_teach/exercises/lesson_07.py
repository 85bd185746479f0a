"""Lesson 07: checking the source documents' numbers."""

import math

import ndcg_teach as nt

from .framework import Exercise, _number_judge

_PRODUCTS = [4, 5, 2, 3, 1]
"""Grades of the first document's products in the order B, A, D, C, E (lesson 07)."""


def _printed(example: str, quantity: str) -> float:
    """A number as a source document prints it, read from ndcg_teach.examples."""
    from ndcg_teach.examples import example as worked_example

    return float(next(p.text for p in worked_example(example).printed if p.quantity == quantity))


def _thresholds_giving(k: int, value: float) -> list[int]:
    return [t for t in range(1, 6) if math.isclose(nt.precision_at_k(_PRODUCTS, k, threshold=t), value, abs_tol=1e-3)]


LESSON_EXERCISES = (
    Exercise(
        "07-idcg-term",
        "07-checking-the-documents",
        "the fourth term of the products' exponential-gain IDCG@5",
        "number",
        _number_judge(
            lambda: nt.explain_idcg(_PRODUCTS, gain="exponential").rows[3].contribution,
            "Position 4 of the ideal list holds grade 2: its gain is 2**2 - 1, divided by log2(4 + 1).",
            [
                (
                    lambda: _printed("products_ndcg_exponential", "IDCG@5 term 4"),
                    "That is the number the document prints; redo the division with the discount of position 4.",
                ),
                (
                    lambda: nt.explain_idcg(_PRODUCTS, gain="exponential").rows[3].gain
                    / _printed("products_ndcg_exponential", "IDCG@5 denominator 4"),
                    "You divided by the document's denominator 3.17; position 4 takes log2(4 + 1).",
                ),
                (
                    lambda: nt.explain_idcg(_PRODUCTS).rows[3].contribution,
                    "That uses the linear gain; the document uses 2**rel - 1.",
                ),
            ],
        ),
        right="The ideal list has the same wrong denominators as the document's DCG, so both halves of NDCG are off.",
    ),
    Exercise(
        "07-ndcg-at-3",
        "07-checking-the-documents",
        "NDCG@3 of the products ranked B, A, D, C, E, exponential gain",
        "number",
        _number_judge(
            lambda: nt.ndcg(_PRODUCTS, k=3, gain="exponential"),
            "Cut both DCG and IDCG after position 3, with 2**rel - 1 and the discount 1/log2(i + 1).",
            [
                (lambda: nt.ndcg(_PRODUCTS, k=5, gain="exponential"), "That is NDCG@5; stop both sums after position 3."),
                (lambda: nt.ndcg(_PRODUCTS, k=3), "That uses the linear gain; the document uses 2**rel - 1."),
            ],
        ),
        right="At k = 3 the swap of A and B at the top weighs more, so NDCG@3 is lower than NDCG@5.",
    ),
    Exercise(
        "07-threshold",
        "07-checking-the-documents",
        "the relevance threshold that gives the document's printed P@5 for the products",
        "number",
        _number_judge(
            lambda: _thresholds_giving(5, _printed("products_p_at_k", "P@5"))[0],
            "Compute P@5 of the products for thresholds 1 to 5 and find the one that matches the printed P@5.",
            [
                (
                    lambda: _thresholds_giving(3, _printed("products_p_at_k", "P@3"))[0],
                    "That threshold gives the printed P@3, not the printed P@5.",
                ),
                (
                    lambda: _thresholds_giving(3, _printed("products_p_at_k", "P@3"))[-1],
                    "That threshold gives the printed P@3, not the printed P@5.",
                ),
            ],
            tolerance=1e-9,
        ),
        right="No single threshold gives both printed numbers: the document changed its mind between P@3 and P@5.",
    ),
)
