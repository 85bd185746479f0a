"""The precision-recall curve: worked example, invariants of interpolation, the trace and refusals.

trec_eval checks the 11 points on random queries in test_oracle_trec_eval_sets.py.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt

TOL = 1e-12


def test_worked_example_from_the_docstring_by_hand():
    curve = nt.precision_recall_curve([1, 0, 1, 0, 0, 1], n_relevant=4)
    assert curve.precision.tolist() == [1, 1 / 2, 2 / 3, 2 / 4, 2 / 5, 3 / 6]
    assert curve.recall.tolist() == [1 / 4, 1 / 4, 2 / 4, 2 / 4, 2 / 4, 3 / 4]
    assert curve.interpolated.tolist() == [1, 1, 2 / 3, 2 / 3, 2 / 3, 1 / 2]
    assert curve.n_relevant == 4 and curve.counts == (0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4)
    assert curve.eleven_point_average == pytest.approx((3 + 3 * 2 / 3 + 2 * 0.5) / 11, abs=TOL)


def test_an_empty_list_or_a_query_without_relevant_items_gives_zeros():
    for relevances, total in (([], None), ([], 3), ([0, 0], None)):
        curve = nt.precision_recall_curve(relevances, n_relevant=total)
        assert curve.at_levels.tolist() == [0.0] * 11 and curve.eleven_point_average == 0.0
    assert nt.explain_precision_recall_curve([]).rows == ()


@settings(max_examples=500, deadline=None, derandomize=True)
@given(grades=st.lists(st.integers(0, 2), max_size=15), extra=st.integers(0, 4), threshold=st.integers(1, 2),
       convention=st.sampled_from(["trec_eval", "textbook"]))
def test_interpolated_precision_never_rises_with_recall(grades, extra, threshold, convention):
    total = sum(g >= threshold for g in grades) + extra
    curve = nt.precision_recall_curve(grades, n_relevant=total, threshold=threshold, convention=convention)
    assert np.all(np.diff(curve.recall) >= 0)
    assert np.all(np.diff(curve.interpolated) <= 0) and np.all(np.diff(curve.at_levels) <= 0)
    assert np.all(curve.interpolated >= curve.precision)
    # Textbook definition, by brute force: the best precision at any rank whose recall reaches this rank's recall.
    for i, recall in enumerate(curve.recall):
        assert curve.interpolated[i] == max(p for p, r in zip(curve.precision, curve.recall) if r >= recall)
    if convention == "textbook":
        for level, value in zip(curve.levels, curve.at_levels):
            reached = [p for p, h in zip(curve.precision, np.cumsum(np.array(grades) >= threshold))
                       if total and h * 10 >= round(level * 10) * total]
            assert value == (max(reached) if reached and total else 0.0)


def test_trace_rows_and_formula():
    trace = nt.explain_precision_recall_curve([1, 0, 1], n_relevant=2, ranking=list("ABC"))
    assert [(row.item, row.precision, row.recall, row.interpolated) for row in trace.rows] == [
        ("A", 1.0, 0.5, 1.0), ("B", 0.5, 0.5, 1.0), ("C", 2 / 3, 1.0, 2 / 3)]
    assert trace.value == nt.precision_recall_curve([1, 0, 1], n_relevant=2).eleven_point_average
    assert "interpolated P" in trace.table() and "R@i" in trace.table()
    assert "recall level reached at this many relevant items (trec_eval): 0.0 at 0, 0.1 at 1" in trace.notes[1]


def test_curve_prints_its_eleven_points():
    curve = nt.precision_recall_curve([1, 0, 1], n_relevant=2, convention="textbook")
    text = str(curve)
    assert text.splitlines()[0] == "11-point interpolated precision (R = 2, textbook)"
    assert "11-point average = " in text and "<table>" in curve._repr_html_()
    with pytest.raises(ValueError):
        curve.precision[0] = 0.5  # the arrays are read-only, like the frozen traces


def test_convention_must_be_known():
    with pytest.raises(ValueError, match=r"convention must be one of 'trec_eval', 'textbook', 'trec_eval_10'\. Got 'ranx' instead\."):
        nt.precision_recall_curve([1, 0], convention="ranx")


def test_plot_draws_one_or_several_curves():
    from ndcg_teach.plots import PNG_SIGNATURE, precision_recall_plot

    one = nt.precision_recall_curve([1, 0, 1, 0, 0, 1], n_relevant=4)
    two = nt.precision_recall_curve([0, 1, 1, 1], n_relevant=4)
    assert precision_recall_plot(one).startswith(PNG_SIGNATURE)
    assert precision_recall_plot([one, two], names=["A", "B"]).startswith(PNG_SIGNATURE)
    with pytest.raises(TypeError, match=r"curves must be a PrecisionRecallCurve or a list of them"):
        precision_recall_plot([1, 0, 1])
    with pytest.raises(ValueError, match=r"names must hold one name per curve \(2\)\. Got 1 names instead\."):
        precision_recall_plot([one, two], names=["A"])
