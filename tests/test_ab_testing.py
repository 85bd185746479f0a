"""A/B test sizes against statsmodels and a hand computation; power is their inverse."""

from math import sqrt

import numpy as np
import pytest
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import samplesize_proportions_2indep_onetail

from ndcg_teach.statistics.ab_testing import ab_test_power, ab_test_size, ab_test_size_means


def test_proportions_equal_statsmodels():
    rng = np.random.default_rng(18)
    for _ in range(300):
        control = float(rng.uniform(0.01, 0.9))
        treatment = float(np.clip(control + rng.choice([-1, 1]) * rng.uniform(0.005, 0.1), 0.001, 0.999))
        alpha, power, ratio = float(rng.uniform(0.01, 0.1)), float(rng.uniform(0.6, 0.95)), float(rng.uniform(0.5, 3))
        ours = ab_test_size(control, treatment, alpha=alpha, power=power, ratio=ratio)
        theirs = samplesize_proportions_2indep_onetail(treatment - control, control, power, ratio=ratio, alpha=alpha)
        assert ours.exact == pytest.approx(theirs, rel=1e-10)
        assert ours.n_treatment == int(np.ceil(theirs))


def test_means_equal_statsmodels_normal_power_one_sided_at_half_alpha():
    for difference, sd, ratio in ((0.1, 1.0, 1.0), (-0.3, 2.5, 2.0), (1.0, 0.7, 0.5)):
        ours = ab_test_size_means(difference, sd, ratio=ratio)
        theirs = NormalIndPower().solve_power(effect_size=abs(difference) / sd, alpha=0.025, power=0.8, ratio=ratio,
                                              alternative="larger")
        assert ours.exact == pytest.approx(theirs, rel=1e-8)


def test_hand_computation_of_the_ctr_example():
    z_alpha, z_beta = 1.959963984540054, 0.8416212335729143
    pooled = 0.105
    n = (z_alpha * sqrt(2 * pooled * (1 - pooled)) + z_beta * sqrt(0.11 * 0.89 + 0.1 * 0.9)) ** 2 / 0.01**2
    size = ab_test_size(0.10, 0.11)
    assert size.exact == pytest.approx(n, rel=1e-12) and size.n_treatment == 14751 and size.total == 29502
    assert ab_test_size_means(0.1, 1.0).exact == pytest.approx(2 * (z_alpha + z_beta) ** 2 * 100, rel=1e-12)


def test_power_is_the_inverse_of_the_size():
    for control, treatment in ((0.1, 0.11), (0.3, 0.27), (0.02, 0.025)):
        size = ab_test_size(control, treatment, power=0.9, ratio=2)
        assert ab_test_power(size.exact, control, treatment, ratio=2) == pytest.approx(0.9, abs=1e-10)
        assert ab_test_power(size.n_treatment, control, treatment, ratio=2) >= 0.9


def test_the_explanation_carries_the_numbers():
    text = str(ab_test_size(0.10, 0.11))
    assert "σ_0 = √(p̄(1 - p̄)(1 + 1/r)) = √(0.1050·0.8950·2) = 0.4335" in text
    assert "= 14750.8" in text and "14751 users get the treatment" in text
    unequal = ab_test_size(0.10, 0.11, ratio=3)
    assert unequal.n_control == int(np.ceil(unequal.n_treatment * 3 - 1e-9))


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: ab_test_size(0.1, 0.1), ValueError, r"p_treatment must differ from p_control"),
    (lambda: ab_test_size(0, 0.1), ValueError, r"p_control must be a number strictly between 0 and 1: a rate"),
    (lambda: ab_test_size(0.1, "0.2"), TypeError, r"p_treatment must be a number strictly between 0 and 1"),
    (lambda: ab_test_size(0.1, 0.2, power=0.01), ValueError, r"power must exceed alpha / 2 \(0\.025\)"),
    (lambda: ab_test_size(0.1, 0.2, ratio=0), ValueError, r"ratio must be a positive finite number: control users per treatment user"),
    (lambda: ab_test_size_means(0, 1.0), ValueError, r"difference must be a finite number other than 0"),
    (lambda: ab_test_size_means(0.1, -1.0), ValueError, r"sd must be a positive finite number"),
    (lambda: ab_test_power(0, 0.1, 0.2), ValueError, r"n_treatment must be a positive number of users\. Got 0 instead\."),
])
def test_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()
