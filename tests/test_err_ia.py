"""ERR-IA: worked examples, an independent oracle written from Chapelle et al. (2009, 2011), invariants, refusals.

The oracle scores each intent on its own, as ERR of that intent's column (the
expected reciprocal rank of where the reader stops, in exact rational
arithmetic), and takes the weighted mean: ``sum_i P(i | q) ERR_i``. The
library computes all intents at once through the chance that some reader
stops at each item. ndeval's numbers (through pyndeval) are the second oracle,
in tests/test_diversity_qrels.py.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt
from ndcg_teach.core.context import Query
from ndcg_teach.core.registry import call, route

TOL = 1e-12


def err(column, top):
    """ERR of one intent's grades: sum over stopping positions r of P(stop at r) / r."""
    reach, value = Fraction(1), Fraction(0)
    for rank, grade in enumerate(column, start=1):
        stop = Fraction(2 ** int(grade) - 1, 2 ** int(top))
        value += reach * stop / rank
        reach *= 1 - stop
    return value


def oracle(rows, k=None, weights=None, graded=True, normalise="none", pool=None):
    rows = [[g if graded else int(g > 0) for g in row] for row in rows]
    source = rows if pool is None else [[g if graded else int(g > 0) for g in row] for row in pool]
    n_intents = len(rows[0]) if rows else 0
    top = max([g for row in rows + source for g in row], default=0)
    if weights is None:
        present = [any(row[i] > 0 for row in source) for i in range(n_intents)]
        weights = [Fraction(int(p), max(sum(present), 1)) for p in present]
    else:
        weights = [Fraction(w).limit_denominator(10**9) / Fraction(sum(weights)).limit_denominator(10**9) for w in weights]

    def err_ia(ranked):
        return sum(w * err([row[i] for row in ranked], top) for i, w in enumerate(weights))

    value = err_ia(rows[:k])
    if normalise == "max":
        depth = len(rows) if k is None else k
        value = value / err_ia([[top] * n_intents] * depth) if depth and top else Fraction(0)
    elif normalise == "ideal":
        chosen, left = [], list(source)
        while left and len(chosen) < (len(source) if k is None else k):
            scores = [err_ia(chosen + [row]) for row in left]
            chosen.append(left.pop(scores.index(max(scores))))
        best = err_ia(chosen)
        value = value / best if best else Fraction(0)
    return float(value)


tables = st.integers(1, 4).flatmap(lambda s: st.lists(st.lists(st.integers(0, 3), min_size=s, max_size=s), max_size=7))


# ---- Worked examples -------------------------------------------------------------------------------

def test_serving_a_second_intent_early_is_worth_more():
    # Binary grades, two intents of equal weight: a relevant item stops its intent's reader with probability 1/2.
    assert nt.err_ia([[1, 0], [1, 0], [0, 1]]) == pytest.approx(0.5 * (1 / 2 + 1 / 4 / 2) + 0.5 * (1 / 2 / 3), abs=TOL)
    assert nt.err_ia([[1, 0], [0, 1], [1, 0]]) == pytest.approx(0.5 * (1 / 2 + 1 / 4 / 3) + 0.5 * (1 / 2 / 2), abs=TOL)


def test_weights_say_which_intent_most_readers_have():
    rows = [[1, 0], [0, 1]]
    assert nt.err_ia(rows, weights=[3, 1]) == pytest.approx(0.75 * 0.5 + 0.25 * 0.25, abs=TOL)
    assert nt.err_ia(rows, weights=[0.75, 0.25]) == nt.err_ia(rows, weights=[3, 1])


def test_one_intent_is_err():
    grades = [3, 0, 2, 1]
    assert nt.err_ia([[g] for g in grades], 3) == pytest.approx(nt.expected_reciprocal_rank(grades, 3), abs=TOL)
    assert nt.err_ia([[g] for g in grades], max_grade=4) == pytest.approx(
        nt.expected_reciprocal_rank(grades, max_grade=4), abs=TOL)


def test_ndevals_normalisations():
    rows = [[1, 0, 0], [0, 1, 0], [0, 0, 0], [0, 1, 0]]
    raw = nt.err_ia(rows, 5, graded=False)
    most = sum(0.5 * 0.5 ** (r - 1) / r for r in range(1, 6))  # every item relevant to every intent
    assert nt.err_ia(rows, 5, graded=False, normalise="max") == pytest.approx(raw / most, abs=TOL)
    pool = [[0, 0, 1], [0, 1, 0], [1, 0, 0], [0, 1, 0]]
    ideal = (1 / 3) * (0.5 + 0.5 / 2 + 0.5 / 3 + 0.25 / 4)  # greedy: a new intent at each of the first three ranks
    assert nt.err_ia(rows, 5, graded=False, normalise="ideal", subtopic_pool=pool) == pytest.approx(
        nt.err_ia(rows, 5, graded=False, subtopic_pool=pool) / ideal, abs=TOL)


def test_an_intent_nobody_found_relevant_weighs_nothing_unless_weighted():
    assert nt.err_ia([[1, 0]]) == 0.5  # ndeval counts only intents with a relevant item
    assert nt.err_ia([[1, 0]], weights=[1, 1]) == 0.25
    assert nt.err_ia([[1, 0]], subtopic_pool=[[1, 0], [0, 1]]) == 0.25  # the pool shows the second intent


# ---- The oracle ------------------------------------------------------------------------------------

@settings(max_examples=400, deadline=None, derandomize=True)
@given(rows=tables, k=st.one_of(st.none(), st.integers(1, 9)), graded=st.booleans(),
       normalise=st.sampled_from(["none", "max", "ideal"]), extra=st.lists(st.integers(0, 3), max_size=3))
def test_err_ia_equals_the_papers_definition(rows, k, graded, normalise, extra):
    assert nt.err_ia(rows, k, graded=graded, normalise=normalise) == pytest.approx(
        oracle(rows, k, graded=graded, normalise=normalise), abs=TOL)
    if rows:
        pool = rows + [[g] * len(rows[0]) for g in extra]
        assert nt.err_ia(rows, k, graded=graded, normalise=normalise, subtopic_pool=pool) == pytest.approx(
            oracle(rows, k, graded=graded, normalise=normalise, pool=pool), abs=TOL)
        weights = [i + 1 for i in range(len(rows[0]))]
        assert nt.err_ia(rows, k, weights=weights, graded=graded) == pytest.approx(
            oracle(rows, k, weights, graded), abs=TOL)


# ---- Invariants ------------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None, derandomize=True)
@given(rows=tables, k=st.one_of(st.none(), st.integers(1, 9)), normalise=st.sampled_from(["none", "max"]))
def test_range(rows, k, normalise):
    assert 0.0 <= nt.err_ia(rows, k, normalise=normalise) <= 1.0


@settings(max_examples=200, deadline=None, derandomize=True)
@given(rows=tables, k=st.one_of(st.none(), st.integers(1, 9)), normalise=st.sampled_from(["none", "max", "ideal"]))
def test_explain_equals_plain_equals_batch(rows, k, normalise):
    trace = nt.explain_err_ia(rows, k, normalise=normalise)
    assert trace.value == nt.err_ia(rows, k, normalise=normalise)
    if trace.rows:
        assert trace.rows[-1].running == pytest.approx(sum(row.contribution for row in trace.rows), abs=TOL)
    width = len(rows[0]) if rows else 1
    padded = np.zeros((2, max(len(rows), 1), width))
    padded[0, :len(rows)] = rows if rows else 0.0
    padded[1, :1] = 2.0
    batch = Query(padded.max(axis=2), np.array([len(rows), 1]), subtopics=padded)
    assert route("err_ia", batch, normalise=normalise, graded=True) == "batch"
    values = call("err_ia", batch, k, normalise=normalise)
    assert values[0] == trace.value and values[1] == nt.err_ia([[2.0] * width], k, normalise=normalise)


def test_the_trace_shows_each_intents_stop_chance():
    trace = nt.explain_err_ia([[1, 0], [1, 1]], ranking=["a", "b"])
    first, second = trace.rows
    assert (first.item, first.subtopics, first.stops, first.gain, first.discount) == ("a", "1", "1: 0.5", 0.25, 1.0)
    assert (second.subtopics, second.stops, second.gain) == ("1, 2", "1: 0.25, 2: 0.5", 0.5 * 0.25 + 0.5 * 0.5)
    assert second.running == trace.value
    assert "intent weights 1: 0.5, 2: 0.5" in trace.notes


def test_nothing_relevant_scores_zero():
    assert nt.err_ia([]) == 0.0 and nt.err_ia([[0, 0]], normalise="max") == 0.0
    assert nt.err_ia([[0, 0]], normalise="ideal") == 0.0 and nt.explain_err_ia([]).rows == ()


# ---- Bad inputs ------------------------------------------------------------------------------------

@pytest.mark.parametrize("function", [nt.err_ia, nt.explain_err_ia])
def test_bad_inputs_are_refused(function):
    with pytest.raises(ValueError, match=r"judgements must be 2-D: one row per ranked item, one column per subtopic"):
        function([1, 0])
    with pytest.raises(ValueError, match=r"weights must be None or one non-negative number per subtopic \(2\), not all "
                                         r"0: each intent's share of the readers\. Got \[1, -1\] instead\."):
        function([[1, 0]], weights=[1, -1])
    with pytest.raises(ValueError, match=r"weights must be None or one non-negative number per subtopic \(2\).*Got "
                                         r"\[1\] instead\."):
        function([[1, 0]], weights=[1])
    with pytest.raises(ValueError, match=r"normalise must be one of 'none', 'max', 'ideal'\. Got 'ndeval' instead\."):
        function([[1, 0]], normalise="ndeval")
    with pytest.raises(ValueError, match=r"max_grade must be a finite number at least the largest grade in relevances "
                                         r"\(3\): the top of the grading scale\. Got 2 instead\."):
        function([[3, 0]], max_grade=2)
    with pytest.raises(TypeError, match=r"graded must be True or False"):
        function([[3, 0]], graded="yes")
    assert math.isfinite(function([[1, 0]], max_grade=1000) if function is nt.err_ia else 0.0)


def test_mean_over_queries_is_the_average_of_the_function():
    tables_ = [[[1, 0], [1, 0], [0, 1]], [[2], [0]], [], [[0, 1, 3], [1, 0, 0]]]
    for conventions in ({}, {"graded": False, "normalise": "max"}, {"normalise": "ideal"}):
        assert nt.mean("err_ia", tables_, 3, **conventions) == pytest.approx(
            np.mean([nt.err_ia(t, 3, **conventions) for t in tables_]), abs=TOL)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(rows=tables, k=st.one_of(st.none(), st.integers(1, 9)), graded=st.booleans(),
       normalise=st.sampled_from(["none", "max", "ideal"]))
def test_a_threshold_reads_lower_grades_as_not_relevant(rows, k, graded, normalise):
    below = [[g if g >= 2 else 0 for g in row] for row in rows]
    assert nt.err_ia(rows, k, graded=graded, normalise=normalise, threshold=2) == nt.err_ia(
        below, k, graded=graded, normalise=normalise)
