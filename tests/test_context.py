"""The query context: one Query for one list or a batch, checked as the metrics check their input."""

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.core.context import FACTS, Query


def test_one_query_keeps_its_facts_checked():
    query = Query.of([3, 0, 2], pool=[3, 3, 2, 0], n_relevant=3, n_nonrelevant=1, threshold=2, ranking=["a", "b", "c"])
    assert query.grades.tolist() == [3.0, 0.0, 2.0] and query.pool.tolist() == [3.0, 3.0, 2.0, 0.0]
    assert (query.n_relevant, query.n_nonrelevant, query.threshold, query.ranking) == (3, 1, 2.0, ("a", "b", "c"))
    assert not query.batch and len(query) == 1 and query.lengths is None and query.judged is None


def test_unjudged_items_and_negative_grades_are_read_as_the_metrics_read_them():
    assert Query.of([2, None, 1], unjudged=True).judged.tolist() == [True, False, True]
    assert Query.of([2, 1], unjudged=True).judged is None  # every item judged: no mask
    assert Query.of([2, -1], negative="zero").grades.tolist() == [2.0, 0.0]
    with pytest.raises(TypeError, match=r"relevances must hold numbers \(relevance grades\); None marks an unjudged item"):
        Query.of([2, None])
    with pytest.raises(ValueError, match=r"relevances must be non-negative grades; position 2 holds -1\."):
        Query.of([2, -1])


def test_the_refusals_are_the_metrics_own():
    for build, call in [
        (lambda: Query.of([1, 2], pool=[1]), lambda: nt.ndcg([1, 2], pool=[1])),
        (lambda: Query.of([1], n_relevant=-1), lambda: nt.recall_at_k([1], n_relevant=-1)),
        (lambda: Query.of([1], threshold=0), lambda: nt.precision_at_k([1], threshold=0)),
        (lambda: Query.of([1, 2], ranking=["a"]), lambda: nt.explain_cg([1, 2], ranking=["a"])),
    ]:
        with pytest.raises((TypeError, ValueError)) as ours:
            build()
        with pytest.raises((TypeError, ValueError)) as theirs:
            call()
        assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))


def test_a_batch_pads_each_list_and_each_pool_with_zeros():
    batch = Query.from_lists([[2, 1], [], [3]], pool=[[2, 1, 1], [1], [3]], n_relevant=[3, 1, 1])
    assert batch.grades.tolist() == [[2.0, 1.0], [0.0, 0.0], [3.0, 0.0]]
    assert batch.lengths.tolist() == [2, 0, 1] and batch.pool_lengths.tolist() == [3, 1, 1]
    assert batch.pool.tolist() == [[2.0, 1.0, 1.0], [1.0, 0.0, 0.0], [3.0, 0.0, 0.0]]
    assert batch.batch and len(batch) == 3 and batch.n_relevant.tolist() == [3, 1, 1]
    second = batch.row(1)
    assert second.grades.tolist() == [] and second.pool.tolist() == [1.0] and second.n_relevant == 1
    assert batch.row(0).pool.tolist() == [2.0, 1.0, 1.0]


def test_a_pool_with_zeros_keeps_them_in_each_row():
    # A gain map may give grade 0 a gain: the pool's zeros are judged items, not padding.
    batch = Query.from_lists([[1], [1, 0]], pool=[[1, 0, 0], [1, 0]])
    assert batch.row(0).pool.tolist() == [1.0, 0.0, 0.0] and batch.row(1).pool.tolist() == [1.0, 0.0]
    gains = {0: 1, 1: 4}
    expected = [nt.ndcg([1], gain=gains, pool=[1, 0, 0]), nt.ndcg([1, 0], gain=gains, pool=[1, 0])]
    assert nt.call("ndcg", batch, gain=gains).tolist() == expected


def test_batch_errors_name_the_query():
    with pytest.raises(ValueError, match=r"^query 2: relevances must be non-negative grades; position 1 holds -1\."):
        Query.from_lists([[1], [-1, 2]])
    with pytest.raises(TypeError, match=r"query 2 is a single number"):
        Query.from_lists([[1], 3])
    with pytest.raises(ValueError, match=r"n_relevant must hold one value per query \(2\)\. Got 1 values instead\."):
        Query.from_lists([[1], [2]], n_relevant=[1])
    with pytest.raises(ValueError, match=r"pool must be given for every query or for none .*Got a mix instead\."):
        Query.from_lists([[1], [2]], pool=[[1], None])
    with pytest.raises(ValueError, match=r"n_relevant must be given for every query or for none\. Got \[1, None\] instead\."):
        Query.from_lists([[1], [2]], n_relevant=[1, None])


def test_reordered_is_every_order_of_one_list_in_one_batch():
    query = Query.of([3, 1, 2], pool=[3, 2, 1, 1], n_relevant=4, ranking=["a", "b", "c"])
    batch = query.reordered([[0, 1, 2], [2, 0, 1]])
    assert batch.grades.tolist() == [[3.0, 1.0, 2.0], [2.0, 3.0, 1.0]] and batch.lengths.tolist() == [3, 3]
    assert batch.pool.tolist() == [[3.0, 2.0, 1.0, 1.0]] * 2 and batch.n_relevant.tolist() == [4, 4]
    assert batch.row(1).grades.tolist() == [2.0, 3.0, 1.0] and batch.row(1).pool.tolist() == [3.0, 2.0, 1.0, 1.0]


def test_arrays_are_read_only_and_the_query_is_frozen():
    query = Query.of([1, 2], pool=[2, 1])
    with pytest.raises(ValueError, match="read-only"):
        query.grades[0] = 5
    with pytest.raises(ValueError, match="read-only"):
        query.pool[0] = 5
    with pytest.raises(AttributeError):
        query.threshold = 2


def test_named_adds_the_ids_of_one_query():
    query = Query.from_lists([[1, 0], [2]]).row(0).named(["x", "y"])
    assert query.ranking == ("x", "y")
    with pytest.raises(ValueError, match=r"Query\.ranking names the items of one query; a batch has none"):
        Query(np.zeros((1, 2)), np.array([2]), ranking=["x", "y"])


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Query(np.zeros((2, 2, 2))), r"Query\.grades must be 1-D \(one query\) or 2-D"),
        (lambda: Query(np.zeros((2, 3))), r"Query\.lengths must be given exactly when grades is 2-D"),
        (lambda: Query(np.zeros(3), np.array([3])), r"Query\.lengths must be given exactly when grades is 2-D"),
        (lambda: Query(np.zeros((2, 3)), np.array([3, 4])), r"Query\.lengths must not exceed the width of grades \(3\)"),
        (lambda: Query(np.zeros((2, 3)), np.array([3])), r"Query\.lengths must hold one non-negative whole number per query \(2\)"),
        (lambda: Query(np.zeros(3), judged=np.ones(2, bool)), r"Query\.judged must have the shape of grades \(3,\)"),
        (lambda: Query(np.zeros((2, 3)), np.array([3, 3]), pool=np.zeros(4)), r"Query\.pool must hold one row per query"),
        (lambda: Query(np.zeros(3), n_relevant=1.5), r"Query\.n_relevant must be a non-negative whole number or None"),
        (lambda: Query(np.zeros(3), subtopics=np.zeros(3)), r"Query\.subtopics must have one more axis than grades"),
        (lambda: Query(np.zeros(3), subtopics=np.zeros((2, 4))), r"Query\.subtopics must hold one row per ranked item"),
        (lambda: Query(np.zeros(3), pool_lengths=np.array([1])), r"Query\.pool_lengths must be None unless a batch has a pool"),
    ],
)
def test_the_constructor_refuses_arrays_of_the_wrong_shape(build, message):
    with pytest.raises((TypeError, ValueError), match=message):
        build()


def test_subtopic_judgements_travel_with_their_rows():
    # Part 2's diversity metrics read these; a batch's rows carry their own.
    subtopics = np.array([[[1, 0], [0, 1]], [[1, 1], [0, 0]]], dtype=float)
    batch = Query(np.ones((2, 2)), np.array([2, 1]), subtopics=subtopics, subtopic_pool=np.ones((2, 3, 2)))
    assert batch.row(1).subtopics.tolist() == [[1.0, 1.0]] and batch.row(1).subtopic_pool.shape == (3, 2)


def test_every_fact_says_what_it_means_and_how_the_functions_take_it():
    assert list(FACTS) == ["judged", "pool", "n_relevant", "n_nonrelevant", "threshold", "subtopics", "subtopic_pool",
                           "pooled"]
    assert all(fact.meaning for fact in FACTS.values())
    assert {name: fact.keyword for name, fact in FACTS.items() if fact.keyword} == {
        "pool": "pool", "n_relevant": "n_relevant", "n_nonrelevant": "n_nonrelevant", "threshold": "threshold",
        "subtopic_pool": "subtopic_pool", "pooled": "pooled"}
    assert repr(Query.of([1, 0], pool=[1, 1])) == "<Query of 2 ranked items; knows pool>"
    assert repr(Query.from_lists([[1], [0]], n_relevant=[1, 2])) == "<Query of 2 queries; knows n_relevant>"
