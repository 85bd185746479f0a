"""ndcg_score: scores to ranks with an explicit tie policy."""

import math

import numpy as np
import pytest

import ndcg_teach as nt


def test_no_ties_all_policies_agree():
    y_true, y_score = [3, 2, 0, 1], [0.1, 0.9, 0.5, 0.3]
    values = {nt.ndcg_score(y_true, y_score, ties=t) for t in ("average", "optimistic", "pessimistic", "stable")}
    assert len(values) == 1
    assert values.pop() == pytest.approx(nt.ndcg([2, 0, 1, 3]), abs=1e-15)


def test_tie_policies_bracket_the_average():
    y_true, y_score = [3, 2, 1], [0.5, 0.5, 0.5]
    optimistic = nt.ndcg_score(y_true, y_score, ties="optimistic")
    pessimistic = nt.ndcg_score(y_true, y_score, ties="pessimistic")
    average = nt.ndcg_score(y_true, y_score)
    assert optimistic == 1.0
    assert pessimistic == pytest.approx(nt.ndcg([1, 2, 3]), abs=1e-15)
    assert pessimistic < average < optimistic
    # Fully tied: every item gets the mean gain 2 at every position.
    assert average == pytest.approx(2 * (1 + 1 / math.log2(3) + 0.5) / nt.idcg([3, 2, 1]), abs=1e-15)


def test_stable_keeps_input_order():
    assert nt.ndcg_score([1, 3], [0.5, 0.5], ties="stable") == pytest.approx(nt.ndcg([1, 3]), abs=1e-15)


def test_two_dimensional_input_averages_queries():
    y_true = np.array([[3, 2, 1], [0, 1, 0]])
    y_score = np.array([[3, 2, 1], [1, 0, 2]])
    assert nt.ndcg_score(y_true, y_score) == pytest.approx((1 + nt.ndcg([0, 0, 1])) / 2, abs=1e-15)


def test_k_cuts_each_query():
    assert nt.ndcg_score([0, 3], [1, 0], k=1) == 0.0
    assert nt.ndcg_score([0, 3], [0, 1], k=1) == 1.0


def test_all_zero_query_scores_zero():
    assert nt.ndcg_score([0, 0], [1, 2]) == 0.0


def test_single_item_query_is_allowed():
    assert nt.ndcg_score([2], [0.3]) == 1.0


def test_ndcg_score_takes_the_same_discount_base_and_zero_idcg_as_ndcg():
    true, score = [3, 0, 2, 1], [0.9, 0.8, 0.3, 0.1]  # no ties: the scores' order is the list's order
    for keywords in ({"discount": "jarvelin"}, {"log_base": 10}, {"gain": {0: 0, 1: 5, 2: 1, 3: 2}}):
        assert nt.ndcg_score(true, score, 3, **keywords) == pytest.approx(nt.ndcg(true, 3, **keywords), abs=1e-15)
    assert nt.ndcg_score([0, 0], [1, 2], zero_idcg=1.0) == 1.0
    with pytest.raises(ValueError, match=r"discount must be one of 'log2', 'jarvelin'\. Got 'log' instead\."):
        nt.ndcg_score(true, score, discount="log")
