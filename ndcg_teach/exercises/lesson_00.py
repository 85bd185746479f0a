"""Lesson 00, start here: the warm-up."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _choice_judge

LESSON = "00-start-here"

LESSON_EXERCISES = (
    Exercise(
        "00-warm-up",
        LESSON,
        "which of two lists puts the best result first (higher DCG)",
        "choice",
        # Named as in the lesson, where answer "a" means system_a.
        inputs={"system_a": [3, 2, 0], "system_b": [0, 2, 3]},
        judge=_choice_judge(
            ("a", "b"),
            lambda inp: "a" if nt.dcg(inp["system_a"]) > nt.dcg(inp["system_b"]) else "b",
            mark("Look at position 1 of each list: which one shows its most relevant result there?"),
        ),
        right=mark("The lessons explain why the top of the list weighs most."),
    ),
)
