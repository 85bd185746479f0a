"""bpref and condensed lists: a brute-force oracle, invariants over unjudged items, the trace and refusals.

trec_eval checks bpref (and -J, its condensed lists) on random queries in test_oracle_trec_eval_unjudged.py.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt
from ndcg_teach.widgets.panel import DEFAULT_CARDS

TOL = 1e-12
judged_lists = st.lists(st.one_of(st.none(), st.integers(0, 3)), max_size=12)


def bpref_by_pairs(relevances, n_relevant, n_nonrelevant, threshold):
    """Buckley & Voorhees' definition, counted pair by pair: each relevant item and each of the first R judged non-relevant items above it."""
    if n_relevant == 0:
        return 0.0
    cap = min(n_relevant, n_nonrelevant)
    total = 0.0
    for i, grade in enumerate(relevances):
        if grade is None or grade < threshold:
            continue
        above = sum(1 for g in relevances[:i] if g is not None and g < threshold)
        total += 1.0 if above == 0 else 1 - min(above, n_relevant) / cap
    return total / n_relevant


def test_bpref_equals_the_pairwise_definition_on_random_lists():
    rng = np.random.default_rng(20261126)
    for _ in range(3000):
        relevances = [None if rng.random() < 0.3 else int(g) for g in rng.integers(0, 4, size=int(rng.integers(0, 14)))]
        threshold = int(rng.integers(1, 4))
        found_relevant = sum(g is not None and g >= threshold for g in relevances)
        found_nonrelevant = sum(g is not None and g < threshold for g in relevances)
        n_relevant, n_nonrelevant = found_relevant + int(rng.integers(0, 4)), found_nonrelevant + int(rng.integers(0, 4))
        ours = nt.bpref(relevances, n_relevant=n_relevant, n_nonrelevant=n_nonrelevant, threshold=threshold)
        assert ours == pytest.approx(bpref_by_pairs(relevances, n_relevant, n_nonrelevant, threshold), abs=TOL)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(relevances=judged_lists, where=st.lists(st.integers(0, 12), max_size=4), threshold=st.integers(1, 3))
def test_bpref_ignores_unjudged_items_wherever_they_are(relevances, where, threshold):
    padded = list(relevances)
    for position in where:
        padded.insert(min(position, len(padded)), None)
    keywords = dict(n_relevant=sum(g is not None and g >= threshold for g in relevances) + 1, threshold=threshold)
    assert nt.bpref(padded, **keywords) == nt.bpref(relevances, **keywords) == nt.bpref(nt.condensed(padded), **keywords)
    assert 0.0 <= nt.bpref(padded, **keywords) <= 1.0


@settings(max_examples=300, deadline=None, derandomize=True)
@given(relevances=judged_lists, k=st.one_of(st.none(), st.integers(1, 13)))
def test_condensed_lists_equal_every_metric_on_the_judged_items_alone(relevances, k):
    judged_only = [g for g in relevances if g is not None]
    assert nt.condensed(relevances) == judged_only
    for spec in (spec for spec in nt.metrics() if "subtopics" not in spec.needs):  # lists, not tables per subtopic
        assert spec.function(nt.condensed(relevances), k) == spec.function(judged_only, k), spec.key


def test_a_new_system_that_finds_unjudged_relevant_items_is_under_scored_unless_condensed():
    # Lesson 12's story: B retrieved two items nobody judged; read as not relevant they cost B its AP.
    b = [None, 1, None, 1, 0]
    assert nt.average_precision([0 if g is None else g for g in b], n_relevant=2) == (1 / 2 + 2 / 4) / 2
    assert nt.average_precision(nt.condensed(b), n_relevant=2) == 1.0
    assert nt.bpref(b, n_relevant=2, n_nonrelevant=1) == 1.0


def test_bpref_worked_examples():
    assert nt.bpref([1, 0, None, 1], n_relevant=3, n_nonrelevant=2) == 0.5
    assert nt.bpref([0, 1], n_relevant=1, n_nonrelevant=0 + 1) == 0.0  # its one non-relevant item is above it
    assert nt.bpref([1, 1], n_relevant=2, n_nonrelevant=0) == 1.0  # no judged non-relevant item: no 0 / 0
    assert nt.bpref([]) == 0.0 and nt.bpref([None, None]) == 0.0
    assert nt.bpref([0, 1, 1], k=2) == 0.0  # cut to [0, 1]: R = 2 (from the whole list), the one relevant is below 0


def test_bpref_trace_counts_the_non_relevant_items_above():
    trace = nt.explain_bpref([None, 1, 0, None, 0, 1, 1], n_relevant=4, ranking=list("ABCDEFG"))
    assert [row.nonrelevant_above for row in trace.rows] == [0, 0, 0, 1, 1, 2, 2]
    assert [row.judged for row in trace.rows] == [False, True, True, False, True, True, True]
    assert trace.rows[0].grade is None and trace.rows[-1].running == trace.value == 0.25
    assert trace.notes[1] == "R = 4 relevant, N = 2 judged non-relevant items"
    assert "non-relevant above" in trace.table()
    assert nt.explain_bpref([0, 0]).formula == "bpref = 0 (the query has no relevant item, R = 0)"
    assert nt.explain_bpref([0, 0, 1], k=2).formula == "bpref@2 = 0 (no judged relevant item in the top 2)"


def test_n_nonrelevant_is_checked():
    with pytest.raises(ValueError, match=r"n_nonrelevant must be a non-negative integer: how many judged non-relevant "
                                         r"items the query has in total, at least the judged non-relevant items already "
                                         r"in the list \(2\)\. Got 1 instead\."):
        nt.bpref([0, 1, 0], n_nonrelevant=1)
    with pytest.raises(TypeError, match=r"n_nonrelevant must be a non-negative integer.* Got 2\.5 instead\."):
        nt.bpref([0, 1], n_nonrelevant=2.5)


def test_condensed_checks_what_it_is_given():
    with pytest.raises(TypeError, match=r"relevances must hold numbers \(relevance grades\), not str"):
        nt.condensed([1, "x", None])
    with pytest.raises(TypeError, match=r"relevances must be a list or 1-D array of relevance grades\. Got None instead\."):
        nt.condensed(None)


def test_registry_entry():
    spec = nt.metric("bpref")
    assert spec.names == {"bpref": {}, "Bpref": {}} and spec.key not in DEFAULT_CARDS
    assert spec.keywords == ("n_relevant", "n_nonrelevant", "threshold", "negative")
