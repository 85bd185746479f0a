"""Means over queries: one mean(key, ...) for every registered metric."""

import numpy as np
import pytest

import ndcg_teach as nt


def test_mean_ndcg_is_the_plain_average_with_keywords_passed_on():
    queries = [[5, 2, 3], [0, 1], [3, 3]]
    expected = sum(nt.ndcg(q, k=2, gain="exponential") for q in queries) / 3
    assert nt.mean_ndcg(queries, k=2, gain="exponential") == pytest.approx(expected, abs=1e-15)
    assert nt.mean("ndcg", queries, 2, gain="exponential") == nt.mean_ndcg(queries, k=2, gain="exponential")


def test_map_and_mrr():
    queries = [[1, 0, 1], [0, 1]]
    assert nt.mean_average_precision(queries) == pytest.approx(((1 + 2 / 3) / 2 + 0.5) / 2, abs=1e-15)
    assert nt.mean_reciprocal_rank(queries) == 0.75
    assert nt.mean_average_precision(queries, per_query={"n_relevant": [3, 3]}) == pytest.approx(
        ((1 + 2 / 3) / 3 + 0.5 / 3) / 2, abs=1e-15)


LIST_METRICS = [spec for spec in nt.metrics() if "subtopics" not in spec.needs]  # the diversity ones: test_diversity.py


@pytest.mark.parametrize("spec", LIST_METRICS, ids=lambda spec: spec.key)
def test_mean_of_every_registered_metric_is_the_average_of_its_function(spec):
    queries = [[3, 0, 2], [0, 1], [], [2, 2, 0, 1]]
    expected = sum(spec.function(q, 2) for q in queries) / len(queries)
    assert nt.mean(spec.key, queries, 2) == pytest.approx(expected, abs=1e-15)


def test_an_empty_ranking_counts_as_a_query_that_scores_zero():
    assert nt.mean_reciprocal_rank([[1], []]) == 0.5
    assert nt.mean_ndcg([[2, 1], []], per_query={"pool": [[2, 1], [3]]}) == 0.5


def test_generators_are_accepted():
    assert nt.mean_reciprocal_rank(q for q in [[1], [0, 1]]) == 0.75


def test_per_query_pools_and_totals():
    assert nt.mean_ndcg([[3], [1]], per_query={"pool": [[3, 3], [1]]}) == pytest.approx(
        (nt.ndcg([3], pool=[3, 3]) + 1) / 2, abs=1e-15)
    assert nt.mean_average_precision([[1, 0], [0, 1]], per_query={"n_relevant": [2, 1]}) == 0.5


def test_the_first_release_spellings_still_work_with_a_warning():
    with pytest.warns(DeprecationWarning, match=r"mean_ndcg\(pools=\.\.\.\) is now spelled per_query=\{'pool': \.\.\.\}"):
        old = nt.mean_ndcg([[3], [1]], pools=[[3, 3], [1]])
    assert old == nt.mean_ndcg([[3], [1]], per_query={"pool": [[3, 3], [1]]})
    with pytest.warns(DeprecationWarning, match=r"mean_average_precision\(n_relevant=\[\.\.\.\]\) is now spelled"):
        assert nt.mean_average_precision([[1, 0], [0, 1]], n_relevant=[2, 1]) == 0.5


def test_per_query_values_must_match_the_queries():
    with pytest.raises(ValueError, match=r"per_query\['pool'\] must hold one value per query \(2\)\. Got 1 values instead\."):
        nt.mean_ndcg([[1], [2]], per_query={"pool": [[1]]})
    with pytest.raises(TypeError, match=r"per_query\['n_relevant'\] must be a list with a value, one per query\. Got 3 instead\."):
        nt.mean_average_precision([[1], [2]], per_query={"n_relevant": 3})
    with pytest.raises(ValueError, match=r"query 2: n_relevant must be at least the number of relevant items already in the list \(1\)\."):
        nt.mean_average_precision([[1], [2]], per_query={"n_relevant": [1, 0]})
    with pytest.raises(ValueError, match=r"per_query keys must be keywords of rr \(threshold, negative\)\. Got 'pool' instead\."):
        nt.mean("rr", [[1]], per_query={"pool": [[1]]})
    with pytest.raises(ValueError, match=r"metric key must be one of 'ndcg', .*\. Got 'map' instead\."):
        nt.mean("map", [[1]])


@pytest.mark.parametrize("seed", range(10))
def test_batch_path_equals_the_per_query_loop(seed):
    rng = np.random.default_rng(seed)
    queries = [rng.integers(0, 4, int(rng.integers(0, 12))).tolist() for _ in range(25)]
    k = None if seed % 3 == 0 else int(rng.integers(1, 10))
    for spec in LIST_METRICS:
        if spec.batch is None:
            continue
        keywords = {"threshold": 2} if "threshold" in spec.keywords else {}
        if "gain" in spec.keywords:
            keywords["gain"] = "exponential" if seed % 2 else "linear"
        per_query = np.mean([spec.function(relevances, k, **keywords) for relevances in queries])
        assert nt.mean(spec.key, queries, k, **keywords) == pytest.approx(per_query, abs=1e-12), spec.key
    n_relevant = [sum(grade >= 1 for grade in relevances) + int(rng.integers(0, 3)) for relevances in queries]
    expected = np.mean([nt.average_precision(q, k, n_relevant=r) for q, r in zip(queries, n_relevant)])
    assert nt.mean("ap", queries, k, per_query={"n_relevant": n_relevant}) == pytest.approx(expected, abs=1e-12)
