"""The machinery behind the exercises: the verdict, the exercise and the judges.

A judge turns a learner's answer into ``(correct, hint)``.  The lesson modules
(``lesson_00`` ... ``lesson_09``) build their exercises from these pieces;
:mod:`ndcg_teach.exercises` gathers them and offers ``check``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import ndcg_teach as nt


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
    >>> from ndcg_teach.exercises import check
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
