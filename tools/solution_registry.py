"""The registry of the assignments' model solutions: ``solves`` registers one, ``SOLUTIONS`` holds them by key.

The solutions themselves are in ``solutions_lessons_*.py``; ``assignment_solutions`` imports them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Solution:
    """One exercise's model solution and the inputs of its hidden tests."""

    key: str
    function: Callable[..., Any]
    others: tuple[dict[str, Any], ...]


SOLUTIONS: dict[str, Solution] = {}
"""Every exercise's solution by key, in the order they are registered (lesson by lesson)."""

LAWS = frozenset({"02-log-base"})
"""Exercises whose answer is the same whatever the inputs (NDCG never depends on the log base, and DCG does
whenever a grade is positive; the library's judge cannot take a list whose DCG stays put): other numbers
cannot tell a typed-in answer from the method, so there the hidden tests only run the function again."""


def solves(key: str, *others: dict[str, Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the solution of exercise ``key``, tested hidden on ``others``."""

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        if key in SOLUTIONS:
            raise ValueError(f"exercise {key!r} has a solution already ({SOLUTIONS[key].function.__name__}).")
        SOLUTIONS[key] = Solution(key, function, others)
        return function

    return register
