"""Sampled metrics: the rank distribution against enumeration, Krichene & Rendle's numbers, and their corrections."""

from itertools import combinations, product

import numpy as np
import pytest

from ndcg_teach.course.sampled_metrics import (corrected_metric, metric_of_rank, rank_distribution, sampled_metric_estimates,
                                        sampled_metric_expectation)

TOL = 1e-12


@pytest.mark.parametrize(("n", "m"), [(5, 2), (6, 3), (7, 4)])
def test_the_rank_distribution_equals_enumerating_every_sample(n, m):
    for sampling in ("with_replacement", "without_replacement"):
        ours = rank_distribution(n, m, sampling=sampling)
        for r in range(1, n + 1):
            better = set(range(r - 1))  # negatives 0..r-2 beat the item
            samples = product(range(n - 1), repeat=m) if sampling == "with_replacement" else combinations(range(n - 1), m)
            counts = np.zeros(m + 1)
            for sample in samples:
                counts[sum(x in better for x in sample)] += 1
            assert ours[r - 1] == pytest.approx(counts / counts.sum(), abs=TOL), (sampling, r)


def test_sampling_every_negative_without_replacement_keeps_the_true_rank():
    assert np.allclose(rank_distribution(8, 7, sampling="without_replacement"), np.eye(8), atol=TOL)


@pytest.mark.parametrize("sampling", ["with_replacement", "without_replacement"])
def test_sampled_auc_is_unbiased_for_every_rank(sampling):
    n, m = 300, 20
    for r in range(1, n + 1):
        expected = sampled_metric_expectation(r, n, m, "auc", sampling=sampling)
        assert expected == pytest.approx((n - r) / (n - 1), abs=1e-12)


def test_krichene_and_rendles_toy_example():
    # KDD 2020, n = 10,000, m = 99, five users per recommender; their table gives means of 1,000 sampled repeats
    # (standard errors up to 0.004), ours are exact expectations.
    published = {"A": ([100] * 5, (0.990, 0.630, 0.724, 1.000)),
                 "B": ([40, 40, 8437, 9266, 4482], (0.555, 0.336, 0.444, 0.400)),
                 "C": ([212, 2, 743, 5342, 1548], (0.843, 0.325, 0.460, 0.567))}
    for ranks, values in published.values():
        for metric, value in zip(("auc", "ap", "ndcg", "recall"), values):
            k = 10 if metric == "recall" else None
            ours = np.mean([sampled_metric_expectation(r, 10_000, 99, metric, k=k) for r in ranks])
            assert abs(ours - value) <= 0.01, (ranks, metric, ours, value)


def test_bias_variance_solves_its_normal_equations_and_its_ends_are_least_squares_and_the_posterior():
    n, m = 200, 12
    prior = np.full(n, 1 / n)
    distribution = rank_distribution(n, m)
    truth = metric_of_rank("ndcg", np.arange(1, n + 1), n, 10)
    a, b = np.sqrt(prior)[:, None] * distribution, np.sqrt(prior) * truth
    c = distribution.T @ prior
    for gamma in (0.01, 0.1, 0.5):
        values = corrected_metric(n, m, "ndcg", k=10, gamma=gamma).values
        gradient = (1 - gamma) * a.T @ (a @ values) + gamma * c * values - a.T @ b
        assert np.abs(gradient).max() < 1e-12
    posterior = (distribution * prior[:, None]).T @ truth / c
    assert np.allclose(corrected_metric(n, m, "ndcg", k=10, gamma=1.0).values, posterior, atol=1e-12)
    least = corrected_metric(n, m, "ndcg", k=10, method="minimal_bias")
    assert np.allclose(a.T @ (a @ least.values), a.T @ b, atol=1e-9)  # the normal equations of least squares
    assert least.squared_bias <= corrected_metric(n, m, "ndcg", k=10, gamma=0.1).squared_bias


def test_bias_falls_and_variance_rises_as_gamma_shrinks():
    results = [corrected_metric(500, 30, "recall", k=10, gamma=g) for g in (1.0, 0.1, 0.01, 0.001)]
    biases, variances = [r.squared_bias for r in results], [r.variance for r in results]
    assert biases == sorted(biases, reverse=True) and variances == sorted(variances)
    naive = corrected_metric(500, 30, "recall", k=10, method="naive")
    assert naive.squared_bias > biases[1] * 10


def test_the_correction_restores_the_order_that_sampling_flips():
    # Lesson 14's two models, in expectation: A sharp but brittle, B never sharp but always close.
    rng = np.random.default_rng(14)
    n, m, users = 5_000, 100, 2_000
    in_top = rng.random(users) < 0.3
    full = {"A": np.where(in_top, rng.integers(1, 11, users), rng.integers(11, n + 1, users)),
            "B": np.clip(np.round(rng.lognormal(np.log(60), 0.8, users)).astype(int), 1, n)}
    distribution = rank_distribution(n, m, sampling="without_replacement")
    corrected = corrected_metric(n, m, "recall", k=10, gamma=0.1, sampling="without_replacement")
    naive = corrected_metric(n, m, "recall", k=10, method="naive", sampling="without_replacement")
    exact = {name: metric_of_rank("recall", ranks, n, 10).mean() for name, ranks in full.items()}
    expected = {name: {"naive": (distribution[ranks - 1] @ naive.values).mean(),
                       "corrected": (distribution[ranks - 1] @ corrected.values).mean()} for name, ranks in full.items()}
    assert exact["A"] > exact["B"]
    assert expected["A"]["naive"] < expected["B"]["naive"]  # sampling flips the order
    assert expected["A"]["corrected"] > expected["B"]["corrected"]  # the correction puts it back


def test_estimates_of_a_set_of_users_and_their_explanation():
    result = sampled_metric_estimates([1, 3, 8, 20], 1000, 99, "ndcg", k=10, full_ranks=[5, 40, 70, 300])
    assert result.methods == ("naive", "rank_estimate", "bias_variance")
    assert result.values[0] == pytest.approx(np.mean([1, 1 / np.log2(4), 1 / np.log2(9), 0]), abs=TOL)
    assert result.exact == pytest.approx(np.mean([1 / np.log2(6), 0, 0, 0]), abs=TOL)
    text = str(result)
    assert "full catalogue (the truth)" in text and "bias-variance, γ = 0.1" in text
    assert "M̂ = ((1 - γ)·AᵀA + γ·diag(c))⁻¹·Aᵀb" in str(corrected_metric(100, 9, "ap"))


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: rank_distribution(1, 1), ValueError, r"n must be a whole number of at least 2"),
    (lambda: rank_distribution(5, 5, sampling="without_replacement"), ValueError, r"m must be at most n - 1 = 4 when sampling without replacement"),
    (lambda: rank_distribution(5, 2, sampling="stratified"), ValueError, r"sampling must be one of 'with_replacement', 'without_replacement'"),
    (lambda: corrected_metric(100, 9, "recall"), ValueError, r"k must be given for recall"),
    (lambda: corrected_metric(100, 9, "mrr"), ValueError, r"metric must be one of 'recall', 'ndcg', 'ap', 'auc'"),
    (lambda: corrected_metric(100, 9, "ap", gamma=2), ValueError, r"gamma must be a number from 0 to 1"),
    (lambda: corrected_metric(10, 3, "ap", prior=[0.5, 0.5]), ValueError, r"prior must give each of the n = 10 ranks a probability"),
    (lambda: corrected_metric(100, 9, "ap").estimate([0, 3]), ValueError, r"sampled_ranks must be whole numbers from 1 to m \+ 1 = 10"),
    (lambda: sampled_metric_expectation(101, 100, 9, "ap"), ValueError, r"rank must be at most n = 100"),
    (lambda: sampled_metric_estimates([1], 100, 9, "ap", full_ranks=[1, 2]), ValueError, r"full_ranks must hold one rank from 1 to n = 100 per user"),
    (lambda: sampled_metric_estimates([1], 100, 9, "ap", methods="naive"), TypeError, r"methods must be a list of estimates"),
])
def test_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()
