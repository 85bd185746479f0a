"""Model solutions of the assignment of lesson 20 (the rules are in ``assignment_solutions``' docstring)."""

import numpy as np
from solution_registry import solves

import ndcg_teach as nt
from ndcg_teach.statistics.significance import paired_t_test


@solves("20-trec-position", {"scores": {"a": 2.0, "b": 1.00000001, "c": 1.0, "z": 0.5}, "item": "c"},
        {"scores": {"x1": 0.25, "x2": 0.25, "x3": 0.9, "x10": 0.25}, "item": "x1"})
def solve_trec_position(scores, item):
    # trec_eval 9 keeps scores as 32-bit floats; tied scores go by document id, larger first, in byte order.
    order = sorted(scores, key=lambda doc: (np.float32(scores[doc]), doc.encode("utf-8")), reverse=True)
    return order.index(item) + 1


@solves("20-mean-if-fixed",
        {"qrels": {"a": {"d1": 1, "d2": 0}, "b": {"d3": 2, "d4": 1, "d9": 2}},
         "run": {"a": {"d2": 0.8, "d1": 0.6}, "b": {"d5": 0.9, "d4": 0.8, "d6": 0.7, "d3": 0.1}}, "qid": "b", "k": 2},
        {"qrels": {"x": {"p": 3, "q": 1}, "y": {"r": 1}},
         "run": {"x": {"q": 0.9, "s": 0.5, "p": 0.4}, "y": {"r": 0.3, "t": 0.2}}, "qid": "x", "k": 3})
def solve_mean_if_fixed(qrels, run, qid, k):
    # The query's retrieved documents best grade first (an unjudged one as 0); the other queries as they are.
    grades = qrels[qid]
    order = sorted(run[qid], key=lambda doc: -max(grades.get(doc, 0), 0))
    fixed = {**run, qid: {doc: float(len(order) - position) for position, doc in enumerate(order)}}
    return nt.evaluate(qrels, fixed, [f"ndcg_cut.{k}"]).means[f"ndcg_cut_{k}"]


@solves("20-mean-if-judged",
        {"qrels": {"a": {"d1": 1}, "b": {"d2": 1, "d3": 0}},
         "run": {"a": {"d9": 0.9, "d1": 0.8}, "b": {"d2": 0.9, "d3": 0.5, "d8": 0.4}}, "qid": "a", "item": "d9"},
        {"qrels": {"x": {"p": 1, "q": 1, "r": 0}, "y": {"s": 1}},
         "run": {"x": {"r": 0.9, "p": 0.8, "n": 0.7}, "y": {"s": 0.3}}, "qid": "x", "item": "n"})
def solve_mean_if_judged(qrels, run, qid, item):
    # The document joins the query's relevant documents: in the list and in R, AP's denominator.
    judged = {**qrels, qid: {**qrels[qid], item: 1}}
    return nt.evaluate(judged, run, ["map"])["map"]


@solves("20-significant",
        {"a": [0.30, 0.42, 0.51, 0.28, 0.60, 0.45, 0.39, 0.52], "b": [0.36, 0.47, 0.55, 0.35, 0.63, 0.52, 0.43, 0.58],
         "alpha": 0.05},
        {"a": [0.2, 0.4, 0.6, 0.5, 0.3], "b": [0.3, 0.5, 0.72, 0.58, 0.41], "alpha": 0.01})
def solve_significant(a, b, alpha):
    # Paired: the test reads the differences b - a query by query.
    return "yes" if paired_t_test(b, a).p_value < alpha else "no"
