"""CG, DCG, IDCG and NDCG: the worked examples of the documents at their correct values, and the conventions."""

import math

import pytest

import ndcg_teach as nt

LOG2_3 = math.log2(3)


def test_cg_of_the_document_004_list_and_its_shuffle():
    assert nt.cg([5, 2, 3]) == 10.0
    assert nt.cg([2, 3, 5]) == 10.0
    assert nt.cg([5, 2, 3], k=2) == 7.0
    assert nt.cg([5, 2, 3], k=10) == 10.0


def test_document_004_dcg_idcg_ndcg():
    assert nt.dcg([5, 2, 3]) == pytest.approx(5 + 2 / LOG2_3 + 3 / 2, abs=1e-15)
    assert nt.dcg([2, 3, 5]) == pytest.approx(2 + 3 / LOG2_3 + 5 / 2, abs=1e-15)
    assert nt.idcg([5, 2, 3]) == pytest.approx(5 + 3 / LOG2_3 + 2 / 2, abs=1e-15)
    assert nt.ndcg([5, 2, 3]) == pytest.approx(0.98341147226327856, abs=1e-15)


def test_document_000_example_under_both_gains():
    ranked = [4, 5, 2, 3, 1]  # B, A, D, C, E with A=5 ... E=1
    assert nt.ndcg(ranked, k=5, gain="exponential") == pytest.approx(0.86454788462648288, abs=1e-15)
    assert nt.ndcg(ranked, k=5) == pytest.approx(0.95732117485131151, abs=1e-15)
    expected = 15 + 31 / LOG2_3 + 3 / 2 + 7 / math.log2(5) + 1 / math.log2(6)
    assert nt.dcg(ranked, gain="exponential") == pytest.approx(expected, abs=1e-13)


def test_document_001_example_linear_gain():
    ranked = [5, 3, 2, 1, 4]
    assert nt.dcg(ranked) == pytest.approx(5 + 3 / LOG2_3 + 2 / 2 + 1 / math.log2(5) + 4 / math.log2(6), abs=1e-14)
    assert nt.idcg(ranked) == pytest.approx(5 + 4 / LOG2_3 + 3 / 2 + 2 / math.log2(5) + 1 / math.log2(6), abs=1e-14)
    assert nt.ndcg(ranked) == pytest.approx(nt.dcg(ranked) / nt.idcg(ranked), abs=1e-16)
    assert round(nt.ndcg(ranked), 4) == 0.961


def test_jarvelin_discount_leaves_position_one_and_two_undiscounted_for_base_two():
    assert nt.dcg([3, 2, 1], discount="jarvelin") == pytest.approx(3 + 2 / 1 + 1 / LOG2_3, abs=1e-15)


def test_jarvelin_discount_with_base_ten_leaves_the_first_nine_positions_alone():
    grades = [1] * 11
    assert nt.dcg(grades, discount="jarvelin", log_base=10) == pytest.approx(9 + 1 / 1 + 1 / math.log10(11), abs=1e-13)


def test_log_base_scales_dcg_but_not_ndcg():
    grades = [3, 0, 2, 1]
    assert nt.dcg(grades, log_base=10) == pytest.approx(nt.dcg(grades) * math.log(10) / math.log(2), rel=1e-14)
    assert nt.ndcg(grades, log_base=10) == pytest.approx(nt.ndcg(grades), abs=1e-15)


def test_positions_beyond_the_list_add_nothing():
    assert nt.dcg([3, 2], k=10) == nt.dcg([3, 2])
    assert nt.ndcg([3, 2], k=10) == 1.0


def test_pool_makes_the_ideal_run_to_k_even_past_the_list():
    # trec_eval: the ideal list is built from every judged item and runs to k.
    assert nt.idcg([3], k=3, pool=[3, 2, 2]) == pytest.approx(3 + 2 / LOG2_3 + 2 / 2, abs=1e-15)
    assert nt.ndcg([3], k=3, pool=[3, 2, 2]) == pytest.approx(3 / (3 + 2 / LOG2_3 + 1), abs=1e-15)


def test_missing_a_relevant_item_costs_ndcg_only_with_a_pool():
    assert nt.ndcg([3, 1]) == 1.0
    assert nt.ndcg([3, 1], pool=[3, 2, 1]) < 1.0


def test_pool_without_cut_uses_every_judged_grade():
    assert nt.idcg([2], pool=[2, 1, 1]) == pytest.approx(2 + 1 / LOG2_3 + 1 / 2, abs=1e-15)


@pytest.mark.parametrize("zero_idcg, expected", [(0.0, 0.0), (1.0, 1.0), (0.5, 0.5)])
def test_zero_idcg_convention(zero_idcg, expected):
    assert nt.ndcg([0, 0, 0], zero_idcg=zero_idcg) == expected


def test_custom_gain_function():
    assert nt.dcg([2, 1], gain=lambda g: g**2) == pytest.approx(4 + 1 / LOG2_3, abs=1e-15)


def test_exponential_and_linear_gain_agree_on_binary_grades():
    assert nt.dcg([1, 0, 1, 1], gain="exponential") == nt.dcg([1, 0, 1, 1])


def test_float_grades_and_numpy_input():
    import numpy as np

    assert nt.dcg(np.array([1.5, 0.5])) == pytest.approx(1.5 + 0.5 / LOG2_3, abs=1e-15)
    assert isinstance(nt.ndcg(np.array([2, 1])), float)


def test_boolean_grades_read_as_zero_and_one():
    assert nt.dcg([True, False, True]) == nt.dcg([1, 0, 1])
