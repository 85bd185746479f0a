"""Check a learner's answers to the exercises of the lessons, with hints.

Every exercise of the course has a key such as ``"01-cg"`` (the lesson's
number, then what it asks).  ``check(key, answer)`` says whether the answer is
right and, when it is not, gives a hint: never the answer itself.  The expected
values are computed by the library when you call ``check``, so the exercises
and the library can never disagree.

Wrong answers that come from a common slip (the exponential gain instead of the
linear one, the whole list instead of the first k positions, ...) are
recognised and get a hint about that slip.

Examples
--------
>>> from ndcg_teach.exercises import check
>>> check("01-cg", 6)
01-cg: right. CG adds the grades and ignores where they sit.
>>> check("01-cg", 3)
01-cg: not yet. You counted the relevant results; CG adds their grades.
>>> check("01-cg", ...)
01-cg: no answer yet. Replace ... with your answer and run the cell again.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import ndcg_teach as nt

__all__ = ["EXERCISES", "Exercise", "Feedback", "check"]


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: right, not yet, or not answered.

    Attributes
    ----------
    exercise : str
        The exercise's key.
    correct : bool or None
        True when right, False when wrong, None when there is no answer yet.
    message : str
        What the learner reads: the verdict and a hint (never the answer).

    Examples
    --------
    >>> feedback = check("01-cg-at-k", 3)
    >>> feedback.correct, bool(feedback)
    (True, True)
    """

    exercise: str
    correct: bool | None
    message: str

    def __bool__(self) -> bool:
        return bool(self.correct)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Exercise:
    """One exercise: what it is about, how to judge an answer, and the hints.

    Attributes
    ----------
    key : str
        How ``check`` names it, e.g. ``"03-ndcg"``.
    lesson : str
        The notebook that asks it, e.g. ``"03-ideal-ranking-ndcg"``.
    title : str
        A few words on what is asked.
    kind : str
        ``"number"``, ``"choice"``, ``"set"`` or ``"order"``: the kind of answer expected.
    """

    key: str
    lesson: str
    title: str
    kind: str
    judge: Callable[[Any], tuple[bool, str]] = field(repr=False)
    right: str = field(repr=False, default="")

    def check(self, answer: Any) -> Feedback:
        """Judge ``answer``; see :func:`check`."""
        if answer is ... or answer is None:
            return Feedback(
                self.key, None, f"{self.key}: no answer yet. Replace ... with your answer and run the cell again."
            )
        correct, hint = self.judge(answer)
        if correct:
            return Feedback(self.key, True, f"{self.key}: right. {self.right}".rstrip())
        return Feedback(self.key, False, f"{self.key}: not yet. {hint}")


def check(exercise: str, answer: Any) -> Feedback:
    """Say whether ``answer`` is right for ``exercise``, with a hint when it is not.

    Parameters
    ----------
    exercise : str
        The exercise's key, as the lesson gives it (e.g. ``"03-ndcg"``);
        ``EXERCISES`` lists them all.
    answer : object
        A number, a word, a collection of numbers or an order of item ids, as
        the exercise asks.  ``...`` (the placeholder in the lessons) and None
        mean "not answered yet".  For an order you may also pass a widget that
        has an ``order`` attribute (the playground's explorer).

    Returns
    -------
    Feedback
        Shows as one line; ``bool(feedback)`` is True only for a right answer.

    Raises
    ------
    ValueError
        When ``exercise`` is not a known key.

    Examples
    --------
    Numbers are right when they agree to three decimals:

    >>> check("02-dcg-linear", 4.431)
    02-dcg-linear: right. Position 2 holds a 0, so it adds nothing whatever its discount.
    >>> check("02-dcg-linear", 8.931)
    02-dcg-linear: not yet. That is the exponential gain 2**rel - 1; this exercise uses the grade itself.
    """
    if not isinstance(exercise, str) or exercise not in EXERCISES:
        known = ", ".join(repr(key) for key in EXERCISES)
        raise ValueError(f"exercise must be one of {known}. Got {exercise!r} instead.")
    return EXERCISES[exercise].check(answer)


# Judges: each turns an answer into (correct, hint) and never puts the expected value in the hint.

_Mistake = tuple[Callable[[], Any], str]


def _describe(answer: Any) -> str:
    return f"{answer!r} ({type(answer).__name__})"


def _as_number(answer: Any) -> float | None:
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        return None
    value = float(answer)
    return value if math.isfinite(value) else None


def _number_judge(
    expected: Callable[[], float], hint: str, mistakes: Sequence[_Mistake] = (), tolerance: float = 5e-4
) -> Callable[[Any], tuple[bool, str]]:
    def judge(answer: Any) -> tuple[bool, str]:
        value = _as_number(answer)
        if value is None:
            return False, f"This exercise wants a number, such as 0.5. Got {_describe(answer)} instead."
        if math.isclose(value, expected(), rel_tol=0.0, abs_tol=tolerance + 1e-12):
            return True, ""
        for compute, mistake_hint in mistakes:
            if math.isclose(value, compute(), rel_tol=0.0, abs_tol=tolerance + 1e-12):
                return False, mistake_hint
        if tolerance >= 1e-4 and math.isclose(value, expected(), rel_tol=0.0, abs_tol=10 * tolerance):
            return False, "Close: keep at least three decimals (0.667, not 0.67)."
        return False, hint

    return judge


def _choice_judge(
    options: Sequence[str], expected: Callable[[], str], hint: str, mistakes: Mapping[str, str] | None = None
) -> Callable[[Any], tuple[bool, str]]:
    allowed = " / ".join(repr(option) for option in options)

    def judge(answer: Any) -> tuple[bool, str]:
        word = answer.strip().lower() if isinstance(answer, str) else None
        if word not in options:
            return False, f"Answer with one of {allowed}. Got {_describe(answer)} instead."
        if word == expected():
            return True, ""
        return False, (mistakes or {}).get(word, hint)

    return judge


def _set_judge(expected: Callable[[], set], hint: str) -> Callable[[Any], tuple[bool, str]]:
    def judge(answer: Any) -> tuple[bool, str]:
        if isinstance(answer, (str, bytes)) or not isinstance(answer, (set, frozenset, list, tuple)):
            return False, f"Answer with a set of numbers, such as {{2, 3}}. Got {_describe(answer)} instead."
        values = [_as_number(value) for value in answer]
        if any(value is None for value in values):
            return False, f"Every member must be a number. Got {_describe(answer)} instead."
        chosen, wanted = set(values), {float(value) for value in expected()}
        if chosen == wanted:
            return True, ""
        if chosen < wanted:
            return False, f"{hint} Some grades are missing."
        return False, f"{hint} At least one of your grades does not belong."

    return judge


@dataclass(frozen=True)
class _Condition:
    name: str
    measure: Callable[[list[float]], float]
    holds: Callable[[float], bool]
    wanted: str


def _order_judge(relevance: Mapping[str, float], conditions: Sequence[_Condition]) -> Callable[[Any], tuple[bool, str]]:
    items = sorted(relevance)

    def judge(answer: Any) -> tuple[bool, str]:
        order = getattr(answer, "order", answer)
        if isinstance(order, str) or not isinstance(order, Sequence):
            return False, f"Answer with a list of item ids, best first, such as {items}. Got {_describe(order)} instead."
        if sorted(map(str, order)) != items:
            return False, f"Use each of {items} exactly once. Got {list(order)!r} instead."
        relevances = nt.relevances_from([str(item) for item in order], relevance)
        measured = [(condition, condition.measure(relevances)) for condition in conditions]
        if all(condition.holds(value) for condition, value in measured):
            return True, ""
        report = " and ".join(f"{condition.name} = {value:.4f}" for condition, value in measured)
        wanted = " and ".join(
            f"{condition.name} {condition.wanted}" for condition, value in measured if not condition.holds(value)
        )
        return False, f"Your order gives {report}; the challenge wants {wanted}."

    return judge


# The exercises, lesson by lesson.  Inputs are written out once here; the lessons state the same inputs in words.

_EXERCISE_LIST: list[Exercise] = []


def _add(exercise: Exercise) -> None:
    _EXERCISE_LIST.append(exercise)


# 00: start here
_WARM_A, _WARM_B = [3, 2, 0], [0, 2, 3]
_add(
    Exercise(
        "00-warm-up",
        "00-start-here",
        "which of two lists puts the best result first (higher DCG)",
        "choice",
        _choice_judge(
            ("a", "b"),
            lambda: "a" if nt.dcg(_WARM_A) > nt.dcg(_WARM_B) else "b",
            "Look at position 1 of each list: which one shows its most relevant result there?",
        ),
        right="The lessons explain why the top of the list weighs most.",
    )
)

# 01: relevance grades and cumulative gain
_CG_LIST = [3, 0, 2, 1]
_add(
    Exercise(
        "01-cg",
        "01-relevance-and-cg",
        "CG of [3, 0, 2, 1]",
        "number",
        _number_judge(
            lambda: nt.cg(_CG_LIST),
            "Add the grades of every position.",
            [(lambda: sum(1 for grade in _CG_LIST if grade > 0), "You counted the relevant results; CG adds their grades.")],
        ),
        right="CG adds the grades and ignores where they sit.",
    )
)
_add(
    Exercise(
        "01-cg-at-k",
        "01-relevance-and-cg",
        "CG@2 of [3, 0, 2, 1]",
        "number",
        _number_judge(
            lambda: nt.cg(_CG_LIST, k=2),
            "CG@k adds the grades of positions 1 to k only.",
            [(lambda: nt.cg(_CG_LIST), "You added the whole list; CG@2 stops after position 2.")],
        ),
        right="The cut-off k decides how much of the list is looked at.",
    )
)
_add(
    Exercise(
        "01-cg-order",
        "01-relevance-and-cg",
        "does reversing [3, 0, 2, 1] change CG@4",
        "choice",
        _choice_judge(
            ("up", "down", "same"),
            lambda: _compare(nt.cg(_CG_LIST[::-1]), nt.cg(_CG_LIST)),
            "Compute CG@4 for both orders and compare.",
        ),
        right="That blindness to order is why DCG exists: lesson 02.",
    )
)


def _compare(new: float, old: float) -> str:
    if math.isclose(new, old, rel_tol=1e-12, abs_tol=1e-12):
        return "same"
    return "up" if new > old else "down"


# 02: discounting
_add(
    Exercise(
        "02-dcg-linear",
        "02-dcg-discounting",
        "DCG@4 of [3, 0, 2, 1], linear gain, discount 1/log2(i+1)",
        "number",
        _number_judge(
            lambda: nt.dcg(_CG_LIST),
            "Divide each grade by log2(position + 1) and add the four terms.",
            [
                (
                    lambda: nt.dcg(_CG_LIST, gain="exponential"),
                    "That is the exponential gain 2**rel - 1; this exercise uses the grade itself.",
                ),
                (
                    lambda: nt.dcg(_CG_LIST, discount="jarvelin"),
                    "You divided by log2(i), the original Järvelin-Kekäläinen discount; here it is log2(i + 1).",
                ),
                (lambda: nt.dcg(_CG_LIST, log_base=math.e), "You used the natural logarithm; the discount uses log base 2."),
                (lambda: nt.cg(_CG_LIST), "That is CG: every position still needs its discount."),
            ],
        ),
        right="Position 2 holds a 0, so it adds nothing whatever its discount.",
    )
)
_add(
    Exercise(
        "02-dcg-exponential",
        "02-dcg-discounting",
        "DCG@4 of [3, 0, 2, 1], exponential gain",
        "number",
        _number_judge(
            lambda: nt.dcg(_CG_LIST, gain="exponential"),
            "Turn each grade into 2**rel - 1 first, then discount by log2(position + 1).",
            [
                (lambda: nt.dcg(_CG_LIST), "That is the linear gain; here each grade becomes 2**rel - 1 first."),
                (
                    lambda: nt.dcg(_CG_LIST, gain=lambda grade: 2.0**grade),
                    "You used 2**rel; the exponential gain subtracts 1, so a grade of 0 gains nothing.",
                ),
            ],
        ),
        right="The grade-3 result now weighs 7 against 3 for the grade-2 one: exponential gain favours the best.",
    )
)
_add(
    Exercise(
        "02-jarvelin",
        "02-dcg-discounting",
        "DCG@4 of [3, 0, 2, 1] with Järvelin and Kekäläinen's original discount",
        "number",
        _number_judge(
            lambda: nt.dcg(_CG_LIST, discount="jarvelin"),
            "Position 1 is not discounted; from position 2 on divide by log2(i).",
            [(lambda: nt.dcg(_CG_LIST), "That is the modern discount log2(i + 1); the original divides by log2(i).")],
        ),
        right="The original discount is milder, so the same list scores higher.",
    )
)
_GRADES = range(0, 6)
_add(
    Exercise(
        "02-gains-agree",
        "02-dcg-discounting",
        "which grades 0 to 5 get the same linear and exponential gain",
        "set",
        _set_judge(
            lambda: {
                grade
                for grade in _GRADES
                if math.isclose(nt.dcg([grade]), nt.dcg([grade], gain="exponential"), abs_tol=1e-12)
            },
            "Write rel and 2**rel - 1 side by side for each grade from 0 to 5.",
        ),
        right="So with binary relevance the two gains give the same DCG.",
    )
)
_add(
    Exercise(
        "02-log-base",
        "02-dcg-discounting",
        "what a change of log base changes: dcg, ndcg, both or neither",
        "choice",
        _choice_judge(
            ("dcg", "ndcg", "both", "neither"),
            lambda: _changed_by_log_base([1, 3, 0, 2]),
            "Compute DCG and NDCG of [1, 3, 0, 2] with log_base=2 and with log_base=10.",
            {"both": "Check NDCG again: every discount is divided by the same number, and so is IDCG."},
        ),
        right="Changing the base multiplies every discount by the same factor, which cancels in DCG / IDCG.",
    )
)


def _changed_by_log_base(relevances: list[float]) -> str:
    changed = [
        name
        for name, metric in (("dcg", nt.dcg), ("ndcg", nt.ndcg))
        if not math.isclose(metric(relevances, log_base=2), metric(relevances, log_base=10), rel_tol=1e-12)
    ]
    return {0: "neither", 2: "both"}.get(len(changed), changed[0])


# 03: the ideal ranking, IDCG and NDCG
_IDEAL_LIST = [1, 0, 3, 2]
_add(
    Exercise(
        "03-idcg",
        "03-ideal-ranking-ndcg",
        "IDCG@3 of [1, 0, 3, 2]",
        "number",
        _number_judge(
            lambda: nt.idcg(_IDEAL_LIST, k=3),
            "Sort all four grades from high to low, keep the first three, and take their DCG.",
            [
                (lambda: nt.dcg(_IDEAL_LIST, k=3), "That is the DCG of the list as ranked; IDCG ranks the grades best first."),
                (
                    lambda: nt.dcg(sorted(_IDEAL_LIST[:3], reverse=True)),
                    "You sorted only the first three results; the ideal list picks the best three of all four grades.",
                ),
            ],
        ),
        right="The ideal list is the best any ranker could do with these grades.",
    )
)
_add(
    Exercise(
        "03-ndcg",
        "03-ideal-ranking-ndcg",
        "NDCG@3 of [1, 0, 3, 2]",
        "number",
        _number_judge(
            lambda: nt.ndcg(_IDEAL_LIST, k=3),
            "Divide DCG@3 of the list by IDCG@3 from the previous exercise.",
            [
                (lambda: nt.ndcg(_IDEAL_LIST), "That is NDCG@4; stop both sums after position 3."),
                (
                    lambda: nt.dcg(_IDEAL_LIST, k=3) / nt.dcg(sorted(_IDEAL_LIST[:3], reverse=True)),
                    "Your IDCG sorted only the first three results; the ideal list picks the best three of all four grades.",
                ),
            ],
        ),
        right="The grade-3 result sits at position 3: moving it up is where the score would come from.",
    )
)
_POOL_RANKED, _POOL = [2, 0, 1], [3, 2, 1, 0]
_add(
    Exercise(
        "03-pool",
        "03-ideal-ranking-ndcg",
        "NDCG@3 of [2, 0, 1] when a judged grade-3 item was not retrieved",
        "number",
        _number_judge(
            lambda: nt.ndcg(_POOL_RANKED, k=3, pool=_POOL),
            "Build the ideal list from every judged grade of the query, retrieved or not.",
            [(lambda: nt.ndcg(_POOL_RANKED, k=3), "Your ideal list forgot the grade-3 item the ranker missed.")],
        ),
        right="Missing the best item now costs the ranker, as it should.",
    )
)
_ZERO_LIST = [0, 3, 2]
_add(
    Exercise(
        "03-worst-k",
        "03-ideal-ranking-ndcg",
        "the k from 1 to 3 that gives [0, 3, 2] its lowest NDCG@k",
        "number",
        _number_judge(
            lambda: min(range(1, 4), key=lambda k: nt.ndcg(_ZERO_LIST, k=k)),
            "Compute NDCG@1, NDCG@2 and NDCG@3 and pick the k of the smallest.",
            tolerance=1e-9,
        ),
        right="A small k judges the top alone, so one bad first result weighs everything.",
    )
)

# 04: precision and recall at k
_PR_LIST = [2, 0, 1, 0, 3]
_add(
    Exercise(
        "04-precision",
        "04-precision-recall-at-k",
        "P@3 of [2, 0, 1, 0, 3] with threshold 1",
        "number",
        _number_judge(
            lambda: nt.precision_at_k(_PR_LIST, 3),
            "Count the grades of at least 1 among the first three, then divide by 3.",
            [
                (
                    lambda: nt.cg(_PR_LIST, k=3) / 3,
                    "You averaged the grades; precision counts relevant results, whatever their grade.",
                ),
                (
                    lambda: nt.precision_at_k(_PR_LIST, 3) * 3 / len(_PR_LIST),
                    "You divided by the length of the list; P@3 divides by 3.",
                ),
            ],
        ),
        right="Precision@k asks: of what I showed, how much was relevant?",
    )
)
_add(
    Exercise(
        "04-recall",
        "04-precision-recall-at-k",
        "R@3 of [2, 0, 1, 0, 3] when the query has 4 relevant items",
        "number",
        _number_judge(
            lambda: nt.recall_at_k(_PR_LIST, 3, n_relevant=4),
            "Divide the relevant results among the first three by the relevant items of the whole query.",
            [
                (
                    lambda: nt.recall_at_k(_PR_LIST, 3),
                    "The query has 4 relevant items, not only the ones that made it into the list.",
                ),
                (lambda: nt.precision_at_k(_PR_LIST, 3), "That is precision, which divides by k."),
            ],
        ),
        right="Recall@k asks: of everything relevant, how much did I show?",
    )
)
_add(
    Exercise(
        "04-threshold",
        "04-precision-recall-at-k",
        "P@3 of [2, 0, 1, 0, 3] with threshold 2",
        "number",
        _number_judge(
            lambda: nt.precision_at_k(_PR_LIST, 3, threshold=2),
            "Only grades of 2 or more count as relevant now.",
            [(lambda: nt.precision_at_k(_PR_LIST, 3), "That is the answer for threshold 1; the grade-1 result no longer counts.")],
        ),
        right="Raising the threshold can only keep or lower precision.",
    )
)
_SHORT_LIST = [1, 0, 1]
_add(
    Exercise(
        "04-short-list",
        "04-precision-recall-at-k",
        "P@5 of the three-result list [1, 0, 1], dividing by k",
        "number",
        _number_judge(
            lambda: nt.precision_at_k(_SHORT_LIST, 5),
            "The two missing positions count as not relevant, and the division is still by 5.",
            [
                (
                    lambda: nt.precision_at_k(_SHORT_LIST, 5, adaptive_k=True),
                    "You divided by the length of the list; this exercise divides by k, as trec_eval does.",
                )
            ],
        ),
        right="A system that returns fewer than k results pays for the empty slots.",
    )
)

# 05: average precision, MAP and reciprocal rank
_AP_LIST = [1, 0, 1, 0, 0, 1]
_add(
    Exercise(
        "05-ap",
        "05-average-precision-map-rr",
        "AP of [1, 0, 1, 0, 0, 1]",
        "number",
        _number_judge(
            lambda: nt.average_precision(_AP_LIST),
            "Take the precision at each relevant position, add them, and divide by the number of relevant results.",
            [
                (
                    lambda: sum(nt.precision_at_k(_AP_LIST, k) for k in range(1, len(_AP_LIST) + 1)) / len(_AP_LIST),
                    "You averaged precision at every position; AP uses the positions of relevant results only.",
                ),
                (
                    lambda: nt.average_precision(_AP_LIST) * 3 / 6,
                    "You divided by the length of the list; divide by the number of relevant results.",
                ),
            ],
        ),
        right="Each relevant result contributes the precision at its position.",
    )
)
_add(
    Exercise(
        "05-ap-all-relevant",
        "05-average-precision-map-rr",
        "AP of [1, 0, 1, 0, 0, 1] when the query has 5 relevant items",
        "number",
        _number_judge(
            lambda: nt.average_precision(_AP_LIST, n_relevant=5),
            "Same sum of precisions as before, but divide by all relevant items of the query.",
            [(lambda: nt.average_precision(_AP_LIST), "You divided by the relevant results in the list; the query has 5.")],
        ),
        right="This is trec_eval's AP: relevant items never retrieved count as precision 0.",
    )
)
_RR_LIST = [0, 0, 1, 0, 1]
_add(
    Exercise(
        "05-rr",
        "05-average-precision-map-rr",
        "RR of [0, 0, 1, 0, 1]",
        "number",
        _number_judge(
            lambda: nt.reciprocal_rank(_RR_LIST),
            "Find the position of the first relevant result and take one over it.",
            [
                (lambda: 1 / nt.reciprocal_rank(_RR_LIST), "That is the position itself; RR is one over it."),
                (lambda: nt.average_precision(_RR_LIST), "That is AP; RR looks at the first relevant result only."),
            ],
        ),
        right="RR is all about how far a user scrolls to the first good result.",
    )
)
_MAP_QUERIES = [[1, 0, 1], [0, 1, 0]]
_add(
    Exercise(
        "05-map",
        "05-average-precision-map-rr",
        "MAP of the queries [1, 0, 1] and [0, 1, 0]",
        "number",
        _number_judge(
            lambda: nt.mean_average_precision(_MAP_QUERIES),
            "Compute AP for each query, then take the mean of the two.",
            [
                (
                    lambda: nt.average_precision(_MAP_QUERIES[0] + _MAP_QUERIES[1]),
                    "You joined the two lists into one; MAP averages the per-query APs.",
                )
            ],
        ),
        right="Every query weighs the same in MAP, however many relevant items it has.",
    )
)

# 06: playground
PLAYGROUND_RELEVANCE: Mapping[str, int] = MappingProxyType({"A": 4, "B": 1, "C": 1, "D": 0, "E": 0, "F": 0})
"""The grades of the playground's six items (lesson 06)."""


_add(
    Exercise(
        "06-high-ndcg-low-precision",
        "06-playground",
        "an order with NDCG@3 above 0.95 (exponential gain) but P@3 below 0.7",
        "order",
        _order_judge(
            PLAYGROUND_RELEVANCE,
            (
                _Condition("NDCG@3", lambda r: nt.ndcg(r, k=3, gain="exponential"), lambda v: v > 0.95, "above 0.95"),
                _Condition("P@3", lambda r: nt.precision_at_k(r, 3), lambda v: v < 0.7, "below 0.7"),
            ),
        ),
        right="With exponential gain the grade-4 item carries almost all the gain: put it first and the rest barely matters.",
    )
)
_add(
    Exercise(
        "06-full-precision-low-ndcg",
        "06-playground",
        "an order with P@3 equal to 1 but NDCG@3 below 0.6 (exponential gain)",
        "order",
        _order_judge(
            PLAYGROUND_RELEVANCE,
            (
                _Condition("P@3", lambda r: nt.precision_at_k(r, 3), lambda v: v == 1.0, "equal to 1"),
                _Condition("NDCG@3", lambda r: nt.ndcg(r, k=3, gain="exponential"), lambda v: v < 0.6, "below 0.6"),
            ),
        ),
        right="P@3 only counts relevant results; NDCG also asks whether the best one is on top.",
    )
)

# 07: checking the documents
_PRODUCTS = [4, 5, 2, 3, 1]
"""Grades of the first document's products in the order B, A, D, C, E (lesson 07)."""


def _printed(example: str, quantity: str) -> float:
    """A number as a source document prints it, read from ndcg_teach.examples."""
    from ndcg_teach.examples import example as worked_example

    return float(next(p.text for p in worked_example(example).printed if p.quantity == quantity))


def _thresholds_giving(k: int, value: float) -> list[int]:
    return [t for t in range(1, 6) if math.isclose(nt.precision_at_k(_PRODUCTS, k, threshold=t), value, abs_tol=1e-3)]


_add(
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
    )
)
_add(
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
    )
)
_add(
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
    )
)

# 08: why libraries disagree
_TIES_TRUE, _TIES_SCORE = [3, 2, 0], [0.9, 0.9, 0.1]
_add(
    Exercise(
        "08-ties",
        "08-why-libraries-disagree",
        "NDCG of y_true [3, 2, 0] scored [0.9, 0.9, 0.1], ties averaged as scikit-learn does",
        "number",
        _number_judge(
            lambda: nt.ndcg_score(_TIES_TRUE, _TIES_SCORE, ties="average"),
            "The two tied items share positions 1 and 2: each gets the mean of those two discounts.",
            [
                (
                    lambda: nt.ndcg_score(_TIES_TRUE, _TIES_SCORE, ties="optimistic"),
                    "You put the better of the tied items first; scikit-learn averages over the tie.",
                ),
                (
                    lambda: nt.ndcg_score(_TIES_TRUE, _TIES_SCORE, ties="pessimistic"),
                    "You put the worse of the tied items first; scikit-learn averages over the tie.",
                ),
            ],
        ),
        right="Averaging means a tie is neither rewarded nor punished for luck.",
    )
)
_AP_SHORT = [1, 0, 0, 1]
_add(
    Exercise(
        "08-ap-trec",
        "08-why-libraries-disagree",
        "AP of [1, 0, 0, 1] the trec_eval way, when the query has 3 relevant items",
        "number",
        _number_judge(
            lambda: nt.average_precision(_AP_SHORT, n_relevant=3),
            "trec_eval divides by every relevant item of the query, retrieved or not.",
            [
                (
                    lambda: nt.average_precision(_AP_SHORT),
                    "That divides by the relevant results retrieved (torchmetrics' way); trec_eval divides by all 3.",
                )
            ],
        ),
        right="The relevant item that was never retrieved adds 0 to the sum but 1 to the denominator.",
    )
)
_add(
    Exercise(
        "08-short-list",
        "08-why-libraries-disagree",
        "P@5 of [1, 1, 0] the Evidently way (divide by the list length when it is shorter than k)",
        "number",
        _number_judge(
            lambda: nt.precision_at_k([1, 1, 0], 5, adaptive_k=True),
            "Divide the relevant results by min(k, length of the list).",
            [
                (
                    lambda: nt.precision_at_k([1, 1, 0], 5),
                    "That divides by k, as trec_eval and ranx do; here the list is shorter than k.",
                )
            ],
        ),
        right="Same list, same k, two conventions: always say which one you report.",
    )
)

# 09: evaluating a model
_RUN_A = [[3, 2, 0, 1], [0, 1, 2, 0], [2, 2, 0, 0]]
_RUN_B = [[2, 3, 1, 0], [2, 1, 0, 0], [0, 2, 2, 0]]
"""Two rankers' relevance lists for the same three queries (lesson 09)."""
_add(
    Exercise(
        "09-mean-ndcg",
        "09-evaluating-a-model",
        "mean NDCG@3 of ranker A over its three queries",
        "number",
        _number_judge(
            lambda: nt.mean_ndcg(_RUN_A, k=3),
            "Compute NDCG@3 for each query of ranker A, then average the three.",
            [
                (lambda: nt.mean_ndcg(_RUN_A), "That is mean NDCG over whole lists; cut each at k = 3."),
                (
                    lambda: nt.mean_ndcg(_RUN_A, k=3, gain="exponential"),
                    "That uses the exponential gain; this exercise uses the linear one.",
                ),
            ],
        ),
        right="The mean hides how different the queries are: the next exercise looks at them one by one.",
    )
)
_add(
    Exercise(
        "09-wins",
        "09-evaluating-a-model",
        "on how many queries ranker B beats ranker A on NDCG@3",
        "number",
        _number_judge(
            lambda: sum(nt.ndcg(b, k=3) > nt.ndcg(a, k=3) for a, b in zip(_RUN_A, _RUN_B)),
            "Compare NDCG@3 of A and B query by query and count B's wins.",
            tolerance=1e-9,
        ),
        right="Counting wins per query tells you more than one mean.",
    )
)

EXERCISES: Mapping[str, Exercise] = MappingProxyType({exercise.key: exercise for exercise in _EXERCISE_LIST})
"""Every exercise of the course by key, in lesson order."""
