"""Lesson 00, start here: the warm-up."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _choice_judge
from .questions import question, right, wrong

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

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "00-why-discount",
        LESSON,
        "why DCG ranks system A above system B",
        mark("Systems A and B return the same three results, in opposite orders.\n"
             "Adding the grades calls them equal; DCG ranks A above B.\n"
             "Why?"),
        wrong(mark("DCG counts only the result at position 1."),
              mark("DCG adds every position: positions 2 and 3 count too, only with smaller weights.")),
        wrong(mark("DCG subtracts points for the grade-0 result that B shows first."),
              mark("DCG never subtracts: a grade-0 result adds 0 wherever it sits.\n"
                   "B scores lower because its grade-3 result sits at position 3, where it keeps only half of its grade.")),
        right(mark("Users read from the top, so DCG lets a result count for less the lower it sits, and A has its best result on top."),
              mark("DCG divides each grade by a number that grows with the position: the grade-3 result keeps all of it at position 1 and half of it at position 3.")),
        wrong(mark("DCG divides the sum of the grades by the number of results."),
              mark("Both lists have three results, so that would change nothing; DCG divides each grade by a number that grows with its position.")),
    ),
    question(
        "00-what-a-grade-is",
        LESSON,
        "which number is a relevance grade",
        mark("A ranking metric needs a relevance grade for each item.\n"
             "Which of these is one?"),
        wrong(mark("The score the ranker gave the item, such as 0.93."),
              mark("A score is what the model predicts, and sorting by it gives the order; the metric judges that order with grades from outside the model, or the model would be grading itself.")),
        right(mark("An assessor's judgement that a page answers the query well: 3 on a scale from 0 to 3."),
              mark("A grade says how useful an item is for the query, given by an assessor or read from what users did, independently of the ranker.")),
        wrong(mark("The position at which the ranker put the item."),
              mark("The position is what a metric weighs the grade by; it says where the item is, not how useful it is.")),
        wrong(mark("The DCG of the list."),
              mark("DCG is what a metric computes from the grades: one number for the whole list, not one per item.")),
    ),
)
