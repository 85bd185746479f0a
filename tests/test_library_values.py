"""The numbers lesson 08 records for scikit-learn and trec_eval, recomputed with the real libraries.

The lesson runs without either library (Binder installs neither), so it keeps
what they return as data in a cell tagged ``recorded-values``; this test runs
them on the same cases, so the recorded numbers cannot go stale.
"""

from pathlib import Path

import nbformat
import pytest

sklearn_metrics = pytest.importorskip("sklearn.metrics")
pytrec_eval = pytest.importorskip("pytrec_eval")

LESSON = Path(__file__).resolve().parent.parent / "notebooks" / "08-why-libraries-disagree.ipynb"


def recorded_cases():
    cells = [
        cell
        for cell in nbformat.read(LESSON, as_version=4).cells
        if "recorded-values" in cell.metadata.get("tags", [])
    ]
    assert len(cells) == 1, "lesson 08 needs exactly one cell tagged recorded-values"
    namespace = {}
    exec(cells[0].source, namespace)
    return namespace["CASES"]


CASES = recorded_cases()


def scikit_learn(case):
    docs = list(case["run"])
    grades = [case["qrels"][doc] for doc in docs]
    scores = [case["run"][doc] for doc in docs]
    if case["metric"] == "ndcg":
        return sklearn_metrics.ndcg_score([grades], [scores], k=case["k"])
    if case["metric"] == "ap":
        return sklearn_metrics.average_precision_score([int(grade >= 1) for grade in grades], scores)
    raise AssertionError(f"no scikit-learn counterpart for {case['metric']}")


def trec_eval(case):
    measure = {
        "ndcg": "ndcg" if case["k"] is None else f"ndcg_cut.{case['k']}",
        "precision": f"P.{case['k']}",
        "ap": "map",
    }[case["metric"]]
    evaluator = pytrec_eval.RelevanceEvaluator({"q": case["qrels"]}, {measure})
    result = evaluator.evaluate({"q": case["run"]})["q"]
    return result[measure.replace(".", "_")]


LIBRARIES = {"scikit-learn": scikit_learn, "trec_eval": trec_eval}
PAIRS = [(name, library) for name, case in CASES.items() for library in case["recorded"]]


def test_every_case_records_at_least_one_library():
    assert CASES and all(case["recorded"] for case in CASES.values())
    assert {library for _, library in PAIRS} <= set(LIBRARIES)


@pytest.mark.parametrize("name, library", PAIRS, ids=[f"{name}-{library}" for name, library in PAIRS])
def test_recorded_value_is_what_the_library_returns(name, library):
    case, recorded = CASES[name], CASES[name]["recorded"][library]
    if recorded == "ValueError":
        with pytest.raises(ValueError):
            LIBRARIES[library](case)
    else:
        assert LIBRARIES[library](case) == pytest.approx(recorded, abs=5e-5)
