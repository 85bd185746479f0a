"""Lesson 12: test collections, pooling and incomplete judgements."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _number_judge

LESSON = "12-incomplete-judgements"

_RUNS = [["d1", "d4", "d2", "d7", "d9"], ["d4", "d3", "d1", "d8", "d2"], ["d5", "d1", "d6", "d4", "d10"]]
"""The three runs of lesson 12's pooling example."""


LESSON_EXERCISES = (
    Exercise(
        "12-pool",
        LESSON,
        "how many documents pooling lesson 12's three runs to depth 2 judges",
        "number",
        inputs={"runs": _RUNS, "depth": 2},
        judge=_number_judge(
            lambda inp: len({doc for run in inp["runs"] for doc in run[: inp["depth"]]}),
            mark("Take the top 2 of each run and count the different documents."),
            [
                (
                    lambda inp: sum(len(run[: inp["depth"]]) for run in inp["runs"]),
                    mark("A document in the top 2 of two runs is judged once: count different documents."),
                ),
            ],
            tolerance=1e-9,
        ),
        right=mark("Runs agree on their best results, so the pool is smaller than runs times depth."),
    ),
    Exercise(
        "12-bpref",
        LESSON,
        "bpref of [0, 1, None, 0, 1] with R = 3 judged relevant and N = 4 judged non-relevant",
        "number",
        inputs={"relevances": [0, 1, None, 0, 1], "n_relevant": 3, "n_nonrelevant": 4},
        judge=_number_judge(
            lambda inp: nt.bpref(**inp),
            mark("For each relevant result, count the judged non-relevant results above it; "
            "add 1 - count / min(R, N), then divide by R."),
            [
                (
                    lambda inp: nt.bpref([0 if grade is None else grade for grade in inp["relevances"]],
                                         n_relevant=inp["n_relevant"], n_nonrelevant=inp["n_nonrelevant"]),
                    mark("You counted the unjudged result as non-relevant; bpref skips it."),
                ),
            ],
        ),
        right=mark("Only judged results count: bpref would not change if the unjudged one moved."),
    ),
    Exercise(
        "12-condensed-ap",
        LESSON,
        "AP of the condensed list of [None, 1, 0, None, 1] when 2 documents are judged relevant",
        "number",
        inputs={"relevances": [None, 1, 0, None, 1], "n_relevant": 2},
        judge=_number_judge(
            lambda inp: nt.average_precision(nt.condensed(inp["relevances"]), n_relevant=inp["n_relevant"]),
            mark("Remove the None entries, then compute AP of what is left."),
            [
                (
                    lambda inp: nt.average_precision(
                        [0 if grade is None else grade for grade in inp["relevances"]], n_relevant=inp["n_relevant"]
                    ),
                    mark("You read the unjudged results as non-relevant; a condensed list drops them."),
                ),
            ],
        ),
        right=mark("On the condensed list the unjudged results cost nothing, as bpref does."),
    ),
)
