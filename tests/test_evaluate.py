"""evaluate(): agreement with trec_eval (through pytrec_eval) on random files, the batch path against the per-query
path, explain() against the per-query values, and compare()."""

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.runs.evaluation import values_of
from ndcg_teach.runs.judging import judge
from ndcg_teach.runs.measures import TREC_EVAL_CUTOFFS, parse_measures

pytrec_eval = pytest.importorskip("pytrec_eval")

CUTS = "1,3,5,10"
TREC_MEASURES = [f"ndcg_cut.{CUTS}", "ndcg", f"P.{CUTS}", f"recall.{CUTS}", "map", f"map_cut.{CUTS}", "recip_rank"]


def random_case(rng, case):
    """Qrels and run text with ties, unjudged items, negative grades, queries on one side only and empty answers.

    Query ids carry the case number: trec_eval (inside pytrec_eval) caches the last query's ranking by its id
    across evaluators, and a stale cache can hang it.
    """
    n_queries = int(rng.integers(1, 6))
    qrels, run = [], []
    for _ in range(n_queries):
        qid = f"c{case}q{rng.integers(0, 20)}"
        docs = [f"d{d}" for d in rng.choice(30, size=int(rng.integers(1, 15)), replace=False)]
        if rng.random() < 0.9:
            # at least one grade >= 0: pytrec_eval can hang on a query whose every judgement is negative
            grades = [0, *rng.integers(-1, 4, len(docs) - 1)]
            qrels += [f"{qid} 0 {doc} {grade}" for doc, grade in zip(docs, rng.permutation(grades))]
        if rng.random() < 0.85:
            retrieved = rng.choice(40, size=int(rng.integers(1, 25)), replace=False)
            scores = np.round(rng.normal(size=retrieved.size), 1)  # one decimal: many ties
            run += [f"{qid} Q0 d{d} {i} {s} tag" for i, (d, s) in enumerate(zip(retrieved, scores))]
    if not qrels:
        qrels = [f"c{case}q0 0 d0 1"]
    if not run:
        run = [f"c{case}q0 Q0 d0 1 1.0 tag"]
    return "\n".join(dict.fromkeys(qrels)) + "\n", "\n".join(run) + "\n"


def deduplicated(text, key_columns):
    """Drop repeated (qid, docno) lines, which trec_eval refuses and pytrec_eval's dicts cannot hold."""
    seen, kept = set(), []
    for line in text.splitlines():
        parts = line.split()
        key = tuple(parts[i] for i in key_columns)
        if key not in seen:
            seen.add(key)
            kept.append(line)
    return "\n".join(kept) + "\n"


def trec_order(ranking):
    """A pytrec_eval run of one query, ranked as trec_eval ranks: score descending, then docno descending."""
    return sorted(ranking.items(), key=lambda pair: (pair[1], pair[0]), reverse=True)


def expected(qrels_path, run_path, relevance_level, max_docs):
    with open(qrels_path) as handle:
        qrels = pytrec_eval.parse_qrel(handle)
    with open(run_path) as handle:
        run = pytrec_eval.parse_run(handle)
    if max_docs is not None:
        run = {qid: dict(trec_order(ranking)[:max_docs]) for qid, ranking in run.items()}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_MEASURES), relevance_level=relevance_level)
    return qrels, evaluator.evaluate(run)


@pytest.mark.parametrize("seed", range(40))
def test_agrees_with_trec_eval_on_random_files(tmp_path, seed):
    rng = np.random.default_rng(seed)
    for case in range(50):
        qrels_text, run_text = random_case(rng, f"{seed}_{case}")
        qrels_path, run_path = tmp_path / f"{case}.qrels", tmp_path / f"{case}.run"
        qrels_path.write_text(deduplicated(qrels_text, (0, 2)))
        run_path.write_text(deduplicated(run_text, (0, 2)))
        level = int(rng.choice([1, 1, 2]))
        max_docs = None if rng.random() < 0.7 else int(rng.integers(1, 8))
        complete = bool(rng.random() < 0.3)
        judged, oracle = expected(qrels_path, run_path, level, max_docs)
        if not oracle:  # trec_eval 9.0.8 stops, -c or not ("No queries with both results and relevance info")
            with pytest.raises(ValueError, match="qrels and run must share at least one query"):
                nt.evaluate(qrels_path, run_path, TREC_MEASURES, relevance_level=level, max_docs=max_docs,
                            complete=complete)
            continue
        result = nt.evaluate(qrels_path, run_path, TREC_MEASURES, relevance_level=level, max_docs=max_docs,
                             complete=complete)
        assert set(result.queries) == (set(judged) if complete else set(oracle))
        for name in result.measures:
            for qid in oracle:
                assert result.value(qid, name) == pytest.approx(oracle[qid][name], abs=1e-12), (case, qid, name)
            total = sum(oracle[qid][name] for qid in oracle)
            assert result.means[name] == pytest.approx(total / (len(judged) if complete else len(oracle)), abs=1e-12)


def test_trec_and_ir_measures_names_give_the_same_numbers():
    qrels = {"q1": {"a": 2, "b": 1, "c": 0}, "q2": {"x": 1, "y": 3}}
    run = {"q1": {"a": 0.1, "b": 0.9, "c": 0.5, "z": 0.7}, "q2": {"y": 0.2, "x": 0.3}}
    pairs = [("ndcg_cut.3", "nDCG@3"), ("P.2", "P@2"), ("recall.2", "R@2"), ("map", "AP"), ("map_cut.2", "AP@2"),
             ("recip_rank", "RR"), ("ndcg", "nDCG")]
    result = nt.evaluate(qrels, run, [name for pair in pairs for name in pair])
    for trec_name, ir_name in pairs:
        assert result.per_query[trec_name.replace(".", "_")].tolist() == result.per_query[ir_name].tolist()


@pytest.mark.parametrize("seed", range(20))
def test_batch_path_equals_the_per_query_path(seed):
    rng = np.random.default_rng(100 + seed)
    n_queries = 30
    qrels = {f"q{q}": {f"d{d}": int(rng.integers(-1, 4)) for d in rng.choice(40, 12, replace=False)}
             for q in range(n_queries)}
    run = {f"q{q}": {f"d{d}": float(np.round(rng.normal(), 1)) for d in rng.choice(40, int(rng.integers(0, 30)), replace=False)}
           for q in range(n_queries)}
    run = {qid: ranking for qid, ranking in run.items() if ranking}
    judged = judge(qrels, run, complete=True, relevance_level=int(rng.integers(1, 3)))
    for measure in parse_measures(TREC_MEASURES + ["RR@3", "nDCG"]):
        batch = values_of(judged, measure)
        per_query = [measure.spec.function(judged.grades[row, :length], measure.k,
                                           **{name: value for name, value in {
                                               "pool": judged.pool[row][judged.pool[row] > 0],
                                               "n_relevant": int(judged.n_relevant[row]),
                                               "threshold": judged.relevance_level}.items()
                                              if name in measure.spec.keywords})
                     for row, length in enumerate(judged.lengths)]
        np.testing.assert_allclose(batch, per_query, rtol=0, atol=1e-12, err_msg=measure.name)


def test_explain_gives_the_steps_of_each_per_query_value():
    qrels_path, run_path = nt.example_files()
    result = nt.evaluate(qrels_path, run_path, ["ndcg_cut.10", "ndcg", "P.5", "recall.10", "map", "map_cut.10", "recip_rank"])
    for qid in result.queries[:8]:
        for measure in result.measures:
            trace = result.explain(qid, measure)
            assert trace.value == pytest.approx(result.value(qid, measure), abs=1e-12), (qid, measure)
        assert [row.item for row in result.explain(qid, "P.5").rows] == result.ranking(qid)[:5]


def test_ties_follow_the_chosen_rule():
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 1.0, "b": 1.0}}  # tied: trec_eval puts b (the larger id) first
    assert nt.evaluate(qrels, run, ["recip_rank"]).ranking("q") == ["b", "a"]
    assert nt.evaluate(qrels, run, ["recip_rank"])["recip_rank"] == 0.5
    assert nt.evaluate(qrels, run, ["recip_rank"], ties="stable").ranking("q") == ["a", "b"]
    assert nt.evaluate(qrels, run, ["recip_rank"], ties="optimistic")["recip_rank"] == 1.0
    assert nt.evaluate(qrels, run, ["recip_rank"], ties="pessimistic")["recip_rank"] == 0.5


def test_negative_grades_are_judged_non_relevant_or_refused():
    qrels = {"q": {"a": -1, "b": 2}}
    run = {"q": {"a": 0.9, "b": 0.5}}
    result = nt.evaluate(qrels, run, ["P.1", "ndcg_cut.2"])
    assert result["P.1"] == 0.0 and result["ndcg_cut.2"] == pytest.approx(nt.ndcg([0, 2], 2, pool=[2]))
    with pytest.raises(nt.TrecFormatError, match=r"grades must be non-negative with negative='raise'.*Got -1 instead"):
        nt.evaluate(qrels, run, ["P.1"], negative="raise")


def test_result_shapes_and_errors():
    result = nt.evaluate({"q1": {"a": 1}, "q2": {"b": 1}}, {"q1": {"a": 1.0}, "q2": {"c": 1.0}}, "P.1")
    assert result.queries == ("q1", "q2") and result.per_query["P_1"].tolist() == [1.0, 0.0]
    assert "<table>" in result._repr_html_() and "mean" in str(result.table())
    assert repr(result) == "<Evaluation of 2 queries: P_1=0.5000>"
    frame = result.to_pandas()
    assert frame.loc["q2", "P_1"] == 0.0
    with pytest.raises(KeyError, match=r"qid must be an evaluated query, e.g. 'q1'. Got 'q9' instead"):
        result.explain("q9", "P.1")
    with pytest.raises(KeyError, match=r"measure must be one of those evaluated \(P_1\). Got 'map' instead"):
        result.value("q1", "map")
    with pytest.raises(ValueError, match=r"measure 'ndcg_cutoff' is not a trec_eval measure. trec_eval's measures: "
                                         r"runid, num_q, .*ndcg_cut.*; ndcg_teach also reads nDCG@10.*Got 'ndcg_cutoff'"):
        nt.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["ndcg_cutoff"])
    with pytest.raises(ValueError, match=r"measure 'P.0': cut-offs must be positive whole numbers, e.g. 'P.5,10'. Got '0'"):
        nt.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["P.0"])
    with pytest.raises(TypeError, match=r"measures must be a measure name or a non-empty list of them.*Got \[\] instead"):
        nt.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, [])
    with pytest.raises(ValueError, match=r"ties must be one of 'docno', 'stable', 'optimistic', 'pessimistic'. Got 'random' instead"):
        nt.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, "P.1", ties="random")
    with pytest.raises(ValueError, match=r"threshold must be a positive finite number.*Got 0 instead"):
        nt.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, "P.1", relevance_level=0)


def test_compare_pairs_queries_and_hands_them_to_the_tests():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    a = nt.evaluate(qrels, {"q1": {"a": 1.0}, "q2": {"x": 1.0, "b": 0.5}, "q3": {"c": 1.0}}, ["recip_rank", "P.1"])
    b = nt.evaluate(qrels, {"q1": {"x": 1.0, "a": 0.5}, "q2": {"b": 1.0}}, ["recip_rank", "P.1"])
    pair = nt.compare(a, b, "recip_rank")
    assert pair.queries == ("q1", "q2") and pair.a.tolist() == [1.0, 0.5] and pair.b.tolist() == [0.5, 1.0]
    assert pair.wins == (1, 1, 0)
    assert "B better on 1, A better on 1, tied on 0" in str(pair)
    assert nt.compare(a, b).measure == "recip_rank"
    with pytest.raises(TypeError, match=r"result_b must be an Evaluation returned by evaluate\(\). Got 3 instead"):
        nt.compare(a, 3)
    with pytest.raises(ValueError, match=r"method must be one of 't', 'wilcoxon', 'randomisation', 'bootstrap'. Got 'z' instead"):
        pair.test("z")


def test_compare_runs_the_significance_tests_on_the_pairs():
    significance = pytest.importorskip("ndcg_teach.statistics.significance")
    qrels = {f"q{q}": {"a": 1, "b": 1} for q in range(8)}
    a = nt.evaluate(qrels, {f"q{q}": {"x": 1.0, "a": 0.5} for q in range(8)}, ["recip_rank"])
    b = nt.evaluate(qrels, {f"q{q}": {"a": 1.0, f"y{q % 3}": 0.5} for q in range(8)}, ["recip_rank"])
    pair = nt.compare(a, b)
    # B against A: the test's mean difference has the sign of pair.differences (B - A), as the table shows.
    expected = significance.randomisation_test(pair.b, pair.a, n=1000, seed=0, labels=("B", "A"))
    tested = pair.test("randomisation", n=1000, seed=0)
    assert repr(tested) == repr(expected)
    assert tested.mean_difference == pytest.approx(pair.differences.mean(), abs=1e-15) and tested.mean_difference > 0
    # What it prints names the difference as it is: B - A, not the parameters' a - b.
    assert f"mean difference B - A = {tested.mean_difference:+.4f}" in str(tested)
    assert "a - b" not in str(tested)
    # A caller's own labels win.
    assert "mean difference new - old" in str(pair.test("randomisation", n=100, labels=("new", "old")))


def test_metrics_that_count_judged_non_relevant_items_see_unjudged_ones_as_none():
    seen = {}

    def judged_share(relevances, k=None, *, n_nonrelevant=None, threshold=1, negative="raise"):
        """Share of the top k that was judged."""
        top = list(relevances)[:k]
        seen[tuple(top)] = n_nonrelevant
        return sum(grade is not None for grade in top) / len(top) if top else 0.0

    nt.register_metric(nt.Metric("judged_share", "Judged@{k}", "binary", judged_share, names={"judged_share.{k}": {}}))
    try:
        qrels = {"q": {"a": 2, "b": 0, "c": -1, "d": 0, "e": 1}}  # c: in the pool, unjudged (trec_eval)
        run = {"q": {"a": 0.9, "x": 0.8, "c": 0.7, "b": 0.6}}
        result = nt.evaluate(qrels, run, ["judged_share.4"])
        assert result["judged_share.4"] == 0.5  # a and b judged; x not in the qrels, c negative
        assert seen == {(2.0, None, None, 0.0): 2}  # b and d are the judged non-relevant items
    finally:
        nt.unregister_metric("judged_share")



def random_runs_against_trec_eval(tmp_path, seed, cases, measure, label):
    """For each random case trec_eval answers: the case number, pytrec_eval's values and ours for ``measure``."""
    rng = np.random.default_rng(seed)
    for case in range(cases):
        qrels_text, run_text = random_case(rng, f"{label}_{case}")
        (tmp_path / "q").write_text(deduplicated(qrels_text, (0, 2)))
        (tmp_path / "r").write_text(deduplicated(run_text, (0, 2)))
        with open(tmp_path / "q") as handle:
            qrels = pytrec_eval.parse_qrel(handle)
        with open(tmp_path / "r") as handle:
            run = pytrec_eval.parse_run(handle)
        oracle = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
        if oracle:
            yield case, oracle, nt.evaluate(tmp_path / "q", tmp_path / "r", [measure])


@pytest.mark.parametrize("measure", ["Rprec", "bpref", "success.1,5", "set_F"])
def test_metrics_of_other_modules_agree_with_trec_eval_through_their_names(tmp_path, measure):
    try:
        parse_measures(measure)
    except ValueError:
        pytest.skip(f"no registered metric is named {measure} yet")
    for case, oracle, result in random_runs_against_trec_eval(tmp_path, 7, 100, measure, f"other_{measure}"):
        for name in result.measures:
            for qid in oracle:
                assert result.value(qid, name) == pytest.approx(oracle[qid][name], abs=1e-12), (case, qid, name)


# pytrec_eval runs trec_eval 9.0.8, which has no unj (10.0): test_quicktest.py compares it with 10.0's outputs.
@pytest.mark.parametrize("family", sorted(set(TREC_EVAL_CUTOFFS) & pytrec_eval.supported_measures))
def test_a_trec_eval_name_without_cutoffs_takes_trec_evals_and_agrees_with_it(tmp_path, family):
    if any(measure.spec is None for measure in parse_measures(f"{family}.5", trec_eval="10.0")):
        pytest.skip(f"no registered metric computes {family} yet")
    compared = 0
    for case, oracle, result in random_runs_against_trec_eval(tmp_path, 11, 40, family, f"bare_{family}"):
        assert set(result.measures) == set(next(iter(oracle.values())))  # the same cut-offs, P_5 ... P_1000
        for name in result.measures:
            for qid in oracle:
                assert result.value(qid, name) == pytest.approx(oracle[qid][name], abs=1e-12), (case, qid, name)
                compared += 1
    assert compared > 100


def test_the_all_line_sums_up_each_measure_as_trec_eval_does_and_every_value_explains_itself():
    qrels = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}, "q3": {"z": 1}}
    run = {"q1": {"a": 0.9, "x": 0.8, "b": 0.1}, "q2": {"y": 0.5, "c": 0.4}}
    result = nt.evaluate(qrels, run, ["runid", "num_q", "map", "gm_map", "P.1"])
    ap = [(1 + 2 / 3) / 2, 0.5]
    assert result.means["num_q"] == 2 and result.means["map"] == pytest.approx(np.mean(ap))
    assert result.means["gm_map"] == pytest.approx(np.exp(np.mean(np.log(ap))))
    assert result.run_id == "dict" and result.lines(per_query=False)[0] == "runid                 \tall\tdict"
    assert result.explain("q1", "gm_map").value == pytest.approx(ap[0])  # a query's gm_map is its AP
    with pytest.raises(ValueError, match=r"measure num_q has no steps for one query: trec_eval prints it on the all "
                                         r"line only \(the number of queries\)"):
        result.explain("q1", "num_q")
    complete = nt.evaluate(qrels, run, ["num_q", "map", "gm_map"], complete=True)  # q3: counts, as AP 0 (1e-5)
    assert complete.means["num_q"] == 3 and complete.means["map"] == pytest.approx(sum(ap) / 3)
    assert complete.means["gm_map"] == pytest.approx(np.exp((np.log(ap).sum() + np.log(1e-5)) / 3))
    assert "\tq3\t" not in str(complete) and "\tq3\t" in str(nt.evaluate(qrels, run, ["map"], complete=True,
                                                                         trec_eval="10.0"))
    zscored = nt.evaluate(qrels, run, ["map"], zscores={("q1", "map"): (0.5, 0.25)})
    assert zscored.lines() == ["Zmap                   \tq1\t" + f"{(ap[0] - 0.5) / 0.25:6.4f}",
                               "Zmap                   \tq2\t-1000000.0000",
                               "Zmap                   \tall\t" + f"{((ap[0] - 0.5) / 0.25 - 1e6) / 2:6.4f}"]
