"""Lesson 14: recommender evaluation: HitRate@k, held-out items and sampled metrics."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _number_judge
from .questions import question, right, wrong

LESSON = "14-recommender-evaluation"


LESSON_EXERCISES = (
    Exercise(
        "14-hit-rate",
        LESSON,
        "HitRate@3 of four users with one held-out item each",
        "number",
        inputs={"queries": [[0, 0, 1, 0, 0], [0, 0, 0, 0, 1], [1, 0, 0, 0, 0], [0, 1, 0, 0, 0]], "k": 3},
        judge=_number_judge(
            lambda inp: nt.mean("success", **inp),
            mark("For each user, is the held-out item in the top 3? HitRate@3 is the share of users for whom it is."),
            [
                (
                    lambda inp: nt.mean("success", inp["queries"]),
                    mark("You looked at the whole top 5; HitRate@3 stops at rank 3."),
                ),
                (
                    lambda inp: nt.mean("rr", inp["queries"]),
                    mark("That is MRR; HitRate only asks whether the item is in the top 3."),
                ),
            ],
        ),
        right=mark("One user in four gets the item only at rank 5, which is a miss at k = 3."),
    ),
    Exercise(
        "14-ndcg-held-out",
        LESSON,
        "NDCG@10 of a user whose one held-out item is at rank 3",
        "number",
        inputs={"relevances": [0, 0, 1, 0, 0, 0, 0, 0, 0, 0], "k": 10},
        judge=_number_judge(
            lambda inp: nt.ndcg(**inp),
            mark("IDCG is 1 (the item at rank 1); DCG is the discount 1 / log2(r + 1) at the item's rank r."),
            [
                (lambda inp: nt.reciprocal_rank(inp["relevances"]), mark("That is RR, 1 / r; NDCG uses 1 / log2(r + 1).")),
                (
                    lambda inp: nt.ndcg(**inp, discount="jarvelin"),
                    mark("You used 1 / log2(r); today's discount is 1 / log2(r + 1)."),
                ),
            ],
        ),
        right=mark("A hit at rank 3 is worth half a hit at rank 1."),
    ),
    Exercise(
        "14-success",
        LESSON,
        "success@3 of [0, 1, 0, 0, 1] for a user with 3 held-out items",
        "number",
        inputs={"relevances": [0, 1, 0, 0, 1], "k": 3, "n_held_out": 3},
        judge=_number_judge(
            lambda inp: nt.success_at_k(inp["relevances"], inp["k"]),
            mark("success@k asks one question: is at least one held-out item in the top k?"),
            [
                (
                    lambda inp: nt.recall_at_k(inp["relevances"], inp["k"], n_relevant=inp["n_held_out"]),
                    mark("That is recall@3, the share of the held-out items found; success@3 needs only one."),
                ),
            ],
            tolerance=1e-9,
        ),
        right=mark("With several held-out items, success@k is no longer recall@k."),
    ),
    Exercise(
        "14-sampled-rank",
        LESSON,
        "expected rank among 100 sampled negatives of an item at full rank 201 of 1,001",
        "number",
        inputs={"n_items": 1001, "rank": 201, "n_sampled": 100},
        judge=_number_judge(
            lambda inp: 1 + inp["n_sampled"] * (inp["rank"] - 1) / (inp["n_items"] - 1),
            mark("Each sampled negative beats the item with probability (r - 1) / (n - 1); the item's rank is 1 plus "
            "the negatives that beat it."),
            [
                (
                    lambda inp: inp["n_sampled"] * (inp["rank"] - 1) / (inp["n_items"] - 1),
                    mark("That is how many sampled negatives beat the item; its rank is one more."),
                ),
            ],
        ),
        right=mark("Sampling squeezes the catalogue: 200 items above the held-out one become about 20."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "14-sampled-winner",
        LESSON,
        "what a win on sampled candidates says about the full catalogue",
        mark("A paper ranks each held-out item against 100 sampled items and reports that model B beats model A on HitRate@10.\n"
             "What does that say about the full catalogue?"),
        wrong(mark("B is better there too: sampling raises every model's numbers alike."),
              mark("Sampling does not treat models alike: it turns B's items near rank 60 into hits while A's misses, spread over the catalogue, stay misses. In section 4 A was far better on the full catalogue.")),
        wrong(mark("A is better there, because sampling always reverses the order."),
              mark("Sampling can reverse the order, not always: the sampled numbers alone cannot tell you which way the full catalogue goes.")),
        right(mark("Nothing certain: sampled metrics measure something close to AUC and can reverse the order of two models."),
              mark("With 100 sampled items, HitRate@10 asks roughly whether the item is in the top tenth of the catalogue; rank the full catalogue, or at least report a corrected estimate beside the sampled one.")),
        wrong(mark("The comparison is sound as long as both models ranked the same 100 sampled items."),
              mark("A shared sample makes the comparison fair between the two, but it still compares a coarse, AUC-like quantity, not what users see in their top 10.")),
    ),
    question(
        "14-leave-one-out",
        LESSON,
        "what holds when each user has one held-out item",
        mark("Under leave-one-out, each user has exactly one held-out item.\n"
             "Which statements hold?"),
        right(mark("HitRate@k equals recall@k."),
              mark("With one relevant item, it is either in the top k (recall 1) or not (recall 0), exactly success@k.")),
        right(mark("A user's NDCG@k is 1/log2(r+1) for a hit at rank r ≤ k, and 0 for a miss."),
              mark("The ideal ranking puts the one item first, so IDCG = 1 and NDCG is the discount at the item's rank.")),
        wrong(mark("HitRate@10 tells a hit at rank 1 from a hit at rank 9."),
              mark("Any hit in the top 10 counts 1; NDCG@10 and RR tell the ranks apart.")),
        wrong(mark("P@k equals HitRate@k."),
              mark("P@k divides the one hit by k: it is success@k divided by k, the same only at k = 1.")),
    ),
)
