"""Oracle: unjudged documents, bpref and condensed lists against trec_eval 9 (pytrec-eval-terrier).

What trec_eval does with documents nobody judged, read in ``form_res_rels.c``
and ``m_bpref.c`` and confirmed here on random queries:

* a retrieved document missing from the qrels, or in them with a negative
  grade ("in the pool but unjudged"), is unjudged: ndcg_teach's ``None``;
* every measure but bpref reads an unjudged document as not relevant: our
  metrics on the list with ``None`` written as 0;
* bpref skips unjudged documents; R counts the qrels with grade >=
  ``relevance_level``, N those with 0 <= grade < ``relevance_level``;
* ``-J`` (``judged_docs_only_flag``) drops the unjudged documents before
  ranking: our metrics on :func:`ndcg_teach.condensed` lists, with the same
  pool and R.
"""

import numpy as np
import pytest
import pytrec_eval

import ndcg_teach as nt

TOL = 1e-12
CUTOFFS = (1, 2, 3, 5, 10)
SPEC = ",".join(map(str, CUTOFFS))
QUERIES = 800


def random_query(rng):
    """Qrels of one query and its ranking, with unjudged documents (absent, or graded -1) among those retrieved."""
    n_judged = int(rng.integers(1, 13))
    ids = [f"d{j}" for j in rng.choice(200, size=n_judged + 8, replace=False)]
    judged, absent = ids[:n_judged], ids[n_judged:]
    qrel = {doc: int(grade) for doc, grade in zip(judged, rng.choice([-1, 0, 0, 1, 1, 2, 3, 4], size=n_judged))}
    retrieved = list(rng.choice(judged, size=int(rng.integers(0, n_judged + 1)), replace=False))
    retrieved += list(rng.choice(absent, size=int(rng.integers(0, 8)), replace=False))
    rng.shuffle(retrieved)
    return qrel, [str(doc) for doc in retrieved] or [judged[0]]


def with_unjudged(qrel, ranking):
    """Our grades: None for a document trec_eval treats as unjudged."""
    return [None if qrel.get(doc, -1) < 0 else qrel[doc] for doc in ranking]


def as_not_relevant(relevances):
    return [0 if grade is None else grade for grade in relevances]


@pytest.fixture(scope="module")
def collection():
    rng = np.random.default_rng(20261122)
    queries = {f"q{i}": random_query(rng) for i in range(QUERIES)}
    qrels = {qid: qrel for qid, (qrel, _) in queries.items()}
    runs = {qid: {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)} for qid, (_, ranking) in queries.items()}
    return queries, qrels, runs


def counts(qrel, level):
    """R and N as trec_eval counts them from the qrels."""
    grades = list(qrel.values())
    return sum(g >= level for g in grades), sum(0 <= g < level for g in grades)


def assert_agree(pairs, minimum):
    assert len(pairs) >= minimum
    bad = [(case, ours, theirs) for case, ours, theirs in pairs if not abs(ours - theirs) <= TOL]
    assert not bad, f"{len(bad)} of {len(pairs)} values disagree; first ones (case, ndcg_teach, trec_eval): {bad[:3]}"


def measure_pairs(qid, relevances, qrel, level, values, cut=None):
    """Every measure of trec_eval next to ours on ``relevances`` (unjudged already dropped or read as 0)."""
    pool = [g for g in qrel.values() if g >= 0]
    n_relevant, _ = counts(qrel, level)
    binary = dict(threshold=level, negative="zero")
    pairs = [
        ((qid, level, "map"), nt.average_precision(relevances, n_relevant=n_relevant, **binary), values["map"]),
        ((qid, level, "recip_rank"), nt.reciprocal_rank(relevances, **binary), values["recip_rank"]),
        ((qid, level, "Rprec"), nt.r_precision(relevances, n_relevant=n_relevant, **binary), values["Rprec"]),
        ((qid, level, "ndcg"), nt.ndcg(relevances, pool=pool, negative="zero"), values["ndcg"]),
    ]
    for k in CUTOFFS:
        pairs += [
            ((qid, level, f"P_{k}"), nt.precision_at_k(relevances, k, **binary), values[f"P_{k}"]),
            ((qid, level, f"recall_{k}"), nt.recall_at_k(relevances, k, n_relevant=n_relevant, **binary),
             values[f"recall_{k}"]),
            ((qid, level, f"ndcg_cut_{k}"), nt.ndcg(relevances, k, pool=pool, negative="zero"), values[f"ndcg_cut_{k}"]),
        ]
    return pairs


MEASURES = {"map", "recip_rank", "Rprec", "ndcg", f"P.{SPEC}", f"recall.{SPEC}", f"ndcg_cut.{SPEC}", "bpref"}


@pytest.mark.parametrize("level", [1, 2])
def test_bpref_equals_trec_eval_and_skips_unjudged_documents(collection, level):
    queries, qrels, runs = collection
    results = pytrec_eval.RelevanceEvaluator(qrels, {"bpref"}, relevance_level=level).evaluate(runs)
    pairs = []
    for qid, (qrel, ranking) in queries.items():
        n_relevant, n_nonrelevant = counts(qrel, level)
        ours = nt.bpref(with_unjudged(qrel, ranking), n_relevant=n_relevant, n_nonrelevant=n_nonrelevant,
                        threshold=level)
        pairs.append(((qid, level), ours, results[qid]["bpref"]))
    assert_agree(pairs, QUERIES)


@pytest.mark.parametrize("level", [1, 2])
def test_every_other_measure_reads_unjudged_documents_as_not_relevant(collection, level):
    queries, qrels, runs = collection
    results = pytrec_eval.RelevanceEvaluator(qrels, MEASURES, relevance_level=level).evaluate(runs)
    pairs = []
    for qid, (qrel, ranking) in queries.items():
        pairs += measure_pairs(qid, as_not_relevant(with_unjudged(qrel, ranking)), qrel, level, results[qid])
    assert_agree(pairs, QUERIES * 19)


@pytest.mark.parametrize("level", [1, 2])
def test_judged_only_flag_equals_every_measure_on_the_condensed_list(collection, level):
    queries, qrels, runs = collection
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, MEASURES, relevance_level=level, judged_docs_only_flag=True)
    results = evaluator.evaluate(runs)
    pairs = []
    for qid, (qrel, ranking) in queries.items():
        if qid not in results:
            continue  # trec_eval -J skips a query whose run holds no judged document
        relevances = nt.condensed(with_unjudged(qrel, ranking))
        pairs += measure_pairs(qid, relevances, qrel, level, results[qid])
        n_relevant, n_nonrelevant = counts(qrel, level)
        pairs.append(((qid, level, "bpref -J"), nt.bpref(relevances, n_relevant=n_relevant, n_nonrelevant=n_nonrelevant,
                                                         threshold=level), results[qid]["bpref"]))
    assert_agree(pairs, QUERIES * 15)


def test_bpref_is_the_same_with_or_without_the_judged_only_flag(collection):
    # bpref never looks at unjudged documents, so dropping them first changes nothing.
    _, qrels, runs = collection
    plain = pytrec_eval.RelevanceEvaluator(qrels, {"bpref"}).evaluate(runs)
    judged = pytrec_eval.RelevanceEvaluator(qrels, {"bpref"}, judged_docs_only_flag=True).evaluate(runs)
    assert {qid: values["bpref"] for qid, values in judged.items()} == {qid: plain[qid]["bpref"] for qid in judged}
