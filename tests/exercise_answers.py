"""The exercises' right answers and common slips, computed with the library: the data tests/test_exercises.py judges."""

import math
from fractions import Fraction

import numpy as np

import ndcg_teach as nt
from ndcg_teach.exercises import EXERCISES
from ndcg_teach.statistics.significance import paired_t_test

ANSWERS = {
    "00-warm-up": "a",
    "01-cg": nt.cg([3, 0, 2, 1]),
    "01-cg-at-k": nt.cg([3, 0, 2, 1], k=2),
    "01-cg-order": "same",
    "02-dcg-linear": nt.dcg([3, 0, 2, 1]),
    "02-dcg-exponential": nt.dcg([3, 0, 2, 1], gain="exponential"),
    "02-jarvelin": nt.dcg([3, 0, 2, 1], discount="jarvelin"),
    "02-gains-agree": {0, 1},
    "02-log-base": "dcg",
    "03-idcg": nt.idcg([1, 0, 3, 2], k=3),
    "03-ndcg": nt.ndcg([1, 0, 3, 2], k=3),
    "03-pool": nt.ndcg([0, 2, 1], k=3, pool=[3, 2, 1, 0]),
    "03-worst-k": 1,
    "04-precision": nt.precision_at_k([2, 0, 1, 0, 3], 3),
    "04-recall": nt.recall_at_k([2, 0, 1, 0, 3], 3, n_relevant=4),
    "04-threshold": nt.precision_at_k([2, 0, 1, 0, 3], 3, threshold=2),
    "04-short-list": nt.precision_at_k([1, 0, 1], 5),
    "05-ap": nt.average_precision([1, 0, 1, 0, 0, 1]),
    "05-ap-all-relevant": nt.average_precision([1, 0, 1, 0, 0, 1], n_relevant=5),
    "05-rr": nt.reciprocal_rank([0, 0, 1, 0, 1]),
    "05-map": nt.mean_average_precision([[1, 0, 1], [0, 1, 0]]),
    "06-high-ndcg-low-precision": ["A", "B", "D", "C", "E", "F"],
    "06-full-precision-low-ndcg": ["B", "C", "A", "D", "E", "F"],
    "07-idcg-term": (2**2 - 1) / math.log2(4 + 1),
    "07-ndcg-at-3": nt.ndcg([4, 5, 2, 3, 1], k=3, gain="exponential"),
    "07-threshold": 2,
    "08-ties": nt.ndcg_score([3, 2, 0], [0.9, 0.9, 0.1]),
    "08-ap-trec": nt.average_precision([1, 0, 0, 1], n_relevant=3),
    "08-short-list": nt.precision_at_k([1, 1, 0], 5, adaptive_k=True),
    "09-mean-ndcg": nt.mean_ndcg([[3, 2, 0, 1], [0, 1, 2, 0], [2, 2, 0, 0]], k=3),
    "09-wins": 2,
    "09-smallest-p": 2 / 8,  # of the 8 sign assignments, the observed one and its mirror are always as extreme
    "10-r-precision": nt.r_precision([0, 1, 1, 0, 1, 0, 1], n_relevant=5),
    "10-interpolated": 4 / 7,  # P@7 = 4/7 beats P@5 = 2/5 and P@6 = 3/6 once recall reaches 2/4
    "10-f1": 2 * 0.75 * (3 / 7) / (0.75 + 3 / 7),  # P@4 = 3/4, R@4 = 3/7
    "10-f-beta": 5 * 0.75 * (3 / 7) / (4 * 0.75 + 3 / 7),
    "11-rbp": nt.rank_biased_precision([1, 0, 0, 1], p=0.5),
    "11-rbp-residual": nt.rbp_residual([1, 0, 0, 1], p=0.5),
    "11-err": nt.expected_reciprocal_rank([1, 2], max_grade=2),
    "11-which-prefers-many": "rbp",
    "12-pool": 4,
    "12-bpref": nt.bpref([0, 1, None, 0, 1], n_relevant=3, n_nonrelevant=4),
    "12-condensed-ap": nt.average_precision([1, 0, 1], n_relevant=2),
    # Lesson 13 names the baseline a and the new system b, and tests b - a: the new system first.
    "13-t-statistic": paired_t_test([0.6, 0.65, 0.5, 0.7], [0.5, 0.6, 0.4, 0.7]).statistic,
    "13-effect-size": paired_t_test([0.6, 0.65, 0.5, 0.7], [0.5, 0.6, 0.4, 0.7]).effect_size,
    "13-wilcoxon": 2,
    "13-bonferroni": 0.005,
    "14-hit-rate": nt.mean("success", [[0, 0, 1, 0, 0], [0, 0, 0, 0, 1], [1, 0, 0, 0, 0], [0, 1, 0, 0, 0]], k=3),
    "14-ndcg-held-out": nt.ndcg([0, 0, 1, 0, 0, 0, 0, 0, 0, 0], k=10),
    "14-success": 1,
    "14-sampled-rank": 21,
    # p_o = 7/10, p_e = 6/10 * 5/10 + 4/10 * 5/10 = 1/2.
    "15-cohen-kappa": float((Fraction(7, 10) - Fraction(1, 2)) / (1 - Fraction(1, 2))),
    # P_i = 1, 1/2, 1/2, 1, 1/3 so P-bar = 2/3; ten 1s of twenty labels, P_e = 1/2.
    "15-fleiss-kappa": float((Fraction(2, 3) - Fraction(1, 2)) / (1 - Fraction(1, 2))),
    "15-kendall-tau": 1 - 2 * 2 / 10,  # systems 1-2 and 3-4 swap
    "15-family-wise": 1 - 0.95**15,
    "16-s-recall": 2 / 4,  # the top three cover subtopics 1 and 2 of four
    # Gains 1, 1/2, 2 against the greedy ideal's 2, 1, 1/2.
    "16-alpha-ndcg": (1 + 0.5 / math.log2(3) + 2 / 2) / (2 + 1 / math.log2(3) + 0.5 / 2),
    # ERR of intent 1: 1/2 + (1/2 * 1/2) / 2; of intent 2: (1/2) / 3.
    "16-err-ia": 0.8 * (1 / 2 + 1 / 8) + 0.2 * (1 / 6),
    "17-macro-mean": (0.8 + 0.3) / 2,  # small: (0.9 + 0.7) / 2; large: 1.8 / 6
    "17-recall-at-k": 2 / 4,  # grades 1 and 2 in the top 5, of 4 relevant
    # best order [2, 1, 1, 0, 0]; ideal [2, 2, 1, 1, 1] from the pool
    "17-rerank-ceiling": (2 + 1 / math.log2(3) + 1 / 2)
    / (2 + 2 / math.log2(3) + 1 / 2 + 1 / math.log2(5) + 1 / math.log2(6)),
    "18-cascade-click": float(Fraction(7, 8) * Fraction(5, 8) * Fraction(7, 8)),  # grades 1, 2, 3: alpha 1/8, 3/8, 7/8
    "18-team-draft-win": float((Fraction(3, 8) + Fraction(7, 8) * Fraction(3, 8)) / 2),
    "18-ab-size": 6510,  # the lesson's formula; 6507, 6508, 6610 and 6636 are right too (tests/test_lesson_18.py)
    # weights 1/0.2, 1/0.5, 0/0.5, 0.5/0.8, 1/0.25 = 5, 2, 0, 0.625, 4; clicked: the 1st, 3rd and 5th records.
    "19-ips": (5 + 0 + 4) / 5,
    "19-snips": 9 / 11.625,
    "19-clipped-ips": (3 + 0 + 3) / 5,  # weights clipped at 3: 3, 2, 0, 0.625, 3
    # alpha-hat: d1 2/1/4 = 0.5, d2 (1/0.5)/4 = 0.5, d3 (1/0.25)/4 = 1; new positions d3, d1, d2.
    "19-position-ips": 1.0 * 1 + 0.5 * 0.5 + 0.25 * 0.5,
    # 32-bit scores: d2's 0.30000001 is d3's and d5's 0.3; ties larger id first: d4, d1, d5, d3, d2.
    "20-trec-position": 3,
    # q1 is ideal (1); q2 reordered d (2), c (1): (2 + 1/log2 3) over the pool's 2 + 1/log2 3 + 1/2; q3 1/log2 3.
    "20-mean-if-fixed": (1 + (2 + 1 / math.log2(3)) / (2.5 + 1 / math.log2(3)) + 1 / math.log2(3)) / 3,
    # q1: a at 2, R = 1: 1/2; q2 judged v: c, v, d relevant at 1, 2, 4 of R = 3: (1 + 1 + 3/4) / 3.
    "20-mean-if-judged": (1 / 2 + (1 + 1 + 3 / 4) / 3) / 2,
    "20-significant": "yes" if paired_t_test([0.47, 0.53, 0.38, 0.66, 0.45, 0.61], [0.42, 0.55, 0.31, 0.60, 0.48, 0.52]).p_value < 0.05 else "no",
    "21-vital-strict": 1 / 3,  # vital n1 support, n3 partial (0 when strict), n5 not
    "21-weighted": (1 + 0.5 + 0.5 * (1 + 0 + 0.5)) / (2 + 0.5 * 3),  # vital credits 1, 1/2; okay 1, 0, 1/2 at weight 1/2
    # p1 alone, p3 irrelevant; p2 and p3 needed together; p4 cites an unsupported sentence; p2 alone.
    "21-citation-precision": 4 / 6,
    "21-faithful-ceiling": 3 / 4,  # vital n1, n2, n7 in the context; n4 nowhere
}
"""A right answer for every exercise, computed here with the library (the lessons' solutions do the same)."""


# A question to think about is answered with the letter (or letters) of its right option, which only its definition holds.
ANSWERS.update({key: exercise.question.answer for key, exercise in EXERCISES.items() if exercise.question is not None})

SLIPS = [
    ("01-cg", 3, "You counted the relevant results"),
    ("01-cg-at-k", nt.cg([3, 0, 2, 1]), "CG@2 stops after position 2"),
    ("02-dcg-linear", nt.dcg([3, 0, 2, 1], gain="exponential"), "exponential gain"),
    ("02-dcg-linear", nt.dcg([3, 0, 2, 1], discount="jarvelin"), "log2(i)"),
    ("02-dcg-linear", nt.dcg([3, 0, 2, 1], log_base=math.e), "natural logarithm"),
    ("02-dcg-linear", nt.cg([3, 0, 2, 1]), "That is CG"),
    ("02-dcg-exponential", nt.dcg([3, 0, 2, 1]), "linear gain"),
    ("02-dcg-exponential", sum(2.0**g / math.log2(i + 2) for i, g in enumerate([3, 0, 2, 1])), "subtracts 1"),
    ("02-jarvelin", nt.dcg([3, 0, 2, 1]), "log2(i + 1)"),
    ("03-idcg", nt.dcg([1, 0, 3], k=3), "DCG of the list as ranked"),
    ("03-idcg", nt.dcg([3, 1, 0]), "sorted only the first three"),
    ("03-ndcg", nt.ndcg([1, 0, 3, 2]), "That is NDCG@4"),
    ("03-pool", nt.ndcg([0, 2, 1]), "forgot the grade-3 item"),
    ("04-precision", 1.0, "averaged the grades"),
    ("04-precision", 0.4, "length of the list"),
    ("04-recall", 2 / 3, "4 relevant items"),
    ("04-threshold", 2 / 3, "threshold 1"),
    ("04-short-list", 2 / 3, "length of the list"),
    ("05-ap", (1 + 1 / 2 + 2 / 3 + 2 / 4 + 2 / 5 + 3 / 6) / 6, "every position"),
    ("05-ap", (1 + 2 / 3 + 3 / 6) / 6, "length of the list"),
    ("05-ap-all-relevant", (1 + 2 / 3 + 3 / 6) / 3, "the query has 5"),
    ("05-rr", 3, "position itself"),
    ("05-rr", (1 / 3 + 2 / 5) / 2, "That is AP"),
    ("05-map", (1 + 2 / 3 + 3 / 5) / 3, "joined the two lists"),
    ("07-idcg-term", 0.95, "number the document prints"),
    ("07-idcg-term", 3 / 3.17, "denominator 3.17"),
    ("07-idcg-term", 2 / math.log2(5), "linear gain"),
    ("07-ndcg-at-3", nt.ndcg([4, 5, 2, 3, 1], k=5, gain="exponential"), "That is NDCG@5"),
    ("07-ndcg-at-3", nt.ndcg([4, 5, 2, 3, 1], k=3), "linear gain"),
    ("07-threshold", 3, "printed P@3"),
    ("07-threshold", 4, "printed P@3"),
    ("08-ties", nt.ndcg_score([3, 2, 0], [0.9, 0.9, 0.1], ties="optimistic"), "better of the tied"),
    ("08-ties", nt.ndcg_score([3, 2, 0], [0.9, 0.9, 0.1], ties="pessimistic"), "worse of the tied"),
    ("08-ap-trec", (1 + 2 / 4) / 2, "torchmetrics"),
    ("08-short-list", 0.4, "divides by k"),
    ("09-mean-ndcg", nt.mean_ndcg([[3, 2, 0, 1], [0, 1, 2, 0], [2, 2, 0, 0]]), "whole lists"),
    ("09-smallest-p", 1 / 8, "observed signs only"),
    ("09-smallest-p", 0.05, "usual threshold"),
    ("02-log-base", "both", "Check NDCG again"),
    ("10-r-precision", nt.r_precision([0, 1, 1, 0, 1, 0, 1]), "the query has 5"),
    ("10-r-precision", 0.8, "recall of the whole list"),
    ("10-interpolated", 0.4, "first reaches 0.5"),
    ("10-f1", (0.75 + 3 / 7) / 2, "arithmetic mean"),
    ("10-f1", nt.f_measure([1, 1, 0, 1, 0, 0], 4), "took R from the list"),
    ("10-f-beta", nt.f_measure([1, 1, 0, 1, 0, 0], 4, n_relevant=7), "That is F1"),
    ("10-f-beta", nt.f_measure([1, 1, 0, 1, 0, 0], 4, beta=0.5, n_relevant=7), "F0.5"),
    ("11-rbp", 1 + 0.5**3, "factor (1 - p)"),
    ("11-rbp", 0.5 * (0.5 + 0.5**4), "p^0 = 1"),
    ("11-rbp-residual", 0.5 * 0.5**4, "rank 5 alone"),
    ("11-rbp-residual", 1 - nt.rank_biased_precision([1, 0, 0, 1], p=0.5), "1 - RBP"),
    ("11-err", 1 / 4 + 3 / 4 / 2, "cascade"),
    ("11-err", 1.0, "That is RR"),
    ("11-which-prefers-many", "err", "Check ERR again"),
    ("11-which-prefers-many", "neither", "Check RBP again"),
    ("12-pool", 6, "judged once"),
    ("12-bpref", (1 - 1 / 3) / 3, "counted the unjudged result"),
    ("12-condensed-ap", (1 / 2 + 2 / 5) / 2, "read the unjudged results as non-relevant"),
    ("13-t-statistic", -ANSWERS["13-t-statistic"], "wrong sign"),
    ("13-t-statistic", 0.0625 / (np.std([0.1, 0.05, 0.1, 0.0]) / 2), "divided by n"),
    ("13-effect-size", 0.0625 / np.std([0.1, 0.05, 0.1, 0.0]), "divided by n"),
    ("13-effect-size", ANSWERS["13-t-statistic"], "That is t"),
    ("13-wilcoxon", 13, "larger of the two"),
    ("13-bonferroni", 0.5, "multiplied"),
    ("14-hit-rate", 1.0, "whole top 5"),
    ("14-hit-rate", (1 / 3 + 1 / 5 + 1 + 1 / 2) / 4, "That is MRR"),
    ("14-ndcg-held-out", 1 / 3, "That is RR"),
    ("14-ndcg-held-out", 1 / math.log2(3), "1 / log2(r)"),
    ("14-success", 1 / 3, "That is recall@3"),
    ("14-sampled-rank", 20, "one more"),
    ("15-cohen-kappa", 0.7, "raw agreement"),
    ("15-cohen-kappa", (0.7 - 0.505) / (1 - 0.505), "Scott's π"),  # pooled: p_e = 0.55² + 0.45²
    ("15-fleiss-kappa", 2 / 3, "That is P̄"),
    ("15-kendall-tau", 0.2, "share of swapped pairs"),
    ("15-kendall-tau", 0.8, "share of pairs kept"),
    ("15-family-wise", 1 - 0.95**6, "You counted systems"),
    ("15-family-wise", 0.05 * 15, "Bonferroni"),
    ("16-s-recall", 4 / 4, "each time an item mentions it"),
    ("16-s-recall", 2 / 3, "You divided by k"),
    ("16-alpha-ndcg", 1.0, "one grade per item"),
    ("16-alpha-ndcg", (1 + 1 / math.log2(3) + 2 / 2) / (2 + 1 / math.log2(3) + 1 / 2), "That is α = 0"),
    ("16-err-ia", 0.5 * (1 / 2 + 1 / 8) + 0.5 * (1 / 6), "equal weight"),
    ("16-err-ia", 1 / 2 + 1 / 8 + 1 / 24, "one grade per item"),
    ("17-macro-mean", (1.6 + 1.8) / 8, "micro mean"),
    ("17-recall-at-k", 2 / 5, "That is P@k"),
    ("17-recall-at-k", 2 / 3, "never retrieved count too"),
    ("17-rerank-ceiling", (1 / math.log2(3)) / (2 + 2 / math.log2(3) + 1 / 2 + 1 / math.log2(5) + 1 / math.log2(6)),
     "the list as retrieved"),
    ("17-rerank-ceiling", 1.0, "ideal from the retrieved passages only"),
    ("18-cascade-click", 7 / 8, "That is α at that position alone"),
    ("18-cascade-click", 35 / 64, "chance to reach the position"),
    ("18-cascade-click", 7 / 24, "position-based model"),
    ("18-team-draft-win", 3 / 8, "where A picks first"),
    ("18-team-draft-win", 45 / 64, "You added the two lists"),
    ("18-ab-size", 6509.466678513716, "Round up"),
    ("18-ab-size", 13020, "both arms"),
    ("18-ab-size", 5128, "one-sided"),
    ("18-ab-size", 6506.7212997754, "Round up"),
    ("18-ab-size", 6511, "pools the spread under the alternative"),
    ("18-ab-size", 6400, "rule of 16 with the control's variance"),
    ("19-ips", 3 / 5, "the log's own click rate"),
    ("19-ips", 9 / 11.625, "that is SNIPS"),
    ("19-ips", (0.2 + 0.25) / 5, "You multiplied"),
    ("19-snips", 1.8, "That is IPS"),
    ("19-snips", 0.6, "the log's own click rate"),
    ("19-clipped-ips", 1.8, "IPS without clipping"),
    ("19-clipped-ips", 6 / 8.625, "sum of the clipped weights"),
    ("19-position-ips", (1 * 1 + 0.5 * 2 + 0.25 * 1) / 4, "naive estimate"),
    ("19-position-ips", 0.5 + 0.5 + 1, "That adds the estimated attractiveness"),
    ("20-trec-position", 4, "stores them as 32-bit floats"),
    ("20-trec-position", 5, "larger document id first"),
    ("20-mean-if-fixed", (2 + 1 / math.log2(3)) / (2.5 + 1 / math.log2(3)), "the query's own nDCG@k"),
    ("20-mean-if-fixed", (1 + (1 / 2) / (2.5 + 1 / math.log2(3)) + 1 / math.log2(3)) / 3, "the mean as the run stands"),
    ("20-mean-if-judged", (1 / 2 + (1 + 1 + 3 / 4) / 2) / 2, "R must grow too"),
    ("20-mean-if-judged", (1 + 1 + 3 / 4) / 3, "the query's own AP"),
    ("20-significant", "yes", "Check p again"),
    ("21-vital-strict", 1.5 / 3, "that is the vital score"),
    ("21-vital-strict", 3 / 7, "You averaged over every nugget"),
    ("21-vital-strict", 4.5 / 7, "That is the all score"),
    ("21-weighted", 3 / 5, "That is the all score"),
    ("21-weighted", 1.5 / 3.5, "strict weighted score"),
    ("21-weighted", 2.25 / 5, "You divided by the number of nuggets"),
    ("21-citation-precision", 3 / 4, "That is citation recall"),
    ("21-citation-precision", 2 / 6, "support their sentence alone"),
    ("21-citation-precision", 4 / 5, "You left out the citations of the unsupported sentence"),
    ("21-citation-precision", 5 / 6, "does not need"),
    ("21-faithful-ceiling", 6 / 7, "You counted every nugget"),
    ("21-faithful-ceiling", 4 / 4, "once per passage"),
]
