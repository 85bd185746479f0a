"""Q-measure (Sakai 2004, 2007): golden examples worked by hand from the definition, NTCIREVAL's published sample,
an oracle written here as a plain loop from the paper, its invariants, and every way of reaching it."""

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt
from ndcg_teach.core.context import Query
from ndcg_teach.core.metrics.q_measure import q_measure_batch


def oracle(grades, k=None, *, beta=1.0, pool=None, n_relevant=None, threshold=1):
    """Q-measure as Sakai defines it, one rank at a time (no arrays, no shared code with the package).

    ``Q = (1/R) sum_r I(r) (C(r) + beta cg(r)) / (r + beta cg*(r))``: ``I(r)`` 1 for a relevant item, ``C(r)`` the
    relevant items in the top r, ``g(r)`` the gain (the grade of a relevant item, else 0), ``cg`` its running sum,
    ``cg*`` the running sum of the ideal list (the R relevant items sorted by grade, then nothing). ``Q@k`` sums the
    top k and divides by ``min(k, R)`` (NTCIREVAL).
    """
    judged = grades if pool is None else pool
    ideal = sorted((grade for grade in judged if grade >= threshold), reverse=True)
    relevant_total = len(ideal) if n_relevant is None else n_relevant
    depth = len(grades) if k is None else min(k, len(grades))
    hits, gain_sum, ideal_sum, total = 0, 0.0, 0.0, 0.0
    for rank in range(1, depth + 1):
        grade = grades[rank - 1]
        if rank <= len(ideal):
            ideal_sum += ideal[rank - 1]
        if grade >= threshold:
            hits += 1
            gain_sum += grade
            total += (hits + beta * gain_sum) / (rank + beta * ideal_sum)
    denominator = relevant_total if k is None else min(k, relevant_total)
    return total / denominator if denominator else 0.0


# NTCIREVAL's README sample (sample.rel, sample.res, gains -g 1:2:3): the run's levels L0, L3, unjudged, L2; ten
# relevant items judged (three L3, three L2, four L1). ntcir_eval prints Q-measure= 0.0967, Q@1000= 0.0967,
# AP= 0.1000, and with -cutoffs 2: Q@0002= 0.2500, AP@0002= 0.2500.
SAMPLE = [0, 3, 0, 2]
SAMPLE_POOL = [3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 0]


# ---- golden examples, worked by hand ---------------------------------------------------------------------------

def test_ntcirevals_published_sample():
    # BR(2) = (1 + 3) / (2 + 6) = 1/2; BR(4) = (2 + 5) / (4 + 11) = 7/15; Q = (1/2 + 7/15) / 10 = 29/300.
    assert nt.q_measure(SAMPLE, pool=SAMPLE_POOL) == pytest.approx(29 / 300, abs=1e-15)
    assert round(nt.q_measure(SAMPLE, 1000, pool=SAMPLE_POOL), 4) == 0.0967
    assert nt.q_measure(SAMPLE, 2, pool=SAMPLE_POOL) == 0.25  # BR(2) / min(2, 10)
    assert nt.q_measure(SAMPLE, pool=SAMPLE_POOL, beta=0) == pytest.approx(0.1, abs=1e-15)  # AP= 0.1000


def test_the_sample_through_evaluate_as_ntcireval_reads_it():
    qrels = {"q": {f"dummy{i:02d}": grade for i, grade in enumerate(SAMPLE_POOL, start=1)}}
    run = {"q": {"dummy11": 4.0, "dummy01": 3.0, "dummy12": 2.0, "dummy04": 1.0}}  # dummy12 is unjudged
    result = nt.evaluate(qrels, run, ["Q", "Q@2", "Q@1000"])
    assert result["Q"] == pytest.approx(29 / 300, abs=1e-15) and result["Q@1000"] == result["Q"]
    assert result["Q@2"] == 0.25
    trace = result.explain("q", "Q")
    assert trace.value == result["Q"] and [row.item for row in trace.rows] == ["dummy11", "dummy01", "dummy12", "dummy04"]


@pytest.mark.parametrize(("grades", "keywords", "exact"), [
    ([3, 0, 1], {}, Fraction(1) / 2 + Fraction(6, 7) / 2),  # BR(1) = 4/4, BR(3) = (2 + 4)/(3 + 4)
    ([3, 0, 1], {"beta": 0.5}, Fraction(1 + Fraction(4, 5), 2)),  # BR(3) = (2 + 2)/(3 + 2)
    ([2, 1, 3], {"threshold": 2}, Fraction(Fraction(3, 4) + Fraction(7, 8), 2)),  # the grade 1 is neither hit nor gain
    ([1, 0, 1], {"n_relevant": 4}, Fraction(1 + Fraction(4, 5), 4)),  # two relevant items never found
    ([2, 0], {"k": 5, "pool": [2, 2]}, Fraction(1, 2)),  # Q@5 divides by min(5, R) = 2
    ([0, 2, 1], {"pool": [2, 1, 3]}, Fraction(Fraction(3, 7) + Fraction(5, 9), 3)),  # the ideal holds the missed 3
    ([], {}, Fraction(0)),
    ([0, 0], {}, Fraction(0)),  # R = 0
])
def test_golden_examples(grades, keywords, exact):
    keywords = dict(keywords)
    k = keywords.pop("k", None)
    assert nt.q_measure(grades, k, **keywords) == pytest.approx(float(exact), abs=1e-15)
    assert oracle(grades, k, **keywords) == pytest.approx(float(exact), abs=1e-15)


def test_the_trace_shows_each_step_of_the_definition():
    trace = nt.explain_q_measure(SAMPLE, pool=SAMPLE_POOL, ranking=["dummy11", "dummy01", "dummy12", "dummy04"])
    assert [row.ideal_cg for row in trace.rows] == [3, 6, 9, 11]
    assert [row.cg for row in trace.rows] == [0, 3, 3, 5] and [row.hits for row in trace.rows] == [0, 1, 1, 2]
    assert [row.blended for row in trace.rows][1::2] == [0.5, 7 / 15]
    assert [row.contribution for row in trace.rows] == [0, 0.05, 0, 7 / 150]
    assert trace.formula == "Q = (BR(2) + BR(4)) / 10 = (0.5000 + 0.4667) / 10 = 0.0967"
    assert "R = 10 relevant items in the query" in trace.notes
    assert nt.explain_q_measure(SAMPLE, 2, pool=SAMPLE_POOL).formula == "Q@2 = (BR(2)) / min(2, 10) = (0.5000) / 2 = 0.2500"
    assert nt.explain_q_measure([0, 0], 3).formula == "Q@3 = 0 (no relevant item in the list top 3)"


def test_a_chinese_trace_shows_the_same_numbers():
    english = nt.explain_q_measure([3, 0, 1])
    with nt.language_set("zh-CN"):
        chinese = nt.explain_q_measure([3, 0, 1])
    assert chinese.value == english.value and chinese.formula == english.formula
    assert "beta = 1；beta = 0 时即为 AP" in chinese.notes and "R = 2：该查询的相关条目总数" in chinese.notes
    assert chinese.table().startswith("i  条目  等级  相关  命中数") and chinese.to_rows() == english.to_rows()
    assert re.findall(r"\d+\.\d{4}", chinese.table()) == re.findall(r"\d+\.\d{4}", english.table())


# ---- the oracle and the invariants -------------------------------------------------------------------------------

grades_lists = st.lists(st.integers(0, 3), max_size=12)


@st.composite
def cases(draw):
    grades = draw(grades_lists)
    extra = draw(st.lists(st.integers(0, 3), max_size=6))
    pool = draw(st.sampled_from([None, [g for g in grades if g > 0] + extra]))
    threshold = draw(st.sampled_from([1, 2, 0.5]))
    counted = sum(g >= threshold for g in (grades if pool is None else pool))
    listed = sum(g >= threshold for g in grades)
    n_relevant = draw(st.sampled_from([None, listed, counted + 2]))
    k = draw(st.sampled_from([None, 1, 3, 20]))
    beta = draw(st.sampled_from([1.0, 0.0, 0.25, 4.0]))
    return grades, k, {"beta": beta, "pool": pool, "n_relevant": n_relevant, "threshold": threshold}


@settings(max_examples=300, deadline=None)
@given(cases())
def test_plain_explain_and_batch_agree_with_the_oracle(case):
    grades, k, keywords = case
    value = nt.q_measure(grades, k, **keywords)
    assert value == pytest.approx(oracle(grades, k, **keywords), abs=1e-12)
    assert nt.explain_q_measure(grades, k, **keywords).value == value
    assert 0.0 <= value <= 1.0 + 1e-15


def test_a_batch_through_the_registry_equals_the_plain_function():
    queries = [SAMPLE, [3, 0, 1], [], [2, 1, 3, 0, 2]]
    pools = [SAMPLE_POOL, [3, 1, 1, 0], [2], [3, 2, 2, 1, 0, 0]]
    batch = Query.from_lists(queries, pool=pools, threshold=2)
    for k in (None, 2, 9):
        for beta in (1.0, 0.0, 3.0):
            expected = [nt.q_measure(q, k, beta=beta, pool=p, threshold=2) for q, p in zip(queries, pools)]
            assert nt.core.registry.route("q_measure", batch, beta=beta) == "batch"
            np.testing.assert_allclose(nt.call("q_measure", batch, k, beta=beta), expected, rtol=0, atol=1e-15)
            assert [oracle(q, k, beta=beta, pool=p, threshold=2) for q, p in zip(queries, pools)] == pytest.approx(
                expected, abs=1e-12)


def test_beta_zero_is_ap_with_r_as_its_denominator():
    for grades, pool in [([3, 0, 1, 2], None), (SAMPLE, SAMPLE_POOL), ([0, 1, 0, 0, 2], [2, 2, 1, 1])]:
        relevant = sum(g >= 1 for g in (grades if pool is None else pool))
        ap, ap_at_3 = nt.average_precision(grades, n_relevant=relevant), nt.average_precision(grades, 3, n_relevant=min(3, relevant))
        assert nt.q_measure(grades, beta=0, pool=pool) == pytest.approx(ap, abs=1e-15)  # summed in another order
        assert nt.q_measure(grades, 3, beta=0, pool=pool) == pytest.approx(ap_at_3, abs=1e-15)


def test_as_beta_falls_q_approaches_ap():
    grades, pool = [0, 3, 0, 1, 2], [3, 2, 2, 1]
    ap = nt.average_precision(grades, n_relevant=4)
    gaps = [abs(nt.q_measure(grades, beta=beta, pool=pool) - ap) for beta in (1.0, 1e-2, 1e-4, 1e-8)]
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] < 1e-8 < gaps[0]


@given(st.lists(st.integers(0, 1), max_size=12), st.sampled_from([0.5, 1.0, 4.0]))
def test_on_binary_grades_q_is_ap_until_the_list_goes_past_r(grades, beta):
    # With gains of 1, cg = C and cg* = min(r, R): BR(r) = C(r)/r while r <= R, and above P@r after.
    relevant = sum(grades)
    q, ap = nt.q_measure(grades, beta=beta), nt.average_precision(grades, n_relevant=relevant)
    assert q >= ap - 1e-15
    if all(grades[:relevant]):
        assert q == pytest.approx(ap, abs=1e-15)


@given(st.lists(st.integers(0, 4), max_size=10), st.lists(st.integers(1, 4), max_size=4),
       st.sampled_from([None, 1, 4]), st.sampled_from([0.1, 1.0, 10.0]))
def test_the_ideal_ranking_scores_one(pool, missing, k, beta):
    ideal = sorted(pool, reverse=True)
    if any(g >= 1 for g in ideal):
        assert nt.q_measure(ideal, k, beta=beta) == pytest.approx(1.0, abs=1e-15)
    if missing:  # judged relevant items the list never retrieved keep it below 1
        assert nt.q_measure(ideal, beta=beta, pool=ideal + missing) < 1.0


def test_a_better_order_scores_higher():
    assert nt.q_measure([1, 3, 0]) < nt.q_measure([3, 1, 0])
    assert nt.q_measure([0, 2, 1], pool=[2, 1, 3]) < nt.q_measure([2, 0, 1], pool=[2, 1, 3])


# ---- every way of reaching it ----------------------------------------------------------------------------------

def test_its_names_and_a_convention_through_mean():
    # tests/test_contract.py checks that call, explain, mean, evaluate, the explorer and the command all reach it.
    assert [m.name for m in nt.runs.measures.parse_measures(["Q", "Q@10"])] == ["Q", "Q@10"]
    assert nt.metric("q_measure").title(5) == "Q@5" and nt.metric("q_measure").needs == ("pool", "n_relevant", "threshold")
    queries = [[3, 0, 1], [0, 2], []]
    assert nt.mean("q_measure", queries, beta=0.5) == pytest.approx(
        np.mean([nt.q_measure(q, beta=0.5) for q in queries]), abs=1e-15)


# ---- refusals name the parameter --------------------------------------------------------------------------------

@pytest.mark.parametrize(("keywords", "error", "message"), [
    ({"beta": -1}, ValueError, r"^beta must be a positive finite number: how much the graded gains weigh against the "
                               r"hits \(or exactly 0, which gives AP\)\. Got -1 instead\.$"),
    ({"beta": math.nan}, ValueError, r"^beta must be .* Got nan instead\.$"),
    ({"beta": math.inf}, ValueError, r"^beta must be .* Got inf instead\.$"),
    ({"beta": "1"}, TypeError, r"^beta must be .* Got '1' instead\.$"),
    ({"beta": True}, TypeError, r"^beta must be .* Got True instead\.$"),
    ({"k": 0}, ValueError, r"^k must be a positive integer"),
    ({"threshold": 0}, ValueError, r"^threshold must be a positive finite number"),
    ({"pool": [1]}, ValueError, r"^pool must hold the grades of every judged item .* grade 3 appears 1 time\(s\)"),
    ({"n_relevant": 1}, ValueError, r"^n_relevant must be at least the number of relevant items already in the list "
                                    r"\(2\)\. Got 1 instead\.$"),
    ({"n_relevant": 2.5}, TypeError, r"^n_relevant must be a non-negative integer"),
    ({"negative": "ignore"}, ValueError, r"^negative must be one of 'raise', 'zero'"),
])
def test_bad_input_is_refused_by_name(keywords, error, message):
    keywords = dict(keywords)
    k = keywords.pop("k", None)
    for function in (nt.q_measure, nt.explain_q_measure):
        with pytest.raises(error, match=message):
            function([3, 0, 1], k, **keywords)


def test_bad_grades_and_a_bad_beta_on_the_batch_path_are_refused_by_name():
    with pytest.raises(TypeError, match=r"^relevances must hold numbers"):
        nt.q_measure(["a", 1])
    with pytest.raises(ValueError, match=r"^relevances .*negative"):
        nt.q_measure([1, -1])
    batch = Query.from_lists([[3, 0], [1]])
    with pytest.raises(ValueError, match=r"^beta must be a positive finite number.* Got -0.5 instead\.$"):
        nt.call("q_measure", batch, beta=-0.5)
    with pytest.raises(ValueError, match=r"^query 2: n_relevant must be at least"):
        q_measure_batch(np.array([[3.0, 0.0], [1.0, 1.0]]), np.array([2, 2]), n_relevant=np.array([1, 1]))
