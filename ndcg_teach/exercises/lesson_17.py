"""Lesson 17: evaluating retrieval for RAG: macro and micro means, recall@k, what a reranker can reach."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge
from .questions import question, right, wrong

LESSON = "17-evaluating-retrieval-for-rag"


def _micro(inp: Inputs) -> float:
    return nt.macro_micro(inp["per_collection"]).micro


def _best_reorder(inp: Inputs) -> list:
    return sorted(inp["relevances"], reverse=True)


LESSON_EXERCISES = (
    Exercise(
        "17-macro-mean",
        LESSON,
        "the macro mean of nDCG@10 over two collections of different sizes",
        "number",
        inputs={"per_collection": {"small": [0.9, 0.7], "large": [0.2, 0.5, 0.3, 0.1, 0.4, 0.3]}},
        judge=_number_judge(
            lambda inp: nt.macro_micro(inp["per_collection"]).macro,
            mark("Average each collection over its own queries first; then average those means, each collection "
                 "counting once."),
            [
                (_micro, mark("That is the micro mean: every query counted once, so the larger collection "
                              "decides. The macro mean averages the collections' means.")),
            ],
        ),
        right=mark("The small collection weighs as much as the large one: its 2 queries pull the macro mean far "
                   "above the micro mean."),
    ),
    Exercise(
        "17-recall-at-k",
        LESSON,
        "recall@5 of a retrieved list whose query has 4 relevant passages",
        "number",
        inputs={"relevances": [0, 1, 0, 0, 2, 0, 1, 0], "k": 5, "n_relevant": 4},
        judge=_number_judge(
            lambda inp: nt.recall_at_k(**inp),
            mark("Count the relevant passages in the top k and divide by all the query's relevant passages, "
                 "retrieved or not."),
            [
                (lambda inp: nt.precision_at_k(inp["relevances"], inp["k"]),
                 mark("That is P@k: you divided by k. Recall divides by the query's relevant passages.")),
                (lambda inp: nt.recall_at_k(inp["relevances"], inp["k"]),
                 mark("You divided by the relevant passages the list retrieved; the query has more, and the ones "
                      "never retrieved count too.")),
            ],
        ),
        right=mark("Half of what the generator could use is in its context; the rest is further down or lost."),
    ),
    Exercise(
        "17-rerank-ceiling",
        LESSON,
        "the highest nDCG@5 a reranker of these retrieved passages can reach",
        "number",
        inputs={"relevances": [0, 1, 0, 0, 0, 2, 0, 1], "k": 5, "pool": [2, 2, 1, 1, 1]},
        judge=_number_judge(
            lambda inp: nt.ndcg(_best_reorder(inp), k=inp["k"], pool=inp["pool"]),
            mark("The best a reranker can do is sort the retrieved passages by grade; the ideal ranking still "
                 "comes from every judged passage of the query (the pool)."),
            [
                (lambda inp: nt.ndcg(inp["relevances"], k=inp["k"], pool=inp["pool"]),
                 mark("That is the list as retrieved; reorder it first, as the best reranker would.")),
                (lambda inp: nt.ndcg(_best_reorder(inp), k=inp["k"]),
                 mark("You took the ideal from the retrieved passages only; the ideal ranking also has the "
                      "judged relevant passages that were never retrieved.")),
            ],
        ),
        right=mark("Even a perfect reranker stays below 1: the passages the retriever lost are lost for good."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "17-what-a-reranker-can-raise",
        LESSON,
        "which numbers a reranker of the top 100 can raise",
        mark("A team puts a reranker on top of its retriever: the reranker reorders the retriever's top 100 passages.\n"
             "Which numbers can it raise?"),
        right(mark("The final list's nDCG@10."),
              mark("It reorders the 100 passages, and nDCG@10 judges the order of the top 10.")),
        right(mark("The final list's recall@10."),
              mark("Lifting relevant passages from deep in the 100 into the top 10 raises recall@10.")),
        wrong(mark("The final list's recall@100."),
              mark("The reranker returns the same 100 passages in a new order: it can neither add nor remove one, so recall@100 stays exactly where it was.")),
        wrong(mark("The chance that a passage the retriever never fetched reaches the generator."),
              mark("A reranker sees only what the retriever fetched; a passage the retriever lost is out of reach of any reranker.")),
    ),
    question(
        "17-holes-in-the-top-10",
        LESSON,
        "what to do when two systems' judged@10 differ on a pooled collection",
        mark("On a pooled collection, a new retriever scores a lower nDCG@10 than the old lexical one.\n"
             "Its judged@10 is 0.81, the old one's 0.96.\n"
             "What should you do before believing the order?"),
        wrong(mark("Nothing: both were scored on the same judgements."),
              mark("The same judgements are not equally fair to both: they were made from systems like the old one, and the new system's holes, read as not relevant, may be relevant passages the pool missed.")),
        wrong(mark("Average over the collections with the micro mean instead."),
              mark("How collections are averaged has nothing to do with the holes inside one collection's top 10s.")),
        wrong(mark("Compare recall@100 instead: holes do not affect it."),
              mark("Recall's denominator counts only the judged relevant passages: on a pooled collection it measures agreement with the pool, where the lexical retriever can look perfect.")),
        right(mark("Judge the holes in both top 10s, or at least compare condensed lists or bpref."),
              mark("The gap in judged@10 can decide the order: in the lesson the holes turned the comparison around, and judging them brought both scores within 0.003 of the truth.")),
    ),
)
