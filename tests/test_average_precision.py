"""Average precision and its denominators."""

import pytest

import ndcg_teach as nt


def test_default_denominator_is_relevant_retrieved():
    assert nt.average_precision([1, 0, 1, 0]) == pytest.approx((1 + 2 / 3) / 2, abs=1e-15)


def test_query_total_denominator_like_trec_eval():
    assert nt.average_precision([1, 0, 1, 0], n_relevant=3) == pytest.approx((1 + 2 / 3) / 3, abs=1e-15)


def test_min_r_k_denominator_like_recommenders():
    # Five relevant items in the query, cut at 2: recommenders divides by min(5, 2).
    assert nt.average_precision([0, 1, 1], k=2, n_relevant=min(5, 2)) == pytest.approx(0.5 / 2, abs=1e-15)


def test_cut_off_ignores_later_positions():
    assert nt.average_precision([0, 1, 1], k=1) == 0.0
    assert nt.average_precision([0, 1, 1], k=2) == 0.5


def test_no_relevant_item_gives_zero():
    assert nt.average_precision([0, 0]) == 0.0
    assert nt.average_precision([0, 0], n_relevant=0) == 0.0


def test_threshold_applies():
    assert nt.average_precision([3, 1, 2], threshold=2) == pytest.approx((1 + 2 / 3) / 2, abs=1e-15)


def test_perfect_ranking_scores_one():
    assert nt.average_precision([1, 1, 0, 0]) == 1.0
