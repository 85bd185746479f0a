"""Lesson 02: discounting, DCG and its gains."""

import math

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _choice_judge, _number_judge, _set_judge
from .questions import question, right, wrong

LESSON = "02-dcg-discounting"
_RELEVANCES = [3, 0, 2, 1]  # lesson 01's list, now discounted


def _changed_by_log_base(inp: Inputs) -> str:
    relevances, (base, other) = inp["relevances"], inp["log_bases"]
    changed = [
        name
        for name, metric in (("dcg", nt.dcg), ("ndcg", nt.ndcg))
        if not math.isclose(metric(relevances, log_base=base), metric(relevances, log_base=other), rel_tol=1e-12)
    ]
    return {0: "neither", 2: "both"}.get(len(changed), changed[0])


def _same_gain(grade: float) -> bool:
    return math.isclose(nt.dcg([grade], gain="linear"), nt.dcg([grade], gain="exponential"), abs_tol=1e-12)


LESSON_EXERCISES = (
    Exercise(
        "02-dcg-linear",
        LESSON,
        "DCG@4 of [3, 0, 2, 1], linear gain, discount 1/log2(i+1)",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 4, "gain": "linear", "discount": "log2"},
        judge=_number_judge(
            lambda inp: nt.dcg(**inp),
            mark("Divide each grade by log2(position + 1) and add the four terms."),
            [
                (
                    lambda inp: nt.dcg(**(inp | {"gain": "exponential"})),
                    mark("That is the exponential gain 2**rel - 1; this exercise uses the grade itself."),
                ),
                (
                    lambda inp: nt.dcg(**(inp | {"discount": "jarvelin"})),
                    mark("You divided by log2(i), the original Järvelin-Kekäläinen discount; here it is log2(i + 1)."),
                ),
                (
                    lambda inp: nt.dcg(**(inp | {"log_base": math.e})),
                    mark("You used the natural logarithm; the discount uses log base 2."),
                ),
                (
                    lambda inp: nt.cg(inp["relevances"], k=inp["k"]),
                    mark("That is CG: every position still needs its discount."),
                ),
            ],
        ),
        right=mark("Position 2 holds a 0, so it adds nothing whatever its discount."),
    ),
    Exercise(
        "02-dcg-exponential",
        LESSON,
        "DCG@4 of [3, 0, 2, 1], exponential gain",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 4, "gain": "exponential"},
        judge=_number_judge(
            lambda inp: nt.dcg(**inp),
            mark("Turn each grade into 2**rel - 1 first, then discount by log2(position + 1)."),
            [
                (
                    lambda inp: nt.dcg(**(inp | {"gain": "linear"})),
                    mark("That is the linear gain; here each grade becomes 2**rel - 1 first."),
                ),
                (
                    lambda inp: nt.dcg(**(inp | {"gain": lambda grade: 2.0**grade})),
                    mark("You used 2**rel; the exponential gain subtracts 1, so a grade of 0 gains nothing."),
                ),
            ],
        ),
        right=mark("The grade-3 result now weighs 7 against 3 for the grade-2 one: exponential gain favours the best."),
    ),
    Exercise(
        "02-jarvelin",
        LESSON,
        "DCG@4 of [3, 0, 2, 1] with Järvelin and Kekäläinen's original discount",
        "number",
        inputs={"relevances": _RELEVANCES, "k": 4, "discount": "jarvelin"},
        judge=_number_judge(
            lambda inp: nt.dcg(**inp),
            mark("Position 1 is not discounted; from position 2 on divide by log2(i)."),
            [
                (
                    lambda inp: nt.dcg(**(inp | {"discount": "log2"})),
                    mark("That is the modern discount log2(i + 1); the original divides by log2(i)."),
                )
            ],
        ),
        right=mark("The original discount is milder, so the same list scores higher."),
    ),
    Exercise(
        "02-gains-agree",
        LESSON,
        "which grades 0 to 5 get the same linear and exponential gain",
        "set",
        # The grades to compare, as a list: nt.explain_dcg(**inputs, gain=...) shows each one's gain.
        inputs={"relevances": [0, 1, 2, 3, 4, 5]},
        judge=_set_judge(
            lambda inp: {grade for grade in inp["relevances"] if _same_gain(grade)},
            mark("Write rel and 2**rel - 1 side by side for each grade from 0 to 5."),
        ),
        right=mark("So with binary relevance the two gains give the same DCG."),
    ),
    Exercise(
        "02-log-base",
        LESSON,
        "what a change of log base changes: dcg, ndcg, both or neither",
        "choice",
        inputs={"relevances": [1, 3, 0, 2], "log_bases": [2, 10]},
        judge=_choice_judge(
            ("dcg", "ndcg", "both", "neither"),
            _changed_by_log_base,
            mark("Compute DCG and NDCG of [1, 3, 0, 2] with log_base=2 and with log_base=10."),
            {"both": mark("Check NDCG again: every discount is divided by the same number, and so is IDCG.")},
        ),
        right=mark("Changing the base multiplies every discount by the same factor, which cancels in DCG / IDCG."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "02-which-gain",
        LESSON,
        "which gain suits users who want the one perfect answer",
        mark("Judges grade on a scale from 0 to 4, and users care above all about finding the one perfect (grade 4) answer.\n"
             "Which gain suits this, and why?"),
        wrong(mark("Linear gain, because it treats every step of the scale alike."),
              mark("Equal steps are the opposite of what is wanted: with linear gain a grade-4 result is worth only twice a grade-2 one, so two grade-2 results have as much gain as the perfect one.")),
        wrong(mark("Either: the gain never changes which of two lists DCG prefers."),
              mark("The gain can reverse which of two lists scores higher: [4, 0, 0] beats [2, 2, 2] with exponential gain and loses to it with linear gain.")),
        wrong(mark("Neither: cut the grades to relevant or not."),
              mark("Binary relevance would make the perfect answer worth the same as a barely relevant one, and throw away the very difference these users care about.")),
        right(mark("Exponential gain, because it makes a grade-4 result worth 15 against 3 for a grade-2 one."),
              mark("With 2**rel - 1 the gain grows ever faster up the scale (0, 1, 3, 7, 15), so the perfect answer is worth five grade-2 results rather than two: DCG then rewards the list that shows it, which is what these users want.")),
    ),
    question(
        "02-which-discount",
        LESSON,
        "which discount describes users who never scroll",
        mark("A product team says its users look at the first two or three results and almost never scroll.\n"
             "Which discount describes these users best?"),
        wrong(mark("1/log2(i+1), the discount of NDCG."),
              mark("The logarithm describes a patient user: position 20 still keeps 0.228, and only 30% of the weight of the first 20 positions sits in the top 3.")),
        right(mark("1/i, or p^(i-1) with a small p."),
              mark("These fall fast: about half the weight of the first 20 positions sits in the top 3 (51% for 1/i, 49% for p = 0.8), and a smaller p falls faster still.")),
        wrong(mark("Järvelin and Kekäläinen's original discount with b = 10."),
              mark("With b = 10 the first nine positions count in full: that describes a user who reads nine results, the opposite of these users.")),
        wrong(mark("No discount at all: CG."),
              mark("CG counts position 20 as much as position 1, and these users never see position 20.")),
    ),
)
