"""Paired tests against scipy.stats, the randomisation test against exact enumeration, the bootstrap's invariants.

scipy variants matched: ``ttest_rel(a, b)`` (two-sided); ``wilcoxon(a, b)``
with its defaults (``zero_method="wilcox"``, ``correction=False``,
``method="auto"``: exact below 51 pairs without ties or zeros, a
deterministic sign-flip permutation test up to 13 pairs otherwise, the
normal approximation with the tie correction beyond), and
``method="exact"`` / ``method="asymptotic"`` for ours ``"exact"`` /
``"normal"``; ``permutation_test(..., permutation_type="samples")`` of the
mean difference, exact up to 2**n <= n_resamples.
"""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from ndcg_teach.statistics.significance import (BootstrapInterval, SignificanceResult, bootstrap_interval, paired_t_test,
                                     randomisation_test, wilcoxon_test)

TOL = 1e-12


def random_pair(rng, n, ties=False):
    """Two systems' per-query scores; with ``ties`` the scores are coarse, so differences tie and some are 0."""
    a = rng.uniform(0, 1, size=n)
    b = np.clip(a - rng.normal(0.03, 0.15, size=n), 0, 1)
    if ties:
        a, b = np.round(a, 1), np.round(b, 1)
    return a, b


def close(ours, theirs):
    return math.isclose(ours, theirs, rel_tol=1e-10, abs_tol=TOL)


def test_paired_t_test_equals_scipy_ttest_rel():
    rng = np.random.default_rng(20261127)
    checked = 0
    for _ in range(2000):
        a, b = random_pair(rng, int(rng.integers(2, 80)), ties=rng.random() < 0.3)
        if np.std(a - b) == 0:
            continue
        ours, theirs = paired_t_test(a, b), stats.ttest_rel(a, b)
        assert close(ours.statistic, theirs.statistic) and close(ours.p_value, theirs.pvalue), (a, b)
        assert ours.effect_size == pytest.approx(np.mean(a - b) / np.std(a - b, ddof=1), rel=1e-12)
        checked += 1
    assert checked > 1900


def test_wilcoxon_test_equals_scipy_wilcoxon_with_its_defaults():
    rng = np.random.default_rng(20261128)
    checked = methods = 0
    seen = set()
    for _ in range(1500):
        a, b = random_pair(rng, int(rng.integers(2, 90)), ties=rng.random() < 0.5)
        if not np.any(a != b):
            continue
        ours, theirs = wilcoxon_test(a, b), stats.wilcoxon(a, b)
        assert ours.statistic == pytest.approx(theirs.statistic, abs=1e-9)
        assert close(ours.p_value, theirs.pvalue), (ours, theirs.pvalue, a.tolist(), b.tolist())
        seen.add(ours.details)
        checked += 1
    assert checked > 1400 and seen == {"exact", "normal"}
    for method, scipy_method in (("exact", "exact"), ("normal", "asymptotic")):
        for _ in range(300):
            a, b = random_pair(rng, int(rng.integers(2, 40)))
            assert close(wilcoxon_test(a, b, method=method).p_value, stats.wilcoxon(a, b, method=scipy_method).pvalue)
            methods += 1
    assert methods == 600


def test_randomisation_test_is_exact_when_every_sign_assignment_fits():
    rng = np.random.default_rng(20261129)
    for _ in range(300):
        n = int(rng.integers(2, 12))
        a, b = random_pair(rng, n)
        ours = randomisation_test(a, b)
        theirs = stats.permutation_test((a - b,), np.mean, permutation_type="samples", n_resamples=10_000)
        assert ours.details == f"all {2**n} sign assignments (exact)"
        assert ours.p_value == pytest.approx(theirs.pvalue, abs=TOL)
        assert ours.statistic == pytest.approx(np.mean(a - b), abs=TOL)


def test_randomisation_test_counts_tied_sums_exactly():
    # Scores in tenths: the differences are whole numbers of tenths, so every signed sum can be counted in integers.
    # (Floating-point sums of 0.7 - 0.6 and the like differ in their last bits; scipy's permutation_test then
    # counts some equal sums as smaller, e.g. when the observed mean is 0 and rounds to 1.7e-17.)
    rng = np.random.default_rng(20261133)
    for _ in range(300):
        n = int(rng.integers(2, 12))
        tenths_a, tenths_b = rng.integers(0, 11, size=n), rng.integers(0, 11, size=n)
        d = (tenths_a - tenths_b).tolist()
        signs = itertools.product((1, -1), repeat=n)
        expected = sum(abs(sum(s * x for s, x in zip(sign, d))) >= abs(sum(d)) for sign in signs) / 2**n
        assert randomisation_test(tenths_a / 10, tenths_b / 10).p_value == expected


def test_randomisation_test_with_random_draws_is_close_to_the_exact_p_value():
    rng = np.random.default_rng(20261130)
    a, b = random_pair(rng, 16)
    exact = randomisation_test(a, b, n=2**16).p_value
    drawn = randomisation_test(a, b, n=20_000, seed=3)
    assert drawn.details == "20000 random sign assignments, seed 3"
    # The standard error of a share estimated from 20,000 draws is at most 0.0036: allow five of them.
    assert abs(drawn.p_value - exact) < 5 * 0.0036
    assert randomisation_test(a, b, n=500, seed=3) == randomisation_test(a, b, n=500, seed=3)


def test_randomisation_p_value_is_never_zero_with_random_draws():
    a, b = np.linspace(0.5, 1, 30), np.linspace(0, 0.5, 30)
    result = randomisation_test(a, b, n=999)
    assert result.p_value == 1 / 1000


def test_bootstrap_interval_invariants():
    rng = np.random.default_rng(20261131)
    a, b = random_pair(rng, 40)
    interval = bootstrap_interval(a, b, n=4000)
    assert interval.low <= interval.statistic <= interval.high
    assert interval.statistic == pytest.approx(np.mean(a - b), abs=TOL)
    wider = bootstrap_interval(a, b, confidence=0.99, n=4000)
    assert wider.low <= interval.low and interval.high <= wider.high  # same draws (same seed), more of them kept
    assert bootstrap_interval(a, b, n=4000) == interval  # the seed makes it repeatable
    constant = bootstrap_interval([0.5, 0.6, 0.7], [0.4, 0.5, 0.6], n=100)
    assert constant.low == pytest.approx(0.1, abs=TOL) and constant.high == pytest.approx(0.1, abs=TOL)
    assert constant.excludes_zero and math.isinf(constant.effect_size)


def test_bootstrap_interval_covers_the_true_mean_about_as_often_as_it_says():
    # 200 simulated experiments with a true mean difference of 0.05: a 90% interval should cover it about 180 times.
    rng = np.random.default_rng(20261132)
    covered = 0
    for seed in range(200):
        d = rng.normal(0.05, 0.1, size=50)
        interval = bootstrap_interval(d, np.zeros(50), confidence=0.9, n=1000, seed=seed)
        covered += interval.low <= 0.05 <= interval.high
    assert 160 <= covered <= 195


def test_results_print_readably():
    result = paired_t_test([0.5, 0.6, 0.7], [0.4, 0.4, 0.6])
    assert isinstance(result, SignificanceResult)
    assert str(result) == ("paired t-test: statistic = 4.0000, p = 0.0572 (df = 2); mean difference a - b = +0.1333, "
                           "effect size d_z = 2.3094, n = 3 queries")
    assert "<table>" in result._repr_html_() and "p-value" in result._repr_html_()
    interval = bootstrap_interval([0.5, 0.6, 0.7, 0.3], [0.4, 0.4, 0.6, 0.35], n=1000)
    assert isinstance(interval, BootstrapInterval)
    assert str(interval).startswith("bootstrap 95% interval of the mean difference a - b: [")
    assert "1000 resamples of 4 queries" in interval._repr_html_()
    tiny = randomisation_test(np.linspace(0.5, 1, 30), np.linspace(0, 0.5, 30), n=99_999)
    assert "p = 1.00e-05" in str(tiny)


def test_wilcoxon_effect_size_is_the_rank_biserial_correlation():
    result = wilcoxon_test([0.5, 0.6, 0.7, 0.3, 0.8], [0.4, 0.4, 0.6, 0.35, 0.5])
    assert result.effect_size == pytest.approx((14 - 1) / 15, abs=TOL) and result.effect_size_name == "r"


@pytest.mark.parametrize("test", [paired_t_test, wilcoxon_test, randomisation_test, bootstrap_interval])
def test_scores_are_checked(test):
    with pytest.raises(ValueError, match=r"a and b must hold one score per query each, for the same queries in the same "
                                         r"order\. Got 3 and 2 scores instead\."):
        test([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match=r"a and b must hold scores for at least 2 queries\. Got 1 instead\."):
        test([1], [0])
    with pytest.raises(ValueError, match=r"b must hold finite scores \(no NaN or infinity\)\. Got \[0\.1, nan\] instead\."):
        test([0.2, 0.3], [0.1, math.nan])
    with pytest.raises(TypeError, match=r"a must hold numbers \(per-query scores\), not str"):
        test(["x", "y"], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"a must be a flat list of per-query scores"):
        test([[0.1, 0.2]], [[0.1, 0.2]])


def test_tests_that_cannot_say_anything_say_why():
    with pytest.raises(ValueError, match=r"a - b must vary from query to query for a t-test .* every difference is 0\.1\. "
                                         r"Got a=\[0\.5, 0\.6\], b=\[0\.4, 0\.5\] instead\."):
        paired_t_test([0.5, 0.6], [0.4, 0.5])
    with pytest.raises(ValueError, match=r"a and b must differ on at least one query for a signed-rank test"):
        wilcoxon_test([0.5, 0.6], [0.5, 0.6])
    assert randomisation_test([0.5, 0.6], [0.5, 0.6]).p_value == 1.0


@pytest.mark.parametrize("keywords, error, message", [
    ({"n": 0}, ValueError, r"n must be a positive integer: how many random sign assignments to draw\. Got 0 instead\."),
    ({"n": 10.5}, TypeError, r"n must be a positive integer.* Got 10\.5 instead\."),
    ({"seed": -1}, ValueError, r"seed must be a non-negative integer \(the same seed gives the same resamples\), or None\. Got -1 instead\."),
    ({"seed": "a"}, TypeError, r"seed must be a non-negative integer"),
])
def test_resampling_parameters_are_checked(keywords, error, message):
    with pytest.raises(error, match=message):
        randomisation_test([0.1, 0.5, 0.2], [0.2, 0.1, 0.1], **keywords)


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1])
def test_confidence_must_lie_strictly_between_0_and_1(confidence):
    with pytest.raises(ValueError, match=r"confidence must be a number strictly between 0 and 1: the share of resampled "
                                         r"means the interval keeps\. Got .* instead\."):
        bootstrap_interval([0.1, 0.5], [0.2, 0.1], confidence=confidence)


def test_wilcoxon_method_is_checked():
    with pytest.raises(ValueError, match=r"method must be one of 'auto', 'exact', 'normal'\. Got 'asymptotic' instead\."):
        wilcoxon_test([0.1, 0.5], [0.2, 0.1], method="asymptotic")
