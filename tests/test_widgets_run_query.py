"""Lesson 20's query explorer: any query of a run opens with exactly evaluate()'s numbers, and a drag's what-if is
evaluate()'s on the changed run.

The equality test opens every query of the packaged RAG run and of a seeded random run (short lists, tied 32-bit
scores, unjudged items, judged items nobody retrieved, negative grades) once per measure asked for, and compares
every card with ``result.value`` and ``result.means`` with ``==``. The what-if tests write the explorer's new order
back into the run as scores, evaluate that run again, and compare again with ``==``.
"""

import random
from pathlib import Path

import numpy as np
import pytest
import traitlets

import ndcg_teach as nt
from ndcg_teach.widgets import QueryExplorer

DATA = Path(nt.__file__).parent / "runs" / "data"
MEASURES = ["ndcg_cut.10", "map", "P.10", "recip_rank"]
NAMES = ["ndcg_cut_10", "map", "P_10", "recip_rank"]


def random_collection(seed=20, n_queries=40):
    """A seeded run and qrels with what trec_eval's rules must get right: lists shorter than 10, scores tied in 32
    bits (0.1 + 1e-9 and 0.1 are one float32), unjudged and never-retrieved items, grades 0-3 and -1, queries with
    nothing relevant, and a judged query the run does not answer."""
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(n_queries):
        qid = f"q{q:02d}"
        docs = [f"d{q}-{i:03d}" for i in range(rng.randint(1, 40))]
        retrieved = rng.sample(docs, rng.randint(1, len(docs)))
        judged = rng.sample(docs, rng.randint(1, len(docs)))
        qrels[qid] = {doc: rng.choice([0, 0, 1, 1, 2, 3, -1]) for doc in judged}
        levels = [0.5, 0.25, 0.1, 0.1 + 1e-9, 0.05]
        run[qid] = {doc: rng.choice(levels) if rng.random() < 0.4 else rng.random() for doc in retrieved}
    qrels["unanswered"] = {"x": 1}
    return qrels, run


def rag():
    return nt.evaluate(DATA / "rag24.qrels", DATA / "rag24.run", MEASURES)


def random_run():
    qrels, run = random_collection()
    return nt.evaluate(qrels, run, MEASURES)


@pytest.mark.parametrize("build", [rag, random_run], ids=["rag24", "random"])
def test_every_query_opens_with_evaluate_s_values_for_every_measure_asked(build):
    result = build()
    compared = 0
    for qid in result.queries:
        for measure, name in zip(MEASURES, NAMES):
            explorer = result.explore(qid, measure)
            assert explorer.panels[0]["metrics"][0]["key"] == name  # the measure asked for comes first
            for other in NAMES:
                assert explorer.metrics[other] == result.value(qid, other), (qid, measure, other)
                assert explorer.metrics[f"mean_{other}"] == result.means[other], (qid, measure, other)
                compared += 1
            if name == "ndcg_cut_10" and len(explorer.items) >= 10:
                assert explorer.trace.value == result.value(qid, name)  # the step table is the measure's
    assert compared == len(result.queries) * len(MEASURES) ** 2
    assert len(result.queries) == (31 if build is rag else 40)


def test_the_rag_run_s_queries_hold_what_trec_eval_looks_at():
    result = rag()
    unjudged = sum(len(result.explore(qid).unjudged) for qid in result.queries)
    explorer = result.explore("2024-96359")
    assert len(explorer.items) == 100 and explorer.k == 10
    # The pool is every judged grade of the query: the ideal holds judged passages the run never retrieved.
    lines = [line.split() for line in (DATA / "rag24.qrels").read_text().splitlines()]
    grades = sorted((int(grade) for qid, _, _, grade in lines if qid == "2024-96359"), reverse=True)
    assert explorer.pool == grades and len(grades) > len(explorer.items) - len(explorer.unjudged)
    assert unjudged > 0


def moved_run(run, qid, order):
    """``run`` with query ``qid``'s scores rewritten so that trec_eval ranks it in ``order``."""
    return {**run, qid: {doc: float(len(order) - position) for position, doc in enumerate(order)}}


@pytest.mark.parametrize("seed", range(6))
def test_a_drag_and_a_judgement_show_what_evaluate_says_of_the_changed_run(seed):
    qrels, run = random_collection()
    result = nt.evaluate(qrels, run, MEASURES)
    rng = random.Random(seed)
    qid = rng.choice([qid for qid in result.queries if len(run[qid]) > 3])
    explorer = result.explore(qid, rng.choice(MEASURES))
    item = rng.choice(explorer.order)
    explorer.move(item, rng.randint(1, len(explorer.order)))
    again = nt.evaluate(qrels, moved_run(run, qid, explorer.order), MEASURES)
    for name in NAMES:
        assert explorer.metrics[name] == again.value(qid, name)
        assert explorer.metrics[f"mean_{name}"] == again.means[name]
    # A judgement: the item gets a grade in the qrels.
    item = rng.choice(explorer.order)
    if item in explorer.unjudged:
        explorer.set_judged(item)
    explorer.set_grade(item, 2)
    judged = {**qrels, qid: {**qrels[qid], item: 2}}
    again = nt.evaluate(judged, moved_run(run, qid, explorer.order), MEASURES)
    for name in NAMES:
        assert explorer.metrics[name] == again.value(qid, name)
        assert explorer.metrics[f"mean_{name}"] == again.means[name]


def test_previews_carry_the_query_s_score_and_the_run_s_mean_for_every_destination():
    qrels, run = random_collection()
    result = nt.evaluate(qrels, run, MEASURES)
    qid = max(result.queries, key=lambda q: len(run[q]))
    explorer = result.explore(qid)
    item = explorer.order[-1]
    previews = explorer.previews("order", item)["destinations"]
    keys = [spec.key for spec in explorer._specs]
    for position, destination in enumerate(previews, start=1):
        order = destination["order"]
        assert order.index(item) == position - 1
        again = nt.evaluate(qrels, moved_run(run, qid, order), MEASURES)
        expected = [f"{again.value(qid, name):.4f}" for name in NAMES] + [f"{again.means[name]:.4f}" for name in NAMES]
        assert destination["texts"] == expected, keys


def test_a_thousand_document_ranking_previews_a_window_not_the_square():
    rng = random.Random(3)
    docs = [f"doc{i:04d}" for i in range(1000)]
    qrels = {"q": {doc: rng.choice([0, 1, 2]) for doc in rng.sample(docs, 300)}, "r": {"a": 1}}
    run = {"q": {doc: rng.random() for doc in docs}, "r": {"a": 1.0}}
    explorer = nt.evaluate(qrels, run, MEASURES).explore("q")
    sent = []
    explorer.send = sent.append
    explorer._send_previews("order", [(explorer.order[500], None)])
    (entry,) = sent[0]["items"]
    assert sent[0]["full"] is False and len(entry["texts"].split()) == 61 * len(explorer._specs)


def test_the_evaluation_s_settings_are_fixed_and_refused_by_name():
    explorer = random_run().explore("q01")
    with pytest.raises(traitlets.TraitError, match=r"^threshold is the evaluation's relevance level \(1; trec_eval -l\)"):
        explorer.threshold = 2
    with pytest.raises(traitlets.TraitError, match=r"^gain is the measure's \(linear, as trec_eval computes it\).*Got 'exponential' instead\.$"):
        explorer.gain = "exponential"
    assert explorer.choices["locked"] == ["gain", "discount", "threshold"]
    explorer.set_state({"discount": "jarvelin"})
    assert explorer.discount == "log2" and explorer.notice["kind"] == "error"


def test_a_gain_map_reaches_the_cards_and_the_step_table():
    qrels, run = random_collection()
    result = nt.evaluate(qrels, run, ["ndcg.1=3,2=9,3=20", "map"])
    for qid in result.queries[:10]:
        explorer = result.explore(qid)
        name = result.measures[0]
        assert explorer.metrics[name] == result.value(qid, name)
        assert explorer.trace.value == pytest.approx(result.value(qid, name), abs=1e-12)


def test_refusals_name_the_parameter():
    result = random_run()
    with pytest.raises(KeyError, match="qid must be an evaluated query"):
        result.explore("nope")
    complete = nt.evaluate(*random_collection(), MEASURES, complete=True)
    with pytest.raises(ValueError, match=r"^qid must be a query the run answered.*Got 'unanswered' instead\.$"):
        complete.explore("unanswered")
    with pytest.raises(ValueError, match=r"^measure must be one the explorer can show for one query: ndcg_cut_10, map, P_10, recip_rank\. Got 'relstring' instead"):
        nt.evaluate(*random_collection(), [*MEASURES, "relstring"]).explore("q01", "relstring")
    fractions = nt.evaluate({"q": {"a": 0.5}}, {"q": {"a": 1.0}}, ["map"], grades="float")
    with pytest.raises(ValueError, match=r"^qrels grades must be whole numbers.*Got the grade 0\.5 for query 'q' instead\.$"):
        fractions.explore("q")
    with pytest.raises(TypeError, match="result must be an Evaluation"):
        QueryExplorer({"q": 1}, "q")


def test_chinese_cards_and_titles():
    explorer = random_run().explore("q01", language="zh-CN")
    titles = explorer.panels[0]["groups"]
    assert titles["query"] == "查询 q01，按 evaluate() 的算法计分" and "40 个查询" in titles["run"]
    assert [card["label"] for card in explorer.panels[0]["metrics"]][4] == "ndcg_cut_10 平均值"
    assert np.isfinite(explorer.metrics["mean_map"])
    assert repr(explorer).startswith("QueryExplorer(query 'q01' of run 'dict', ")


def test_a_gain_map_whose_ideal_trec_eval_orders_otherwise_is_refused_by_name():
    # Gains 0.5 apart: trec_eval's (int)(a - b) comparator keeps level 2 (gain 0.5) below level 1 (gain 1), so its
    # ideal is not the one the step table would build by gain.
    qrels = {"q1": {"a": 1, "b": 2, "c": 0}}
    run = {"q1": {"a": 0.9, "b": 0.8, "c": 0.7}}
    result = nt.evaluate(qrels, run, ["ndcg.2=0.5,1=1"])
    with pytest.raises(ValueError, match=r"^measure must have gains .*query 'q1'.* Got 'ndcg_2=0.5,1=1' instead\.$"):
        result.explore("q1")
    fine = nt.evaluate(qrels, run, ["ndcg.1=2,2=5"])
    assert fine.explore("q1").metrics["ndcg_1=2,2=5"] == fine.value("q1", "ndcg_1=2,2=5")
