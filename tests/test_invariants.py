"""Invariants every metric must keep, checked by hypothesis on generated rankings.

Each property is a fact a learner can state without computing anything
(NDCG lies in [0, 1], the ideal order scores 1, promoting a better item never
hurts DCG, ...). hypothesis searches for a ranking that breaks one.
"""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ndcg_teach as nt

# Derandomised so that a CI run is reproducible; 120 examples keep the file near ten seconds.
invariant = settings(max_examples=120, deadline=None, derandomize=True)

EPS = 1e-12

integer_grades = st.lists(st.integers(0, 5).map(float), min_size=1, max_size=12)
float_grades = st.lists(st.floats(0, 5, allow_nan=False, allow_infinity=False).map(lambda g: round(g, 3)), min_size=1, max_size=12)
grades = st.one_of(integer_grades, float_grades)
binary_grades = st.lists(st.integers(0, 1).map(float), min_size=1, max_size=12)
cutoffs = st.one_of(st.none(), st.integers(1, 15))
gains = st.sampled_from(["linear", "exponential"])
discounts = st.sampled_from(["log2", "jarvelin"])
log_bases = st.one_of(st.just(2), st.just(math.e), st.just(10), st.floats(1.1, 20))
thresholds = st.sampled_from([1, 2, 3, 0.5, 2.5])


@st.composite
def list_and_pool(draw):
    """A ranked list and a pool holding its grades plus judged items never retrieved."""
    relevances = draw(grades)
    unretrieved = draw(st.lists(st.integers(0, 5).map(float), max_size=6))
    return relevances, relevances + unretrieved


def at_most(value, bound):
    return value <= bound + EPS * max(1.0, abs(bound))


@invariant
@given(list_and_pool(), cutoffs, gains, discounts, log_bases, st.booleans())
def test_ndcg_lies_between_zero_and_one(case, k, gain, discount, log_base, with_pool):
    relevances, pool = case
    value = nt.ndcg(relevances, k=k, gain=gain, discount=discount, log_base=log_base, pool=pool if with_pool else None)
    assert 0.0 <= value <= 1.0 + EPS


@invariant
@given(grades, cutoffs, gains, discounts, log_bases)
def test_the_ideal_order_scores_one(relevances, k, gain, discount, log_base):
    assume(max(relevances) > 0)
    ideal = sorted(relevances, reverse=True)
    assert nt.ndcg(ideal, k=k, gain=gain, discount=discount, log_base=log_base) == pytest.approx(1.0, abs=EPS)
    assert nt.ndcg(ideal, k=k, gain=gain, discount=discount, log_base=log_base, pool=relevances) == pytest.approx(1.0, abs=EPS)


@invariant
@given(grades, cutoffs, gains, discounts, log_bases, st.data())
def test_moving_a_more_relevant_item_up_never_lowers_dcg(relevances, k, gain, discount, log_base, data):
    assume(len(relevances) >= 2)
    i, j = sorted(data.draw(st.lists(st.integers(0, len(relevances) - 1), min_size=2, max_size=2, unique=True)))
    assume(relevances[j] > relevances[i])
    promoted = list(relevances)
    promoted[i], promoted[j] = promoted[j], promoted[i]
    before = nt.dcg(relevances, k=k, gain=gain, discount=discount, log_base=log_base)
    after = nt.dcg(promoted, k=k, gain=gain, discount=discount, log_base=log_base)
    assert at_most(before, after)


@invariant
@given(list_and_pool(), cutoffs, gains, log_bases)
def test_log_base_scales_dcg_and_leaves_ndcg_alone(case, k, gain, log_base):
    relevances, pool = case
    base_two = nt.dcg(relevances, k=k, gain=gain)
    scaled = nt.dcg(relevances, k=k, gain=gain, log_base=log_base)
    assert scaled == pytest.approx(base_two * math.log(log_base) / math.log(2), rel=1e-12, abs=EPS)
    for chosen_pool in (None, pool):
        assert nt.ndcg(relevances, k=k, gain=gain, log_base=log_base, pool=chosen_pool) == pytest.approx(
            nt.ndcg(relevances, k=k, gain=gain, pool=chosen_pool), abs=EPS
        )


@invariant
@given(binary_grades, cutoffs, discounts)
def test_exponential_gain_equals_linear_gain_on_zero_one_grades(relevances, k, discount):
    assert nt.dcg(relevances, k=k, gain="exponential", discount=discount) == nt.dcg(relevances, k=k, discount=discount)
    assert nt.ndcg(relevances, k=k, gain="exponential", discount=discount) == nt.ndcg(relevances, k=k, discount=discount)


@invariant
@given(grades, st.randoms(use_true_random=False))
def test_cg_ignores_order(relevances, random):
    shuffled = list(relevances)
    random.shuffle(shuffled)
    assert nt.cg(shuffled) == pytest.approx(nt.cg(relevances), rel=1e-12, abs=EPS)


@invariant
@given(grades, st.integers(1, 15), st.randoms(use_true_random=False))
def test_cg_at_k_ignores_order_within_the_top_k(relevances, k, random):
    top, rest = list(relevances[:k]), list(relevances[k:])
    random.shuffle(top)
    assert nt.cg(top + rest, k=k) == pytest.approx(nt.cg(relevances, k=k), rel=1e-12, abs=EPS)


@invariant
@given(grades, st.integers(1, 15), thresholds)
def test_precision_times_k_counts_the_hits(relevances, k, threshold):
    hits = sum(grade >= threshold for grade in relevances[:k])
    assert nt.precision_at_k(relevances, k, threshold=threshold) * k == pytest.approx(hits, abs=1e-9)
    shown = min(k, len(relevances))
    assert nt.precision_at_k(relevances, k, threshold=threshold, adaptive_k=True) * shown == pytest.approx(hits, abs=1e-9)


@invariant
@given(grades, cutoffs, thresholds, st.integers(0, 5))
def test_binary_metrics_lie_between_zero_and_one(relevances, k, threshold, unretrieved):
    found = sum(grade >= threshold for grade in relevances)
    in_top = sum(grade >= threshold for grade in relevances[:k])
    for n_relevant in (None, found + unretrieved):
        assert 0.0 <= nt.average_precision(relevances, k=k, threshold=threshold, n_relevant=n_relevant) <= 1.0 + EPS
    assert 0.0 <= nt.average_precision(relevances, k=k, threshold=threshold, n_relevant=in_top + unretrieved) <= 1.0 + EPS
    assert 0.0 <= nt.reciprocal_rank(relevances, k=k, threshold=threshold) <= 1.0
    cut = k or len(relevances)
    assert 0.0 <= nt.recall_at_k(relevances, cut, threshold=threshold, n_relevant=found + unretrieved) <= 1.0 + EPS
    assert 0.0 <= nt.precision_at_k(relevances, cut, threshold=threshold) <= 1.0


@invariant
@given(grades, cutoffs, thresholds, st.integers(1, 5))
def test_a_larger_ap_denominator_never_raises_ap(relevances, k, threshold, missed):
    found = sum(grade >= threshold for grade in relevances)
    by_hits = nt.average_precision(relevances, k=k, threshold=threshold)
    by_all = nt.average_precision(relevances, k=k, threshold=threshold, n_relevant=found + missed)
    assert at_most(by_all, by_hits)


@invariant
@given(list_and_pool(), cutoffs, gains, discounts)
def test_a_pool_beyond_the_list_never_raises_ndcg(case, k, gain, discount):
    relevances, pool = case
    with_pool = nt.ndcg(relevances, k=k, gain=gain, discount=discount, pool=pool)
    without = nt.ndcg(relevances, k=k, gain=gain, discount=discount)
    assert at_most(with_pool, without)
    assert nt.ndcg(relevances, k=k, gain=gain, discount=discount, pool=relevances) == without


@invariant
@given(grades, gains, discounts, st.integers(1, 14))
def test_dcg_never_falls_as_k_grows(relevances, gain, discount, k):
    assert at_most(nt.dcg(relevances, k=k, gain=gain, discount=discount), nt.dcg(relevances, k=k + 1, gain=gain, discount=discount))
    assert at_most(nt.dcg(relevances, k=k, gain=gain, discount=discount), nt.idcg(relevances, k=k, gain=gain, discount=discount))


@invariant
@given(grades, cutoffs, st.floats(0.1, 10))
def test_linear_ndcg_ignores_the_scale_of_the_grades(relevances, k, factor):
    scaled = [grade * factor for grade in relevances]
    assert nt.ndcg(scaled, k=k) == pytest.approx(nt.ndcg(relevances, k=k), abs=1e-9)


@invariant
@given(grades, st.integers(1, 15), thresholds)
def test_reciprocal_rank_is_one_over_the_first_relevant_position(relevances, k, threshold):
    positions = [i for i, grade in enumerate(relevances[:k], start=1) if grade >= threshold]
    assert nt.reciprocal_rank(relevances, k=k, threshold=threshold) == (1 / positions[0] if positions else 0.0)


@invariant
@given(list_and_pool(), cutoffs, gains, discounts, log_bases, thresholds, st.integers(0, 3))
def test_every_explain_value_equals_its_plain_function(case, k, gain, discount, log_base, threshold, unretrieved):
    relevances, pool = case
    shape = dict(k=k, gain=gain, discount=discount, log_base=log_base)
    assert nt.explain_cg(relevances, k=k).value == nt.cg(relevances, k=k)
    assert nt.explain_dcg(relevances, **shape).value == nt.dcg(relevances, **shape)
    for chosen_pool in (None, pool):
        assert nt.explain_idcg(relevances, pool=chosen_pool, **shape).value == nt.idcg(relevances, pool=chosen_pool, **shape)
        assert nt.explain_ndcg(relevances, pool=chosen_pool, **shape).value == nt.ndcg(relevances, pool=chosen_pool, **shape)
    cut = k or len(relevances)
    n_relevant = sum(grade >= threshold for grade in relevances) + unretrieved
    for adaptive_k in (False, True):
        assert nt.explain_precision_at_k(relevances, cut, threshold=threshold, adaptive_k=adaptive_k).value == nt.precision_at_k(
            relevances, cut, threshold=threshold, adaptive_k=adaptive_k
        )
    for n in (None, n_relevant):
        assert nt.explain_recall_at_k(relevances, cut, threshold=threshold, n_relevant=n).value == nt.recall_at_k(
            relevances, cut, threshold=threshold, n_relevant=n
        )
        assert nt.explain_average_precision(relevances, k=k, threshold=threshold, n_relevant=n).value == nt.average_precision(
            relevances, k=k, threshold=threshold, n_relevant=n
        )
    assert nt.explain_reciprocal_rank(relevances, k=k, threshold=threshold).value == nt.reciprocal_rank(relevances, k=k, threshold=threshold)


@invariant
@given(st.lists(grades, min_size=1, max_size=5), cutoffs)
def test_means_are_plain_means_of_the_per_query_values(queries, k):
    assert nt.mean_ndcg(queries, k=k) == pytest.approx(np.mean([nt.ndcg(q, k=k) for q in queries]), abs=EPS)
    assert nt.mean_average_precision(queries, k=k) == pytest.approx(np.mean([nt.average_precision(q, k=k) for q in queries]), abs=EPS)
    assert nt.mean_reciprocal_rank(queries, k=k) == pytest.approx(np.mean([nt.reciprocal_rank(q, k=k) for q in queries]), abs=EPS)


@st.composite
def grades_and_scores(draw, tied):
    true = draw(st.lists(st.integers(0, 4).map(float), min_size=1, max_size=10))
    levels = st.integers(0, 3) if tied else st.integers(-1000, 1000)
    score = draw(st.lists(levels.map(float), min_size=len(true), max_size=len(true), unique=not tied))
    return true, score


@invariant
@given(grades_and_scores(tied=True), cutoffs, gains)
def test_tie_policies_are_ordered_pessimistic_average_optimistic(case, k, gain):
    true, score = case
    low, mid, high = (nt.ndcg_score(true, score, k=k, gain=gain, ties=ties) for ties in ("pessimistic", "average", "optimistic"))
    stable = nt.ndcg_score(true, score, k=k, gain=gain, ties="stable")
    assert at_most(low, mid) and at_most(mid, high)
    assert at_most(low, stable) and at_most(stable, high)


@invariant
@given(grades_and_scores(tied=False), cutoffs, gains)
def test_without_ties_every_policy_is_the_ndcg_of_the_sorted_list(case, k, gain):
    true, score = case
    ranked = [grade for _, grade in sorted(zip(score, true), reverse=True)]
    expected = nt.ndcg(ranked, k=k, gain=gain)
    for ties in ("average", "optimistic", "pessimistic", "stable"):
        assert nt.ndcg_score(true, score, k=k, gain=gain, ties=ties) == pytest.approx(expected, abs=EPS)
