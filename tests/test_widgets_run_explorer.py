"""Lesson 20's run explorer: the bars, the means and the tests of one run or two, and the query opened below.

Oracles: ``evaluate`` on the run changed as the learner changed it (the explorer's order written back as scores, a
judgement written into the qrels), ``result.means``, and ``ndcg_teach.statistics.significance`` on the paired values. The
front end is simulated by the custom messages runs.js sends.
"""

import random

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.runs.exploring import RunScores, run_query
from ndcg_teach.statistics.significance import paired_t_test, randomisation_test
from ndcg_teach.widgets import QueryExplorer, RunExplorer

MEASURES = ["ndcg_cut.10", "map", "P.10", "recip_rank"]


def collection(seed=7, n_queries=12):
    rng = random.Random(seed)
    qrels, first, second = {}, {}, {}
    for q in range(n_queries):
        qid = f"q{q:02d}"
        docs = [f"d{q}-{i:02d}" for i in range(30)]
        qrels[qid] = {doc: rng.choice([0, 0, 1, 2]) for doc in rng.sample(docs, 14)}
        first[qid] = {doc: rng.random() for doc in docs[:20]}
        second[qid] = {doc: rng.random() for doc in docs[8:28]}
    return qrels, first, second


def message(explorer, content):
    """Deliver a custom message exactly as ``model.send(content)`` in runs.js does."""
    explorer.overview._handle_custom_msg(content, [])


def rewritten(run, qid, order):
    return {**run, qid: {doc: float(len(order) - position) for position, doc in enumerate(order)}}


def test_one_run_opens_its_worst_query_and_a_drag_moves_its_bar_the_mean_and_the_tests():
    qrels, run, _ = collection()
    result = nt.evaluate(qrels, run, MEASURES)
    explorer = RunExplorer(result)
    values = result.per_query["ndcg_cut_10"]
    worst = result.queries[int(np.argmin(values))]
    assert explorer.explorer.qid == worst and explorer.overview.queries[0] == worst
    assert explorer.overview.queries == sorted(result.queries, key=lambda qid: values[result.queries.index(qid)])
    assert explorer.overview.bars["means"] == [f"{result['ndcg_cut.10']:.4f}"] * 2
    assert explorer.summary["t"] is None and explorer.summary["mean"] == "+0.0000"
    query = explorer.explorer
    query.ideal()
    changed = nt.evaluate(qrels, rewritten(run, worst, query.order), MEASURES)
    assert explorer.scores.means() == (result.means["ndcg_cut_10"], changed.means["ndcg_cut_10"])
    assert explorer.overview.bars["values"][0] == changed.value(worst, "ndcg_cut_10")
    assert explorer.overview.bars["changed"] == [0]
    a, b = explorer.scores.pair()
    assert b.tolist() == changed.per_query["ndcg_cut_10"].tolist()
    expected = randomisation_test(b, a, seed=0, labels=("B", "A"))
    assert explorer.tests["randomisation"].p_value == expected.p_value
    assert explorer.summary["randomisation"]["p"] == f"{expected.p_value:.4f}" and not explorer.summary["pending"]
    # The other measures of the changed query follow too: the mean cards of the next query read them.
    assert explorer.scores.value(0, worst, "map") == changed.value(worst, "map")


def test_queries_keep_their_changes_and_the_next_query_s_mean_cards_count_them():
    qrels, run, _ = collection()
    result = nt.evaluate(qrels, run, MEASURES)
    explorer = RunExplorer(result)
    first = explorer.explorer.qid
    explorer.explorer.ideal()
    order = list(explorer.explorer.order)
    second = explorer.overview.queries[1]
    message(explorer, {"event": "open", "query": second, "run": 0})
    assert explorer.explorer.qid == second and explorer.children[1] is explorer.explorer
    changed = nt.evaluate(qrels, rewritten(run, first, order), MEASURES)
    assert explorer.explorer.metrics["mean_map"] == changed.means["map"]
    message(explorer, {"event": "open", "query": first, "run": 0})
    assert explorer.explorer.order == order  # left as it was
    message(explorer, {"event": "reset"})
    assert explorer.explorer.qid == first and explorer.explorer.order == list(run_query(result, first).ranking)
    assert explorer.scores.changed() == [] and explorer.overview.bars["changed"] == []


def test_two_runs_pair_b_minus_a_and_a_judgement_moves_both_runs_of_the_query():
    qrels, first, second = collection()
    a, b = nt.evaluate(qrels, first, MEASURES), nt.evaluate(qrels, second, MEASURES)
    explorer = RunExplorer(a, b, "map", labels=("BM25", "reranker"))
    d = b.per_query["map"] - a.per_query["map"]
    assert explorer.overview.queries[0] == a.queries[int(np.argmin(d))]
    assert explorer.summary["mean"] == f"{d.mean():+.4f}"
    assert explorer.tests["t_test"].statistic == paired_t_test(b.per_query["map"], a.per_query["map"]).statistic
    qid = explorer.explorer.qid
    assert explorer.explorer.result is b  # B opens by default
    shared = [doc for doc in explorer.explorer.order if doc in first[qid]]
    item = next(doc for doc in shared if doc not in qrels[qid]) if any(doc not in qrels[qid] for doc in shared) else shared[0]
    query = explorer.explorer
    if item in query.unjudged:
        query.set_judged(item)
    query.set_grade(item, 2)
    judged = {**qrels, qid: {**qrels[qid], item: 2}}
    again = nt.evaluate(judged, first, MEASURES), nt.evaluate(judged, second, MEASURES)
    assert explorer.scores.value(1, qid, "map") == again[1].value(qid, "map")
    assert explorer.scores.value(0, qid, "map") == again[0].value(qid, "map")  # the baseline retrieved it too
    message(explorer, {"event": "open", "query": qid, "run": 0})
    assert explorer.explorer.result is a and explorer.explorer.relevance[item] == 2
    assert explorer.explorer.metrics["map"] == again[0].value(qid, "map")
    # A judgement of an item only B retrieved reaches A's pool, and so A's R.
    only_b = next(doc for doc in second[qid] if doc not in first[qid])
    message(explorer, {"event": "open", "query": qid, "run": 1})
    if only_b in explorer.explorer.unjudged:
        explorer.explorer.set_judged(only_b)
    explorer.explorer.set_grade(only_b, 1)
    judged[qid] = {**judged[qid], only_b: 1}
    again = nt.evaluate(judged, first, MEASURES), nt.evaluate(judged, second, MEASURES)
    assert explorer.scores.value(0, qid, "map") == again[0].value(qid, "map")
    assert explorer.scores.value(1, qid, "map") == again[1].value(qid, "map")


def test_refused_messages_and_choices_leave_a_notice():
    qrels, run, _ = collection()
    explorer = RunExplorer(nt.evaluate(qrels, run, MEASURES))
    message(explorer, {"event": "open", "query": "nope", "run": 0})
    assert explorer.overview.notice["kind"] == "error" and "qid must be one of the explorer's queries" in explorer.overview.notice["text"]
    message(explorer, {"event": "open", "query": "q01", "run": 1})
    assert "run must be 0 (A) or 1 (B)" in explorer.overview.notice["text"]
    message(explorer, {"event": "drag"})
    assert "event 'open' or 'reset'" in explorer.overview.notice["text"]
    with pytest.raises(TypeError, match="other must be an Evaluation"):
        RunExplorer(nt.evaluate(qrels, run, MEASURES), {"q": 1})
    with pytest.raises(TypeError, match=r"^labels must be two non-empty strings"):
        RunExplorer(nt.evaluate(qrels, run, MEASURES), labels=("A",))


def test_run_scores_means_if_calls_the_evaluation_s_mean():
    qrels, run, _ = collection()
    result = nt.evaluate(qrels, run, MEASURES)
    scores = RunScores(result, measure="P.10")
    values = np.array([0.0, 0.3, 0.3, 1.0])
    means = scores.means_if(0, "q03", "P_10", values)
    for value, mean in zip(values, means):
        array = result.per_query["P_10"].copy()
        array[result.queries.index("q03")] = value
        assert mean == result.mean_of("P_10", array)


def test_the_picture_and_the_repr_say_what_a_saved_notebook_shows():
    qrels, first, second = collection()
    explorer = RunExplorer(nt.evaluate(qrels, first, MEASURES), nt.evaluate(qrels, second, MEASURES), language="zh-CN")
    picture = explorer._repr_mimebundle_()["text/html"]
    assert "运行此单元格" in picture and explorer.overview.queries[0] in picture and "<img" not in picture
    assert repr(explorer).startswith("RunExplorer(12 queries, ndcg_cut_10): mean ")
    assert explorer.overview.messages["worst"] == "最差的查询"
    assert isinstance(explorer.explorer, QueryExplorer) and explorer.explorer.language == "zh-CN"
