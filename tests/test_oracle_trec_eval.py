"""Oracle: ndcg_teach against trec_eval 9, through pytrec-eval-terrier.

What trec_eval does, read in its source and confirmed here on random queries:

* ranking (``form_res_rels.c``, ``comp_sim_docno``): by score descending, ties
  by document id descending as a string (``strcmp``: "d9" before "d10");
* gain: the qrels grade itself, linear (``m_ndcg.c``, ``m_ndcg_cut.c``);
  a grade 0 or below adds nothing; other gains need other qrels
  ("change the qrels file"), so qrels holding ``2**rel - 1`` give
  ndcg_teach's ``gain="exponential"``;
* discount: ``gain / log2(rank + 1)`` ("i+2 since doc i has rank i+1");
* ideal: every judged item with a positive grade, retrieved or not, best
  first, run to the cut-off even past the end of the run (our ``pool=``);
  ``relevance_level`` does not touch NDCG's gains;
* IDCG 0: NDCG stays 0.0;
* a negative grade (``rel < 0``) is judged but never counted, exactly like 0
  (our ``negative="zero"``); a retrieved document missing from the qrels is
  non-relevant;
* ``P.k`` divides by ``k`` even when fewer than ``k`` are retrieved
  (``m_P.c``); ``recall.k`` and ``map``/``map_cut.k`` divide by R, the
  judged items with grade >= ``relevance_level`` (``m_recall.c``,
  ``m_map.c``, ``m_map_cut.c``); ``recip_rank`` is 1 / rank of the first
  item with grade >= ``relevance_level``.

Runs are built with strictly decreasing scores so the order is unambiguous,
except in the tie test, which sorts as trec_eval does.
"""

import math

import numpy as np
import pytest
import pytrec_eval
from sklearn.metrics import ndcg_score

import ndcg_teach as nt

TOL = 1e-12
CUTOFFS = tuple(range(1, 16))
SPEC = ",".join(map(str, CUTOFFS))
MEASURES = {"ndcg", f"ndcg_cut.{SPEC}", "map", f"map_cut.{SPEC}", f"P.{SPEC}", f"recall.{SPEC}", "recip_rank"}


def random_query(rng, n_docs=60):
    """Qrels of one query (judged items, some never retrieved) and the ranked document ids."""
    n_judged = int(rng.integers(1, 13))
    ids = [f"d{j}" for j in rng.choice(n_docs, size=n_judged + 4, replace=False)]
    judged, unjudged = ids[:n_judged], ids[n_judged:]
    grades = rng.choice([-1, 0, 0, 1, 1, 2, 3, 4], size=n_judged) if rng.random() < 0.8 else rng.integers(0, 2, size=n_judged)
    qrel = {doc: int(grade) for doc, grade in zip(judged, grades)}
    retrieved = list(rng.choice(judged, size=int(rng.integers(0, n_judged + 1)), replace=False))
    retrieved += list(rng.choice(unjudged, size=int(rng.integers(0, 5)), replace=False))
    if not retrieved:
        retrieved = [judged[0]]
    rng.shuffle(retrieved)
    return qrel, [str(doc) for doc in retrieved]


def strictly_decreasing(ranking):
    return {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}


def trec_eval(qrels, runs, relevance_level=1, measures=MEASURES):
    return pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=relevance_level).evaluate(runs)


def trec_order(run):
    """Document ids as trec_eval ranks them: score descending, ties by id descending."""
    return [doc for doc, _ in sorted(run.items(), key=lambda pair: (pair[1], pair[0]), reverse=True)]


def relevances_and_pool(qrel, ranking):
    return [qrel.get(doc, 0) for doc in ranking], list(qrel.values())


def assert_agree(pairs, minimum):
    assert len(pairs) >= minimum
    bad = [(case, ours, theirs) for case, ours, theirs in pairs if not abs(ours - theirs) <= TOL]
    assert not bad, f"{len(bad)} of {len(pairs)} values disagree; first ones (case, ndcg_teach, trec_eval): {bad[:3]}"


def binary_pairs(qid, relevances, pool, level, values):
    """ndcg_teach's P@k, R@k, AP, AP@k and RR next to trec_eval's for one query and relevance level."""
    n_relevant = sum(grade >= level for grade in pool)
    keywords = dict(threshold=level, negative="zero")
    pairs = [
        ((qid, level, "map"), nt.average_precision(relevances, n_relevant=n_relevant, **keywords), values["map"]),
        ((qid, level, "recip_rank"), nt.reciprocal_rank(relevances, **keywords), values["recip_rank"]),
    ]
    for k in CUTOFFS:
        pairs += [
            ((qid, level, f"P_{k}"), nt.precision_at_k(relevances, k, **keywords), values[f"P_{k}"]),
            ((qid, level, f"recall_{k}"), nt.recall_at_k(relevances, k, n_relevant=n_relevant, **keywords), values[f"recall_{k}"]),
            ((qid, level, f"map_cut_{k}"), nt.average_precision(relevances, k=k, n_relevant=n_relevant, **keywords), values[f"map_cut_{k}"]),
        ]
    return pairs


def ndcg_pairs(qid, relevances, pool, values, gain="linear"):
    keywords = dict(pool=pool, negative="zero", gain=gain)
    pairs = [((qid, "ndcg"), nt.ndcg(relevances, **keywords), values["ndcg"])]
    pairs += [((qid, f"ndcg_cut_{k}"), nt.ndcg(relevances, k=k, **keywords), values[f"ndcg_cut_{k}"]) for k in CUTOFFS]
    return pairs


@pytest.fixture(scope="module")
def random_queries():
    rng = np.random.default_rng(20240610)
    queries = {f"q{i}": random_query(rng) for i in range(600)}
    qrels = {qid: qrel for qid, (qrel, _) in queries.items()}
    runs = {qid: strictly_decreasing(ranking) for qid, (_, ranking) in queries.items()}
    return queries, qrels, runs


def test_ndcg_and_ndcg_cut_equal_trec_eval_with_the_pool(random_queries):
    queries, qrels, runs = random_queries
    results = trec_eval(qrels, runs)
    pairs = []
    for qid, (qrel, ranking) in queries.items():
        pairs += ndcg_pairs(qid, *relevances_and_pool(qrel, ranking), results[qid])
    assert_agree(pairs, 600 * 16)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_precision_recall_ap_rr_equal_trec_eval_at_each_relevance_level(random_queries, level):
    queries, qrels, runs = random_queries
    results = trec_eval(qrels, runs, relevance_level=level)
    pairs = []
    for qid, (qrel, ranking) in queries.items():
        pairs += binary_pairs(qid, *relevances_and_pool(qrel, ranking), level, results[qid])
    assert_agree(pairs, 600 * 47)


def test_relevance_level_never_changes_trec_eval_ndcg(random_queries):
    _, qrels, runs = random_queries
    measures = {"ndcg", "ndcg_cut.5"}
    at_one, at_three = trec_eval(qrels, runs, 1, measures), trec_eval(qrels, runs, 3, measures)
    assert at_one == at_three


def test_means_over_queries_equal_trec_eval_aggregates(random_queries):
    queries, qrels, runs = random_queries
    results = trec_eval(qrels, runs)
    lists = [relevances_and_pool(qrel, ranking) for qrel, ranking in queries.values()]

    def aggregate(measure):
        return pytrec_eval.compute_aggregated_measure(measure, [values[measure] for values in results.values()])

    rankings = [rel for rel, _ in lists]
    pools = [pool for _, pool in lists]
    totals = [sum(g >= 1 for g in pool) for pool in pools]
    assert nt.mean_ndcg(rankings, k=10, per_query={"pool": pools}, negative="zero") == pytest.approx(aggregate("ndcg_cut_10"), abs=TOL)
    assert nt.mean_reciprocal_rank(rankings, negative="zero") == pytest.approx(aggregate("recip_rank"), abs=TOL)
    assert nt.mean_average_precision(rankings, per_query={"n_relevant": totals}, negative="zero") == pytest.approx(aggregate("map"), abs=TOL)


def test_exponential_gain_equals_trec_eval_given_exponential_qrels(random_queries):
    # trec_eval's help: "if you want different gains, change the qrels file".
    queries, qrels, runs = random_queries
    exponential = {qid: {doc: (2**grade - 1 if grade > 0 else grade) for doc, grade in qrel.items()} for qid, qrel in qrels.items()}
    results = trec_eval(exponential, runs, measures={"ndcg", f"ndcg_cut.{SPEC}"})
    pairs = []
    for qid, (qrel, ranking) in queries.items():
        pairs += ndcg_pairs(qid, *relevances_and_pool(qrel, ranking), results[qid], gain="exponential")
    assert_agree(pairs, 600 * 16)


def test_tied_scores_are_ordered_by_document_id_descending():
    rng = np.random.default_rng(20240611)
    qrels, runs, orders = {}, {}, {}
    for i in range(400):
        qrel, ranking = random_query(rng, n_docs=int(rng.integers(16, 200)))
        run = {doc: float(rng.integers(0, 3)) for doc in ranking}
        qrels[f"q{i}"], runs[f"q{i}"], orders[f"q{i}"] = qrel, run, trec_order(run)
    results = trec_eval(qrels, runs)
    pairs = []
    for qid, order in orders.items():
        relevances, pool = relevances_and_pool(qrels[qid], order)
        pairs += ndcg_pairs(qid, relevances, pool, results[qid])
        pairs += binary_pairs(qid, relevances, pool, 1, results[qid])
    assert_agree(pairs, 400 * 63)


def test_tie_order_is_by_string_not_by_number_nor_input_order():
    # "b" > "a" and "d9" > "d10" as strings: the later id in string order comes first.
    for first, second in [("a", "b"), ("d10", "d9")]:
        qrels = {"q": {first: 1, second: 0}}
        result = trec_eval(qrels, {"q": {first: 1.0, second: 1.0}}, measures={"recip_rank"})
        assert result["q"]["recip_rank"] == 0.5
    assert trec_order({"d10": 1.0, "d9": 1.0, "d2": 2.0}) == ["d2", "d9", "d10"]


def test_design_reference_value_matches_trec_eval():
    qrels = {"q": {"a": 5, "b": 2, "c": 3}}
    result = trec_eval(qrels, {"q": strictly_decreasing(["a", "b", "c"])}, measures={"ndcg_cut.3"})
    assert result["q"]["ndcg_cut_3"] == pytest.approx(0.98341147226327856, abs=TOL)
    assert nt.ndcg([5, 2, 3], k=3, pool=[5, 2, 3]) == pytest.approx(result["q"]["ndcg_cut_3"], abs=TOL)


# Documented differences ------------------------------------------------------


def test_difference_ideal_from_the_list_or_from_the_qrels():
    # A grade-3 item was judged but never retrieved. scikit-learn (and
    # ndcg_teach's default) build the ideal from the list: a perfect 1.0.
    # trec_eval builds it from every judged item: missing it costs NDCG.
    qrels = {"q": {"a": 3, "b": 2, "c": 0, "z": 3}}
    ranking = ["a", "b", "c"]
    result = trec_eval(qrels, {"q": strictly_decreasing(ranking)}, measures={"ndcg_cut.3"})["q"]["ndcg_cut_3"]
    relevances, pool = relevances_and_pool(qrels["q"], ranking)
    assert ndcg_score([relevances], [[3, 2, 1]], k=3) == 1.0 == nt.ndcg(relevances, k=3)
    expected = (3 + 2 / math.log2(3)) / (3 + 3 / math.log2(3) + 2 / 2)
    assert result == pytest.approx(expected, abs=TOL)
    assert nt.ndcg(relevances, k=3, pool=pool) == pytest.approx(result, abs=TOL)


def test_difference_the_ideal_runs_to_k_past_a_short_run():
    qrels = {"q": {"a": 1, "b": 1, "c": 1}}
    result = trec_eval(qrels, {"q": {"a": 1.0}}, measures={"ndcg_cut.1,3"})["q"]
    assert result["ndcg_cut_1"] == 1.0
    assert result["ndcg_cut_3"] == pytest.approx(1 / (1 + 1 / math.log2(3) + 1 / 2), abs=TOL)
    assert nt.ndcg([1], k=3, pool=[1, 1, 1]) == pytest.approx(result["ndcg_cut_3"], abs=TOL)
    assert nt.ndcg([1], k=3) == 1.0


def test_difference_precision_of_a_short_run_divides_by_k():
    # 1 relevant of 2 retrieved: trec_eval's P_5 is 1/5, torchmetrics'
    # adaptive_k and Evidently divide by the 2 retrieved.
    qrels = {"q": {"a": 1, "b": 0}}
    result = trec_eval(qrels, {"q": strictly_decreasing(["a", "b"])}, measures={"P.5"})["q"]["P_5"]
    assert result == 0.2 == nt.precision_at_k([1, 0], 5)
    assert nt.precision_at_k([1, 0], 5, adaptive_k=True) == 0.5


def test_difference_ap_denominators():
    # Relevant: a, c (retrieved) and z (never retrieved).
    qrels = {"q": {"a": 1, "b": 0, "c": 1, "z": 1}}
    result = trec_eval(qrels, {"q": strictly_decreasing(["a", "b", "c"])}, measures={"map", "map_cut.2"})["q"]
    hits = (1 / 1 + 2 / 3)
    assert result["map"] == pytest.approx(hits / 3, abs=TOL)
    assert nt.average_precision([1, 0, 1], n_relevant=3) == pytest.approx(result["map"], abs=TOL)
    assert nt.average_precision([1, 0, 1]) == pytest.approx(hits / 2, abs=TOL)
    assert result["map_cut_2"] == pytest.approx(1 / 3, abs=TOL)
    assert nt.average_precision([1, 0, 1], k=2, n_relevant=3) == pytest.approx(result["map_cut_2"], abs=TOL)
    assert nt.average_precision([1, 0, 1], k=2, n_relevant=min(3, 2)) == pytest.approx(1 / 2, abs=TOL)


def test_difference_negative_grades_are_judged_non_relevant():
    qrels = {"q": {"a": -1, "b": 2, "c": 0}}
    result = trec_eval(qrels, {"q": strictly_decreasing(["a", "b", "c"])}, measures={"ndcg", "P.3", "map"})["q"]
    assert result["ndcg"] == pytest.approx(nt.ndcg([-1, 2, 0], pool=[-1, 2, 0], negative="zero"), abs=TOL)
    assert result["ndcg"] == pytest.approx(nt.ndcg([0, 2, 0], pool=[0, 2, 0]), abs=TOL)
    assert result["P_3"] == pytest.approx(1 / 3, abs=TOL)
    assert result["map"] == 0.5
    with pytest.raises(ValueError, match="negative='zero'"):
        nt.ndcg([-1, 2, 0])


def test_difference_trec_eval_takes_integer_grades_only():
    with pytest.raises(TypeError, match="integer"):
        pytrec_eval.RelevanceEvaluator({"q": {"a": 1.5}}, {"ndcg"})
    assert nt.ndcg([1.5, 0.0], pool=[1.5, 0.0]) == 1.0


def test_difference_nothing_relevant_scores_zero_everywhere():
    qrels = {"q": {"a": 0, "b": 0}}
    result = trec_eval(qrels, {"q": strictly_decreasing(["a", "b"])}, measures={"ndcg", "ndcg_cut.2", "map", "recip_rank", "P.2", "recall.2"})
    assert set(result["q"].values()) == {0.0}
    assert nt.ndcg([0, 0], pool=[0, 0]) == 0.0
    assert nt.recall_at_k([0, 0], 2) == 0.0 == nt.average_precision([0, 0], n_relevant=0)
