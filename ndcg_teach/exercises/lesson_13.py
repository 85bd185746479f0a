"""Lesson 13: significance tests, bootstrap intervals and multiple comparisons."""

import numpy as np

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge
from .questions import question, right, wrong

LESSON = "13-significance"

_BASELINE = [0.5, 0.6, 0.4, 0.7]
_NEW = [0.6, 0.65, 0.5, 0.7]
"""A baseline's and a new system's scores on the same four queries (lesson 13's exercises 1 and 2): as in the
lesson, ``a`` is the baseline A and ``b`` the new system B, and the tests work on ``b - a``."""


def _t_test(inp: Inputs):
    # Imported on use: ndcg_teach.statistics.significance needs scipy, which the other lessons' exercises do not.
    from ndcg_teach.statistics import paired_t_test

    return paired_t_test(inp["b"], inp["a"])


def _wilcoxon(inp: Inputs):
    from ndcg_teach.statistics import wilcoxon_test

    return wilcoxon_test(inp["b"], inp["a"])


def _differences(inp: Inputs) -> np.ndarray:
    """b - a, the differences lesson 13 tests: the new system B minus the baseline A."""
    return np.asarray(inp["b"], dtype=np.float64) - np.asarray(inp["a"], dtype=np.float64)


LESSON_EXERCISES = (
    Exercise(
        "13-t-statistic",
        LESSON,
        "paired t statistic of b - a on four queries",
        "number",
        inputs={"a": _BASELINE, "b": _NEW},
        judge=_number_judge(
            lambda inp: _t_test(inp).statistic,
            mark("Take the differences b - a, then their mean divided by (standard deviation / sqrt(n))."),
            [
                (
                    lambda inp: -_t_test(inp).statistic,
                    mark("Right size, wrong sign: take b - a, so that the new system's gains are positive."),
                ),
                (
                    lambda inp: _differences(inp).mean() / (_differences(inp).std(ddof=0) / np.sqrt(len(inp["a"]))),
                    mark("You divided by n in the standard deviation; the t-test divides by n - 1."),
                ),
            ],
        ),
        right=mark("Four queries give 3 degrees of freedom: even a large t is weak evidence with so few."),
    ),
    Exercise(
        "13-effect-size",
        LESSON,
        "effect size d_z of b - a on four queries",
        "number",
        inputs={"a": _BASELINE, "b": _NEW},
        judge=_number_judge(
            lambda inp: _t_test(inp).effect_size,
            mark("Divide the mean difference by the standard deviation of the differences (n - 1 in it)."),
            [
                (
                    lambda inp: _differences(inp).mean() / _differences(inp).std(ddof=0),
                    mark("You divided by n in the standard deviation; use n - 1, as the t-test does."),
                ),
                (
                    lambda inp: _t_test(inp).statistic,
                    mark("That is t, which grows with the number of queries; d_z does not."),
                ),
            ],
        ),
        right=mark("The effect size stays the same however many queries you add; t does not."),
    ),
    Exercise(
        "13-wilcoxon",
        LESSON,
        "Wilcoxon statistic W of b - a on five queries",
        "number",
        inputs={"a": [0.3, 0.5, 0.2, 0.6, 0.4], "b": [0.35, 0.42, 0.4, 0.9, 0.5]},
        judge=_number_judge(
            lambda inp: _wilcoxon(inp).statistic,
            mark("Rank the absolute differences from 1 (smallest) to 5, add the ranks of the negative and of the "
            "positive differences, and take the smaller sum."),
            [
                (
                    lambda inp: len(inp["a"]) * (len(inp["a"]) + 1) / 2 - _wilcoxon(inp).statistic,
                    mark("That is the larger of the two rank sums; W is the smaller."),
                ),
            ],
            tolerance=1e-9,
        ),
        right=mark("Only one difference is negative, and it is the second smallest: W is small, but five queries "
        "cannot give a small p-value."),
    ),
    Exercise(
        "13-bonferroni",
        LESSON,
        "Bonferroni threshold for 10 comparisons at the 5% level",
        "number",
        inputs={"alpha": 0.05, "comparisons": 10},
        judge=_number_judge(
            lambda inp: inp["alpha"] / inp["comparisons"],
            mark("Bonferroni tests each of m comparisons at level alpha / m."),
            [
                (
                    lambda inp: inp["alpha"] * inp["comparisons"],
                    mark("You multiplied; the threshold for each test must be stricter, not looser."),
                ),
            ],
            tolerance=1e-6,
        ),
        right=mark("Ten comparisons, each at 0.5%: the chance of any false winner stays near 5%."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "13-what-can-you-conclude",
        LESSON,
        "what NDCG going from 0.62 to 0.64 on 50 queries tells",
        mark("A paper reports that its new system raised NDCG@10 from 0.62 to 0.64 on 50 queries, and nothing else.\n"
             "What can you conclude?"),
        wrong(mark("The new system is better: 0.02 is a real improvement."),
              mark("On 50 queries a difference of 0.02 can be the luck of which queries were picked; nothing reported says how often chance alone would give it.")),
        right(mark("Nothing yet: it takes the per-query differences and a paired test or an interval, and 50 queries often miss a difference of 0.02."),
              mark("A small difference needs many queries (about 7.85 (s_d / d̄)^2 for 80% power, between 100 and 200 in section 6); 50 are enough for large differences, not for 0.02.")),
        wrong(mark("The difference is not real, because 0.02 is too small to matter."),
              mark("Small is not the same as not real: a small gain can be real and can matter, and the numbers given cannot settle it either way.")),
        wrong(mark("The new system is better at the 5% level, since 50 queries is the TREC standard."),
              mark("A habit is not a test: significance comes from the per-query differences, and none are reported.")),
    ),
    question(
        "13-twenty-variants",
        LESSON,
        "what is wrong with the best of twenty variants",
        mark("A paper compares twenty variants with a baseline, each at the 5% level, and reports that the best one is significantly better.\n"
             "What is wrong with that?"),
        wrong(mark("Nothing: each test is at 5%, so the winner is a false one only 5% of the time."),
              mark("5% holds for one comparison chosen in advance; with twenty, some variant that is no better turns up significant far more often (in 38% of the experiments of section 7).")),
        wrong(mark("It should have used the Wilcoxon test."),
              mark("Another test does not help: any test at 5% calls a variant that is no better significant 5% of the time, and twenty chances add up. For a difference in means the t-test or the randomisation test is the one to use anyway.")),
        wrong(mark("Twenty variants need twenty times as many queries."),
              mark("More queries give each comparison more power, but they do not remove the chance of a false winner among twenty; that needs a correction for the number of comparisons.")),
        right(mark("With twenty comparisons a false winner is likely: correct for them (Bonferroni, Holm) or choose the one comparison in advance, and report all twenty."),
              mark("The chance that at least one of twenty variants that are no better looks significant is far above 5%; a correction keeps the chance of any false winner at or below the level you state.")),
    ),
)
