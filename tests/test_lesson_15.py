"""Lesson 15's numbers on simulated judges, recomputed without the library's κ, τ or scorer.

The collection and the re-judgings are the lesson's inputs (drawn here exactly as the lesson draws them, and
re-graded by ``SimulatedJudge.judge`` with judge_effect's seeds); everything measured on them comes from elsewhere:
κ from scikit-learn's ``cohen_kappa_score``, nDCG@10 from pytrec_eval (trec_eval), τ from scipy and from a count
of discordant pairs. Each test states the numbers the lesson prints, rounded as printed.
"""

import itertools

import numpy as np
import pytest

import ndcg_teach as nt

pytrec_eval = pytest.importorskip("pytrec_eval")
metrics = pytest.importorskip("sklearn.metrics")
stats = pytest.importorskip("scipy.stats")

GRADES = (0, 1, 2, 3)
_TAGS = itertools.count()


def lesson_collection():
    """Section 3's collection: 40 queries of 20 documents, six systems S1-S6 (the lesson's cell, seed 15)."""
    rng = np.random.default_rng(15)
    qrels = {f"q{q:02d}": {f"d{d:02d}": int(g) for d, g in enumerate(rng.choice(4, size=20, p=[0.5, 0.25, 0.15, 0.1]))}
             for q in range(40)}
    runs = {}
    for s in range(6):
        noise = 2.6 - 0.2 * s
        runs[f"S{s + 1}"] = {q: {d: float(g + rng.normal(0, noise)) for d, g in docs.items()} for q, docs in qrels.items()}
    return qrels, runs


QRELS, RUNS = lesson_collection()
TRUTH = [QRELS[q][d] for q in QRELS for d in QRELS[q]]
COUNTS = [TRUTH.count(grade) for grade in GRADES]
JUDGES = {
    "second": (nt.SimulatedJudge.symmetric(GRADES, accuracy=0.6), 5),
    "lenient": (nt.SimulatedJudge.lenient(GRADES, rate=0.4), 5),
    "poor": (nt.SimulatedJudge.symmetric(GRADES, accuracy=0.3), 5),
    "uninformative": (nt.SimulatedJudge(GRADES, [[count / len(TRUTH) for count in COUNTS]] * 4), 10),
}


def rejudged(name):
    """The lesson's re-judgings of one judge: seeds 0, 1, ... as judge_effect uses them."""
    judge, trials = JUDGES[name]
    return [judge.judge(QRELS, seed=seed) for seed in range(trials)]


def mean_ndcg_at_10(qrels):
    """Each system's mean nDCG@10 by pytrec_eval, under fresh query ids (trec_eval inside it caches a query by id)."""
    tag = f"t{next(_TAGS)}-"
    evaluator = pytrec_eval.RelevanceEvaluator({tag + q: d for q, d in qrels.items()}, {"ndcg_cut_10"})
    return {name: float(np.mean([values["ndcg_cut_10"] for values in evaluator.evaluate(
        {tag + q: d for q, d in run.items()}).values()])) for name, run in RUNS.items()}


def discordant(first, second):
    return sum((first[a] - first[b]) * (second[a] - second[b]) < 0 for a, b in itertools.combinations(sorted(first), 2))


TRUE_MEANS = mean_ndcg_at_10(QRELS)


def test_the_truths_grade_counts():
    assert COUNTS == [398, 214, 107, 81]


@pytest.mark.parametrize("name, plain, quadratic", [
    ("second", "0.41", "0.79"), ("lenient", "0.49", "0.83"), ("poor", "0.03", "0.62"), ("uninformative", "0.00", "0.01"),
])
def test_mean_plain_and_quadratic_weighted_kappa_by_scikit_learn(name, plain, quadratic):
    kappas = []
    for judged in rejudged(name):
        given = [judged[q][d] for q in QRELS for d in QRELS[q]]
        by_sklearn = (metrics.cohen_kappa_score(TRUTH, given, labels=list(GRADES)),
                      metrics.cohen_kappa_score(TRUTH, given, labels=list(GRADES), weights="quadratic"))
        by_library = (nt.cohen_kappa(TRUTH, given).value, nt.cohen_kappa(TRUTH, given, weights="quadratic").value)
        assert np.allclose(by_library, by_sklearn, rtol=0, atol=1e-12)
        kappas.append(by_sklearn)
    assert [f"{value:.2f}" for value in np.mean(kappas, axis=0)] == [plain, quadratic]


@pytest.mark.parametrize("name, low, high, mean, swaps", [
    ("second", "0.73", "1.00", "0.893", 4), ("lenient", "0.87", "1.00", "0.920", 3), ("poor", "0.60", "1.00", "0.813", 7),
    ("uninformative", "-0.87", "0.47", "-0.013", 76),
])
def test_tau_of_each_rejudging_by_pytrec_eval_and_scipy(name, low, high, mean, swaps):
    taus, swapped = [], 0
    for judged in rejudged(name):
        means = mean_ndcg_at_10(judged)
        systems = sorted(means)
        tau = stats.kendalltau([TRUE_MEANS[s] for s in systems], [means[s] for s in systems]).statistic
        count = discordant(TRUE_MEANS, means)
        assert tau == pytest.approx(1 - 2 * count / 15, abs=1e-12)  # no ties among six means
        taus.append(tau)
        swapped += count
    assert (f"{min(taus):.2f}", f"{max(taus):.2f}", f"{np.mean(taus):.3f}") == (low, high, mean)
    assert swapped == swaps  # the lenient judge's lead over the second assessor: one swap in five re-judgings


def test_the_lenient_judge_is_also_the_more_accurate():
    # Right with chance 0.6 on grades 0-2 for both; on grade 3 (81 of 800) the lenient judge is always right.
    shares = [count / len(TRUTH) for count in COUNTS]
    second, lenient = JUDGES["second"][0], JUDGES["lenient"][0]
    assert second.agreement(shares) == pytest.approx(0.6, abs=1e-12)
    assert lenient.agreement(shares) == pytest.approx(0.6 + 0.4 * 81 / 800, abs=1e-12)
    assert [lenient.confusion[i][i] for i in GRADES] == [0.6, 0.6, 0.6, 1.0]
    assert [second.confusion[i][i] for i in GRADES] == [0.6, 0.6, 0.6, 0.6]
    assert second.confusion[3][2] == pytest.approx(0.4)
