"""Model solutions of the assignments of lessons 16-19 (the rules are in ``assignment_solutions``' docstring)."""

import math
from statistics import NormalDist

import numpy as np
from solution_registry import solves

import ndcg_teach as nt

# Lesson 16 (relevant: a positive grade)


@solves("16-s-recall", {"judgements": [[0, 1, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]], "k": 2},
        {"judgements": [[1, 1, 0, 0, 0], [0, 0, 0, 0, 1], [0, 1, 1, 0, 0], [0, 0, 0, 1, 0]], "k": 3})
def solve_s_recall(judgements, k):
    # Each covered subtopic counts once; the query's subtopics are those with a relevant item in the list.
    covered = {i for row in judgements[:k] for i, grade in enumerate(row) if grade > 0}
    return len(covered) / len({i for row in judgements for i, grade in enumerate(row) if grade > 0})


@solves("16-alpha-ndcg", {"judgements": [[1, 1], [1, 0], [0, 1]], "k": 2, "alpha": 0.5},
        {"judgements": [[0, 1, 0], [1, 0, 0], [1, 0, 1], [0, 1, 0]], "k": 3, "alpha": 0.8})
def solve_alpha_ndcg(judgements, k, alpha):
    def gain(above, row):
        # Each subtopic of the row is worth (1 - alpha)^(rows above it relevant to that subtopic).
        return sum((1 - alpha) ** sum(r[i] > 0 for r in above) for i, grade in enumerate(row) if grade > 0)

    def dcg(rows):
        return sum(gain(rows[:r], rows[r]) / math.log2(r + 2) for r in range(len(rows)))

    left, ideal = list(judgements), []
    while left and len(ideal) < k:  # greedy: the row that gains most next, the first one on a tie
        ideal.append(left.pop(max(range(len(left)), key=lambda j: (gain(ideal, left[j]), -j))))
    return dcg(judgements[:k]) / dcg(ideal)


@solves("16-err-ia", {"judgements": [[0, 1], [1, 0], [0, 1]], "k": 3, "weights": [0.5, 0.5]},
        {"judgements": [[1, 0, 0], [0, 1, 0], [1, 0, 1], [0, 0, 1]], "k": 4, "weights": [0.2, 0.3, 0.5]})
def solve_err_ia(judgements, k, weights):
    value = 0.0
    for i, weight in enumerate(weights):
        # One cascade per intent: a relevant item stops that intent's reader with probability (2^1 - 1) / 2^1.
        reach = 1.0
        for rank, row in enumerate(judgements[:k], start=1):
            stop = 0.5 if row[i] > 0 else 0.0
            value += weight / sum(weights) * reach * stop / rank
            reach *= 1 - stop
    return value


# Lesson 17

@solves("17-macro-mean", {"per_collection": {"a": [0.5, 0.7, 0.6], "b": [0.1], "c": [0.3, 0.2, 0.4, 0.3]}},
        {"per_collection": {"small": [0.2], "large": [0.8, 0.6, 0.7, 0.9, 0.5]}})
def solve_macro_mean(per_collection):
    # Each collection's mean over its own queries first, then the plain mean of those means.
    means = [sum(values) / len(values) for values in per_collection.values()]
    return sum(means) / len(means)


@solves("17-recall-at-k", {"relevances": [1, 0, 0, 1, 0, 0], "k": 3, "n_relevant": 5},
        {"relevances": [0, 0, 2, 1, 1, 0, 0, 1], "k": 6, "n_relevant": 5})
def solve_recall_at_k(relevances, k, n_relevant):
    # The query's relevant passages are n_relevant, retrieved or not.
    return sum(grade >= 1 for grade in relevances[:k]) / n_relevant


@solves("17-rerank-ceiling", {"relevances": [0, 0, 1, 0, 1, 0], "k": 3, "pool": [1, 1, 1]},
        {"relevances": [1, 0, 3, 0, 0, 2, 0], "k": 4, "pool": [3, 3, 2, 1, 1, 0]})
def solve_rerank_ceiling(relevances, k, pool):
    # The best reranker sorts the retrieved passages by grade; the ideal ranking comes from every judged passage.
    return nt.dcg(sorted(relevances, reverse=True), k) / nt.dcg(sorted(pool, reverse=True), k)


# Lesson 18

@solves("18-cascade-click", {"relevances": [3, 0, 2, 1], "position": 3}, {"relevances": [0, 1, 1, 2, 3], "position": 5})
def solve_cascade_click(relevances, position):
    alphas = [(2**grade - 1) / 8 for grade in relevances]
    # The user reaches the position only if every result above it failed to attract them.
    return float(np.prod([1 - alpha for alpha in alphas[: position - 1]])) * alphas[position - 1]


@solves("18-team-draft-win", {"ranking_a": ["x", "y"], "ranking_b": ["y", "x"], "grades": {"x": 3, "y": 2}},
        {"ranking_a": ["p", "q"], "ranking_b": ["q", "p"], "grades": {"p": 1, "q": 3}})
def solve_team_draft_win(ranking_a, ranking_b, grades):
    alpha_x, alpha_y = ((2 ** grades.get(item, 0) - 1) / 8 for item in ranking_a)  # B ranks them the other way round
    # Half the lists are x (A), y (B); half y (B), x (A): A wins when x is clicked, after y is passed over.
    return (alpha_x + (1 - alpha_y) * alpha_x) / 2


@solves("18-ab-size", {"p_control": 0.05, "p_treatment": 0.06}, {"p_control": 0.30, "p_treatment": 0.27})
def solve_ab_size(p_control, p_treatment):
    # The lesson's formula (Fleiss, Levin & Paik, no continuity correction); the judge accepts the other standard ones.
    z_alpha, z_beta = NormalDist().inv_cdf(0.975), NormalDist().inv_cdf(0.8)
    mean = (p_control + p_treatment) / 2
    sigma_0 = np.sqrt(2 * mean * (1 - mean))  # the spread of the difference if there were none
    sigma_1 = np.sqrt(p_treatment * (1 - p_treatment) + p_control * (1 - p_control))
    return int(np.ceil(((z_alpha * sigma_0 + z_beta * sigma_1) / (p_treatment - p_control)) ** 2))


# Lesson 19

@solves("19-ips", {"rewards": [0, 1, 1], "propensities": [0.5, 0.25, 0.5], "new_policy": [1.0, 1.0, 0.5]},
        {"rewards": [1, 1, 0, 1], "propensities": [0.1, 0.9, 0.5, 0.4], "new_policy": [0.5, 0.0, 1.0, 0.8]})
def solve_ips(rewards, propensities, new_policy):
    # Each record's weight: how much likelier the new policy is to take the logged action.
    weights = [p_new / p_old for p_new, p_old in zip(new_policy, propensities)]
    return sum(w * r for w, r in zip(weights, rewards)) / len(rewards)


@solves("19-snips", {"rewards": [0, 1, 1], "propensities": [0.5, 0.25, 0.5], "new_policy": [1.0, 1.0, 0.5]},
        {"rewards": [1, 1, 0, 1], "propensities": [0.1, 0.9, 0.5, 0.4], "new_policy": [0.5, 0.0, 1.0, 0.8]})
def solve_snips(rewards, propensities, new_policy):
    weights = [p_new / p_old for p_new, p_old in zip(new_policy, propensities)]
    # Divided by the sum of the weights, not by the number of records.
    return sum(w * r for w, r in zip(weights, rewards)) / sum(weights)


@solves("19-clipped-ips",
        {"rewards": [0, 1, 1], "propensities": [0.5, 0.25, 0.5], "new_policy": [1.0, 1.0, 0.5], "clip": 2.0},
        {"rewards": [1, 1, 0, 1], "propensities": [0.1, 0.9, 0.5, 0.4], "new_policy": [0.5, 0.0, 1.0, 0.8],
         "clip": 4.0})
def solve_clipped_ips(rewards, propensities, new_policy, clip):
    # Every weight above the clip level counts as the clip level.
    weights = [min(p_new / p_old, clip) for p_new, p_old in zip(new_policy, propensities)]
    return sum(w * r for w, r in zip(weights, rewards)) / len(rewards)


@solves("19-position-ips",
        {"logged": ["a", "b"], "clicks": [[0, 1], [1, 0], [0, 0]], "target": ["b", "a"], "examination": [1.0, 0.4]},
        {"logged": ["d1", "d2", "d3", "d4"], "clicks": [[0, 0, 1, 0], [1, 0, 0, 1]], "target": ["d4", "d3", "d2", "d1"],
         "examination": [0.9, 0.6, 0.3, 0.2]})
def solve_position_ips(logged, clicks, target, examination):
    # Each item's attractiveness: its clicks, each divided by the examination chance where it was shown.
    attraction = {item: sum(row[k] for row in clicks) / examination[k] / len(clicks) for k, item in enumerate(logged)}
    return sum(examination[i] * attraction[item] for i, item in enumerate(target))
