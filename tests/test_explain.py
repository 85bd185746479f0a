"""explain_*: the value equals the plain function, and the steps add up to it."""

import dataclasses

import pytest

import ndcg_teach as nt

# Conventions to exercise; every registered metric takes the ones it accepts (pool, threshold, n_relevant, ...).
CHOICES = [
    {"k": None, "gain": "exponential", "threshold": 3},
    {"k": 3, "discount": "jarvelin", "pool": [5, 4, 3, 2, 1, 0], "threshold": 2, "n_relevant": 5},
    {"k": 4, "log_base": 10, "zero_idcg": 1.0, "threshold": 5, "adaptive_k": True},
]
CASES = [
    pytest.param(spec.explain, spec.function, {"k": choice["k"], **spec.accepted(choice)}, id=f"{spec.key}-{n}")
    for spec in nt.metrics() if spec.explain is not None and "subtopics" not in spec.needs  # tables: test_diversity.py
    for n, choice in enumerate(CHOICES)
]

@pytest.mark.parametrize("explain, plain, keywords", CASES)
def test_value_equals_the_plain_function_exactly(explain, plain, keywords):
    grades = [1, 4, 0, 5, 3]
    assert explain(grades, **keywords).value == plain(grades, **keywords)


@pytest.mark.parametrize("explain, plain, keywords", CASES)
def test_last_running_total_is_the_value(explain, plain, keywords):
    trace = explain([1, 4, 0, 5, 3], **keywords)
    # A trace without a running column (P@k, R@k, F, success) has no running total to compare.
    last = trace.parts["dcg"].rows[-1].running if "dcg" in trace.parts else trace.rows[-1].get("running")
    if last is not None and trace.metric[0] != "N":
        assert last == trace.value


@pytest.mark.parametrize("explain, plain, keywords", CASES)
def test_traces_are_frozen(explain, plain, keywords):
    trace = explain([2, 1], **{k: v for k, v in keywords.items() if k != "pool"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        trace.value = 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        trace.rows[0].grade = 9
    with pytest.raises(TypeError):
        trace.parts["x"] = trace


def test_dcg_rows_hold_every_step():
    trace = nt.explain_dcg([5, 2, 3], ranking=["A", "B", "C"])
    first, second, third = trace.rows
    assert (first.position, first.item, first.grade, first.gain, first.discount) == (1, "A", 5.0, 5.0, 1.0)
    assert second.contribution == pytest.approx(2 / 1.5849625007211563, abs=1e-15)
    assert third.running == trace.value
    assert trace.formula == "DCG@3 = 5/log2(2) + 2/log2(3) + 3/log2(4) = 5.0000 + 1.2619 + 1.5000 = 7.7619"


def test_exponential_formula_shows_the_gain():
    assert nt.explain_dcg([3, 1], gain="exponential").formula == "DCG@2 = (2^3-1)/log2(2) + (2^1-1)/log2(3) = 7.0000 + 0.6309 = 7.6309"


def test_ndcg_trace_shows_the_ideal_side_by_side():
    trace = nt.explain_ndcg([4, 5, 2, 3, 1], ranking=list("BADCE"), gain="exponential")
    assert trace.ideal_items == ("A", "B", "C", "D", "E")
    assert [row.ideal_item for row in trace.rows] == list("ABCDE")
    assert trace.rows[-1].ideal_running == trace.parts["idcg"].value
    assert trace.rows[-1].running == trace.parts["dcg"].value
    assert trace.formula.splitlines()[-1] == "NDCG@5 = DCG@5 / IDCG@5 = 39.4604 / 45.6428 = 0.8645"


def test_ndcg_trace_with_a_pool_names_unretrieved_items():
    trace = nt.explain_ndcg([5, 2], k=4, pool=[5, 4, 3, 2, 0], ranking=["A", "B"])
    assert [row.item for row in trace.rows] == ["A", "B", None, None]
    assert trace.ideal_items == ("A", "(not retrieved)", "(not retrieved)", "B")
    assert "positions 3-4 are beyond the list and add 0" in trace.formula


def test_ndcg_trace_when_idcg_is_zero():
    trace = nt.explain_ndcg([0, 0], zero_idcg=1.0)
    assert trace.value == 1.0
    assert "IDCG@2 = 0 (nothing relevant to find), so NDCG takes zero_idcg = 1.0" in trace.formula


def test_precision_rows_mark_relevant_items():
    trace = nt.explain_precision_at_k([4, 5, 2, 3, 1], 5, threshold=3)
    assert [row.relevant for row in trace.rows] == [True, True, False, True, False]
    assert [row.hits for row in trace.rows] == [1, 2, 2, 3, 3]
    assert trace.formula == "P@5 = (relevant in the top 5) / 5 = 3 / 5 = 0.6000"
    assert "relevant means grade >= 3" in trace.notes


def test_average_precision_formula_lists_the_precisions_it_averages():
    trace = nt.explain_average_precision([1, 0, 1, 1], n_relevant=4)
    assert trace.formula == "AP = (P@1 + P@3 + P@4) / 4 = (1.0000 + 0.6667 + 0.7500) / 4 = 0.6042"


def test_reciprocal_rank_without_relevant_item():
    assert nt.explain_reciprocal_rank([0, 0], k=2).formula == "RR@2 = 0 (no relevant item in the list top 2)"


def test_recall_notes_say_where_the_total_comes_from():
    trace = nt.explain_recall_at_k([0, 0], 1)
    assert trace.value == 0.0
    assert "the query has no relevant item: recall is 0.0 by convention" in trace.notes


def test_default_labels_are_positions_in_the_given_list():
    assert nt.explain_idcg([1, 3, 2]).ideal_items == ("#2", "#3", "#1")


def test_explain_validates_like_the_plain_function():
    with pytest.raises(ValueError, match=r"gain must be one of 'linear', 'exponential'\. Got 'exp' instead\."):
        nt.explain_ndcg([1, 2], gain="exp")
    with pytest.raises(ValueError, match=r"discount must be one of 'log2', 'jarvelin'\. Got 'ln' instead\."):
        nt.explain_dcg([1, 2], discount="ln")
