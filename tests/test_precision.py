"""Precision@k and recall@k."""

import pytest

import ndcg_teach as nt


def test_document_000_precision_with_its_own_binary_labels():
    labels = [1, 1, 0, 1, 0]  # B, A, D, C, E relevant when grade >= 3
    assert nt.precision_at_k(labels, 3) == 2 / 3
    assert nt.precision_at_k(labels, 5) == 0.6


def test_threshold_turns_grades_into_relevant_or_not():
    ranked = [4, 5, 2, 3, 1]
    assert nt.precision_at_k(ranked, 3, threshold=3) == 2 / 3
    assert nt.precision_at_k(ranked, 5, threshold=3) == 0.6
    assert nt.precision_at_k(ranked, 5, threshold=2) == 0.8
    assert nt.precision_at_k(ranked, 3) == 1.0


def test_seven_of_ten():
    assert nt.precision_at_k([1] * 7 + [0] * 3, 10) == 0.7


def test_short_list_divides_by_k_unless_adaptive():
    assert nt.precision_at_k([1, 1], 4) == 0.5
    assert nt.precision_at_k([1, 1], 4, adaptive_k=True) == 1.0
    assert nt.precision_at_k([1, 1, 0, 0, 0], 4, adaptive_k=True) == 0.5


def test_recall_counts_relevant_in_list_unless_told_the_total():
    assert nt.recall_at_k([1, 0, 1], 1) == 0.5
    assert nt.recall_at_k([1, 0, 1], 1, n_relevant=4) == 0.25
    assert nt.recall_at_k([1, 0, 1], 3) == 1.0


def test_recall_of_a_query_without_relevant_items_is_zero():
    assert nt.recall_at_k([0, 0], 2) == 0.0
    assert nt.recall_at_k([0, 0], 2, n_relevant=0) == 0.0


def test_precision_times_k_counts_hits():
    ranked = [3, 0, 1, 2, 0, 1]
    for k in range(1, 8):
        hits = sum(1 for g in ranked[:k] if g >= 1)
        assert nt.precision_at_k(ranked, k) == pytest.approx(hits / k, abs=1e-15)
