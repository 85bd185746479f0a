"""Kendall's τ-b against scipy, τ_AP against its published R implementation's example and a brute-force count."""

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ndcg_teach.statistics.stability import kendall_tau, swapped_pairs, tau_ap

TOL = 1e-12
invariant = settings(max_examples=150, deadline=None, derandomize=True)


def test_kendall_tau_equals_scipy_tau_b_with_and_without_ties():
    rng = np.random.default_rng(2000)
    checked = 0
    for _ in range(600):
        n = int(rng.integers(2, 30))
        x = rng.normal(size=n)
        y = x + rng.normal(scale=rng.uniform(0.1, 2), size=n)
        if rng.random() < 0.5:
            x, y = np.round(x, 0), np.round(y, 0)
        if np.all(x == x[0]) or np.all(y == y[0]):
            continue
        assert kendall_tau(x, y).value == pytest.approx(stats.kendalltau(x, y).statistic, abs=TOL), (x, y)
        checked += 1
    assert checked > 500


def test_tau_ap_reproduces_the_ircor_example():
    # R package ircor (Urbano), help page of tauAP: x true scores, y estimated; tauAP(x, y) = 0.3928571.
    x = [0.67, 0.45, 0.29, 0.12, 0.57, 0.24, 0.94, 0.75, 0.08, 0.54]
    y = [0.48, 0.68, 0.32, 0.09, 0.06, 0.61, 0.87, 0.22, 0.44, 0.84]
    assert round(tau_ap(x, y).value, 7) == 0.3928571


def brute_tau_ap(truth, estimate):
    """Yilmaz et al.'s probabilistic reading: pick an item below the top by estimate, then one above it, uniformly;
    τ_AP = 2·P(truth orders the two as estimate does) - 1."""
    order = sorted(range(len(estimate)), key=lambda k: -estimate[k])
    n = len(order)
    chance = 0.0
    for i in range(1, n):
        for j in range(i):
            chance += (truth[order[j]] > truth[order[i]]) / (i * (n - 1))
    return 2 * chance - 1


@invariant
@given(st.permutations(range(8)), st.permutations(range(8)))
def test_tau_ap_equals_its_probabilistic_definition_and_lies_in_range(truth, estimate):
    value = tau_ap(list(truth), list(estimate)).value
    assert value == pytest.approx(brute_tau_ap(truth, estimate), abs=TOL)
    assert -1 - TOL <= value <= 1 + TOL


def test_tau_ap_is_one_for_the_same_order_and_minus_one_reversed():
    scores = [0.5, 0.4, 0.9, 0.1, 0.3]
    assert tau_ap(scores, scores).value == pytest.approx(1.0, abs=TOL)
    assert tau_ap(scores, [-s for s in scores]).value == pytest.approx(-1.0, abs=TOL)


@invariant
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=2, max_size=15))
def test_tau_is_symmetric_and_bounded_and_swaps_match_it(pairs):
    x, y = [p[0] for p in pairs], [p[1] for p in pairs]
    if len(set(x)) == 1 or len(set(y)) == 1:
        return
    forward = kendall_tau(x, y)
    assert kendall_tau(y, x).value == pytest.approx(forward.value, abs=TOL)
    assert -1 - TOL <= forward.value <= 1 + TOL
    swaps = swapped_pairs(x, y)
    assert len(swaps.swapped) == forward.discordant
    if len(set(x)) == len(x) and len(set(y)) == len(y):
        assert forward.value == pytest.approx(1 - 2 * swaps.value, abs=TOL)


def test_swapped_pairs_name_each_pair_with_the_higher_by_x_first():
    x = {"A": 0.4, "B": 0.3, "C": 0.2, "D": 0.1}
    y = {"A": 0.1, "B": 0.3, "C": 0.2, "D": 0.4}
    result = swapped_pairs(x, y, names=("NIST", "LLM"))
    expected = {(a, b) for a, b in combinations("ABCD", 2) if (x[a] - x[b]) * (y[a] - y[b]) < 0}
    assert set(result.swapped) == expected and result.pairs == 6
    assert all(dx > 0 > dy for dx, dy in result.differences)
    assert "pair (higher by NIST first)" in str(result)


def test_systems_are_paired_by_name_whatever_the_mapping_order():
    x = {"A": 0.3, "B": 0.2, "C": 0.1}
    y = {"C": 0.1, "A": 0.3, "B": 0.2}
    assert kendall_tau(x, y).value == pytest.approx(1.0, abs=TOL)


def test_the_text_shows_the_counts_and_the_formula():
    result = kendall_tau([0.3, 0.2, 0.2, 0.1], [0.3, 0.25, 0.2, 0.2])
    text = str(result)
    assert "(4 - 0) / √((4 + 0 + 1)·(4 + 0 + 1))" in text
    assert result.value == pytest.approx(stats.kendalltau([0.3, 0.2, 0.2, 0.1], [0.3, 0.25, 0.2, 0.2]).statistic, abs=TOL)
    assert "C(i)/(i-1)" in str(tau_ap([3, 2, 1], [3, 1, 2]))


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: kendall_tau([1, 2], [1, 2, 3]), ValueError, r"one score per system each, in the same order\. Got 2 and 3 scores instead\."),
    (lambda: kendall_tau([1], [1]), ValueError, r"must score at least 2 systems\. Got 1 instead\."),
    (lambda: kendall_tau([1, 1], [1, 2]), ValueError, r"x must not give every system the same score"),
    (lambda: kendall_tau({"A": 1, "B": 2}, {"A": 1, "C": 2}), ValueError, r"must score the same systems; \['B', 'C'\] appear in only one"),
    (lambda: kendall_tau({"A": 1, "B": 2}, [1, 2]), TypeError, r"must both be \{system: score\} mappings or both be lists"),
    (lambda: kendall_tau([1, float("nan")], [1, 2]), ValueError, r"x must hold finite numbers"),
    (lambda: kendall_tau("ab", [1, 2]), TypeError, r"x must be a flat list of numbers"),
    (lambda: kendall_tau([1, 2], [2, 1], names=("a",)), TypeError, r"names must be two non-empty strings, e\.g\. \('NIST', 'LLM judge'\)"),
    (lambda: tau_ap([1, 2, 2], [1, 2, 3]), ValueError, r"truth must not tie two systems: τ_AP is defined for strict rankings"),
    (lambda: tau_ap([1, 2, 3], [1, 1, 3]), ValueError, r"estimate must not tie two systems"),
])
def test_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_lesson_15s_rankings_against_scipy():
    # Exercise 3: systems 1-2 and 3-4 swap; section 3's rankings (means printed by the lesson) swap S4 and S5 only.
    x, y = [0.52, 0.48, 0.45, 0.40, 0.33], [0.47, 0.49, 0.42, 0.44, 0.30]
    assert kendall_tau(x, y).value == pytest.approx(stats.kendalltau(x, y).statistic, abs=TOL)
    assert kendall_tau(x, y).value == pytest.approx(0.6, abs=TOL)
    truth = {"S1": 0.6324, "S2": 0.6587, "S3": 0.6966, "S4": 0.7058, "S5": 0.7011, "S6": 0.7953}
    second = {"S1": 0.6376, "S2": 0.6721, "S3": 0.7032, "S4": 0.7050, "S5": 0.7311, "S6": 0.7652}
    names = sorted(truth)
    scipy_tau = stats.kendalltau([truth[s] for s in names], [second[s] for s in names]).statistic
    assert kendall_tau(truth, second).value == pytest.approx(scipy_tau, abs=TOL) == 1 - 2 / 15
