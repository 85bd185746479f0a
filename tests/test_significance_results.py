"""Significance results name the difference after the systems they were given (issue 23, point 8)."""

import pytest

from ndcg_teach import language_set
from ndcg_teach.statistics.significance import bootstrap_interval, paired_t_test, randomisation_test, wilcoxon_test
from ndcg_teach.statistics.significance_results import p_text

A = [0.30, 0.42, 0.40, 0.50, 0.35]
B = [0.35, 0.50, 0.45, 0.55, 0.45]

TESTS = [
    lambda **kw: paired_t_test(B, A, **kw),
    lambda **kw: wilcoxon_test(B, A, **kw),
    lambda **kw: randomisation_test(B, A, **kw),
]


@pytest.mark.parametrize("run", TESTS)
def test_labels_name_the_difference_and_leave_the_numbers_alone(run):
    plain, named = run(), run(labels=("B", "A"))
    assert "mean difference a - b = +0.0660" in str(plain)
    assert "mean difference B - A = +0.0660" in str(named)
    assert (named.statistic, named.p_value, named.mean_difference) == (plain.statistic, plain.p_value, plain.mean_difference)
    assert "mean difference B - A" in named._repr_html_()


def test_the_bootstrap_interval_names_its_difference_too():
    interval = bootstrap_interval(B, A, n=500, labels=("new", "baseline"))
    assert "interval of the mean difference new - baseline" in str(interval)


def test_a_chinese_result_keeps_the_names():
    with language_set("zh-CN"):
        result = paired_t_test(B, A, labels=("B", "A"))
    assert "B - A" in str(result) and "平均差" in str(result)


def test_p_values_print_with_four_decimals_or_in_scientific_notation():
    assert (p_text(0.04999), p_text(0.0001), p_text(0.00009)) == ("0.0500", "0.0001", "9.00e-05")


@pytest.mark.parametrize("labels", [("B",), "BA", ("B", ""), ("B", 1)])
def test_bad_labels_are_refused_by_name(labels):
    with pytest.raises(TypeError, match=r"labels must be two non-empty strings, e\.g\. \('B', 'A'\)\. Got .* instead\."):
        paired_t_test(B, A, labels=labels)
