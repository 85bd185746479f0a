"""Reciprocal rank."""

import ndcg_teach as nt


def test_first_relevant_position():
    assert nt.reciprocal_rank([0, 0, 3, 1]) == 1 / 3
    assert nt.reciprocal_rank([2, 0]) == 1.0


def test_nothing_relevant_in_the_cut_gives_zero():
    assert nt.reciprocal_rank([0, 0, 3], k=2) == 0.0
    assert nt.reciprocal_rank([0, 0]) == 0.0


def test_threshold_decides_what_counts():
    assert nt.reciprocal_rank([1, 2, 3], threshold=3) == 1 / 3
