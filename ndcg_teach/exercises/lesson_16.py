"""Lesson 16: diversity and intent: subtopic recall, α-nDCG, ERR-IA."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge
from .questions import question, right, wrong

LESSON = "16-diversity-and-intent"


def _mentions_over_subtopics(inp: Inputs) -> float:
    """Subtopic mentions in the top k (a subtopic counted again each time it recurs) over the subtopics."""
    top = inp["judgements"][: inp["k"]]
    return sum(grade > 0 for row in top for grade in row) / len(inp["judgements"][0])


def _covered_over_k(inp: Inputs) -> float:
    top = inp["judgements"][: inp["k"]]
    return sum(any(row[i] > 0 for row in top) for i in range(len(top[0]))) / inp["k"]


def _ndcg_of_any(inp: Inputs) -> float:
    """NDCG@k of the list read with one grade per item: 1 when relevant to any subtopic."""
    return nt.ndcg([int(any(grade > 0 for grade in row)) for row in inp["judgements"]], inp["k"])


LESSON_EXERCISES = (
    Exercise(
        "16-s-recall",
        LESSON,
        "S-recall@3 of a list judged for four subtopics",
        "number",
        inputs={"judgements": [[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1]], "k": 3},
        judge=_number_judge(
            lambda inp: nt.subtopic_recall(inp["judgements"], inp["k"]),
            mark("Collect the subtopics that at least one of the top k rows is relevant to, each once, and divide by "
                 "the number of subtopics the query has."),
            [
                (_mentions_over_subtopics, mark("You counted a subtopic each time an item mentions it; S-recall counts "
                                                "each subtopic once, however many items cover it.")),
                (_covered_over_k, mark("You divided by k; S-recall divides by the number of subtopics the query has.")),
            ],
        ),
        right=mark("Three relevant items in the top three, yet half of the query's subtopics are missing: what one "
                   "grade per item cannot see."),
    ),
    Exercise(
        "16-alpha-ndcg",
        LESSON,
        "α-nDCG@3 (α = 0.5) of a list that repeats a subtopic before covering two new ones",
        "number",
        inputs={"judgements": [[1, 0, 0], [1, 0, 0], [0, 1, 1]], "k": 3, "alpha": 0.5},
        judge=_number_judge(
            lambda inp: nt.alpha_ndcg(inp["judgements"], inp["k"], alpha=inp["alpha"]),
            mark("Each item gains Σ over its subtopics of (1 - α)^(items above relevant to that subtopic), discounted "
                 "by 1/log2(i + 1); divide by the same sum for the greedy ideal order of the three rows."),
            [
                (_ndcg_of_any, mark("That is NDCG with one grade per item (relevant to any subtopic): it cannot see "
                                    "that the second item repeats the first's subtopic.")),
                (
                    lambda inp: nt.alpha_ndcg(inp["judgements"], inp["k"], alpha=0.0),
                    mark("That is α = 0, which never discounts a repeated subtopic; with α = 0.5 the second item "
                         "gains only 0.5."),
                ),
            ],
        ),
        right=mark("The repeat at rank 2 gains half, and the item with two new subtopics waits at rank 3: the "
                   "greedy ideal puts it first."),
    ),
    Exercise(
        "16-err-ia",
        LESSON,
        "ERR-IA@3 of a list for two intents, 80% of users wanting the first",
        "number",
        inputs={"judgements": [[1, 0], [1, 0], [0, 1]], "k": 3, "weights": [0.8, 0.2]},
        judge=_number_judge(
            lambda inp: nt.err_ia(inp["judgements"], inp["k"], weights=inp["weights"]),
            mark("Compute ERR for each intent on its own column (a relevant item stops that intent's reader with "
                 "probability 1/2), then weigh the two ERRs by 0.8 and 0.2."),
            [
                (
                    lambda inp: nt.err_ia(inp["judgements"], inp["k"]),
                    mark("You gave the two intents equal weight; 80% of the readers want the first."),
                ),
                (
                    lambda inp: nt.expected_reciprocal_rank([1] * len(inp["judgements"]), inp["k"]),
                    mark("That is ERR of the list with one grade per item; ERR-IA runs one cascade per intent, so "
                         "the third item is new to the second intent's reader."),
                ),
            ],
        ),
        right=mark("Most readers want the first intent, and the list serves it at ranks 1 and 2: ERR-IA is high "
                   "though the second intent waits until rank 3."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "16-ndcg-cannot-see",
        LESSON,
        "why NDCG scores a page of car dealers like a diverse page",
        mark("For the query \"jaguar\", run A shows three car pages first; run B shows the car, the animal and the operating system first.\n"
             "NDCG gives both runs 1.\n"
             "Why?"),
        right(mark("NDCG gives each page one grade for the query, so it cannot see which intent a page serves or that it repeats another."),
              mark("Both runs have five relevant pages in the top 5; only judgements per subtopic reveal that A's top 3 serves one group of users three times.")),
        wrong(mark("NDCG@5 looks too shallow; at k = 10 it would tell them apart."),
              mark("Depth does not help: with one grade per page, any depth sees relevant pages, not which intent they serve.")),
        wrong(mark("The two runs are equally good, as NDCG says."),
              mark("A user who wanted the animal or the operating system finds nothing in A's top 3; what the runs differ in is what one grade per page leaves out.")),
        wrong(mark("NDCG ignores the order within the top 5."),
              mark("NDCG weighs every rank by its discount; it gives both runs 1 because every one of their top 5 pages is relevant.")),
    ),
    question(
        "16-intent-weights",
        LESSON,
        "what a verdict that flips with the intent weights means",
        mark("With equal intent weights ERR-IA prefers run B; with 60% of users wanting the car it narrowly prefers run A.\n"
             "What does that tell you?"),
        wrong(mark("ERR-IA is unstable and should not be used."),
              mark("The flip is not noise: ERR-IA reports what each group of users gets, and the verdict really does depend on who the users are.")),
        wrong(mark("Run A is better, because most users want the car."),
              mark("A wins only narrowly with 60% car readers, and leaves the animal and operating system readers nothing in its top 3; whether that trade is right depends on weights you can defend.")),
        right(mark("The intent weights are a claim about users, and the verdict can depend on them: state them, or estimate them from your users."),
              mark("P(i | q) is part of the metric: the TREC Web track weighs the subtopics equally, and another choice is a claim that needs its evidence.")),
        wrong(mark("ERR-IA should be normalised, and then the flip would go away."),
              mark("Normalising divides both runs of one query by the same number, so it cannot change which of them is ahead.")),
    ),
)
