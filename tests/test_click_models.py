"""Click models: exact probabilities on hand-computed cases, every click pattern, and simulation within its bound."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_teach.online.click_models import CascadeModel, PositionBasedModel, hoeffding_bound

TOL = 1e-12
invariant = settings(max_examples=120, deadline=None, derandomize=True)
grades = st.lists(st.integers(0, 3), min_size=1, max_size=7)


def test_cascade_by_hand_with_fractions():
    # α = (2^g - 1)/8 for grades 2, 0, 3, 1: 3/8, 0, 7/8, 1/8.
    alpha = [Fraction(3, 8), Fraction(0), Fraction(7, 8), Fraction(1, 8)]
    reach, expected = Fraction(1), []
    for a in alpha:
        expected.append(reach * a)
        reach *= 1 - a
    result = CascadeModel().click_probabilities([2, 0, 3, 1])
    assert result.clicks == pytest.approx([float(p) for p in expected], abs=TOL)
    assert result.ctr == pytest.approx(float(1 - reach), abs=TOL) == pytest.approx(result.expected_clicks, abs=TOL)
    assert float(expected[2]) == pytest.approx(5 / 8 * 7 / 8, abs=TOL)  # reached with chance 1 - 3/8, then 7/8


def test_position_based_by_hand():
    result = PositionBasedModel(examination=[0.9, 0.6, 0.3]).click_probabilities([3, 1, 2])
    assert result.clicks == pytest.approx([0.9 * 7 / 8, 0.6 * 1 / 8, 0.3 * 3 / 8], abs=TOL)
    assert result.ctr == pytest.approx(1 - (1 - 0.9 * 7 / 8) * (1 - 0.6 / 8) * (1 - 0.3 * 3 / 8), abs=TOL)
    default = PositionBasedModel(eta=2).click_probabilities([3, 3])
    assert default.examination == pytest.approx((1.0, 0.25), abs=TOL)


def test_a_given_attractiveness_table_replaces_the_err_mapping():
    model = CascadeModel(attractiveness={0: 0.1, 1: 0.5})
    assert model.click_probabilities([0, 1]).clicks == pytest.approx((0.1, 0.9 * 0.5), abs=TOL)


@invariant
@given(grades, st.sampled_from(["cascade", "pbm"]))
def test_patterns_add_up_to_one_and_give_the_click_probabilities(relevances, kind):
    model = CascadeModel() if kind == "cascade" else PositionBasedModel(eta=0.7)
    exact = model.click_probabilities(relevances)
    patterns = model.pattern_probabilities(relevances)
    assert sum(p for _, p in patterns) == pytest.approx(1.0, abs=TOL)
    for i in range(len(relevances)):
        assert sum(p for pattern, p in patterns if pattern[i]) == pytest.approx(exact.clicks[i], abs=TOL)
    assert 1 - sum(p for pattern, p in patterns if not any(pattern)) == pytest.approx(exact.ctr, abs=TOL)
    assert exact.ctr <= exact.expected_clicks + TOL and 0 <= exact.ctr <= 1


@invariant
@given(grades)
def test_the_cascade_ctr_is_the_position_based_ctr_when_every_position_is_examined(relevances):
    full = PositionBasedModel(examination=[1.0] * len(relevances)).click_probabilities(relevances)
    assert CascadeModel().click_probabilities(relevances).ctr == pytest.approx(full.ctr, abs=TOL)


@pytest.mark.parametrize("model", [CascadeModel(), PositionBasedModel()])
def test_simulated_rates_fall_within_the_hoeffding_bound(model):
    relevances = [1, 3, 0, 2, 2, 1]
    sessions = 40_000
    simulated = model.simulate(relevances, sessions, seed=18)
    bound = hoeffding_bound(sessions, delta=1e-9)  # 0.0241: a failure would be a one-in-a-billion draw
    assert np.all(np.abs(simulated.rates - np.array(simulated.exact.clicks)) <= bound)
    assert abs(simulated.ctr - simulated.exact.ctr) <= bound
    if isinstance(model, CascadeModel):
        assert simulated.clicks.sum(axis=1).max() <= 1  # one click at most, then the user stops
    assert "within ±" in str(simulated) and simulated.sessions == sessions


def test_simulation_repeats_with_its_seed():
    model = PositionBasedModel()
    first, again = model.simulate([2, 1, 3], 500, seed=4), model.simulate([2, 1, 3], 500, seed=4)
    assert np.array_equal(first.clicks, again.clicks)
    assert not np.array_equal(first.clicks, model.simulate([2, 1, 3], 500, seed=5).clicks)


def test_the_explanations_show_the_products():
    text = str(CascadeModel().click_probabilities([1, 3], ranking=["a", "b"]))
    assert "CTR = 1 - Π_i (1 - α_i) = 1 - (1 - 0.1250) · (1 - 0.8750) = 0.8906" in text and "P(reach i)" in text
    html = PositionBasedModel().click_probabilities([1, 3])._repr_html_()
    assert "θ_i" in html and "0.4375" in html


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: CascadeModel().click_probabilities([4, 1]), ValueError, r"relevances must be grades from 0 to max_grade=3"),
    (lambda: CascadeModel().click_probabilities([-1, 1]), ValueError, r"relevances must be non-negative grades"),
    (lambda: CascadeModel(max_grade=0), ValueError, r"max_grade must be a whole number of at least 1"),
    (lambda: CascadeModel(attractiveness=[0.1]), TypeError, r"attractiveness must map each grade"),
    (lambda: CascadeModel(attractiveness={0: 1.5}), ValueError, r"attractiveness must give each grade a probability from 0 to 1\. Got 0: 1\.5 instead\."),
    (lambda: CascadeModel(attractiveness={0: 0.1}).click_probabilities([0, 2]), ValueError, r"\[2\.0\] are not among them"),
    (lambda: PositionBasedModel(examination=[1.2]), ValueError, r"examination must hold one probability from 0 to 1 per position"),
    (lambda: PositionBasedModel(examination=[1, 0.5]).click_probabilities([1, 1, 1]), ValueError, r"relevances must be at most 2 long"),
    (lambda: PositionBasedModel(eta=-1), ValueError, r"eta must be a finite number of at least 0"),
    (lambda: CascadeModel().simulate([1, 2], 0), ValueError, r"sessions must be a positive integer"),
    (lambda: CascadeModel().click_probabilities([1, 2], ranking=["a"]), ValueError, r"ranking must hold one item id per grade \(2\)"),
    (lambda: hoeffding_bound(10, delta=0), ValueError, r"delta must be a number strictly between 0 and 1"),
])
def test_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()
