"""Lesson 12: test collections, pooling and incomplete judgements."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _number_judge
from .questions import question, right, wrong

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

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "12-a-new-system-last",
        LESSON,
        "what to conclude when a new system comes last on a pooled collection",
        mark("A system built after the judging comes last on a leaderboard that reads unjudged documents as not relevant.\n"
             "Its top 10 holds four documents that nobody judged.\n"
             "What is the careful conclusion?"),
        right(mark("Its place is uncertain: judge its unjudged documents, or compare with bpref or condensed lists."),
              mark("Its unjudged documents were counted as misses; bpref and condensed lists score it only on what was judged, and in the lesson's simulation they put first the system that this reading put last.")),
        wrong(mark("It is the worst system."),
              mark("In the lesson's simulation, the system that came last this way was the best one under full judgements: the relevant documents only it found were never judged.")),
        wrong(mark("Its unjudged documents are probably not relevant, or the pool would have found them."),
              mark("The pool holds only what the participating systems ranked high; a system that works differently finds exactly the relevant documents the pool missed.")),
        wrong(mark("Its true score is higher by the share of unjudged documents in its top 10."),
              mark("Nothing says how many of the unjudged documents are relevant: the truth lies somewhere in a range, and RBP's residual can bound it.")),
    ),
    question(
        "12-scores-above-the-truth",
        LESSON,
        "why every score from an incomplete pool sits above the truth",
        mark("In the simulation, the pooled systems score AP′ 0.52 to 0.57, bpref 0.49 to 0.55 and AP 0.40 to 0.46 on the incomplete judgements, against AP 0.25 to 0.28 with full judgements.\n"
             "What does this show?"),
        wrong(mark("AP′ over-rates systems, so it is a worse metric than AP."),
              mark("Every column that sees only the judgements is too high, AP with unjudged documents read as not relevant too; AP′ is not the cause.")),
        wrong(mark("The full judgements must be wrong."),
              mark("The full judgements are the truth the simulation knows by construction; the pool found only about half of each query's 20 relevant documents.")),
        right(mark("Each score divides by the relevant documents the pool found, so it sits above the truth: compare systems within one column, never a score with the truth."),
              mark("A system that finds every judged relevant document scores as if it had found all 20, so none of these columns estimates the true AP: a column can only compare systems with each other, and even that fails for a system the pool did not see, as reading unjudged documents as not relevant showed for the new one.")),
        wrong(mark("The pooled systems saw the judgements in advance."),
              mark("They did not see them; they built the pool, so their relevant results were judged, while relevant documents none of them found were never judged and are missing from R.")),
    ),
)
