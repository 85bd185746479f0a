"""Means over queries."""

import pytest

import ndcg_teach as nt


def test_mean_ndcg_is_the_plain_average_with_keywords_passed_on():
    queries = [[5, 2, 3], [0, 1], [3, 3]]
    expected = sum(nt.ndcg(q, k=2, gain="exponential") for q in queries) / 3
    assert nt.mean_ndcg(queries, k=2, gain="exponential") == pytest.approx(expected, abs=1e-15)


def test_map_and_mrr():
    queries = [[1, 0, 1], [0, 1]]
    assert nt.mean_average_precision(queries) == pytest.approx(((1 + 2 / 3) / 2 + 0.5) / 2, abs=1e-15)
    assert nt.mean_reciprocal_rank(queries) == 0.75
    assert nt.mean_average_precision(queries, n_relevant=3) == pytest.approx(((1 + 2 / 3) / 3 + 0.5 / 3) / 2, abs=1e-15)


def test_generators_are_accepted():
    assert nt.mean_reciprocal_rank(q for q in [[1], [0, 1]]) == 0.75
