"""Model solutions of the graded assignments of lessons 15 on: assignment_solutions.py, continued.

The rules are that module's (read its docstring): one function per exercise, named as the student's, its
parameters the exercise's inputs, and other inputs for which the lesson's answer is wrong. assignment_solutions
imports this module at its end, so ``assignment_solutions.SOLUTIONS`` holds these too.
"""

from __future__ import annotations

import itertools

import ndcg_teach as nt
from assignment_solutions import solves


# Lesson 15

@solves("15-cohen-kappa", {"a": [1, 1, 1, 0, 0, 1], "b": [1, 1, 0, 0, 0, 1]},
        {"a": [0, 1, 2, 2, 1, 0, 2, 1], "b": [0, 1, 2, 1, 1, 0, 2, 2]})
def solve_cohen_kappa(a, b):
    n = len(a)
    p_o = sum(x == y for x, y in zip(a, b)) / n
    # Chance agreement: both give label j, each at their own rate.
    p_e = sum((a.count(label) / n) * (b.count(label) / n) for label in set(a) | set(b))
    return (p_o - p_e) / (1 - p_e)


@solves("15-fleiss-kappa", {"ratings": [[0, 0, 1], [1, 1, 1], [2, 1, 2], [0, 0, 0]]},
        {"ratings": [[1, 1], [0, 1], [0, 0], [1, 1], [1, 0]]})
def solve_fleiss_kappa(ratings):
    r = len(ratings[0])
    labels = sorted({label for row in ratings for label in row})
    counts = [[row.count(label) for label in labels] for row in ratings]
    p_bar = sum((sum(c * c for c in row) - r) / (r * (r - 1)) for row in counts) / len(counts)
    p_e = sum((sum(row[j] for row in counts) / (len(counts) * r)) ** 2 for j in range(len(labels)))
    return (p_bar - p_e) / (1 - p_e)


@solves("15-kendall-tau", {"x": [0.3, 0.2, 0.25, 0.1], "y": [0.1, 0.2, 0.15, 0.3]},
        {"x": [0.61, 0.55, 0.58, 0.40, 0.47, 0.52], "y": [0.60, 0.57, 0.50, 0.45, 0.48, 0.56]})
def solve_kendall_tau(x, y):
    pairs = list(itertools.combinations(range(len(x)), 2))
    swapped = sum((x[i] - x[j]) * (y[i] - y[j]) < 0 for i, j in pairs)
    # No ties: every pair is kept or swapped.
    return 1 - 2 * swapped / len(pairs)


@solves("15-family-wise", {"systems": 4, "alpha": 0.05}, {"systems": 10, "alpha": 0.01})
def solve_family_wise(systems, alpha):
    pairs = systems * (systems - 1) // 2
    return 1 - (1 - alpha) ** pairs


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
