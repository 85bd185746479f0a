"""ERR and RBP: worked examples, an independent exact oracle for each, invariants and refusals.

The oracles are written here in another form than the library's, in exact
rational arithmetic (``fractions.Fraction``):

* ERR as the expected reciprocal rank of the stopping position, each stop
  probability the difference of two survival probabilities
  ``S(i-1) - S(i)`` with ``S(i) = prod_{j<=i} (1 - R_j)``;
* RBP by Horner's rule from the bottom of the list (``v = rel_i + p v``);
* the residual as "the best RBP the ranking could still reach" (every
  unjudged item relevant and every position below the depth relevant, to
  infinity) minus RBP.
"""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt

TOL = 1e-12
CASES = 3000


def err_oracle(grades, k, max_grade):
    top = max(grades, default=0) if max_grade is None else max_grade
    shown = grades[:k]
    stop = [Fraction(2**g - 1, 2**top) for g in shown]
    survival = [Fraction(1)]
    for r in stop:
        survival.append(survival[-1] * (1 - r))
    return float(sum((survival[i] - survival[i + 1]) / (i + 1) for i in range(len(shown))))


def rbp_oracle(relevances, k, p, threshold):
    shown = relevances[:k]
    depth = len(relevances) if k is None else k
    p = Fraction(p)
    value = best = Fraction(0)
    for grade in reversed(shown):
        value = (1 if grade is not None and grade >= threshold else 0) + p * value
        best = (1 if grade is None or grade >= threshold else 0) + p * best
    rbp = (1 - p) * value
    # Positions past the end of a list shorter than k hold nothing; every position below the depth could be relevant.
    reachable = (1 - p) * best + p**depth
    return float(rbp), float(reachable - rbp)


def test_err_and_rbp_against_their_oracles_on_random_lists():
    rng = np.random.default_rng(20261125)
    checked = 0
    for _ in range(CASES):
        n = int(rng.integers(0, 12))
        grades = rng.integers(0, 5, size=n).tolist()
        k = None if rng.random() < 0.3 else int(rng.integers(1, 15))
        max_grade = None if rng.random() < 0.5 else max(grades, default=0) + int(rng.integers(0, 3))
        assert nt.expected_reciprocal_rank(grades, k, max_grade=max_grade) == pytest.approx(
            err_oracle(grades, k, max_grade), abs=TOL)
        relevances = [None if rng.random() < 0.25 else g for g in grades]
        p = float(rng.choice([0.5, 0.8, 0.95, rng.uniform(0.01, 0.99)]))
        threshold = int(rng.integers(1, 4))
        rbp, residual = rbp_oracle(relevances, k, p, threshold)
        assert nt.rank_biased_precision(relevances, k, p=p, threshold=threshold) == pytest.approx(rbp, abs=TOL)
        assert nt.rbp_residual(relevances, k, p=p, threshold=threshold) == pytest.approx(residual, abs=TOL)
        checked += 1
    assert checked == CASES  # 3000 lists, 3 values each: 9000 oracle comparisons


def test_gdeval_scale_matches_the_published_formula():
    # gdeval.pl: r = (2**g - 1) / 2**4, score += r * decay / rank, decay *= 1 - r.
    grades = [3, 4, 0, 2, 1]
    score, decay = 0.0, 1.0
    for rank, g in enumerate(grades, start=1):
        r = (2**g - 1) / 16
        score, decay = score + r * decay / rank, decay * (1 - r)
    assert nt.expected_reciprocal_rank(grades, max_grade=4) == pytest.approx(score, abs=TOL)


def test_err_worked_examples():
    # Two items of the top grade 1: the first stops half the readers (1/2 * 1), the second the other half at rank 2.
    assert nt.expected_reciprocal_rank([1, 1]) == 0.5 + 0.5 * 0.5 / 2
    assert nt.expected_reciprocal_rank([0, 0, 0]) == 0.0
    assert nt.expected_reciprocal_rank([]) == 0.0
    assert nt.expected_reciprocal_rank([3, 1], k=1) == 7 / 8


def test_rbp_worked_examples():
    # Moffat & Zobel: with p = 0.5 a reader sees about 2 items; relevant items at ranks 1 and 3.
    assert nt.rank_biased_precision([1, 0, 1], p=0.5) == 0.5 * (1 + 0.25)
    assert nt.rbp_residual([1, 0, 1], p=0.5) == 0.5**3
    assert nt.rank_biased_precision([1, 0, 1], k=2, p=0.5) == 0.5 and nt.rbp_residual([1, 0, 1], k=2, p=0.5) == 0.25
    # A list shorter than the depth: the missing positions are misses, below the depth everything is open.
    assert nt.rbp_residual([1], k=3, p=0.5) == 0.125
    assert nt.rank_biased_precision([]) == 0.0 and nt.rbp_residual([]) == 1.0


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    grades=st.lists(st.one_of(st.none(), st.integers(0, 4)), max_size=10),
    k=st.one_of(st.none(), st.integers(1, 12)),
    p=st.floats(0.01, 0.99),
    threshold=st.integers(1, 4),
)
def test_rbp_and_its_residual_stay_in_the_unit_interval(grades, k, p, threshold):
    rbp = nt.rank_biased_precision(grades, k, p=p, threshold=threshold)
    residual = nt.rbp_residual(grades, k, p=p, threshold=threshold)
    assert 0.0 <= rbp <= 1.0 and 0.0 <= residual <= 1.0
    assert rbp + residual <= 1.0 + TOL
    # Judging an unjudged item relevant raises RBP by at most the residual, and leaves RBP + residual.
    if None in grades[:k]:
        judged = [threshold if g is None else g for g in grades]
        assert nt.rank_biased_precision(judged, k, p=p, threshold=threshold) <= rbp + residual + TOL


@settings(max_examples=300, deadline=None, derandomize=True)
@given(grades=st.lists(st.integers(0, 4), max_size=7), k=st.one_of(st.none(), st.integers(1, 8)),
       extra=st.integers(0, 3))
def test_err_lies_in_the_unit_interval_and_the_best_order_is_by_grade(grades, k, extra):
    top = max(grades, default=0) + extra
    value = nt.expected_reciprocal_rank(grades, k, max_grade=top)
    assert 0.0 <= value < 1.0
    best = nt.expected_reciprocal_rank(sorted(grades, reverse=True), k, max_grade=top)
    if len(grades) <= 6:
        assert all(nt.expected_reciprocal_rank(list(order), k, max_grade=top) <= best + TOL
                   for order in set(itertools.permutations(grades)))


def test_err_trace_rows_hold_stop_reach_and_contribution():
    trace = nt.explain_expected_reciprocal_rank([3, 1, 0, 2], k=3, ranking=list("ABCD"))
    assert [row.item for row in trace.rows] == ["A", "B", "C"]
    stop = [7 / 8, 1 / 8, 0.0]
    assert [row.stop for row in trace.rows] == stop
    assert [row.reach for row in trace.rows] == [1.0, 1 / 8, 1 / 8 * 7 / 8]
    assert [row.contribution for row in trace.rows] == pytest.approx(
        [row.stop * row.reach / row.position for row in trace.rows], abs=1e-15)
    assert trace.rows[-1].running == trace.value == nt.expected_reciprocal_rank([3, 1, 0, 2], k=3)
    assert "stop probability" in trace.table() and "P(reach i)" in trace.table()
    assert "(2^grade - 1) / 2^3 (max_grade: the largest grade given)" in trace.notes[0]
    assert "max_grade)" in nt.explain_expected_reciprocal_rank([1], max_grade=4).notes[0]


def test_rbp_trace_rows_weights_and_the_residual_part():
    trace = nt.explain_rank_biased_precision([1, None, 0, 2], p=0.5, ranking=list("ABCD"))
    assert [row.weight for row in trace.rows] == [1.0, 0.5, 0.25, 0.125]
    assert [row.judged for row in trace.rows] == [True, False, True, True]
    assert [row.contribution for row in trace.rows] == [0.5, 0.0, 0.0, 0.0625]
    assert [row.residual for row in trace.rows] == [0.0, 0.25, 0.0, 0.0]
    assert trace.rows[1].grade is None and trace.value == trace.rows[-1].running == 0.5625
    residual = trace.parts["residual"]
    assert residual.value == nt.rbp_residual([1, None, 0, 2], p=0.5) == 0.25 + 0.5**4
    assert trace.formula.splitlines() == [
        "RBP = (1 - 0.5) * (0.5^0 + 0.5^3) = 0.5 * 1.1250 = 0.5625",
        "residual = (1 - 0.5) * (0.5^1) + 0.5^4 = 0.2500 + 0.0625 = 0.3125  (unjudged items, then every position below 4)",
    ]
    assert "p^(i-1)" in trace.table() and "judged" in trace.table()
    assert "<table>" in trace._repr_html_()


@pytest.mark.parametrize("p", [0, 1, -0.2, 1.5])
def test_rbp_persistence_must_lie_strictly_between_0_and_1(p):
    for function in (nt.rank_biased_precision, nt.rbp_residual, nt.explain_rank_biased_precision):
        with pytest.raises(ValueError, match=rf"p must be a number strictly between 0 and 1: the chance the reader goes "
                                             rf"on from one item to the next\. Got {p} instead\."):
            function([1, 0], p=p)


@pytest.mark.parametrize("p", ["0.8", None, True])
def test_rbp_persistence_must_be_a_number(p):
    with pytest.raises(TypeError, match=r"p must be a number strictly between 0 and 1"):
        nt.rank_biased_precision([1, 0], p=p)


@pytest.mark.parametrize("max_grade, error", [(2, ValueError), (-1, ValueError), (float("inf"), ValueError),
                                              ("4", TypeError)])
def test_err_max_grade_must_reach_every_grade(max_grade, error):
    with pytest.raises(error, match=r"max_grade must be a finite number at least the largest grade in relevances \(3\): "
                                    r"the top of the grading scale"):
        nt.expected_reciprocal_rank([3, 1], max_grade=max_grade)


def test_err_refuses_unjudged_items_and_says_what_to_do():
    with pytest.raises(TypeError, match=r"None marks an unjudged item, which only bpref, rank_biased_precision and "
                                        r"rbp_residual accept: drop unjudged items with condensed\(relevances\)"):
        nt.expected_reciprocal_rank([3, None, 1])
