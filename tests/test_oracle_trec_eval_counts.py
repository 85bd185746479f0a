"""Oracle: trec_eval's counts, set measures, relative_P, iprec_at_recall, 11pt_avg, Rprec_mult, infAP, binG, G, ndcg_rel
Rndcg and utility against pytrec_eval.

Random queries (judged items never retrieved, retrieved items never judged, items in the pool with grade -1, graded
judgements, relevance levels 1 to 3, trec_eval's default parameters and others) go through ``nt.evaluate`` by their
trec_eval names and through pytrec_eval (trec_eval 9.0.8); every value must agree to 1e-12. Each value's ``explain``
trace must give the same number. pytrec_eval cannot read ``name=value`` parameters (``ndcg.1=3``) nor utility's four
numbers; those are compared with trec_eval's own outputs in test_quicktest.py.
"""

import io

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.runs.cli import main
from ndcg_teach.runs.measures import MeasureError

pytrec_eval = pytest.importorskip("pytrec_eval")

TOL = 1e-12
QUERIES = 300
MEASURES = [
    "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "set_P", "set_recall", "set_relative_P", "set_map",
    "relative_P", "relative_P.1,3,7", "iprec_at_recall", "iprec_at_recall.0.15,0.33,0.5,0.95", "11pt_avg",
    "11pt_avg.0.2,0.5,0.8", "Rprec_mult", "Rprec_mult.0.3,0.75,1.5,3.0", "infAP",
    "binG", "G", "ndcg_rel", "Rndcg", "utility",
]


def random_collection(seed):
    """Qrels (grades -1 to 3) and a run with distinct scores for QUERIES queries."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(QUERIES):
        ids = [f"d{j}" for j in rng.choice(400, size=40, replace=False)]
        n_judged = int(rng.integers(1, 25))
        grades = rng.choice([-1, 0, 0, 0, 1, 1, 2, 3], size=n_judged)
        qrels[f"q{q}"] = {doc: int(grade) for doc, grade in zip(ids[:n_judged], grades)}
        retrieved = rng.choice(ids, size=int(rng.integers(1, 40)), replace=False)
        run[f"q{q}"] = {str(doc): float(len(retrieved) - i) for i, doc in enumerate(retrieved)}
    return qrels, run


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("measure", MEASURES)
def test_each_measure_equals_trec_eval_on_random_queries(measure, level):
    qrels, run = random_collection(20261125 + level)
    oracle = pytrec_eval.RelevanceEvaluator(qrels, {measure}, relevance_level=level).evaluate(run)
    result = nt.evaluate(qrels, run, [measure], relevance_level=level)
    names = set(next(iter(oracle.values())))
    if measure.startswith("11pt_avg"):  # pytrec_eval names it 11pt_avg whatever its parameters
        assert names == {"11pt_avg"} and len(result.measures) == 1
        pairs = [(result.measures[0], "11pt_avg")]
    else:
        assert set(result.measures) == names
        pairs = [(name, name) for name in result.measures]
    compared = 0
    for ours, theirs in pairs:
        for qid in oracle:
            assert abs(result.value(qid, ours) - oracle[qid][theirs]) <= TOL, (qid, ours)
            compared += 1
    assert compared >= QUERIES


@pytest.mark.parametrize("measure", ["num_nonrel_judged_ret", "set_map", "relative_P.3", "iprec_at_recall.0.33",
                                     "11pt_avg", "Rprec_mult.0.75", "set_relative_P", "num_rel", "infAP", "binG",
                                     "G", "ndcg_rel", "Rndcg", "utility"])
def test_every_value_explains_itself(measure):
    qrels, run = random_collection(7)
    result = nt.evaluate(qrels, run, [measure], relevance_level=2)
    for qid in result.queries[:60]:
        trace = result.explain(qid, measure)
        assert trace.value == result.value(qid, measure), qid
        assert trace.rows and trace.formula


def test_counts_are_summed_on_the_all_line_and_the_rest_averaged():
    qrels, run = random_collection(3)
    result = nt.evaluate(qrels, run, ["num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "set_map"])
    for name in ("num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"):
        assert result.means[name] == result.per_query[name].sum()
        assert f"{name:<22}\tall\t{int(result.per_query[name].sum())}" in result.lines(per_query=False)
    assert result.means["set_map"] == pytest.approx(result.per_query["set_map"].mean(), abs=1e-15)


def test_the_batch_path_equals_the_plain_functions():
    qrels, run = random_collection(11)
    result = nt.evaluate(qrels, run, ["num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "relative_P.4",
                                      "set_relative_P", "set_map", "Rprec_mult.0.5"], relevance_level=2)
    query = result._judged.query
    for name, metric, k, conventions in [("num_ret", "num_ret", None, {}), ("num_rel", "num_rel", None, {}),
                                         ("num_rel_ret", "num_rel_ret", None, {}),
                                         ("num_nonrel_judged_ret", "num_nonrel_judged_ret", None, {}),
                                         ("relative_P_4", "relative_precision", 4, {}),
                                         ("set_relative_P", "relative_precision", None, {}),
                                         ("set_map", "set_map", None, {}),
                                         ("Rprec_mult_0.50", "rprec_mult", None, {"multiple": 0.5})]:
        assert nt.core.registry.route(metric, query, **conventions) == "batch"
        looped = [nt.call(metric, query.row(i), k, **conventions) for i in range(len(query))]
        np.testing.assert_array_equal(result.per_query[name], looped, err_msg=name)


def test_a_cut_off_cuts_the_list_but_not_r():
    assert nt.num_ret([1, 0, 1], k=2) == 2.0 and nt.num_rel([1, 0, 1], k=1) == 2.0
    assert nt.set_map([1, 0, 1, 1], k=2) == 1 * 1 / (2 * 3)
    assert nt.rprec_mult([0, 1, 1, 1], k=2, multiple=1.0) == 1 / 3  # rank 3 of a list cut to 2: a miss at 3


def test_bad_parameters_are_refused_by_name():
    with pytest.raises(ValueError, match=r"levels must rise and differ from each other, as trec_eval's 11pt_avg reads "
                                         r"them from the highest down\. Got \(0\.5, 0\.25\) instead\."):
        nt.eleven_point_average([1, 0], levels=(0.5, 0.25))
    with pytest.raises(TypeError, match=r"multiple must be a finite number, e\.g\. 0\.5\. Got 'x' instead\."):
        nt.rprec_mult([1, 0], multiple="x")
    with pytest.raises(TypeError, match=r"recall_level must be a finite number, e\.g\. 0\.5\. Got nan instead\."):
        nt.iprec_at_recall([1, 0], recall_level=float("nan"))


def test_utility_weighs_the_four_cells_and_reads_the_collection_size(tmp_path):
    qrels = {"q1": {"a": 1, "b": 0, "c": 1, "d": 1}}
    run = {"q1": {"a": 0.9, "b": 0.8, "x": 0.7}}  # a = 1 relevant retrieved, b = 2 others, c = 2 missed
    result = nt.evaluate(qrels, run, ["utility.3,-2,-1,0.5"], collection_size=100)
    assert result.value("q1", "utility.3,-2,-1,0.5") == 3 * 1 - 2 * 2 - 1 * 2 + 0.5 * (100 + 1 - 3 - 3)
    (tmp_path / "q").write_text("q1 0 a 1\nq1 0 b 0\nq1 0 c 1\nq1 0 d 1\n")
    (tmp_path / "r").write_text("q1 Q0 a 1 0.9 t\nq1 Q0 b 2 0.8 t\nq1 Q0 x 3 0.7 t\n")
    out = io.StringIO()
    assert main(["-m", "utility.0,0,0,1", "-N", "50", str(tmp_path / "q"), str(tmp_path / "r")], out=out) == 0
    assert out.getvalue() == "utility_0,0,0,1       \tall\t45.0000\n"  # 50 + 1 - 3 - 3
    with pytest.raises(ValueError, match=r"weights must be four numbers p1,p2,p3,p4 .* Got \(1\.0, 2\.0\) instead\."):
        nt.evaluate(qrels, run, ["utility.1,2"])


def test_unj_counts_what_nobody_judged_as_trec_eval_10_does():
    qrels, run = random_collection(5)
    result = nt.evaluate(qrels, run, ["unj.1,5,50"], trec_eval="10.0")
    query = result._judged.query
    assert nt.core.registry.route("unj", query) == "batch"
    for k in (1, 5, 50):
        for row, qid in enumerate(result.queries):
            ranking = result.ranking(qid)[:k]
            unjudged = sum(qrels[qid].get(doc, -1) < 0 for doc in ranking)  # not in the qrels, or a negative grade
            assert result.value(qid, f"unj_{k}") == unjudged / k
            assert nt.call("unj", query.row(row), k) == unjudged / k
    with pytest.raises(MeasureError, match=r"measure 'unj' is not a trec_eval measure in 9\.0\.8"):
        nt.evaluate(qrels, run, ["unj"])


def test_trec_eval_10_rbp_is_lesson_11s_rbp_on_binary_grades_and_rescales_graded_ones():
    rng = np.random.default_rng(17)
    for _ in range(200):
        relevances = [None if g < 0 else int(g) for g in rng.choice([-1, 0, 1], size=int(rng.integers(0, 30)))]
        for p in (0.5, 0.9, 0.95):
            parameters = {"p": p, "0": 0.0}  # "p" is also level 0 in trec_eval: give level 0 its gain back
            assert abs(nt.trec_rbp(relevances, parameters=parameters) - nt.rank_biased_precision(relevances, p=p)) <= TOL
            resid = nt.trec_rbp_resid(relevances, parameters={"p": p})
            expected = nt.rbp_residual(relevances, p=p) if None in relevances else 0.0  # trec_eval: 0 if all judged
            assert abs(resid - expected) <= TOL
    assert nt.trec_rbp([4, 2], pool=[4, 2]) == pytest.approx(0.1 * (1.0 + 0.5 * 0.9), abs=1e-15)  # levels 0-4: g / 4
    assert nt.trec_rbp([0, 1], parameters={"p": 0.5}) == pytest.approx(0.5 * (0 + 1 * 0.5), abs=1e-15)  # as 10.0-rc3


def test_trec_eval_10_dcg_over_ideal_dcg_is_trec_evals_ndcg():
    qrels, run = random_collection(23)
    oracle = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run)
    result = nt.evaluate(qrels, run, ["dcg", "ideal_dcg"], trec_eval="10.0")
    compared = 0
    for qid in oracle:
        ideal = result.value(qid, "ideal_dcg")
        assert ideal >= result.value(qid, "dcg") >= 0
        if ideal > 0:
            assert abs(result.value(qid, "dcg") / ideal - oracle[qid]["ndcg"]) <= TOL
            compared += 1
    assert compared > QUERIES // 2
