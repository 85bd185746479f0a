"""Discounts."""

import math

import numpy as np
import pytest

from ndcg_teach.core.discounts import discount_symbol, discount_values


def test_log2_discount():
    np.testing.assert_allclose(discount_values(4), [1, 1 / math.log2(3), 0.5, 1 / math.log2(5)], rtol=0, atol=1e-16)


def test_position_ten_is_worth_less_than_a_third_of_position_one():
    assert discount_values(10)[-1] < 1 / 3


def test_other_base_is_a_constant_factor():
    ratio = discount_values(6, log_base=math.e) / discount_values(6)
    assert ratio == pytest.approx(np.full(6, 1 / math.log(2)), rel=1e-14)


def test_jarvelin():
    np.testing.assert_allclose(discount_values(4, "jarvelin"), [1, 1, 1 / math.log2(3), 0.5], rtol=0, atol=1e-16)
    np.testing.assert_allclose(discount_values(3, "jarvelin", log_base=3), [1, 1, 1], rtol=0, atol=1e-16)


def test_symbols():
    assert discount_symbol(1) == "log2(2)"
    assert discount_symbol(1, "jarvelin") is None
    assert discount_symbol(3, "jarvelin") == "log2(3)"
