"""Gains."""

import numpy as np

from ndcg_teach.core.gains import exponential_gain, gain_symbol, gain_values, linear_gain


def test_linear_and_exponential():
    grades = np.array([0.0, 1.0, 2.0, 5.0])
    assert linear_gain(grades).tolist() == [0, 1, 2, 5]
    assert exponential_gain(grades).tolist() == [0, 1, 3, 31]


def test_they_agree_exactly_on_binary_grades():
    grades = np.array([0.0, 1.0, 1.0, 0.0])
    assert (gain_values(grades, "linear") == gain_values(grades, "exponential")).all()


def test_linear_gain_does_not_alias_its_input():
    grades = np.array([1.0, 2.0])
    linear_gain(grades)[0] = 9
    assert grades[0] == 1.0


def test_symbols():
    assert gain_symbol("linear", 3.0) == "3"
    assert gain_symbol("exponential", 3.0) == "(2^3-1)"
    assert gain_symbol(abs, 1.5) == "g(1.5)"
