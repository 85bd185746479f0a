"""Lesson 15's numbers on simulated judges, recomputed without the library's κ, τ or scorer.

The collection and the re-judgings are the lesson's inputs (drawn here exactly as the lesson draws them, and
re-graded by ``SimulatedJudge.judge`` with judge_effect's seeds, which a test redraws from the confusion matrices
alone); everything measured on them comes from elsewhere: κ from scikit-learn's ``cohen_kappa_score``, nDCG@10 and
P@10 from pytrec_eval (trec_eval), τ from scipy and from a count of discordant pairs, significance from scipy's
paired t-test, Tukey's HSD from a two-way analysis of variance and scipy's studentized range. Each test states the
numbers the lesson prints, rounded as printed.
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


def drawn_by_hand(confusion, seed):
    """A re-judging drawn from the confusion matrix alone: one uniform draw per judgement, in the qrels' order,
    turned into a grade by the inverse of each row's cumulative distribution."""
    cumulative = np.cumsum(np.asarray(confusion, dtype=float), axis=1)
    draws = iter(np.random.default_rng(seed).random(len(TRUTH)))
    return {q: {d: int(min((next(draws) >= cumulative[g]).sum(), len(GRADES) - 1)) for d, g in docs.items()}
            for q, docs in QRELS.items()}


def confusion_by_hand(name):
    """The four judges' confusion matrices as the lesson describes them, rows true grade 0-3, columns given grade."""
    if name in ("second", "poor"):
        right = {"second": 0.6, "poor": 0.3}[name]
        return [[right, 1 - right, 0, 0], [(1 - right) / 2, right, (1 - right) / 2, 0],
                [0, (1 - right) / 2, right, (1 - right) / 2], [0, 0, 1 - right, right]]
    if name == "lenient":
        return [[0.6, 0.4, 0, 0], [0, 0.6, 0.4, 0], [0, 0, 0.6, 0.4], [0, 0, 0, 1]]
    return [[count / len(TRUTH) for count in COUNTS]] * 4


@pytest.mark.parametrize("name", list(JUDGES))
def test_the_judges_draw_what_their_confusion_matrices_say(name):
    # So the simulation's numbers below rest on the lesson's description of each judge, not on the library's code.
    assert np.allclose(JUDGES[name][0].confusion, confusion_by_hand(name), rtol=0, atol=1e-12)
    assert rejudged(name) == [drawn_by_hand(confusion_by_hand(name), seed) for seed in range(JUDGES[name][1])]


@pytest.mark.parametrize("name, same", [("second", "0.59"), ("lenient", "0.63"), ("poor", "0.30"), ("uninformative", "0.35")])
def test_share_of_true_grades(name, same):
    shares = [np.mean([judged[q][d] == QRELS[q][d] for q in QRELS for d in QRELS[q]]) for judged in rejudged(name)]
    assert f"{np.mean(shares):.2f}" == same
    # the uninformative judge is right more often than the poor one in expectation too: Σ p_g² = 0.3472 > 0.30
    assert sum((count / len(TRUTH)) ** 2 for count in COUNTS) == pytest.approx(0.347203125, abs=1e-15)


def significant_pairs(per_query):
    """{pair: +1, -1 or 0}: the sign of the winner when scipy's paired t-test gives p < 0.05, else 0."""
    signs = {}
    for a, b in itertools.combinations(sorted(per_query), 2):
        p = stats.ttest_rel(per_query[a], per_query[b]).pvalue
        signs[a, b] = 0 if p >= 0.05 else int(np.sign(np.mean(per_query[a]) - np.mean(per_query[b])))
    return signs


def per_query_at_10(qrels, measure="ndcg_cut_10"):
    tag = f"t{next(_TAGS)}-"
    evaluator = pytrec_eval.RelevanceEvaluator({tag + q: d for q, d in qrels.items()}, {measure})
    return {name: np.array([values[measure] for _, values in sorted(evaluator.evaluate(
        {tag + q: d for q, d in run.items()}).items())]) for name, run in RUNS.items()}


TRUE_SIGNS = significant_pairs(per_query_at_10(QRELS))


@pytest.mark.parametrize("name, kept, lost, gained", [
    ("second", (5, 7), (1, 3), (0, 1)), ("lenient", (6, 8), (0, 2), (0, 1)), ("poor", (4, 5), (3, 4), (0, 2)),
])
def test_section_4s_significant_pairs_kept_lost_and_gained_by_scipy(name, kept, lost, gained):
    assert sum(sign != 0 for sign in TRUE_SIGNS.values()) == 8
    counts = []
    for judged in rejudged(name):
        signs = significant_pairs(per_query_at_10(judged))
        pairs = [(TRUE_SIGNS[p], signs[p]) for p in TRUE_SIGNS]
        counts.append((sum(t != 0 and s == t for t, s in pairs), sum(t != 0 and s == 0 for t, s in pairs),
                       sum(t == 0 and s != 0 for t, s in pairs), sum(t != 0 and s == -t for t, s in pairs)))
    columns = list(zip(*counts))
    assert [(min(c), max(c)) for c in columns[:3]] == [kept, lost, gained]
    assert max(columns[3]) == 0  # none reversed


def tukey_by_two_way_anova(per_query):
    """Tukey's HSD from its textbook definition: the error mean square of the two-way (system, query) ANOVA and
    scipy's studentized range. Returns MSE, q_crit, HSD and the pairs that differ."""
    systems = sorted(per_query)
    x = np.array([per_query[s] for s in systems]).T
    residuals = x - x.mean(axis=0) - x.mean(axis=1, keepdims=True) + x.mean()
    df = (x.shape[0] - 1) * (x.shape[1] - 1)
    mse = (residuals**2).sum() / df
    q_crit = stats.studentized_range.ppf(0.95, x.shape[1], df)
    hsd = q_crit * np.sqrt(mse / x.shape[0])
    means = dict(zip(systems, x.mean(axis=0)))
    return mse, q_crit, hsd, [(a, b) for a, b in itertools.combinations(systems, 2) if abs(means[a] - means[b]) > hsd]


def test_section_5s_tukey_hsd_unadjusted_tests_and_discriminative_power():
    ndcg = per_query_at_10(QRELS)
    mse, q_crit, hsd, differ = tukey_by_two_way_anova(ndcg)
    assert (f"{mse:.6f}", f"{q_crit:.4f}", f"{hsd:.4f}") == ("0.015613", "4.0705", "0.0804")
    assert differ == [("S1", "S6"), ("S2", "S6"), ("S3", "S6"), ("S4", "S6"), ("S5", "S6")]
    unadjusted = [pair for pair, sign in TRUE_SIGNS.items() if sign != 0]
    assert len(unadjusted) == 8 and sorted(set(unadjusted) - set(differ)) == [("S1", "S3"), ("S1", "S4"), ("S1", "S5")]
    for name, run in RUNS.items():  # the lesson's per-query scores, evaluate()'s, are pytrec_eval's
        assert np.allclose(nt.evaluate(QRELS, run, ["ndcg_cut.10"]).per_query["ndcg_cut_10"], ndcg[name], rtol=0, atol=1e-12)
    assert len(tukey_by_two_way_anova(per_query_at_10(QRELS, "P_10"))[3]) == 3  # P@10 separates 3 pairs, nDCG@10 5
