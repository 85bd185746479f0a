"""Check a learner's answers to the exercises of the lessons, with hints.

Every exercise of the course has a key such as ``"01-cg"`` (the lesson's
number, then what it asks).  ``check(key, answer)`` says whether the answer is
right and, when it is not, gives a hint: never the answer itself.  The expected
values are computed by the library when you call ``check``, so the exercises
and the library can never disagree.

Wrong answers that come from a common slip (the exponential gain instead of the
linear one, the whole list instead of the first k positions, ...) are
recognised and get a hint about that slip.

``inputs(key)`` gives what an exercise is about, named as the library's
parameters, so a solution can pass them on instead of retyping them.  The
expected value is computed from those same inputs.

Examples
--------
>>> from ndcg_teach.exercises import check
>>> check("01-cg", 6)
01-cg: right. CG adds the grades and ignores where they sit.
>>> check("01-cg", 3)
01-cg: not yet. You counted the relevant results; CG adds their grades.
>>> check("01-cg", ...)
01-cg: no answer yet. Replace ... with your answer and run the cell again.

Every lesson also asks questions to think about, answered with a letter
(:mod:`ndcg_teach.exercises.questions`); a wrong option gets why it is wrong:

>>> check("01-why-order", "B").correct
False

A solution that reuses the exercise's inputs:

>>> import ndcg_teach as nt
>>> from ndcg_teach.exercises import inputs
>>> check("03-ndcg", nt.ndcg(**inputs("03-ndcg")))
03-ndcg: right. The grade-3 result sits at position 3: moving it up is where the score would come from.

May import: ``ndcg_teach`` (the flat API, as a learner writes it), ``course``, ``statistics``, ``core``, ``i18n``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from . import (
    lesson_00,
    lesson_01,
    lesson_02,
    lesson_03,
    lesson_04,
    lesson_05,
    lesson_06,
    lesson_07,
    lesson_08,
    lesson_09,
    lesson_10,
    lesson_11,
    lesson_12,
    lesson_13,
    lesson_14,
    lesson_15,
    lesson_16,
    lesson_17,
    lesson_18,
    lesson_19,
    lesson_20,
    lesson_21,
)
from . import questions
from .framework import Exercise, Feedback, Inputs, _thawed
from .lesson_06 import PLAYGROUND_RELEVANCE as PLAYGROUND_RELEVANCE  # the playground lesson (06) imports it from here
from ..i18n import gettext

__all__ = ["EXERCISES", "Exercise", "Feedback", "check", "discussion", "inputs", "recorded"]

# Lesson order is the course's order: `EXERCISES` (and so the list in check's error message) follows it.
_LESSONS = (
    lesson_00, lesson_01, lesson_02, lesson_03, lesson_04, lesson_05, lesson_06, lesson_07, lesson_08, lesson_09,
    lesson_10, lesson_11, lesson_12, lesson_13, lesson_14, lesson_15, lesson_16, lesson_17, lesson_18, lesson_19, lesson_20,
    lesson_21,
)

EXERCISES: Mapping[str, Exercise] = MappingProxyType(
    {exercise.key: exercise for lesson in _LESSONS for exercise in lesson.LESSON_EXERCISES}
)
"""Every exercise of the course by key, in lesson order."""


def _exercise(key: Any) -> Exercise:
    """The exercise named ``key``; the one place that says which keys exist."""
    if not isinstance(key, str) or key not in EXERCISES:
        known = ", ".join(repr(name) for name in EXERCISES)
        raise ValueError(gettext("exercise must be one of {known}. Got {key!r} instead.").format(known=known, key=key))
    return EXERCISES[key]


def _question(key: Any) -> Exercise:
    """The question to think about named ``key``."""
    found = _exercise(key)
    if found.question is None:
        raise ValueError(
            gettext("exercise must be a question to think about, answered with a letter. Got {key!r} instead.").format(key=key)
        )
    return found


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
        Shows as one line (in colour in a notebook); ``bool(feedback)`` is
        True only for a right answer.

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
    return _exercise(exercise).check(answer)


def inputs(exercise: str) -> Inputs:
    """What ``exercise`` is about, as a fresh dict you may change freely.

    Names follow the library's parameters (``relevances``, ``k``,
    ``threshold``, ``n_relevant``, ``pool``, ``gain``, ...), so when the
    exercise asks for one library call its inputs can be passed straight on
    with ``**``.  Exercises that are not one call (choices, sets, orders)
    still name what they are about (``relevance`` of the playground's items,
    ``ranker_a`` and ``ranker_b``, ...).

    Parameters
    ----------
    exercise : str
        The exercise's key, as for :func:`check`.

    Returns
    -------
    dict
        A new copy on every call, lists included: changing it changes
        neither the exercise nor the next copy.

    Raises
    ------
    ValueError
        When ``exercise`` is not a known key.

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> inputs("01-cg-at-k")
    {'relevances': [3, 0, 2, 1], 'k': 2}
    >>> nt.explain_cg(**inputs("01-cg-at-k")).formula
    'CG@2 = 3 + 0 = 3.0000'
    >>> nt.explain_precision_at_k(**inputs("04-threshold")).formula
    'P@3 = (relevant in the top 3) / 3 = 1 / 3 = 0.3333'

    Every call gives a new copy:

    >>> mine = inputs("01-cg")
    >>> mine["relevances"].append(3)
    >>> inputs("01-cg")
    {'relevances': [3, 0, 2, 1]}

    The playground's challenges name the items' grades, ``relevance``:

    >>> playground = inputs("06-high-ndcg-low-precision")
    >>> playground["relevance"]
    {'A': 4, 'B': 1, 'C': 1, 'D': 0, 'E': 0, 'F': 0}
    >>> nt.relevances_from(["B", "A", "C", "D", "E", "F"], playground["relevance"])
    [1, 4, 1, 0, 0, 0]
    """
    return _thawed(_exercise(exercise).inputs)


def discussion(exercise: str) -> str:
    """Every option of the question ``exercise``, with why it is right or wrong: what the lessons' Solutions print.

    Parameters
    ----------
    exercise : str
        The key of a question to think about (an exercise answered with a letter).

    Raises
    ------
    ValueError
        When ``exercise`` is not the key of such a question.

    Examples
    --------
    >>> print(discussion("01-why-order").splitlines()[0])
    A. It adds the grades, and a sum is the same in any order.
    """
    return _question(exercise).question.discussion()


def recorded(exercise: str, answer: Any) -> Feedback:
    """Take ``answer`` to the question ``exercise`` without saying whether it is right.

    A graded assignment's visible test calls it, so that a student cannot
    try letter after letter there; the hidden test is ``check`` itself, and
    the feedback after grading gives its verdict and explanation.

    Parameters
    ----------
    exercise : str
        The key of a question to think about.
    answer : str or tuple of str
        A letter of the question (any case), or where more than one option is
        right a tuple of letters.

    Returns
    -------
    Feedback
        With ``correct`` None: taken, not judged.

    Raises
    ------
    TypeError, ValueError
        When ``exercise`` is not such a question (ValueError), or ``answer``
        is not one of its letters (ValueError) or not a letter at all (TypeError).

    Examples
    --------
    >>> recorded("01-why-order", "b")
    01-why-order: answer B taken. It is marked when your work is graded, and the feedback then explains your choice.
    >>> recorded("01-why-order", "F")
    Traceback (most recent call last):
    ...
    ValueError: answer must be one of 'A' / 'B' / 'C' / 'D'. Got 'F' instead.
    """
    return questions.recorded(_question(exercise), answer)
