"""Lesson 00, start here: the warm-up."""

import ndcg_teach as nt

from .framework import Exercise, _choice_judge

_WARM_A, _WARM_B = [3, 2, 0], [0, 2, 3]


LESSON_EXERCISES = (
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
    ),
)
