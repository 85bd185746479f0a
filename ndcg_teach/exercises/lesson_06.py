"""Lesson 06: the playground's order challenges."""

from collections.abc import Mapping
from types import MappingProxyType

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _Condition, _order_judge

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
