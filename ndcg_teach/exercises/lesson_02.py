"""Lesson 02: discounting, DCG and its gains."""

import math

import ndcg_teach as nt

from .framework import Exercise, _choice_judge, _number_judge, _set_judge

_CG_LIST = [3, 0, 2, 1]  # lesson 01's list, now discounted
_GRADES = range(0, 6)


def _changed_by_log_base(relevances: list[float]) -> str:
    changed = [
        name
        for name, metric in (("dcg", nt.dcg), ("ndcg", nt.ndcg))
        if not math.isclose(metric(relevances, log_base=2), metric(relevances, log_base=10), rel_tol=1e-12)
    ]
    return {0: "neither", 2: "both"}.get(len(changed), changed[0])


LESSON_EXERCISES = (
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
    ),
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
    ),
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
    ),
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
    ),
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
    ),
)
