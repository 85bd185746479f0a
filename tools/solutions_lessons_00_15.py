"""Model solutions of the assignments of lessons 00-15 (the rules are in ``assignment_solutions``' docstring)."""

import itertools
import math

import numpy as np
from solution_registry import solves

import ndcg_teach as nt
from ndcg_teach.statistics.significance import wilcoxon_test


# Lesson 00

@solves("00-warm-up", {"system_a": [1, 0, 3], "system_b": [3, 1, 0]}, {"system_a": [2, 3, 3], "system_b": [3, 0, 0]})
def solve_warm_up(system_a, system_b):
    # The higher DCG decides, not the better first result.
    return "a" if nt.dcg(system_a) > nt.dcg(system_b) else "b"


# Lesson 01

@solves("01-cg", {"relevances": [2, 2, 0, 3, 1]}, {"relevances": [0, 1]})
def solve_cg(relevances):
    return sum(relevances)


@solves("01-cg-at-k", {"relevances": [1, 3, 2, 0], "k": 3}, {"relevances": [2, 0], "k": 5})
def solve_cg_at_k(relevances, k):
    # Positions past the end of a short list add nothing.
    return sum(relevances[:k])


@solves("01-cg-order", {"relevances": [3, 0, 2, 1], "k": 1}, {"relevances": [0, 1, 2, 3], "k": 2})
def solve_cg_order(relevances, k):
    before, after = nt.cg(relevances, k=k), nt.cg(relevances[::-1], k=k)
    return "same" if after == before else "up" if after > before else "down"


# Lesson 02

@solves("02-dcg-linear", {"relevances": [2, 3, 0, 1, 2], "k": 5, "gain": "linear", "discount": "log2"},
        {"relevances": [1, 2, 3], "k": 2, "gain": "linear", "discount": "log2"})
def solve_dcg_linear(relevances, k, gain, discount):
    return sum(grade / math.log2(i + 1) for i, grade in enumerate(relevances[:k], start=1))


@solves("02-dcg-exponential", {"relevances": [2, 3, 0, 1, 2], "k": 5, "gain": "exponential"},
        {"relevances": [1, 2, 3], "k": 2, "gain": "exponential"})
def solve_dcg_exponential(relevances, k, gain):
    return sum((2**grade - 1) / math.log2(i + 1) for i, grade in enumerate(relevances[:k], start=1))


@solves("02-jarvelin", {"relevances": [2, 3, 0, 1, 2], "k": 5, "discount": "jarvelin"},
        {"relevances": [0, 2, 3], "k": 3, "discount": "jarvelin"})
def solve_jarvelin(relevances, k, discount):
    # Positions 1 and 2 (b = 2) are not discounted; from there on, divide by log2 of the position.
    return sum(grade / max(1.0, math.log2(i)) for i, grade in enumerate(relevances[:k], start=1))


@solves("02-gains-agree", {"relevances": [1, 2, 3]}, {"relevances": [0, 2, 4]})
def solve_gains_agree(relevances):
    return {grade for grade in relevances if grade == 2**grade - 1}


@solves("02-log-base", {"relevances": [2, 1], "log_bases": [2, math.e]},
        {"relevances": [0, 0, 1], "log_bases": [10, 3]})
def solve_log_base(relevances, log_bases):
    base, other = log_bases
    changed = [
        name
        for name, metric in (("dcg", nt.dcg), ("ndcg", nt.ndcg))
        if not math.isclose(metric(relevances, log_base=base), metric(relevances, log_base=other))
    ]
    return changed[0] if len(changed) == 1 else {0: "neither", 2: "both"}[len(changed)]


# Lesson 03

@solves("03-idcg", {"relevances": [2, 3, 0, 1], "k": 2}, {"relevances": [0, 1, 1, 3, 2], "k": 4})
def solve_idcg(relevances, k):
    # The ideal list takes the best k grades of all, not the first k sorted.
    return nt.dcg(sorted(relevances, reverse=True), k=k)


@solves("03-ndcg", {"relevances": [2, 3, 0, 1], "k": 2}, {"relevances": [0, 1, 1, 3, 2], "k": 4})
def solve_ndcg(relevances, k):
    return nt.dcg(relevances, k=k) / nt.dcg(sorted(relevances, reverse=True), k=k)


@solves("03-pool", {"relevances": [1, 0, 2], "k": 3, "pool": [2, 2, 1, 1, 0]},
        {"relevances": [3, 1], "k": 2, "pool": [3, 3, 1]})
def solve_pool(relevances, k, pool):
    return nt.dcg(relevances, k=k) / nt.dcg(sorted(pool, reverse=True), k=k)


@solves("03-worst-k", {"relevances": [3, 0, 2]}, {"relevances": [1, 0, 3, 2]})
def solve_worst_k(relevances):
    return min(range(1, len(relevances) + 1), key=lambda k: nt.ndcg(relevances, k=k))


# Lesson 04

@solves("04-precision", {"relevances": [0, 3, 1, 0, 2, 1], "k": 4, "threshold": 1},
        {"relevances": [1, 0], "k": 3, "threshold": 1})
def solve_precision(relevances, k, threshold):
    # Divide by k even when the list is shorter: the empty slots count as misses.
    return sum(grade >= threshold for grade in relevances[:k]) / k


@solves("04-recall", {"relevances": [0, 3, 1, 0, 2], "k": 2, "n_relevant": 5},
        {"relevances": [1, 1, 0, 1], "k": 3, "n_relevant": 3})
def solve_recall(relevances, k, n_relevant):
    return sum(grade >= 1 for grade in relevances[:k]) / n_relevant


@solves("04-threshold", {"relevances": [0, 3, 1, 0, 2], "k": 5, "threshold": 2},
        {"relevances": [3, 2, 3, 1], "k": 4, "threshold": 3})
def solve_threshold(relevances, k, threshold):
    return nt.precision_at_k(relevances, k, threshold=threshold)


@solves("04-short-list", {"relevances": [1, 1], "k": 4, "adaptive_k": False},
        {"relevances": [0, 1, 1, 1], "k": 10, "adaptive_k": False})
def solve_short_list(relevances, k, adaptive_k):
    return nt.precision_at_k(relevances, k, adaptive_k=adaptive_k)


# Lesson 05

@solves("05-ap", {"relevances": [0, 1, 1, 0, 1]}, {"relevances": [1, 0, 0, 0, 1]})
def solve_ap(relevances):
    # The variant divides by the relevant items the list holds.
    hits = [i for i, grade in enumerate(relevances, start=1) if grade >= 1]
    return sum(n / position for n, position in enumerate(hits, start=1)) / len(hits) if hits else 0.0


@solves("05-ap-all-relevant", {"relevances": [0, 1, 1, 0, 1], "n_relevant": 4},
        {"relevances": [1, 0, 0, 0], "n_relevant": 2})
def solve_ap_all_relevant(relevances, n_relevant):
    hits = [i for i, grade in enumerate(relevances, start=1) if grade >= 1]
    return sum(n / position for n, position in enumerate(hits, start=1)) / n_relevant


@solves("05-rr", {"relevances": [0, 1, 0, 1]}, {"relevances": [0, 0, 0, 0, 0, 1]})
def solve_rr(relevances):
    return next((1 / i for i, grade in enumerate(relevances, start=1) if grade >= 1), 0.0)


@solves("05-map", {"queries": [[0, 1, 1], [1, 0, 1, 1]]}, {"queries": [[1], [0, 0, 1], [0, 1]]})
def solve_map(queries):
    # Each query's R is the number of its relevant items in the list, as the exercise says.
    return sum(nt.average_precision(query) for query in queries) / len(queries)


# Lesson 06: an order, best first; a rule that meets the challenge for any items.

_CHALLENGE = {"k": 3, "gain": "exponential"}


@solves("06-high-ndcg-low-precision", {"relevance": {"X": 5, "Y": 1, "Z": 1, "U": 0, "V": 0, "W": 0}, **_CHALLENGE},
        {"relevance": {"A": 0, "B": 0, "C": 4, "D": 1, "E": 0}, **_CHALLENGE})
def solve_high_ndcg_low_precision(relevance, k, gain):
    # The best k - 1 items on top (exponential gain gives them almost all the gain), then a non-relevant one.
    ranked = sorted(relevance, key=lambda item: -relevance[item])
    rest = ranked[k - 1 :]
    return [*ranked[: k - 1], *(item for item in rest if relevance[item] == 0), *(item for item in rest if relevance[item] > 0)]


@solves("06-full-precision-low-ndcg", {"relevance": {"X": 5, "Y": 1, "Z": 1, "U": 0, "V": 0, "W": 0}, **_CHALLENGE},
        {"relevance": {"A": 1, "B": 0, "C": 2, "D": 4, "E": 1, "F": 0}, **_CHALLENGE})
def solve_full_precision_low_ndcg(relevance, k, gain):
    # k relevant items on top, the weakest first, so the best item sits low or below the cut-off.
    relevant = sorted((item for item in relevance if relevance[item] > 0), key=lambda item: relevance[item])
    return [*relevant, *(item for item in relevance if relevance[item] == 0)]


# Lesson 07

@solves("07-idcg-term", {"relevances": [3, 1, 3, 5, 4, 0], "k": 6, "gain": "exponential"},
        {"relevances": [1, 1, 1, 1, 1], "k": 5, "gain": "exponential"})
def solve_idcg_term(relevances, k, gain):
    fourth = sorted(relevances, reverse=True)[3]
    return (2**fourth - 1) / math.log2(4 + 1)


@solves("07-ndcg-at-3", {"relevances": [3, 5, 4, 1, 2], "k": 3, "gain": "exponential"},
        {"relevances": [1, 2, 3, 4, 5], "k": 3, "gain": "exponential"})
def solve_ndcg_at_3(relevances, k, gain):
    return nt.ndcg(relevances, k=k, gain=gain)


@solves("07-threshold", {"relevances": [5, 1, 4, 0, 3], "k": 5}, {"relevances": [5, 4, 2, 3, 3], "k": 5})
def solve_threshold_printed(relevances, k):
    # The document prints P@5 = 0.8: the first threshold that gives it.
    return next(t for t in range(1, max(relevances) + 1) if math.isclose(nt.precision_at_k(relevances, k, threshold=t), 0.8))


# Lesson 08

@solves("08-ties", {"y_true": [1, 3, 0, 2], "y_score": [0.5, 0.5, 0.2, 0.2], "ties": "average"},
        {"y_true": [2, 0, 1], "y_score": [0.3, 0.3, 0.3], "ties": "average"})
def solve_ties(y_true, y_score, ties):
    return nt.ndcg_score(y_true, y_score, ties=ties)


@solves("08-ap-trec", {"relevances": [0, 1, 1, 0], "n_relevant": 4}, {"relevances": [1, 0, 1, 0, 0], "n_relevant": 2})
def solve_ap_trec(relevances, n_relevant):
    # trec_eval divides by every relevant item of the query, retrieved or not.
    return nt.average_precision(relevances, n_relevant=n_relevant)


@solves("08-short-list", {"relevances": [1, 0], "k": 5, "adaptive_k": True},
        {"relevances": [0, 1, 1, 1, 0, 1], "k": 4, "adaptive_k": True})
def solve_short_list_evidently(relevances, k, adaptive_k):
    shown = relevances[:k]
    return sum(grade >= 1 for grade in shown) / len(shown)


# Lesson 09

@solves("09-mean-ndcg", {"queries": [[1, 0, 2], [3, 3, 0, 1]], "k": 2},
        {"queries": [[0, 1], [2, 0, 0, 1], [1, 1, 1]], "k": 3})
def solve_mean_ndcg(queries, k):
    return sum(nt.ndcg(query, k=k) for query in queries) / len(queries)


@solves("09-wins", {"ranker_a": [[1, 0], [0, 2, 1], [3, 1, 0]], "ranker_b": [[0, 1], [2, 0, 1], [3, 0, 1]], "k": 2},
        {"ranker_a": [[0, 1, 2], [2, 1, 0]], "ranker_b": [[2, 1, 0], [1, 2, 0]], "k": 3})
def solve_wins(ranker_a, ranker_b, k):
    return sum(nt.ndcg(b, k=k) > nt.ndcg(a, k=k) for a, b in zip(ranker_a, ranker_b))


@solves("09-smallest-p", {"n_queries": 5}, {"n_queries": 10})
def solve_smallest_p(n_queries):
    # The observed signs and their mirror image are always at least as extreme: 2 of the 2**n assignments.
    return 2 / 2**n_queries


# Lesson 10

@solves("10-r-precision", {"relevances": [1, 0, 1, 1, 0, 0], "n_relevant": 3},
        {"relevances": [0, 0, 1, 1], "n_relevant": 6})
def solve_r_precision(relevances, n_relevant):
    return sum(grade >= 1 for grade in relevances[:n_relevant]) / n_relevant


@solves("10-interpolated", {"relevances": [1, 0, 0, 1, 1, 0], "n_relevant": 4},
        {"relevances": [0, 0, 1, 1, 0, 1, 1, 1], "n_relevant": 6})
def solve_interpolated(relevances, n_relevant):
    # The largest precision at any rank whose recall reaches 0.5.
    found, reached = 0, []
    for rank, grade in enumerate(relevances, start=1):
        found += grade >= 1
        if found / n_relevant >= 0.5:
            reached.append(found / rank)
    return max(reached, default=0.0)


@solves("10-f1", {"relevances": [0, 1, 1, 1], "k": 3, "n_relevant": 5},
        {"relevances": [1, 0, 0, 0, 1], "k": 5, "n_relevant": 2})
def solve_f1(relevances, k, n_relevant):
    p = nt.precision_at_k(relevances, k)
    r = nt.recall_at_k(relevances, k, n_relevant=n_relevant)
    return 2 * p * r / (p + r) if p + r else 0.0


@solves("10-f-beta", {"relevances": [0, 1, 1, 1], "k": 3, "beta": 0.5, "n_relevant": 5},
        {"relevances": [1, 0, 0, 0, 1], "k": 5, "beta": 3.0, "n_relevant": 2})
def solve_f_beta(relevances, k, beta, n_relevant):
    p = nt.precision_at_k(relevances, k)
    r = nt.recall_at_k(relevances, k, n_relevant=n_relevant)
    return (1 + beta**2) * p * r / (beta**2 * p + r) if p + r else 0.0


# Lesson 11

@solves("11-rbp", {"relevances": [0, 1, 1], "p": 0.8}, {"relevances": [1, 1, 0, 0, 1], "p": 0.9})
def solve_rbp(relevances, p):
    return (1 - p) * sum(p ** (i - 1) for i, grade in enumerate(relevances, start=1) if grade >= 1)


@solves("11-rbp-residual", {"relevances": [0, 1, 1], "p": 0.8}, {"relevances": [1, 1, 0, 0, 1], "p": 0.9})
def solve_rbp_residual(relevances, p):
    # Every rank after the list, as if all were relevant: (1 - p)(p^n + p^(n+1) + ...) = p^n.
    return p ** len(relevances)


@solves("11-err", {"relevances": [2, 1, 0, 2], "max_grade": 2}, {"relevances": [0, 3], "max_grade": 3})
def solve_err(relevances, max_grade):
    still_reading, err = 1.0, 0.0
    for rank, grade in enumerate(relevances, start=1):
        satisfied = (2**grade - 1) / 2**max_grade
        err += still_reading * satisfied / rank
        still_reading *= 1 - satisfied
    return err


@solves("11-which-prefers-many", {"one_great": [3, 0, 0], "many_fair": [0, 1, 1], "max_grade": 3, "p": 0.5},
        {"one_great": [1, 0, 0, 0], "many_fair": [1, 1, 1, 1], "max_grade": 1, "p": 0.8})
def solve_which_prefers_many(one_great, many_fair, max_grade, p):
    err = nt.expected_reciprocal_rank(many_fair, max_grade=max_grade) > nt.expected_reciprocal_rank(one_great, max_grade=max_grade)
    rbp = nt.rank_biased_precision(many_fair, p=p) > nt.rank_biased_precision(one_great, p=p)
    return {(True, True): "both", (True, False): "err", (False, True): "rbp", (False, False): "neither"}[(err, rbp)]


# Lesson 12

@solves("12-pool", {"runs": [["d2", "d1", "d3"], ["d1", "d2", "d4"], ["d5", "d1", "d6"]], "depth": 3},
        {"runs": [["a", "b"], ["c", "d"], ["a", "e"]], "depth": 1})
def solve_pool_size(runs, depth):
    return len({doc for run in runs for doc in run[:depth]})


@solves("12-bpref", {"relevances": [1, None, 0, 1, 0, 1], "n_relevant": 4, "n_nonrelevant": 3},
        {"relevances": [0, 0, None, 1], "n_relevant": 2, "n_nonrelevant": 5})
def solve_bpref(relevances, n_relevant, n_nonrelevant):
    return nt.bpref(relevances, n_relevant=n_relevant, n_nonrelevant=n_nonrelevant)


@solves("12-condensed-ap", {"relevances": [0, None, 1, None, 1, 0], "n_relevant": 3},
        {"relevances": [None, None, 1], "n_relevant": 1})
def solve_condensed_ap(relevances, n_relevant):
    return nt.average_precision(nt.condensed(relevances), n_relevant=n_relevant)


# Lesson 13

_SCORES = (  # a is the baseline A, b the new system B, as lesson 13 names them
    {"a": [0.25, 0.55, 0.3, 0.5, 0.2], "b": [0.3, 0.5, 0.45, 0.6, 0.2]},
    {"a": [0.5, 0.6, 0.2], "b": [0.4, 0.7, 0.5]},
)


@solves("13-t-statistic", *_SCORES)
def solve_t_statistic(a, b):
    diffs = np.array(b) - np.array(a)
    return diffs.mean() / (diffs.std(ddof=1) / math.sqrt(len(diffs)))


@solves("13-effect-size", *_SCORES)
def solve_effect_size(a, b):
    diffs = np.array(b) - np.array(a)
    return diffs.mean() / diffs.std(ddof=1)


@solves("13-wilcoxon", {"a": [0.6, 0.35, 0.5, 0.45, 0.3, 0.62], "b": [0.5, 0.4, 0.9, 0.3, 0.7, 0.65]},
        {"a": [0.5, 0.6, 0.45, 0.2], "b": [0.2, 0.8, 0.5, 0.6]})
def solve_wilcoxon(a, b):
    return wilcoxon_test(b, a).statistic


@solves("13-bonferroni", {"alpha": 0.01, "comparisons": 4}, {"alpha": 0.05, "comparisons": 3})
def solve_bonferroni(alpha, comparisons):
    return alpha / comparisons


# Lesson 14

@solves("14-hit-rate", {"queries": [[0, 1, 0], [0, 0, 1], [1, 0, 0]], "k": 2},
        {"queries": [[0, 0, 0, 1], [0, 0, 1, 0]], "k": 4})
def solve_hit_rate(queries, k):
    return sum(any(grade >= 1 for grade in query[:k]) for query in queries) / len(queries)


@solves("14-ndcg-held-out", {"relevances": [0, 0, 0, 0, 0, 1], "k": 10}, {"relevances": [0, 0, 0, 1], "k": 3})
def solve_ndcg_held_out(relevances, k):
    # One held-out item: IDCG is 1, and DCG is its discount when it is in the top k.
    rank = relevances.index(1) + 1
    return 1 / math.log2(rank + 1) if rank <= k else 0.0


@solves("14-success", {"relevances": [0, 0, 1, 1], "k": 2, "n_held_out": 2},
        {"relevances": [0, 0, 0, 1, 1], "k": 3, "n_held_out": 2})
def solve_success(relevances, k, n_held_out):
    return float(any(grade >= 1 for grade in relevances[:k]))


@solves("14-sampled-rank", {"n_items": 501, "rank": 51, "n_sampled": 50},
        {"n_items": 10001, "rank": 1, "n_sampled": 100})
def solve_sampled_rank(n_items, rank, n_sampled):
    # Each of the rank - 1 items above it is sampled with probability n_sampled / (n_items - 1).
    return 1 + n_sampled * (rank - 1) / (n_items - 1)


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
