"""Lesson 17's numbers, recomputed without the library: pytrec_eval (BEIR's own scorer), scikit-learn and plain Python.

Each test states the numbers the lesson prints (rounded as printed) and derives them from the
collections' judgements and runs by another route than ``ndcg_teach``'s: pytrec_eval for nDCG@10 and
recall@k (per query, to 1e-12), scikit-learn's ``ndcg_score`` for the perfect reranker, counting for
judged@10 and the macro and micro means.
"""

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

import ndcg_teach as nt

pytrec_eval = pytest.importorskip("pytrec_eval")
metrics = pytest.importorskip("sklearn.metrics")

COLLECTIONS = nt.rag_collections()
SYSTEMS = ("retriever", "reranker")
_TAGS = itertools.count()


def trec(qrels, run, measures):
    """{qid: {measure: value}} from pytrec_eval, under fresh query ids (trec_eval inside it caches a query by id)."""
    tag = f"t{next(_TAGS)}-"
    scored = pytrec_eval.RelevanceEvaluator({tag + q: d for q, d in qrels.items()}, set(measures)).evaluate(
        {tag + q: d for q, d in run.items()})
    return {q[len(tag):]: values for q, values in scored.items()}


def mean(qrels, run, measure):
    return float(np.mean([values[measure] for values in trec(qrels, run, {measure.rsplit("_", 1)[0]}).values()]))


def top(run, qid, k):
    """trec_eval's order: score descending, ties by passage id descending."""
    return sorted(run[qid], key=lambda doc: (run[qid][doc], doc), reverse=True)[:k]


@pytest.mark.parametrize("name", list(COLLECTIONS))
@pytest.mark.parametrize("system", SYSTEMS)
def test_per_query_ndcg_and_recall_agree_with_pytrec_eval(name, system):
    collection = COLLECTIONS[name]
    run = collection.runs[system]
    for qrels in (collection.qrels, collection.complete_qrels):
        oracle = trec(qrels, run, {"ndcg_cut", "recall"})
        library = nt.evaluate(qrels, run, ["ndcg_cut.10", "recall.5", "recall.10", "recall.20", "recall.100"])
        for measure in ("ndcg_cut_10", "recall_5", "recall_10", "recall_20", "recall_100"):
            values = dict(zip(library.queries, library.per_query[measure]))
            assert set(values) == set(oracle)
            assert all(abs(values[q] - oracle[q][measure]) < 1e-12 for q in oracle), (measure, qrels is collection.qrels)


def test_section_2s_query_by_scikit_learn():
    nutrition = COLLECTIONS["nutrition"]
    qid, run = "nutrition-03", nutrition.runs["reranker"]["nutrition-03"]
    judged = nutrition.qrels[qid]
    docs = sorted(set(judged) | set(run))
    ranks = {doc: rank for rank, doc in enumerate(top(nutrition.runs["reranker"], qid, 100))}
    y_true = [[judged.get(doc, 0) for doc in docs]]
    y_score = [[len(ranks) - ranks[doc] if doc in ranks else -1 for doc in docs]]
    assert round(metrics.ndcg_score(y_true, y_score, k=10), 4) == 0.6677
    gains = [judged.get(doc, 0) for doc in top(nutrition.runs["reranker"], qid, 10)]
    assert round(sum(g / math.log2(i + 2) for i, g in enumerate(gains)), 4) == 4.4565
    assert sum(g > 0 for g in judged.values()) == 11


def test_section_3s_macro_and_micro_means():
    printed = {"retriever": (0.5518, 0.5170), "reranker": (0.6462, 0.6333)}
    for system, (macro, micro) in printed.items():
        per_collection = [[v["ndcg_cut_10"] for v in trec(c.qrels, c.runs[system], {"ndcg_cut"}).values()]
                          for c in COLLECTIONS.values()]
        assert round(sum(sum(v) / len(v) for v in per_collection) / len(per_collection), 4) == macro
        assert round(sum(map(sum, per_collection)) / sum(map(len, per_collection)), 4) == micro
    assert round(40 / 107, 4) == 0.3738 and sum(len(c.queries) for c in COLLECTIONS.values()) == 107


def test_section_4s_judged_at_10_and_the_four_readings_of_pandemic():
    printed_judged = {"claims": (0.1267, 0.1467), "nutrition": (1.0, 0.77), "pandemic": (0.9583, 0.8083),
                      "finance": (0.0760, 0.1160)}
    for name, collection in COLLECTIONS.items():
        for system, expected in zip(SYSTEMS, printed_judged[name]):
            run = collection.runs[system]
            shares = [sum(doc in collection.qrels[q] for doc in top(run, q, 10)) / 10 for q in collection.queries]
            assert round(float(np.mean(shares)), 4) == expected
            library = nt.evaluate(collection.qrels, run, ["unj.10"]).per_query["unj_10"]
            assert abs((1 - library.mean()) - np.mean(shares)) < 1e-12

    pandemic = COLLECTIONS["pandemic"]
    assert [pandemic.qrels["pandemic-02"].get(doc) for doc in top(pandemic.runs["reranker"], "pandemic-02", 10)] == [
        2, 2, 2, 2, 2, 2, None, None, None, 1]
    one = {qrels is pandemic.qrels: trec(qrels, pandemic.runs["reranker"], {"ndcg_cut"})["pandemic-02"]["ndcg_cut_10"]
           for qrels in (pandemic.qrels, pandemic.complete_qrels)}
    assert (round(one[True], 4), round(one[False], 4)) == (0.7841, 0.9351)
    holes = {q: dict(d) for q, d in pandemic.qrels.items()}
    for system, q in itertools.product(SYSTEMS, pandemic.queries):
        for doc in top(pandemic.runs[system], q, 10):
            holes[q].setdefault(doc, pandemic.complete_qrels[q][doc])
    assert sum(len(holes[q]) - len(pandemic.qrels[q]) for q in pandemic.queries) == 27
    condensed = {s: {q: {d: v for d, v in docs.items() if d in pandemic.qrels[q]} for q, docs in run.items()}
                 for s, run in pandemic.runs.items()}
    printed = {"holes as 0": (0.8621, 0.8314), "condensed": (0.8828, 0.9393), "holes judged": (0.8620, 0.9710),
               "truth": (0.8600, 0.9686)}
    readings = {"holes as 0": lambda s: mean(pandemic.qrels, pandemic.runs[s], "ndcg_cut_10"),
                "condensed": lambda s: mean(pandemic.qrels, condensed[s], "ndcg_cut_10"),
                "holes judged": lambda s: mean(holes, pandemic.runs[s], "ndcg_cut_10"),
                "truth": lambda s: mean(pandemic.complete_qrels, pandemic.runs[s], "ndcg_cut_10")}
    for reading, score in readings.items():
        assert tuple(round(score(s), 4) for s in SYSTEMS) == printed[reading]


def test_section_5s_recall():
    printed = {"retriever": (0.3002, 0.4344, 0.5697, 0.7877), "reranker": (0.3971, 0.5078, 0.6470, 0.7877)}
    for system, expected in printed.items():
        macro = [np.mean([mean(c.qrels, c.runs[system], f"recall_{k}") for c in COLLECTIONS.values()])
                 for k in (5, 10, 20, 100)]
        assert tuple(round(float(m), 4) for m in macro) == expected
    finance = COLLECTIONS["finance"]
    order = top(finance.runs["retriever"], "finance-21", 100)
    relevant = [d for d, g in finance.qrels["finance-21"].items() if g > 0]
    assert sorted(order.index(d) + 1 for d in relevant if d in order) == [1, 18, 42] and len(relevant) == 4
    pandemic = COLLECTIONS["pandemic"]
    assert round(mean(pandemic.qrels, pandemic.runs["retriever"], "recall_100"), 4) == 1.0
    assert round(mean(pandemic.complete_qrels, pandemic.runs["retriever"], "recall_100"), 4) == 0.6919


def perfect(truth, retrieved, k=10):
    """scikit-learn's NDCG@k of the retrieved passages sorted by true grade, the ideal from every candidate."""
    docs = sorted(truth)
    y_score = [[truth[d] + 10 if d in retrieved else 0 for d in docs]]
    return metrics.ndcg_score([[truth[d] for d in docs]], y_score, k=k)


def test_section_6s_perfect_reranker_and_the_explorer_by_scikit_learn():
    printed = {"claims": (0.5418, 0.6514, 0.8538, 0.8389), "nutrition": (0.5758, 0.7125, 0.8887, 0.6252),
               "pandemic": (0.8600, 0.9686, 0.9973, 0.6919), "finance": (0.2274, 0.3897, 0.7325, 0.6867)}
    for name, collection in COLLECTIONS.items():
        truth = collection.complete_qrels
        ceiling = np.mean([perfect(truth[q], set(collection.runs["retriever"][q])) for q in collection.queries])
        got = (mean(truth, collection.runs["retriever"], "ndcg_cut_10"),
               mean(truth, collection.runs["reranker"], "ndcg_cut_10"), ceiling,
               mean(truth, collection.runs["reranker"], "recall_100"))
        assert tuple(round(float(v), 4) for v in got) == printed[name]
    finance = COLLECTIONS["finance"]
    truth, run = finance.complete_qrels["finance-21"], finance.runs["retriever"]
    top_20 = top(run, "finance-21", 20)
    ideal = sum(g / math.log2(i + 2) for i, g in enumerate(sorted(truth.values(), reverse=True)[:10]))
    as_retrieved = sum(truth[d] / math.log2(i + 2) for i, d in enumerate(top_20[:10])) / ideal
    assert round(as_retrieved, 4) == 0.3904
    assert round(perfect(truth, set(top_20)), 4) == 0.6367
    assert round(perfect(truth, set(run["finance-21"])), 4) == 0.8319


def printed_lines(marker):
    """The lines printed by lesson 17's code cell whose source contains ``marker``."""
    notebook = json.loads((Path(__file__).resolve().parent.parent / "notebooks" / "17-evaluating-retrieval-for-rag.ipynb")
                          .read_text(encoding="utf-8"))
    cells = [c for c in notebook["cells"] if c["cell_type"] == "code" and marker in "".join(c["source"])]
    assert len(cells) == 1, marker
    return "".join("".join(o.get("text", "")) for o in cells[0]["outputs"]).splitlines()


def idcg_at_10(grades):
    return sum(g / math.log2(i + 2) for i, g in enumerate(sorted(grades, reverse=True)[:10]))


def test_section_2s_relevant_positions_in_the_rerankers_100():
    nutrition = COLLECTIONS["nutrition"]
    order = top(nutrition.runs["reranker"], "nutrition-03", 10**6)
    relevant = [d for d, g in nutrition.qrels["nutrition-03"].items() if g > 0]
    positions = sorted(order.index(d) + 1 for d in relevant if d in order)
    missing = len(relevant) - len(positions)
    assert (len(order), positions, missing) == (100, [1, 2, 4, 7, 80], 6)
    assert (f"positions of its relevant passages among the reranker's {len(order)}: {positions}, {missing} not retrieved"
            in printed_lines("positions of its relevant passages"))


def test_section_4s_ideal_top_10_short_of_the_truths():
    pandemic = COLLECTIONS["pandemic"]
    holes = {q: dict(d) for q, d in pandemic.qrels.items()}
    for system, q in itertools.product(SYSTEMS, pandemic.queries):
        for doc in top(pandemic.runs[system], q, 10):
            holes[q].setdefault(doc, pandemic.complete_qrels[q][doc])
    truth = {q: idcg_at_10(pandemic.complete_qrels[q].values()) for q in pandemic.queries}
    short = {reading: [q for q in pandemic.queries if idcg_at_10(qrels[q].values()) < truth[q] - 1e-12]
             for reading, qrels in (("shipped judgements", pandemic.qrels), ("holes judged", holes))}
    assert short == {"shipped judgements": ["pandemic-02", "pandemic-06", "pandemic-07"], "holes judged": ["pandemic-06"]}
    lines = printed_lines("truth_idcg")
    for reading, queries in short.items():
        assert f"IDCG@10 below the truth's, {reading}: {queries}" in lines

    printed = {"shipped judgements": (15, [2] * 8 + [1] * 2, 8.4970), "holes judged": (16, [2] * 9 + [1], 8.7981),
               "truth": (28, [2] * 10, 9.0871)}
    for reading, qrels in (("shipped judgements", pandemic.qrels), ("holes judged", holes),
                           ("truth", pandemic.complete_qrels)):
        grades = list(qrels["pandemic-06"].values())
        got = (sum(g > 0 for g in grades), sorted(grades, reverse=True)[:10], round(idcg_at_10(grades), 4))
        assert got == printed[reading]
        assert (f"pandemic-06, {reading}: {got[0]} relevant passages judged, ideal top 10 {got[1]}, "
                f"IDCG@10 = {got[2]:.4f}") in lines
        # pytrec_eval's route to the same IDCG@10: a run of one grade-2 passage has nDCG@10 = 2 / IDCG@10.
        best = max(qrels["pandemic-06"], key=qrels["pandemic-06"].get)
        one = trec({"pandemic-06": qrels["pandemic-06"]}, {"pandemic-06": {best: 1.0}}, {"ndcg_cut"})
        assert round(2 / one["pandemic-06"]["ndcg_cut_10"], 4) == printed[reading][2]


def prose(marker):
    """The markdown cell of lesson 17 (English) that contains ``marker``."""
    notebook = json.loads((Path(__file__).resolve().parent.parent / "notebooks" / "17-evaluating-retrieval-for-rag.ipynb")
                          .read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown" and marker in "".join(c["source"])]
    assert len(cells) == 1, marker
    return cells[0]


def test_section_4s_prose_on_the_holes_by_counting():
    """What section 4's prose says of the holes, counted here passage by passage."""
    pandemic, nutrition = COLLECTIONS["pandemic"], COLLECTIONS["nutrition"]
    found = [pandemic.complete_qrels["pandemic-02"][d] for d in top(pandemic.runs["reranker"], "pandemic-02", 10)
             if d not in pandemic.qrels["pandemic-02"]]
    assert sorted(found) == [1, 2, 2]
    assert "All three holes are relevant, two of grade 2 and one of grade 1" in prose("All three holes are relevant")

    holes = {s: sum(d not in pandemic.qrels[q] for q in pandemic.queries for d in top(pandemic.runs[s], q, 10))
             for s in SYSTEMS}
    assert holes == {"retriever": 5, "reranker": 23} and 4 * holes["retriever"] < holes["reranker"]
    reading = prose("Read judged@10 with the way each collection was judged.")
    assert "more than four times as many holes" in reading

    relevant = [sum(g > 0 for g in COLLECTIONS[n].complete_qrels[q].values())
                for n in ("claims", "finance") for q in COLLECTIONS[n].queries]
    assert (min(relevant), max(relevant)) == (1, 4) and "with 1 to 4 relevant passages per query" in reading
    assert all(nutrition.complete_qrels[q][d] == 0 for q in nutrition.queries
               for d in top(nutrition.runs["reranker"], q, 10) if d not in nutrition.qrels[q])

    judged = {q: dict(d) for q, d in pandemic.qrels.items()}
    for s, q in itertools.product(SYSTEMS, pandemic.queries):
        for d in top(pandemic.runs[s], q, 10):
            judged[q].setdefault(d, pandemic.complete_qrels[q][d])
    gaps = [abs(mean(judged, pandemic.runs[s], "ndcg_cut_10") - mean(pandemic.complete_qrels, pandemic.runs[s], "ndcg_cut_10"))
            for s in SYSTEMS]
    assert max(gaps) < 0.003 and "within 0.003 of the truth" in prose("Filled with \"not relevant\"")
