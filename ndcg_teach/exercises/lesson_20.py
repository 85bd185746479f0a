"""Lesson 20: evaluate your own system: how trec_eval reads a run, what one query's change does to the mean, and
whether a difference is evidence."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _choice_judge, _number_judge
from .questions import question, right, wrong

LESSON = "20-evaluate-your-own-system"


def _position(inp: Inputs, **rules) -> int:
    """Where trec_eval's ranking of the one query's ``scores`` puts ``item`` (1 = top), as evaluate() ranks it."""
    result = nt.evaluate({"q": {inp["item"]: 1}}, {"q": inp["scores"]}, ["recip_rank"], **rules)
    return result.ranking("q").index(inp["item"]) + 1


def _ideal_run(inp: Inputs) -> dict:
    """The run with query ``qid``'s retrieved documents in the ideal order: best grade first (0 for unjudged)."""
    grades = inp["qrels"][inp["qid"]]
    order = sorted(inp["run"][inp["qid"]], key=lambda doc: -max(grades.get(doc, 0), 0))
    return {**inp["run"], inp["qid"]: {doc: float(len(order) - position) for position, doc in enumerate(order)}}


def _ndcg_if_fixed(inp: Inputs) -> nt.Evaluation:
    return nt.evaluate(inp["qrels"], _ideal_run(inp), [f"ndcg_cut.{inp['k']}"])


def _judged(inp: Inputs) -> dict:
    """The qrels with ``item`` judged relevant (grade 1) for query ``qid``."""
    return {**inp["qrels"], inp["qid"]: {**inp["qrels"][inp["qid"]], inp["item"]: 1}}


def _map_if_judged(inp: Inputs) -> nt.Evaluation:
    return nt.evaluate(_judged(inp), inp["run"], ["map"])


def _map_with_old_r(inp: Inputs) -> float:
    """The slip: the item counts as relevant in the list, but R (AP's denominator) stays as it was."""
    judged = _map_if_judged(inp)
    grades = [_judged(inp)[inp["qid"]].get(doc, 0) for doc in judged.ranking(inp["qid"])]
    old_r = sum(grade > 0 for grade in inp["qrels"][inp["qid"]].values())
    precisions, hits = [], 0
    for position, grade in enumerate(grades, start=1):
        if grade > 0:
            hits += 1
            precisions.append(hits / position)
    values = judged.per_query["map"].copy()
    values[judged.queries.index(inp["qid"])] = sum(precisions) / old_r if old_r else 0.0
    return float(values.mean())


def _significant(inp: Inputs) -> str:
    from ndcg_teach.statistics import paired_t_test  # needs scipy, which the other lessons' exercises do not

    return "yes" if paired_t_test(inp["b"], inp["a"]).p_value < inp["alpha"] else "no"


LESSON_EXERCISES = (
    Exercise(
        "20-trec-position",
        LESSON,
        "the position at which trec_eval ranks a document of a run with tied scores",
        "number",
        inputs={"scores": {"d1": 0.5, "d2": 0.30000001, "d3": 0.3, "d4": 0.7, "d5": 0.3}, "item": "d5"},
        judge=_number_judge(
            _position,
            mark("Rank by score, highest first, with the scores stored as 32-bit floats; tied scores go by document "
                 "id, larger id first (byte order)."),
            [
                (lambda inp: _position(inp, scores="float64"),
                 mark("You compared the scores in full. trec_eval 9 stores them as 32-bit floats, where scores this "
                      "close are equal, and then breaks the tie.")),
                (lambda inp: _position(inp, ties="stable"),
                 mark("Tied scores do not keep the file's order: trec_eval puts the larger document id first.")),
            ],
            tolerance=0.0,
            example="3",
        ),
        right=mark("Your ranking is the one trec_eval reads, not the one your system printed: sort it the same way."),
    ),
    Exercise(
        "20-mean-if-fixed",
        LESSON,
        "the run's mean nDCG@k if one query's retrieved documents were in the ideal order",
        "number",
        inputs={
            "qrels": {"q1": {"a": 2, "b": 1}, "q2": {"c": 1, "d": 2, "e": 1}, "q3": {"f": 1}},
            "run": {"q1": {"a": 0.9, "b": 0.5, "x": 0.1}, "q2": {"x": 0.9, "y": 0.8, "c": 0.7, "d": 0.2},
                    "q3": {"z": 0.9, "f": 0.8}},
            "qid": "q2",
            "k": 3,
        },
        judge=_number_judge(
            lambda inp: _ndcg_if_fixed(inp).means[f"ndcg_cut_{inp['k']}"],
            mark("Sort the query's retrieved documents by grade, best first; compute its nDCG@k with the ideal from "
                 "every judged grade of the query; then average it with the other queries' nDCG@k as they are."),
            [
                (lambda inp: _ndcg_if_fixed(inp).value(inp["qid"], f"ndcg_cut.{inp['k']}"),
                 mark("That is the query's own nDCG@k; the exercise asks for the run's mean over its queries.")),
                (lambda inp: nt.evaluate(inp["qrels"], inp["run"], [f"ndcg_cut.{inp['k']}"]).means[f"ndcg_cut_{inp['k']}"],
                 mark("That is the mean as the run stands; reorder the query first.")),
            ],
        ),
        right=mark("A perfect reranking of one query moves the mean by its gain divided by the number of queries."),
    ),
    Exercise(
        "20-mean-if-judged",
        LESSON,
        "the run's MAP if an unjudged document turned out relevant",
        "number",
        inputs={
            "qrels": {"q1": {"a": 1, "b": 0}, "q2": {"c": 1, "d": 1, "e": 0}},
            "run": {"q1": {"u": 0.9, "a": 0.5, "b": 0.1}, "q2": {"c": 0.9, "v": 0.8, "e": 0.7, "d": 0.6}},
            "qid": "q2",
            "item": "v",
        },
        judge=_number_judge(
            lambda inp: _map_if_judged(inp).means["map"],
            mark("Judge the document relevant (grade 1) in the query's judgements, compute the query's AP again over "
                 "all its relevant documents, now one more, and average over the queries."),
            [
                (_map_with_old_r,
                 mark("The document now counts in the list, but R must grow too: AP divides by every relevant "
                      "document of the query, and this one is new.")),
                (lambda inp: _map_if_judged(inp).value(inp["qid"], "map"),
                 mark("That is the query's own AP; the exercise asks for the run's MAP over its queries.")),
            ],
        ),
        right=mark("An unjudged document counts as not relevant: judging the holes of the top ranks can move a "
                   "mean more than reordering does."),
    ),
    Exercise(
        "20-significant",
        LESSON,
        "whether a paired t-test finds a difference at the given level",
        "choice",
        inputs={"a": [0.42, 0.55, 0.31, 0.60, 0.48, 0.52], "b": [0.47, 0.53, 0.38, 0.66, 0.45, 0.61], "alpha": 0.05},
        judge=_choice_judge(
            ("yes", "no"),
            _significant,
            mark("Take the differences b - a query by query, compute the paired t-test's two-sided p-value and "
                 "compare it with alpha."),
            {
                "yes": mark("Check p again: B is better on most queries, but with this few queries and this spread "
                            "p is above alpha."),
                "no": mark("Check p again: the paired differences are consistent enough for p to fall below alpha."),
            },
        ),
        right=mark("Write the conclusion with the interval and the p-value, not with the word \"better\" alone."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "20-a-query-that-scores-0",
        LESSON,
        "what a query with no relevant judgement says about a system",
        mark("One query of the evaluation scores nDCG@10 = 0: nobody judged any of its passages relevant, and 8 of its top 10 were never judged.\n"
             "What does its 0 say about the system?"),
        wrong(mark("The system failed this query completely."),
              mark("With no relevant judgement the ideal DCG is 0, so every ranking scores 0 here: the 0 is a convention, not a verdict on the system.")),
        right(mark("Nothing: the query cannot tell one system from another, and belongs in what you report about the judgements."),
              mark("A query without a relevant judgement scores 0 whatever the system does (lesson 03): it lowers every system's mean alike and explains none of it.")),
        wrong(mark("Its passages are all irrelevant."),
              mark("8 of its top 10 were never judged: nobody knows whether they are relevant, and trec_eval counts them as 0.")),
        wrong(mark("The system should be tuned on this query."),
              mark("No change of the ranking can raise a score whose ideal DCG is 0; only judgements could show whether anything relevant was found.")),
    ),
    question(
        "20-an-advantage-from-the-pool",
        LESSON,
        "where a fused run's lead on the shipped judgements came from",
        mark("On the shipped judgements, a fused run beats the reranker on all 12 queries, and three tests agree.\n"
             "With every passage judged, the reranker is ahead on average and no test finds a difference.\n"
             "What explains the first result?"),
        wrong(mark("The tests were wrong: 12 queries are too few."),
              mark("On the shipped judgements the difference was consistent, and the tests read it rightly; what they cannot know is that the judgements favour one run.")),
        wrong(mark("Fusion did improve the ranking, and judging more passages hid the gain."),
              mark("Judging every passage removes a bias, it does not hide a gain: with complete judgements the reranker is the better one on average.")),
        right(mark("Fusion leans on the retriever, which is like the pooled systems, so its top 10 holds more judged passages and drops unjudged ones."),
              mark("Every unjudged passage counts as not relevant, so moving towards the pooled systems looks like a gain: check judged@10 for both runs before believing a difference.")),
        wrong(mark("The fusion weight was tuned on these 12 queries."),
              mark("The weight was fixed before looking at any result; the lead came from what had been judged, not from tuning.")),
    ),
)
