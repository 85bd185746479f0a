"""Lesson 10: precision-recall curves, R-precision and F1."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge
from .questions import question, right, wrong

LESSON = "10-precision-recall-curves"


def _precision_at_recall(inp: Inputs, level: float) -> float:
    """The raw precision at the first rank whose recall reaches ``level`` (not interpolated): a common slip."""
    curve = nt.precision_recall_curve(**inp)
    return float(next(p for p, r in zip(curve.precision, curve.recall) if r >= level))


LESSON_EXERCISES = (
    Exercise(
        "10-r-precision",
        LESSON,
        "R-precision of [0, 1, 1, 0, 1, 0, 1] when the query has 5 relevant items",
        "number",
        inputs={"relevances": [0, 1, 1, 0, 1, 0, 1], "n_relevant": 5},
        judge=_number_judge(
            lambda inp: nt.r_precision(**inp),
            mark("R-precision is the precision at rank R: count the relevant items in the top R and divide by R."),
            [
                (
                    lambda inp: nt.r_precision(inp["relevances"]),
                    mark("You took R from the list (4 relevant items); the query has 5."),
                ),
                (
                    lambda inp: nt.recall_at_k(inp["relevances"], len(inp["relevances"]), n_relevant=inp["n_relevant"]),
                    mark("That is the recall of the whole list; R-precision stops at rank R."),
                ),
            ],
        ),
        right=mark("At rank R precision and recall are equal: R-precision is where the two meet."),
    ),
    Exercise(
        "10-interpolated",
        LESSON,
        "interpolated precision at recall 0.5 of [0, 1, 0, 0, 1, 1, 1] when the query has 4 relevant items",
        "number",
        inputs={"relevances": [0, 1, 0, 0, 1, 1, 1], "n_relevant": 4},
        judge=_number_judge(
            # The 11-point curve's value at recall 0.5 (level 5 of 0.0, 0.1, ..., 1.0).
            lambda inp: float(nt.precision_recall_curve(**inp).at_levels[5]),
            mark("Find the ranks whose recall is 0.5 or more, and take the largest precision among them."),
            [
                (
                    lambda inp: _precision_at_recall(inp, 0.5),
                    mark("That is the precision where recall first reaches 0.5; interpolation takes the best precision "
                    "at that recall or more."),
                ),
            ],
        ),
        right=mark("Reading on raised precision again, and interpolation credits that to the lower recall levels."),
    ),
    Exercise(
        "10-f1",
        LESSON,
        "F1@4 of [1, 1, 0, 1, 0, 0] when the query has 7 relevant items",
        "number",
        inputs={"relevances": [1, 1, 0, 1, 0, 0], "k": 4, "n_relevant": 7},
        judge=_number_judge(
            lambda inp: nt.f_measure(**inp),
            mark("Compute P@4 and R@4, then their harmonic mean 2PR / (P + R)."),
            [
                (
                    lambda inp: (nt.precision_at_k(inp["relevances"], inp["k"]) + nt.recall_at_k(**inp)) / 2,
                    mark("That is the arithmetic mean of P@4 and R@4; F1 is their harmonic mean."),
                ),
                (
                    lambda inp: nt.f_measure(inp["relevances"], inp["k"]),
                    mark("You took R from the list (3 relevant items); the query has 7."),
                ),
            ],
        ),
        right=mark("The harmonic mean sits nearer the smaller of P and R."),
    ),
    Exercise(
        "10-f-beta",
        LESSON,
        "F2@4 (beta = 2) of [1, 1, 0, 1, 0, 0] when the query has 7 relevant items",
        "number",
        inputs={"relevances": [1, 1, 0, 1, 0, 0], "k": 4, "beta": 2.0, "n_relevant": 7},
        judge=_number_judge(
            lambda inp: nt.f_measure(**inp),
            mark("Use (1 + beta^2) P R / (beta^2 P + R) with beta = 2."),
            [
                (
                    lambda inp: nt.f_measure(**(inp | {"beta": 1.0})),
                    mark("That is F1; with beta = 2 recall weighs four times (beta squared) as much as precision."),
                ),
                (
                    lambda inp: nt.f_measure(**(inp | {"beta": 0.5})),
                    mark("That is F0.5, which leans to precision; beta = 2 leans to recall."),
                ),
            ],
        ),
        right=mark("Recall is the weaker of the two here, so leaning to recall lowers the score."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "10-crossing-curves",
        LESSON,
        "which of two crossing precision-recall curves an examiner should prefer",
        mark("Two systems' precision–recall curves cross: system 1 has the higher precision at low recall, system 2 at high recall.\n"
             "A patent examiner must find nearly every relevant patent.\n"
             "Which system suits the examiner?"),
        wrong(mark("System 1, because its curve starts higher."),
              mark("A high start means a few sure hits first; the examiner reads far down the list, where system 1's precision is the lower one.")),
        wrong(mark("Whichever has the higher 11-point average precision."),
              mark("One average mixes the part of the curve that matters to the examiner with the part that does not; when curves cross, read them at the recall this user needs.")),
        right(mark("System 2, because its precision is the higher one at the high recall this examiner needs."),
              mark("Near recall 1 the examiner reads on until almost every relevant patent is found, and there system 2 shows more relevant patents per item read, so fewer items to read: a curve shows this where a single number cannot.")),
        wrong(mark("Neither: crossing curves mean the systems are equally good."),
              mark("Crossing curves mean each system is better for a different user; which one wins depends on how much recall the user wants.")),
    ),
    question(
        "10-why-harmonic",
        LESSON,
        "why F1 takes the harmonic mean",
        mark("Why does F1 combine P@k and R@k with the harmonic mean rather than the arithmetic mean?"),
        right(mark("The harmonic mean is pulled towards the smaller of the two, so neither returning everything nor one sure hit gives a high F1."),
              mark("With the arithmetic mean, recall 1 and precision near 0 would still score about one half; the harmonic mean stays near the weaker of the two.")),
        wrong(mark("The harmonic mean is always the larger of the two means, which rewards good systems."),
              mark("It is never larger than the arithmetic mean: it is pulled towards the smaller of the two numbers.")),
        wrong(mark("Precision and recall are on different scales, and the harmonic mean puts them on one."),
              mark("Both are shares between 0 and 1, on the same scale; the harmonic mean is chosen for how it treats an imbalance.")),
        wrong(mark("It weighs recall twice as much as precision."),
              mark("F1 weighs the two equally; leaning towards recall is what F_β with β above 1 does, F_2 for instance.")),
    ),
)
