"""Tukey HSD against scipy and statsmodels, the randomised version against enumeration, discriminative power."""

from itertools import permutations, product

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from scipy import stats
from statsmodels.stats.anova import anova_lm

from ndcg_teach.statistics.many_systems import _anova_error, critical_range, discriminative_power, randomised_tukey_hsd, tukey_hsd
from ndcg_teach.statistics.significance import paired_t_test, randomisation_test

TOL = 1e-12


def systems_matrix(rng, k, n, spread=0.05):
    """Per-query scores: a query difficulty shared by all systems, a system effect, and noise."""
    difficulty = rng.uniform(0.1, 0.7, size=n)
    effect = rng.normal(0, spread, size=k)
    return np.clip(difficulty[None, :] + effect[:, None] + rng.normal(0, 0.08, size=(k, n)), 0, 1)


def test_independent_design_equals_scipy_tukey_hsd():
    rng = np.random.default_rng(1953)
    for _ in range(12):  # SciPy's studentized range takes ~0.5 s a quantile: a dozen designs
        k, n = int(rng.integers(2, 7)), int(rng.integers(2, 30))
        matrix = systems_matrix(rng, k, n)
        ours = tukey_hsd(matrix, design="independent", alpha=0.05)
        theirs = stats.tukey_hsd(*matrix)
        interval = theirs.confidence_interval(0.95)
        i, j = np.triu_indices(k, 1)
        assert np.allclose(ours.p_values, np.minimum(theirs.pvalue[i, j], 1), rtol=1e-9, atol=TOL)
        assert np.allclose(ours.differences, theirs.statistic[i, j], atol=TOL)
        assert np.allclose(ours.low, interval.low[i, j], atol=1e-9) and np.allclose(ours.high, interval.high[i, j], atol=1e-9)


def test_paired_design_uses_the_two_way_anova_error_of_statsmodels():
    rng = np.random.default_rng(2012)
    for _ in range(10):
        k, n = int(rng.integers(2, 6)), int(rng.integers(3, 25))
        matrix = systems_matrix(rng, k, n)
        frame = pd.DataFrame([(f"s{s}", f"q{q}", matrix[s, q]) for s in range(k) for q in range(n)],
                             columns=["system", "query", "score"])
        table = anova_lm(smf.ols("score ~ C(system) + C(query)", data=frame).fit())
        mse, df = table.loc["Residual", "mean_sq"], table.loc["Residual", "df"]
        ours = tukey_hsd(matrix)
        i, j = np.triu_indices(k, 1)
        q = np.abs(matrix.mean(axis=1)[i] - matrix.mean(axis=1)[j]) / np.sqrt(mse / n)
        assert np.allclose(ours.p_values, np.minimum(stats.studentized_range.sf(q, k, df), 1), rtol=1e-8, atol=TOL)
        assert ours.details[1][1]["df"] == df


def test_the_paired_error_keeps_the_family_wise_error_at_alpha_when_no_system_differs():
    # Any pair is significant exactly when the largest difference exceeds q_crit·√(MSE / n); SciPy's studentized
    # range takes ~20 ms a p-value, so the simulation applies that rule to the error tukey_hsd uses.
    rng = np.random.default_rng(5)
    experiments, k, n = 4000, 5, 20
    critical = critical_range(0.95, k, (k - 1) * (n - 1))
    any_false = 0
    for _ in range(experiments):
        matrix = rng.uniform(0, 1, size=n)[None, :] + rng.normal(0, 0.1, size=(k, n))  # query difficulty + noise
        mse, df, _ = _anova_error(matrix, "paired")
        means = matrix.mean(axis=1)
        any_false += (means.max() - means.min()) / np.sqrt(mse / n) > critical
    # Under the model (normal errors) P(any) = 0.05 exactly; Hoeffding with δ = 1e-6 allows ±0.041.
    assert abs(any_false / experiments - 0.05) <= np.sqrt(np.log(2 / 1e-6) / (2 * experiments))
    matrix = rng.uniform(0, 1, size=n)[None, :] + rng.normal(0, 0.1, size=(k, n))
    result = tukey_hsd(matrix)
    means = matrix.mean(axis=1)
    assert bool(result.significant) == ((means.max() - means.min()) / np.sqrt(_anova_error(matrix, "paired")[0] / n)
                                        > critical)


def brute_randomised(matrix):
    """Every way to hand each query's scores to the systems; p = share with range >= |difference|."""
    k, n = matrix.shape
    ranges = []
    for assignment in product(list(permutations(range(k))), repeat=n):
        means = [np.mean([matrix[assignment[q][s], q] for q in range(n)]) for s in range(k)]
        ranges.append(max(means) - min(means))
    ranges = np.array(ranges)
    means = matrix.mean(axis=1)
    return [np.mean(ranges >= abs(means[a] - means[b]) - 1e-12) for a, b in zip(*np.triu_indices(k, 1))]


def test_randomised_tukey_hsd_is_exact_on_small_cases():
    rng = np.random.default_rng(8)
    for k, n in ((2, 5), (3, 3), (3, 4), (4, 2)):
        matrix = np.round(systems_matrix(rng, k, n, spread=0.1), 2)
        ours = randomised_tukey_hsd(matrix, n=10_000)
        assert "exact" in ours.details[0][0]
        assert np.allclose(ours.p_values, brute_randomised(matrix), atol=TOL)


def test_with_two_systems_it_is_the_paired_randomisation_test():
    rng = np.random.default_rng(9)
    for n in range(2, 12):
        a, b = rng.uniform(size=n).round(2), rng.uniform(size=n).round(2)
        ours = randomised_tukey_hsd({"a": a, "b": b}, n=5000)
        assert ours.p_values[0] == pytest.approx(randomisation_test(a, b, n=5000).p_value, abs=TOL)


def test_random_shuffles_approach_the_exact_p_values():
    rng = np.random.default_rng(10)
    matrix = np.round(systems_matrix(rng, 3, 6, spread=0.08), 2)  # 6^6 = 46656 assignments
    exact = randomised_tukey_hsd(matrix, n=50_000)
    sampled = randomised_tukey_hsd(matrix, n=20_000, seed=3)
    assert "exact" in exact.details[0][0] and "random" in sampled.details[0][0]
    bound = np.sqrt(np.log(2 / 1e-9) / (2 * 20_000)) + 1 / 20_001  # Hoeffding, plus the +1 of (count + 1) / (n + 1)
    assert np.all(np.abs(np.array(sampled.p_values) - exact.p_values) <= bound)


def test_family_wise_p_values_are_never_below_the_pairs_own_test():
    rng = np.random.default_rng(11)
    matrix = systems_matrix(rng, 5, 10)
    family = randomised_tukey_hsd(matrix, n=4000)
    for (a, b), p in zip(family.pairs, family.p_values):
        alone = randomisation_test(matrix[int(a) - 1], matrix[int(b) - 1], n=4000).p_value
        assert p >= alone - 0.03  # the largest range of five means is at least the pair's own difference


def test_discriminative_power_counts_the_significant_pairs():
    rng = np.random.default_rng(12)
    matrix = systems_matrix(rng, 6, 30, spread=0.08)
    for method in ("tukey_hsd", "paired_t", "randomisation", "randomised_tukey_hsd"):
        power = discriminative_power(matrix, method=method, n=2000)
        assert power.value == pytest.approx(sum(p < 0.05 for p in power.p_values) / 15, abs=TOL)
        assert list(power.p_values) == sorted(power.p_values)
    unadjusted = discriminative_power(matrix, method="paired_t")
    assert unadjusted.value >= discriminative_power(matrix, method="tukey_hsd").value
    by_pair = dict(zip(unadjusted.pairs, unadjusted.p_values))
    assert by_pair["1", "2"] == pytest.approx(paired_t_test(matrix[0], matrix[1]).p_value, abs=TOL)
    assert "not adjusted" in str(unadjusted)


def test_the_tables_and_formula_show_the_numbers():
    scores = {"A": [0.2, 0.4, 0.3, 0.5], "B": [0.3, 0.4, 0.4, 0.5], "C": [0.5, 0.6, 0.6, 0.8]}
    text = str(tukey_hsd(scores))
    assert "Tukey HSD: 2 of 3 pairs differ at α = 0.05" in text
    assert "MSE = SS_error / df = 0.0083 / 6 = 0.001389" in text
    html = tukey_hsd(scores)._repr_html_()
    assert "<table>" in html and "95% low" in html
    assert tukey_hsd(scores).p_value("C", "A") == tukey_hsd(scores).p_value("A", "C")


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: tukey_hsd({"A": [1, 2], "B": [1]}), ValueError, r"one score per query, for the same queries\. Got lists of lengths \[1, 2\]"),
    (lambda: tukey_hsd([[1, 2, 3]]), ValueError, r"at least 2 systems with at least 2 queries each\. Got 1 system\(s\) with 3"),
    (lambda: tukey_hsd([[1, 2], [2, 3]]), ValueError, r"the error mean square is 0"),
    (lambda: tukey_hsd([[1, 2], [2, 4]], design="blocked"), ValueError, r"design must be one of 'paired', 'independent'"),
    (lambda: tukey_hsd([[1, 2], [2, 4]], alpha=0), ValueError, r"alpha must be a number strictly between 0 and 1"),
    (lambda: tukey_hsd("scores"), TypeError, r"scores must be a table"),
    (lambda: tukey_hsd([[1, np.nan], [2, 4]]), ValueError, r"scores must hold finite numbers"),
    (lambda: randomised_tukey_hsd([[1, 2], [2, 4]], n=0), ValueError, r"n must be a positive integer"),
    (lambda: discriminative_power([[1, 2], [2, 4]], method="anova"), ValueError, r"method must be one of 'randomised_tukey_hsd'"),
    (lambda: tukey_hsd([[1, 2], [2, 5]]).p_value("A", "B"), KeyError, r"first and second must name two of the systems"),
])
def test_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()
