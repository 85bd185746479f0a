"""R-precision, F and success@k: worked examples, invariants that tie them to P@k, R@k and RR, and refusals.

trec_eval checks them on random queries in test_oracle_trec_eval_sets.py.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt
from ndcg_teach.widgets.panel import DEFAULT_CARDS

TOL = 1e-12
lists = st.lists(st.integers(0, 3), max_size=12)
cutoffs = st.one_of(st.none(), st.integers(1, 14))


def test_r_precision_worked_examples():
    assert nt.r_precision([1, 0, 1, 1, 0]) == 2 / 3
    assert nt.r_precision([1, 0, 1], n_relevant=5) == 2 / 5  # the missing positions 4 and 5 are misses
    assert nt.r_precision([0, 0]) == 0.0 and nt.r_precision([]) == 0.0
    assert nt.r_precision([1, 0, 1, 1], k=2) == 1 / 3  # a run cut to 2 items; R stays 3
    assert nt.r_precision([3, 1, 2], threshold=2) == 1 / 2


def test_f_measure_worked_examples():
    assert nt.f_measure([1, 0, 1, 0], k=2, n_relevant=4) == pytest.approx(1 / 3, abs=TOL)
    assert nt.f_measure([0, 0, 1], k=2) == 0.0
    assert nt.f_measure([]) == 0.0
    # beta = 2: (1 + 4) P R / (4 P + R) with P = 1/2, R = 1/4.
    assert nt.f_measure([1, 0, 1, 0], k=2, n_relevant=4, beta=2) == pytest.approx(5 * (1 / 8) / (2 + 1 / 4), abs=TOL)


def test_success_worked_examples():
    assert nt.success_at_k([0, 0, 2], k=3) == 1.0 and nt.success_at_k([0, 0, 2], k=2) == 0.0
    assert nt.success_at_k([0, 0, 2], k=5) == 1.0 and nt.success_at_k([]) == 0.0
    assert nt.success_at_k([0, 1], threshold=2) == 0.0


@settings(max_examples=400, deadline=None, derandomize=True)
@given(grades=lists, k=cutoffs, threshold=st.integers(1, 3), extra=st.integers(0, 3))
def test_r_precision_is_precision_and_recall_at_r(grades, k, threshold, extra):
    listed = grades if k is None else grades[:k]
    total = sum(g >= threshold for g in grades) + extra
    value = nt.r_precision(grades, k, n_relevant=total, threshold=threshold)
    if total == 0:
        assert value == 0.0
    else:
        assert value == pytest.approx(nt.precision_at_k(listed, total, threshold=threshold), abs=TOL)
        assert value == pytest.approx(nt.recall_at_k(listed, total, threshold=threshold, n_relevant=total), abs=TOL)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(grades=lists, k=cutoffs, threshold=st.integers(1, 3), extra=st.integers(0, 3),
       beta=st.floats(0.1, 10))
def test_f_lies_between_precision_and_recall_and_f1_is_their_harmonic_mean(grades, k, threshold, extra, beta):
    total = sum(g >= threshold for g in grades) + extra
    keywords = dict(threshold=threshold)
    p = nt.precision_at_k(grades, k, **keywords) if grades else 0.0
    r = nt.recall_at_k(grades, k, n_relevant=total, **keywords)
    f = nt.f_measure(grades, k, beta=beta, n_relevant=total, **keywords)
    assert min(p, r) - TOL <= f <= max(p, r) + TOL
    f1 = nt.f_measure(grades, k, n_relevant=total, **keywords)
    assert f1 == pytest.approx(2 * p * r / (p + r) if p + r else 0.0, abs=TOL)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(grades=lists, k=cutoffs, threshold=st.integers(1, 3))
def test_success_is_one_exactly_when_reciprocal_rank_is_positive(grades, k, threshold):
    rr = nt.reciprocal_rank(grades, k, threshold=threshold)
    assert nt.success_at_k(grades, k, threshold=threshold) == (1.0 if rr > 0 else 0.0)


def test_traces_show_the_top_r_and_the_precision_and_recall_behind_f():
    trace = nt.explain_r_precision([1, 0, 1], n_relevant=5, ranking=list("ABC"))
    assert [row.item for row in trace.rows] == ["A", "B", "C", None, None]
    assert trace.rows[-1].running == trace.value == 0.4
    assert trace.notes[-1] == "the list has 3 items; positions 4-5 count as misses"
    nothing = nt.explain_r_precision([0, 0])
    assert nothing.formula == "R-Prec = 0 (the query has no relevant item, R = 0)" and len(nothing.rows) == 2
    f = nt.explain_f_measure([1, 0, 1, 0, 0], k=3, n_relevant=4, beta=0.5)
    assert f.metric == "F0.5@3" and [row.recall for row in f.rows] == [0.25, 0.25, 0.5]
    assert f.formula.endswith("= 0.6250") and f.value == nt.f_measure([1, 0, 1, 0, 0], k=3, n_relevant=4, beta=0.5)
    assert nt.explain_f_measure([0, 0], k=2).formula == "F1@2 = 0 (no relevant item in the top 2: P = R = 0)"
    success = nt.explain_success_at_k([0, 2, 1], k=2)
    assert success.formula == "Success@2 = 1 (first relevant item at position 2)"
    assert nt.explain_success_at_k([0, 0]).formula == "Success = 0 (no relevant item in the list)"


@pytest.mark.parametrize("beta, error", [(0, ValueError), (-1, ValueError), (float("inf"), ValueError),
                                         (float("nan"), ValueError), ("2", TypeError), (True, TypeError)])
def test_beta_must_be_positive(beta, error):
    with pytest.raises(error, match=r"beta must be a positive finite number: how many times more recall matters than "
                                    r"precision \(1 weighs them equally\)\. Got .* instead\."):
        nt.f_measure([1, 0], beta=beta)


def test_n_relevant_cannot_be_below_what_the_list_holds():
    with pytest.raises(ValueError, match=r"n_relevant must be at least the number of relevant items already in the list "
                                         r"\(2\)\. Got 1 instead\."):
        nt.r_precision([1, 0, 1], n_relevant=1)


def test_registry_names_say_how_trec_eval_and_ir_measures_call_them():
    assert nt.metric("r_precision").names == {"Rprec": {}}
    assert nt.metric("success").names == {"success.{k}": {}, "Success@{k}": {}}
    assert nt.metric("f_measure").names == {"set_F": {}, "SetF": {}}
    assert not any(key in DEFAULT_CARDS for key in ("r_precision", "f_measure", "success"))
