"""Lesson 20's numbers recomputed by code that shares nothing with the library's evaluation.

trec_eval 9's rules written out here (scores as 32-bit floats, ties by document id, larger first; nDCG@10 with linear
gains and the ideal from every judged grade; AP over all judged relevant; unjudged documents worth 0), SciPy's paired
t-test and an exact enumeration of the 4096 sign assignments. ndcg_teach only supplies lesson 17's collection (drawn
by code) and the exercises' inputs. Each figure is compared with what the lesson prints or says, to four decimals.
"""

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import ndcg_teach as nt
from ndcg_teach.exercises import inputs

DATA = Path(nt.__file__).parent / "runs" / "data"


def four(value):
    return f"{value:.4f}"


def read(name, columns):
    table = {}
    for line in (DATA / name).read_text().splitlines():
        fields = line.split()
        qid, docno, value = fields[0], fields[2], fields[columns]
        table.setdefault(qid, {})[docno] = value
    return table


QRELS = {qid: {docno: int(grade) for docno, grade in judged.items()} for qid, judged in read("rag24.qrels", 3).items()}
RUN = {qid: {docno: float(score) for docno, score in scores.items()} for qid, scores in read("rag24.run", 4).items()}


def order(scores):
    return sorted(scores, key=lambda docno: (np.float32(scores[docno]), docno), reverse=True)


def ndcg_10(judged, ranked):
    dcg = sum(max(judged.get(docno, 0), 0) / math.log2(i + 1) for i, docno in enumerate(ranked[:10], 1))
    ideal = sorted((max(grade, 0) for grade in judged.values()), reverse=True)[:10]
    idcg = sum(grade / math.log2(i + 1) for i, grade in enumerate(ideal, 1))
    return dcg / idcg if idcg else 0.0


def average_precision(judged, ranked):
    relevant = sum(grade > 0 for grade in judged.values())
    hits, total = 0, 0.0
    for i, docno in enumerate(ranked, 1):
        if judged.get(docno, 0) > 0:
            hits += 1
            total += hits / i
    return total / relevant if relevant else 0.0


def precision_10(judged, ranked):
    return sum(judged.get(docno, 0) > 0 for docno in ranked[:10]) / 10


def reciprocal_rank(judged, ranked):
    return next((1 / i for i, docno in enumerate(ranked, 1) if judged.get(docno, 0) > 0), 0.0)


MEASURES = (ndcg_10, average_precision, precision_10, reciprocal_rank)


def means(qrels, run):
    rankings = {qid: order(scores) for qid, scores in run.items()}
    return [float(np.mean([measure(qrels[qid], rankings[qid]) for qid in run])) for measure in MEASURES]


def judged_at_10(judged, ranked):
    return sum(docno in judged for docno in ranked[:10]) / 10


def test_section_1_the_means_and_one_query_by_hand():
    assert len(QRELS) == len(RUN) == 31
    assert [four(m) for m in means(QRELS, RUN)] == ["0.5977", "0.2689", "0.7710", "0.8595"]
    judged, ranked = QRELS["2024-41849"], order(RUN["2024-41849"])
    assert (len(ranked), len(judged), sum(grade > 0 for grade in judged.values())) == (100, 170, 94)
    assert ["?" if docno not in judged else judged[docno] for docno in ranked[:10]] == ["?", 1, 1, 2, 0, 1, 0, "?", "?", 0]
    assert sum(docno not in judged for docno in ranked) == 52
    dcg = sum(judged.get(docno, 0) / math.log2(i + 1) for i, docno in enumerate(ranked[:10], 1))
    idcg = sum(g / math.log2(i + 1) for i, g in enumerate(sorted(judged.values(), reverse=True)[:10], 1))
    assert (four(dcg), four(idcg), four(ndcg_10(judged, ranked))) == ("2.3485", "11.2180", "0.2093")


def test_section_2_the_worst_queries_and_why():
    rows = []
    for qid in sorted(RUN, key=lambda qid: ndcg_10(QRELS[qid], order(RUN[qid])))[:6]:
        judged, ranked = QRELS[qid], order(RUN[qid])
        rows.append((qid, four(ndcg_10(judged, ranked)), four(precision_10(judged, ranked)),
                     sum(grade > 0 for grade in judged.values()), four(judged_at_10(judged, ranked))))
    assert rows == [("2024-36302", "0.0000", "0.0000", 0, "0.2000"), ("2024-43983", "0.0663", "0.1000", 53, "0.7000"),
                    ("2024-214126", "0.1747", "0.2000", 9, "1.0000"), ("2024-41849", "0.2093", "0.4000", 94, "0.7000"),
                    ("2024-69711", "0.2588", "0.5000", 59, "1.0000"), ("2024-96359", "0.3127", "0.3000", 55, "0.3000")]
    assert four(np.mean([judged_at_10(QRELS[qid], order(RUN[qid])) for qid in RUN])) == "0.8968"
    assert sum(docno not in QRELS["2024-36302"] for docno in order(RUN["2024-36302"])[:10]) == 8
    judged, ranked = QRELS["2024-214126"], order(RUN["2024-214126"])
    relevant = {docno for docno, grade in judged.items() if grade > 0}
    assert (len(relevant), len(relevant & set(ranked)), len(relevant & set(ranked[:10]))) == (9, 9, 2)  # ranking, not recall


def test_sections_3_and_4_what_a_position_and_a_judgement_cost():
    qid = "2024-41849"
    judged, ranked = QRELS[qid], order(RUN[qid])
    before = [ndcg_10(QRELS[q], order(RUN[q])) for q in RUN]
    mine = ndcg_10(judged, ranked)

    def change(new_judged=judged, new_ranked=ranked):
        value = ndcg_10(new_judged, new_ranked)
        return four(value - mine), four((value - mine) / len(RUN)), value

    deep = [docno for docno in ranked[10:] if judged.get(docno, 0) > 0]
    assert len(deep) == 21
    moves = {ranked.index(docno) + 1: change(new_ranked=[docno, *(d for d in ranked if d != docno)]) for docno in deep}
    assert moves[17][:2] == moves[46][:2] == ("0.2397", "0.0077") and moves[14][:2] == ("0.1506", "0.0049")
    assert judged[ranked[16]] == judged[ranked[45]] == 3 and next(i for i, d in enumerate(ranked, 1) if judged.get(d) == 3) == 17
    assert max(value for *_, value in moves.values()) == moves[17][2]
    assert four(moves[17][2]) == "0.4491" and four(np.mean(before) + (moves[17][2] - mine) / len(RUN)) == "0.6055"
    holes = [docno for docno in ranked[:10] if docno not in judged]
    costs = {ranked.index(docno) + 1: change(new_judged={**judged, docno: 1})[:2] for docno in holes}
    assert costs == {1: ("0.0891", "0.0029"), 8: ("0.0281", "0.0009"), 9: ("0.0268", "0.0009")}
    assert four(ndcg_10({**judged, **{docno: 1 for docno in holes}}, ranked)) == "0.3534"


@pytest.fixture(scope="module")
def pandemic():
    collection = nt.rag_collection("pandemic")

    def min_max(scores):
        low, high = min(scores.values()), max(scores.values())
        return {docno: (score - low) / (high - low) for docno, score in scores.items()}

    reranker, retriever = collection.runs["reranker"], collection.runs["retriever"]
    fused = {}
    for qid, scores in reranker.items():
        a, b = min_max(scores), min_max({docno: retriever[qid][docno] for docno in scores})
        fused[qid] = {docno: 0.7 * a[docno] + 0.3 * b[docno] for docno in scores}
    return collection, reranker, fused


def paired(qrels, first, second):
    qids = sorted(first)
    a = np.array([ndcg_10(qrels[q], order(first[q])) for q in qids])
    b = np.array([ndcg_10(qrels[q], order(second[q])) for q in qids])
    return qids, a, b


def paired_tests(a, b):
    d = b - a
    t = stats.ttest_rel(b, a)
    flips = [abs(np.mean(d * np.array(signs))) >= abs(d.mean()) - 1e-12 for signs in itertools.product((1, -1), repeat=d.size)]
    return (four(d.mean()), int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum()), four(t.statistic), four(t.pvalue),
            four(d.mean() / d.std(ddof=1)), four(np.mean(flips)))


def test_sections_5_and_6_fusion_on_the_shipped_judgements(pandemic):
    collection, reranker, fused = pandemic
    assert [four(m) for m in means(collection.qrels, reranker)] == ["0.8314", "0.8053", "0.8000", "0.9583"]
    assert [four(m) for m in means(collection.qrels, fused)] == ["0.9047", "0.8686", "0.8833", "1.0000"]
    qids, a, b = paired(collection.qrels, reranker, fused)
    assert paired_tests(a, b) == ("0.0733", 12, 0, 0, "4.3333", "0.0012", "1.2509", "0.0005")
    assert qids[int(np.argmin(b - a))] == "pandemic-12" and four((b - a).min()) == "0.0045"


def test_section_6_the_holes_of_one_query_and_every_passage_judged(pandemic):
    collection, reranker, fused = pandemic
    qids = sorted(reranker)
    holes = {q: [docno for docno in order(reranker[q])[:10] if docno not in collection.qrels[q]] for q in qids}
    qid = max(qids, key=lambda q: len(holes[q]))
    assert qid == "pandemic-07" and [collection.complete_qrels[qid][d] for d in holes[qid]] == [2, 2, 2, 2]
    judged = {**collection.qrels, qid: {**collection.qrels[qid], **{d: collection.complete_qrels[qid][d] for d in holes[qid]}}}
    before = [four(ndcg_10(collection.qrels[qid], order(run[qid]))) for run in (reranker, fused)]
    after = [four(ndcg_10(judged[qid], order(run[qid]))) for run in (reranker, fused)]
    assert (before, after) == (["0.7914", "0.9582"], ["1.0000", "0.9290"])
    ideal = [sorted(j[qid].values(), reverse=True)[:10] for j in (collection.qrels, judged)]
    assert ideal == [[2] * 7 + [1] * 3, [2] * 10]
    _, a, b = paired(judged, reranker, fused)
    assert four((b - a).mean()) == "0.0535"
    coverage = [four(np.mean([judged_at_10(collection.qrels[q], order(run[q])) for q in qids])) for run in (reranker, fused)]
    assert coverage == ["0.8083", "0.9167"]
    _, a, b = paired(collection.complete_qrels, reranker, fused)
    assert (four(a.mean()), four(b.mean())) == ("0.9686", "0.9546")
    assert paired_tests(a, b) == ("-0.0140", 4, 5, 3, "-1.4285", "0.1809", "-0.4124", "0.1914")


def test_the_exercises_worked_without_the_library():
    scores = inputs("20-trec-position")["scores"]
    assert order(scores).index("d5") + 1 == 3 and sorted(scores, key=scores.get, reverse=True).index("d5") + 1 != 3
    fixed = inputs("20-mean-if-fixed")
    qrels, run = fixed["qrels"], fixed["run"]

    def ndcg_3(judged, ranked):
        ideal = sorted(judged.values(), reverse=True)[:3]
        return (sum(judged.get(d, 0) / math.log2(i + 1) for i, d in enumerate(ranked[:3], 1))
                / sum(g / math.log2(i + 1) for i, g in enumerate(ideal, 1)))

    ideal_q2 = sorted(run["q2"], key=lambda d: -qrels["q2"].get(d, 0))
    values = [ndcg_3(qrels[q], ideal_q2 if q == "q2" else order(run[q])) for q in sorted(run)]
    assert four(np.mean(values)) == "0.8237"
    judged = inputs("20-mean-if-judged")
    qrels, run = judged["qrels"], judged["run"]
    qrels = {**qrels, "q2": {**qrels["q2"], "v": 1}}
    assert four(np.mean([average_precision(qrels[q], order(run[q])) for q in sorted(run)])) == "0.7083"
    significant = inputs("20-significant")
    assert four(stats.ttest_rel(significant["b"], significant["a"]).pvalue) == "0.1303"  # > 0.05: "no"
