"""Lesson 14: recommender evaluation: HitRate@k, held-out items and sampled metrics."""

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, _number_judge

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
