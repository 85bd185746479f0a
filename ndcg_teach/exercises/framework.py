"""The machinery behind the exercises: the verdict, the exercise and the judges.

A judge turns a learner's answer and the exercise's inputs into
``(correct, hint)``.  The lesson modules (``lesson_00`` ... ``lesson_17``)
build their exercises from these pieces; :mod:`ndcg_teach.exercises` gathers
them and offers ``check`` and ``inputs``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from types import MappingProxyType
from typing import Any

import ndcg_teach as nt

from ..i18n import _, sentences
from ..core.validation import shown

Inputs = dict[str, Any]
"""An exercise's inputs as a judge and a learner get them: a fresh dict of fresh lists."""

Judge = Callable[[Any, Inputs], tuple[bool, str]]
"""``judge(answer, inputs)`` -> ``(correct, hint)``."""

# How each verdict looks in a notebook: a CSS class (see static/feedback.css) and a symbol, so that
# the verdict does not rest on colour alone.
_LOOKS = {
    True: ("right", "\N{CHECK MARK}"),
    False: ("not-yet", "\N{BALLOT X}"),
    None: ("no-answer", "\N{HORIZONTAL ELLIPSIS}"),
}


@lru_cache(maxsize=1)
def _stylesheet() -> str:
    # Imported here, as in trace.py: importlib.resources is only needed once a notebook shows feedback.
    from importlib import resources

    return resources.files("ndcg_teach.exercises").joinpath("static/feedback.css").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: right, not yet, or not answered.

    Attributes
    ----------
    exercise : str
        The exercise's key.
    correct : bool or None
        True when right, False when wrong, None when there is no verdict:
        no answer yet, or an answer to a question taken to be judged later
        (:func:`ndcg_teach.exercises.recorded`).
    message : str
        What the learner reads: the verdict and a hint (never the answer).

    Notes
    -----
    In a notebook the feedback shows in colour (``_repr_html_``): green with
    a ✓ when right, red with a ✗ when not yet, grey with a … when there is
    no answer, in the JupyterLab theme's own colours.  The symbol and the
    words carry the verdict too, so it does not rest on colour alone.  As
    text (``repr``, ``str``) it is the message alone.

    Examples
    --------
    >>> from ndcg_teach.exercises import check
    >>> feedback = check("01-cg-at-k", 3)
    >>> feedback.correct, bool(feedback)
    (True, True)
    >>> "✓" in feedback._repr_html_() and feedback.message in feedback._repr_html_()
    True
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

    def _repr_html_(self) -> str:
        state, symbol = _LOOKS[self.correct]
        return (
            f'<div class="ndcg-feedback ndcg-feedback-{state}"><style>{_stylesheet()}</style>'
            # The words already say the verdict; a screen reader need not read the symbol too.
            f'<span class="ndcg-feedback-symbol" aria-hidden="true">{symbol}</span>'
            f'<span class="ndcg-feedback-message">{escape(self.message)}</span></div>'
        )


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
    judge : callable
        ``judge(answer, inputs)`` returns ``(correct, hint)``; it gets a fresh
        copy of ``inputs`` and computes the expected value from it.
    right : str
        What a learner reads after a right answer.
    inputs : Mapping[str, object]
        What the exercise is about, read-only (lists are kept as tuples).
        Names follow the library's parameters and glossary (``relevances``,
        ``k``, ``threshold``, ``pool``, ``n_relevant``, ``relevance``, ...),
        so when the exercise asks for one library call, ``inputs`` are its
        keyword arguments.  :func:`ndcg_teach.exercises.inputs` gives a copy
        with ordinary lists.
    question : Question or None
        For a question to think about (kind ``"choice"``, answered with a
        letter): its stem and its options, each with why it is right or
        wrong (see :mod:`ndcg_teach.exercises.questions`).  None for the
        other exercises.

    Examples
    --------
    >>> from ndcg_teach.exercises import EXERCISES
    >>> exercise = EXERCISES["01-cg-at-k"]
    >>> exercise.title, exercise.kind
    ('CG@2 of [3, 0, 2, 1]', 'number')
    >>> dict(exercise.inputs)
    {'relevances': (3, 0, 2, 1), 'k': 2}
    """

    key: str
    lesson: str
    title: str
    kind: str
    judge: Judge = field(repr=False)
    right: str = field(repr=False, default="")
    inputs: Mapping[str, Any] = field(default_factory=dict)
    question: Any = field(repr=False, default=None)

    def __post_init__(self) -> None:
        # The expected value is computed from the inputs, so nothing may change them after the fact.
        object.__setattr__(self, "inputs", _frozen(self.inputs))

    def check(self, answer: Any) -> Feedback:
        """Judge ``answer``; see :func:`check`."""
        if answer is ... or answer is None:
            return Feedback(
                self.key, None, _("{key}: no answer yet. Replace ... with your answer and run the cell again.").format(key=self.key)
            )
        # Hints and the right-answer text are stored in English (marked with `mark`) and translated here, when shown.
        correct, hint = self.judge(answer, _thawed(self.inputs))
        if correct:
            right = self.question.why_right() if self.question is not None else _(self.right)
            return Feedback(self.key, True, _("{key}: right. {right}").format(key=self.key, right=right).rstrip())
        return Feedback(self.key, False, _("{key}: not yet. {hint}").format(key=self.key, hint=_(hint)))


def _frozen(value: Any) -> Any:
    """``value`` with every list and dict replaced by a read-only twin, all the way down."""
    if isinstance(value, Mapping):
        return MappingProxyType({name: _frozen(member) for name, member in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(member) for member in value)
    return value


def _thawed(value: Any) -> Any:
    """A fresh, mutable copy of a ``_frozen`` value: what a learner expects to get (lists, dicts)."""
    if isinstance(value, Mapping):
        return {name: _thawed(member) for name, member in value.items()}
    if isinstance(value, tuple):
        return [_thawed(member) for member in value]
    return value


# Judges: each turns an answer into (correct, hint) and never puts the expected value in the hint.
# What they compare with is a function of the exercise's inputs, never a second copy of them.

_Mistake = tuple[Callable[[Inputs], Any], str]


def _describe(answer: Any) -> str:
    return f"{shown(answer)} ({type(answer).__name__})"


def _as_number(answer: Any) -> float | None:
    """``answer`` as a finite float, or None (not a number, NaN, infinite, or an int such as 10**400 beyond float64)."""
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        return None
    try:
        value = float(answer)
    except OverflowError:
        return None
    return value if math.isfinite(value) else None


def _number_judge(
    expected: Callable[[Inputs], float],
    hint: str,
    mistakes: Sequence[_Mistake] = (),
    tolerance: float = 5e-4,
    example: str = "0.5",
) -> Judge:
    """Judge a number to within ``tolerance``; ``example`` is the kind of number shown when the answer is not one (e.g. "2" for a position)."""

    def judge(answer: Any, inputs: Inputs) -> tuple[bool, str]:
        value = _as_number(answer)
        if value is None:
            return False, _("This exercise wants a number, such as {example}. Got {answer} instead.").format(
                example=example, answer=_describe(answer)
            )
        wanted = expected(inputs)
        if math.isclose(value, wanted, rel_tol=0.0, abs_tol=tolerance + 1e-12):
            return True, ""
        for compute, mistake_hint in mistakes:
            if math.isclose(value, compute(inputs), rel_tol=0.0, abs_tol=tolerance + 1e-12):
                return False, mistake_hint
        if tolerance >= 1e-4 and math.isclose(value, wanted, rel_tol=0.0, abs_tol=10 * tolerance):
            return False, _("Close: keep at least three decimals (0.667, not 0.67).")
        return False, hint

    return judge


def _chosen(options: Sequence[str], answer: Any, several: bool) -> frozenset[str] | None:
    """The options ``answer`` names (any case, spaces around ignored), or None when it names none or something else.

    One option is a string; with ``several`` a list, tuple or set of them is taken too.
    """
    folded = {option.casefold(): option for option in options}
    if isinstance(answer, str):
        picks = [answer]
    elif several and isinstance(answer, (list, tuple, set, frozenset)) and answer:
        picks = list(answer)
    else:
        return None
    if not all(isinstance(pick, str) and pick.strip().casefold() in folded for pick in picks):
        return None
    return frozenset(folded[pick.strip().casefold()] for pick in picks)


def _choice_refusal(options: Sequence[str], answer: Any, several: bool) -> str:
    """What a learner reads when ``answer`` is not one of ``options`` (or, with ``several``, a collection of them)."""
    allowed = " / ".join(repr(option) for option in options)
    if several:
        return _("Answer with one of {allowed}, or a tuple of several of them. Got {answer} instead.").format(
            allowed=allowed, answer=_describe(answer)
        )
    return _("Answer with one of {allowed}. Got {answer} instead.").format(allowed=allowed, answer=_describe(answer))


def _choice_judge(
    options: Sequence[str],
    expected: Callable[[Inputs], str | frozenset[str]],
    hint: str,
    mistakes: Mapping[str, str] | None = None,
    several: bool = False,
) -> Judge:
    """Judge a choice among ``options`` (words or letters, in any case).

    ``expected`` gives the right option, or with ``several`` the set of right ones; ``mistakes`` maps a wrong option
    to what is wrong with it (``hint`` for the others).  With ``several``, a wrong answer gets the explanation of
    every wrong option it chose, or, when it chose only right ones, word that another one is right too.
    """

    def judge(answer: Any, inputs: Inputs) -> tuple[bool, str]:
        picks = _chosen(options, answer, several)
        if picks is None:
            return False, _choice_refusal(options, answer, several)
        wanted = expected(inputs)
        wanted = frozenset([wanted]) if isinstance(wanted, str) else frozenset(wanted)
        if picks == wanted:
            return True, ""
        wrong = [option for option in options if option in picks - wanted]
        if not wrong:
            return False, _("Each option you chose holds, but so does at least one more: read the others again.")
        return False, sentences(_((mistakes or {}).get(option, hint)) for option in wrong)

    return judge


def _set_judge(expected: Callable[[Inputs], set], hint: str) -> Judge:
    def judge(answer: Any, inputs: Inputs) -> tuple[bool, str]:
        if isinstance(answer, (str, bytes)) or not isinstance(answer, (set, frozenset, list, tuple)):
            return False, _("Answer with a set of numbers, such as {{2, 3}}. Got {answer} instead.").format(answer=_describe(answer))
        values = [_as_number(value) for value in answer]
        if any(value is None for value in values):
            return False, _("Every member must be a number. Got {answer} instead.").format(answer=_describe(answer))
        chosen, wanted = set(values), {float(value) for value in expected(inputs)}
        if chosen == wanted:
            return True, ""
        if chosen < wanted:
            return False, _("{hint} Some grades are missing.").format(hint=_(hint))
        return False, _("{hint} At least one of your grades does not belong.").format(hint=_(hint))

    return judge


@dataclass(frozen=True)
class _Condition:
    """One requirement of an order challenge: ``holds(measure(relevances, inputs))``."""

    name: str
    measure: Callable[[list[float], Inputs], float]
    holds: Callable[[float], bool]
    wanted: str


def _order_judge(conditions: Sequence[_Condition]) -> Judge:
    """Judge an order of item ids by the grades in ``inputs["relevance"]`` (item id -> grade)."""

    def judge(answer: Any, inputs: Inputs) -> tuple[bool, str]:
        relevance = inputs["relevance"]
        items = sorted(relevance)
        order = getattr(answer, "order", answer)
        if isinstance(order, str) or not isinstance(order, Sequence):
            return False, _("Answer with a list of item ids, best first, such as {items}. Got {answer} instead.").format(
                items=items, answer=_describe(order)
            )
        if sorted(map(str, order)) != items:
            return False, _("Use each of {items} exactly once. Got {order!r} instead.").format(items=items, order=list(order))
        relevances = nt.relevances_from([str(item) for item in order], relevance)
        measured = [(condition, condition.measure(relevances, inputs)) for condition in conditions]
        if all(condition.holds(value) for condition, value in measured):
            return True, ""
        joiner = _(" and ")
        report = joiner.join(f"{condition.name} = {value:.4f}" for condition, value in measured)
        wanted = joiner.join(
            _("{name} {wanted}").format(name=condition.name, wanted=_(condition.wanted))
            for condition, value in measured
            if not condition.holds(value)
        )
        return False, _("Your order gives {report}; the challenge wants {wanted}.").format(report=report, wanted=wanted)

    return judge
