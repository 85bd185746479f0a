"""Oracle: R-precision, success@k, F and the interpolated precision-recall curve against trec_eval 9.

What trec_eval does, read in its source and confirmed here on random queries:

* ``Rprec`` (``m_Rprec.c``): relevant items in the top R / R, missing
  positions of a short run counted as misses; 0 when R = 0;
* ``success.k`` (``m_success.c``): 1 if a relevant item is in the top k;
* ``set_F.x`` (``m_set_F.c``): ``(x + 1) P R / (R + x P)`` over the whole run,
  so its parameter x is our ``beta ** 2``; 0 when nothing relevant is retrieved;
* ``iprec_at_recall`` (``m_iprec_at_recall.c``, release 9.0.8): a recall
  level counts as reached at ``(long) (level * R + 0.9)`` relevant items, and
  its value is the best precision at any rank from there on; ``11pt_avg``
  is the mean of the 11 values.
"""

import numpy as np
import pytest
import pytrec_eval

import ndcg_teach as nt
from ndcg_teach.core.metrics.pr_curve import level_counts

TOL = 1e-12
SUCCESS = (1, 2, 3, 5, 10, 20)
BETAS = (0.5, 1.0, 2.0)
QUERIES = 1000


def random_query(rng):
    """Qrels of one query (some judged items never retrieved, some retrieved items never judged) and its ranking."""
    n_judged = int(rng.integers(1, 16))
    ids = [f"d{j}" for j in rng.choice(300, size=n_judged + 6, replace=False)]
    judged, unjudged = ids[:n_judged], ids[n_judged:]
    qrel = {doc: int(grade) for doc, grade in zip(judged, rng.choice([0, 0, 1, 1, 2, 3], size=n_judged))}
    retrieved = list(rng.choice(judged, size=int(rng.integers(0, n_judged + 1)), replace=False))
    retrieved += list(rng.choice(unjudged, size=int(rng.integers(0, 6)), replace=False))
    rng.shuffle(retrieved)
    return qrel, [str(doc) for doc in retrieved] or [judged[0]]


@pytest.fixture(scope="module")
def collection():
    rng = np.random.default_rng(20261123)
    queries = {f"q{i}": random_query(rng) for i in range(QUERIES)}
    qrels = {qid: qrel for qid, (qrel, _) in queries.items()}
    runs = {qid: {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)} for qid, (_, ranking) in queries.items()}
    lists = {qid: ([qrel.get(doc, 0) for doc in ranking], list(qrel.values())) for qid, (qrel, ranking) in queries.items()}
    return lists, qrels, runs


def assert_agree(pairs, minimum):
    assert len(pairs) >= minimum
    bad = [(case, ours, theirs) for case, ours, theirs in pairs if not abs(ours - theirs) <= TOL]
    assert not bad, f"{len(bad)} of {len(pairs)} values disagree; first ones (case, ndcg_teach, trec_eval): {bad[:3]}"


@pytest.mark.parametrize("level", [1, 2, 3])
def test_rprec_success_and_set_f_equal_trec_eval(collection, level):
    lists, qrels, runs = collection
    # One evaluator per beta: trec_eval takes one set_F parameter per run (x = beta ** 2).
    measures = {"Rprec", f"success.{','.join(map(str, SUCCESS))}"}
    results = {beta: pytrec_eval.RelevanceEvaluator(qrels, measures | {f"set_F.{beta**2}"}, relevance_level=level)
               .evaluate(runs) for beta in BETAS}
    pairs = []
    for qid, (relevances, pool) in lists.items():
        n_relevant = sum(g >= level for g in pool)
        values = results[1.0][qid]
        pairs.append(((qid, level, "Rprec"), nt.r_precision(relevances, n_relevant=n_relevant, threshold=level),
                      values["Rprec"]))
        pairs += [((qid, level, f"success_{k}"), nt.success_at_k(relevances, k, threshold=level), values[f"success_{k}"])
                  for k in SUCCESS]
        pairs += [((qid, level, f"set_F beta={beta}"), nt.f_measure(relevances, beta=beta, n_relevant=n_relevant,
                                                                    threshold=level), results[beta][qid]["set_F"])
                  for beta in BETAS]
    assert_agree(pairs, QUERIES * 10)


@pytest.mark.parametrize("level", [1, 2])
def test_interpolated_precision_at_the_eleven_recall_levels_equals_trec_eval(collection, level):
    lists, qrels, runs = collection
    results = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall", "11pt_avg"}, relevance_level=level).evaluate(runs)
    pairs = []
    for qid, (relevances, pool) in lists.items():
        curve = nt.precision_recall_curve(relevances, n_relevant=sum(g >= level for g in pool), threshold=level)
        values = results[qid]
        pairs += [((qid, level, f"iprec_at_recall_{r:.2f}"), float(ours), values[f"iprec_at_recall_{r:.2f}"])
                  for r, ours in zip(curve.levels, curve.at_levels)]
        pairs.append(((qid, level, "11pt_avg"), curve.eleven_point_average, values["11pt_avg"]))
        explained = nt.explain_precision_recall_curve(relevances, n_relevant=sum(g >= level for g in pool),
                                                      threshold=level)
        pairs.append(((qid, level, "11pt_avg trace"), explained.value, values["11pt_avg"]))
    assert_agree(pairs, QUERIES * 13)


def test_the_rounding_quirk_where_trec_eval_and_the_textbook_disagree():
    # R = 3: 0.7 * 3 is stored as 2.0999..., so trec_eval 9.0.8 reaches recall 0.7 at the second relevant item.
    qrels = {"q": {"a": 1, "b": 1, "c": 1, "x": 0, "y": 0, "z": 0}}
    run = {"q": {"a": 6.0, "b": 5.0, "x": 4.0, "y": 3.0, "z": 2.0, "c": 1.0}}
    trec = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"}).evaluate(run)["q"]
    relevances = [1, 1, 0, 0, 0, 1]  # P@i = 1, 1, 2/3, 1/2, 2/5, 1/2
    assert level_counts(3, "trec_eval")[7] == 2 and level_counts(3, "textbook")[7] == 3
    assert nt.precision_recall_curve(relevances).at_levels[7] == trec["iprec_at_recall_0.70"] == 1.0
    assert nt.precision_recall_curve(relevances, convention="textbook").at_levels[7] == 0.5  # recall 0.7 needs all 3


def test_textbook_levels_are_exactly_recall_at_least_the_level():
    for n_relevant in range(0, 60):
        counts = level_counts(n_relevant, "textbook")
        for i, count in enumerate(counts):
            # the fewest relevant items whose recall count / R reaches i / 10, in whole numbers
            assert count * 10 >= i * n_relevant and (count == 0 or (count - 1) * 10 < i * n_relevant)
