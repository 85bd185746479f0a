"""Position-based IPS: exactly unbiased when every item was shown, blind to unseen items, and its simulation."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_teach.online.click_models import PositionBasedModel
from ndcg_teach.online.counterfactual_rankings import position_based_exact, position_based_ips

TOL = 1e-12
invariant = settings(max_examples=80, deadline=None, derandomize=True)
ITEMS = ["d1", "d2", "d3", "d4"]


@invariant
@given(st.permutations(ITEMS), st.permutations(ITEMS), st.permutations(ITEMS), st.lists(st.integers(0, 3), min_size=4,
                                                                                           max_size=4),
       st.floats(0.0, 1.0))
def test_ips_is_exactly_unbiased_when_every_item_is_shown(logged_a, logged_b, target, grade_list, mix):
    model = PositionBasedModel(eta=1.0)
    grades = dict(zip(ITEMS, grade_list))
    moments = position_based_exact([(list(logged_a), mix), (list(logged_b), 1 - mix)], grades, list(target), model)
    assert moments.ips_mean == pytest.approx(moments.truth, abs=TOL)
    assert moments.unseen == ()
    theta = 1 / np.arange(1, 5)
    alpha = {d: (2**g - 1) / 8 for d, g in grades.items()}
    naive = sum(theta[list(target).index(d)] * alpha[d] * (mix * theta[logged_a.index(d)]
                                                          + (1 - mix) * theta[logged_b.index(d)]) for d in ITEMS)
    assert moments.naive_mean == pytest.approx(naive, abs=TOL)  # clicks carry the logged position's θ


def test_an_item_never_shown_is_missing_from_the_estimate_exactly():
    model = PositionBasedModel(examination=[1.0, 0.6, 0.3], attractiveness={0: 0.1, 1: 0.5, 2: 0.9})
    grades = {"d1": 0, "d2": 1, "d3": 2, "new": 2}
    moments = position_based_exact(["d1", "d2", "d3"], grades, ["new", "d3", "d2"], model)
    assert moments.unseen == ("new",)
    assert moments.ips_mean - moments.truth == pytest.approx(-1.0 * 0.9, abs=TOL)  # θ_1·α(new) never observed
    assert "invisible to IPS: new" in str(moments)


def test_simulated_sessions_agree_with_the_exact_moments():
    model = PositionBasedModel(eta=1.0)
    grades = {"d1": 1, "d2": 3, "d3": 0, "d4": 2}
    logged, target = ["d1", "d2", "d3", "d4"], ["d2", "d4", "d1", "d3"]
    moments = position_based_exact(logged, grades, target, model)
    sessions = 50_000
    clicks = model.simulate([grades[d] for d in logged], sessions, seed=19).clicks.astype(int)
    estimate = position_based_ips(logged, clicks, target, model)
    assert abs(estimate.value - moments.ips_mean) <= np.sqrt(moments.ips_variance / (sessions * 1e-4))
    assert abs(estimate.naive - moments.naive_mean) <= np.sqrt(moments.naive_variance / (sessions * 1e-4))
    assert estimate.naive < moments.truth - 0.2  # the logged ranking hid d2 and d4 lower down: naive undercounts


def test_one_ranking_per_session_is_read_row_by_row():
    model = PositionBasedModel(examination=[1.0, 0.5])
    estimate = position_based_ips([["a", "b"], ["b", "a"]], [[0, 1], [0, 1]], ["a", "b"], model)
    # b clicked at position 2 in session 1 (weight 2), a at position 2 in session 2 (weight 2): α̂ = 1 each.
    assert estimate.weights == (2.0, 2.0) and estimate.value == pytest.approx((1.0 * 1 + 0.5 * 1), abs=TOL)
    assert "V̂_IPS = Σ_i θ_i·α̂_(σ(i)) = 1.0000 + 0.5000 = 1.5000" in str(estimate)


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: position_based_ips(["a", "b"], [[0, 2]], ["a", "b"], PositionBasedModel()), ValueError, r"clicks must be a table of 0/1"),
    (lambda: position_based_ips(["a", "b"], [[0, 1, 0]], ["a", "b"], PositionBasedModel()), ValueError, r"one column per position of its ranking\. Got shape \(1, 3\)"),
    (lambda: position_based_ips(["a", "b"], [[0, 1]], ["a", "b"], "pbm"), TypeError, r"model must be a PositionBasedModel"),
    (lambda: position_based_ips(["a", "b"], [[0, 1]], ["a", "b"], PositionBasedModel(examination=[1.0, 0.0])), ValueError, r"positive examination chance"),
    (lambda: position_based_exact([(["a"], 0.5)], {"a": 1}, ["a"], PositionBasedModel()), ValueError, r"logging's probabilities must be from 0 to 1 and add up to 1"),
    (lambda: position_based_exact(5, {"a": 1}, ["a"], PositionBasedModel()), TypeError, r"logging must be a ranking"),
    (lambda: position_based_exact(["a"], [1], ["a"], PositionBasedModel()), TypeError, r"grades must map item ids"),
    (lambda: position_based_exact(["a"], {"a": 1}, ["a", "a"], PositionBasedModel()), ValueError, r"target must name each item once"),
])
def test_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()
