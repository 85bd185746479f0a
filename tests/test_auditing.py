"""The audit of every number the source documents print (ndcg_teach/course/examples/findings.py, code_and_claims.py, auditing.py).

The expected values are written out from the formulas with ``math`` (an oracle
independent of ndcg_teach); a wrong printed number must be flagged with the
right cause, a right one confirmed.
"""

import dataclasses
import math

import numpy as np
import pytest

from ndcg_teach.course.examples import CAUSES, EXAMPLES, AuditRecord, AuditReport, audit
from ndcg_teach.course.examples.auditing import tooltip

L = math.log2
WRONG_DISCOUNT, SLIP, THRESHOLD = "wrong discount", "arithmetic slip", "mismatched relevance threshold"
IGNORES_ORDER, DOES_NOT_RUN, CODE_OUTPUT, FALSE_CLAIM = (
    "ignores the predicted order", "does not run", "code output differs", "false claim")

DCG_000 = 15 + 31 / L(3) + 3 / L(4) + 7 / L(5) + 1 / L(6)
IDCG_000 = 31 + 15 / L(3) + 7 / L(4) + 3 / L(5) + 1 / L(6)
DCG_001 = 5 + 3 / L(3) + 2 / L(4) + 1 / L(5) + 4 / L(6)
IDCG_001 = 5 + 4 / L(3) + 3 / L(4) + 2 / L(5) + 1 / L(6)
TRUE_002 = np.array([2, 1.6, 1.8, 1.7, 1.75, 1.78, 1.7, 1.6, 1.7, 1.5, 1.5, 1.48, 1.43, 1.43, 1.5, 1.5, 1.2, 1, 0.9])
PRED_002 = np.array([1.51, 1, 1.36, 1.17, 1.16, 1.17, 1.166, 1.55, 1.161, 1.01, 1.05, 0.96, 0.94, 0.95, 1.04, 1.67,
                     1.27, 1.21, 1.04])


def _dcg_exp(values):
    return sum((2 ** v - 1) / L(i + 2) for i, v in enumerate(values))


RESCALED_002 = (TRUE_002 - TRUE_002.min()) / (TRUE_002.max() - TRUE_002.min())
CODE_002 = _dcg_exp(RESCALED_002) / _dcg_exp(sorted(RESCALED_002, reverse=True))
# scikit-learn's ndcg_score averages tied scores; gains 2^x - 1 fed in as its linear grades.
RANKED_002 = 0.8724869095986447

# (example, quantity, published, computed, cause or None when the number is right)
EXPECTED = [
    ("web_search_p_at_10", "P@10", "0.7", 0.7, None),
    ("products_p_at_k", "relevant in top 3", "2", 2, None),
    ("products_p_at_k", "P@3", "0.667", 2 / 3, None),
    ("products_p_at_k", "relevant in top 5", "4", 3, THRESHOLD),
    ("products_p_at_k", "P@5", "0.8", 0.6, THRESHOLD),
    *[("products_ndcg_exponential", f"DCG@5 gain {i}", g, float(g), None) for i, g in enumerate(["15", "31", "3", "7", "1"], 1)],
    ("products_ndcg_exponential", "DCG@5 denominator 1", "1", 1.0, None),
    ("products_ndcg_exponential", "DCG@5 denominator 2", "1.585", L(3), None),
    ("products_ndcg_exponential", "DCG@5 denominator 3", "2.585", L(4), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "DCG@5 denominator 4", "3.17", L(5), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "DCG@5 denominator 5", "3.459", L(6), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "DCG@5 term 1", "15", 15.0, None),
    ("products_ndcg_exponential", "DCG@5 term 2", "19.57", 31 / L(3), SLIP),
    ("products_ndcg_exponential", "DCG@5 term 3", "1.16", 3 / L(4), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "DCG@5 term 4", "2.21", 7 / L(5), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "DCG@5 term 5", "0.29", 1 / L(6), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "DCG@5", "38.23", DCG_000, WRONG_DISCOUNT),
    *[("products_ndcg_exponential", f"IDCG@5 gain {i}", g, float(g), None) for i, g in enumerate(["31", "15", "7", "3", "1"], 1)],
    ("products_ndcg_exponential", "IDCG@5 denominator 1", "1", 1.0, None),
    ("products_ndcg_exponential", "IDCG@5 denominator 2", "1.585", L(3), None),
    ("products_ndcg_exponential", "IDCG@5 denominator 3", "2.585", L(4), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "IDCG@5 denominator 4", "3.17", L(5), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "IDCG@5 denominator 5", "3.459", L(6), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "IDCG@5 term 1", "31", 31.0, None),
    ("products_ndcg_exponential", "IDCG@5 term 2", "9.46", 15 / L(3), None),
    ("products_ndcg_exponential", "IDCG@5 term 3", "2.71", 7 / L(4), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "IDCG@5 term 4", "0.95", 3 / L(5), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "IDCG@5 term 5", "0.29", 1 / L(6), WRONG_DISCOUNT),
    ("products_ndcg_exponential", "IDCG@5", "44.41", IDCG_000, WRONG_DISCOUNT),
    ("products_ndcg_exponential", "NDCG@5", "0.861", 0.86454788462648288, WRONG_DISCOUNT),
    ("p_at_k_code", "P@3", "0.6666666666666666", 2 / 3, None),
    ("p_at_k_code", "P@5", "0.8", 0.6, THRESHOLD),
    ("ndcg_exponential_code", "NDCG@5", "0.8607594936708861", 0.86454788462648288, CODE_OUTPUT),
    ("ranking_ndcg_linear", "DCG@5 term 1", "5", 5.0, None),
    ("ranking_ndcg_linear", "DCG@5 term 2", "1.585", 3 / L(3), SLIP),
    ("ranking_ndcg_linear", "DCG@5 term 3", "0.861", 2 / L(4), WRONG_DISCOUNT),
    ("ranking_ndcg_linear", "DCG@5 term 4", "0.431", 1 / L(5), None),
    ("ranking_ndcg_linear", "DCG@5 term 5", "0.861", 4 / L(6), SLIP),
    ("ranking_ndcg_linear", "DCG@5", "8.738", DCG_001, WRONG_DISCOUNT),
    ("ranking_ndcg_linear", "IDCG@5 term 1", "5", 5.0, None),
    ("ranking_ndcg_linear", "IDCG@5 term 2", "2.322", 4 / L(3), SLIP),
    ("ranking_ndcg_linear", "IDCG@5 term 3", "1.585", 3 / L(4), SLIP),
    ("ranking_ndcg_linear", "IDCG@5 term 4", "0.861", 2 / L(5), None),
    ("ranking_ndcg_linear", "IDCG@5 term 5", "0.431", 1 / L(6), WRONG_DISCOUNT),
    ("ranking_ndcg_linear", "IDCG@5", "10.199", IDCG_001, WRONG_DISCOUNT),
    ("ranking_ndcg_linear", "NDCG@5", "0.857", DCG_001 / IDCG_001, WRONG_DISCOUNT),
    ("ndcg_numpy_code", "NDCG@5", "0.857", DCG_001 / IDCG_001, DOES_NOT_RUN),
    ("nineteen_items_ndcg_code", "NDCG@19 the code prints", "0.98", CODE_002, None),
    ("nineteen_items_ndcg_code", "NDCG@19 of the ranking by pred_scores", "0.98", RANKED_002, IGNORES_ORDER),
    ("binary_grades_claim", "DCG, Järvelin form minus (2^rel - 1) form, on 0/1 grades", "= 0", 1 - 1 / L(3), FALSE_CLAIM),
    ("binary_grades_claim", "NDCG, Järvelin form minus (2^rel - 1) form, on 0/1 grades", "= 0", 1 - 1 / L(3), FALSE_CLAIM),
    ("cg_5_2_3", "CG@3", "10", 10.0, None),
    ("position_10_discount", "discount at position 10 / discount at position 1", "< 1/3", 1 / L(11), None),
    ("dcg_5_2_3", "DCG@3 discount 1", "1", 1.0, None),
    ("dcg_5_2_3", "DCG@3 discount 2", "0.631", 1 / L(3), None),
    ("dcg_5_2_3", "DCG@3 discount 3", "0.5", 0.5, None),
    ("dcg_5_2_3", "DCG@3 term 1", "5", 5.0, None),
    ("dcg_5_2_3", "DCG@3 term 2", "1.262", 2 / L(3), None),
    ("dcg_5_2_3", "DCG@3 term 3", "1.5", 1.5, None),
    ("dcg_5_2_3", "DCG@3", "7.762", 5 + 2 / L(3) + 1.5, None),
    ("dcg_2_3_5", "DCG@3 term 1", "2", 2.0, None),
    ("dcg_2_3_5", "DCG@3 term 2", "1.893", 3 / L(3), None),
    ("dcg_2_3_5", "DCG@3 term 3", "2.5", 2.5, None),
    ("dcg_2_3_5", "DCG@3", "6.393", 2 + 3 / L(3) + 2.5, None),
    ("ndcg_5_2_3", "IDCG@3 term 1", "5.0", 5.0, None),
    ("ndcg_5_2_3", "IDCG@3 term 2", "1.893", 3 / L(3), None),
    ("ndcg_5_2_3", "IDCG@3 term 3", "1.0", 1.0, None),
    ("ndcg_5_2_3", "IDCG@3", "7.893", 5 + 3 / L(3) + 1, None),
    ("ndcg_5_2_3", "NDCG@3", "0.983", 0.98341147226327856, None),
]


@pytest.fixture(scope="module")
def report():
    return audit()


def record(report, example, quantity):
    (found,) = [r for r in report if r.example == example and r.quantity == quantity]
    return found


def test_one_record_per_printed_number_in_document_order(report):
    assert [(r.example, r.quantity) for r in report] == [(e[0], e[1]) for e in EXPECTED]
    assert len(report) == sum(len(worked.printed) for worked in EXAMPLES)
    sources = {worked.name: worked.source for worked in EXAMPLES}
    assert all(r.source == sources[r.example] for r in report)


@pytest.mark.parametrize("example, quantity, published, computed, cause", EXPECTED, ids=[f"{e[0]}:{e[1]}" for e in EXPECTED])
def test_every_number_is_confirmed_or_flagged_with_its_cause(report, example, quantity, published, computed, cause):
    found = record(report, example, quantity)
    assert found.published == published
    assert found.computed == pytest.approx(computed, rel=1e-13, abs=1e-15)
    assert found.agrees is (cause is None)
    if cause is None:
        assert found.note is None
    else:
        assert cause in found.note.lower().split(":")[0]


def test_agrees_means_rounded_to_the_printed_precision(report):
    for r in report:
        if r.published[:1] not in "<=" and r.example not in ("ndcg_numpy_code",):
            decimals = len(r.published.split(".")[1]) if "." in r.published else 0
            assert r.agrees == (round(r.computed, decimals) == float(r.published)), r


def test_every_note_starts_with_a_known_cause(report):
    for r in report.disagreements():
        label = r.note.split(":")[0].lower()
        assert label.split(" and ")[0] in CAUSES and all(part in CAUSES for part in label.split(" and ")), r.note
        assert r.note.endswith(".")


def test_denominators_are_identified_as_other_logarithms(report):
    for name in ("DCG@5", "IDCG@5"):
        notes = [record(report, "products_ndcg_exponential", f"{name} denominator {i}").note for i in (3, 4, 5)]
        assert "log2(6), the denominator of position 5" in notes[0]
        assert "log2(9)" in notes[1] and "log2(11)" in notes[2]
    assert "31/1.585 = 19.56" in record(report, "products_ndcg_exponential", "DCG@5 term 2").note
    assert "3/2.585" in record(report, "products_ndcg_exponential", "DCG@5 term 3").note
    assert "0.865" in record(report, "products_ndcg_exponential", "NDCG@5").note


def test_document_001_slips_are_named(report):
    assert "log2(3) itself" in record(report, "ranking_ndcg_linear", "DCG@5 term 2").note
    assert "2/log2(5), the discount of position 4" in record(report, "ranking_ndcg_linear", "DCG@5 term 3").note
    assert "repeats the term printed for position 3" in record(report, "ranking_ndcg_linear", "DCG@5 term 5").note
    assert "1/log2(5), the discount of position 4" in record(report, "ranking_ndcg_linear", "IDCG@5 term 5").note
    assert "0.961" in record(report, "ranking_ndcg_linear", "NDCG@5").note


def test_no_single_threshold_explains_both_precisions(report):
    note = record(report, "products_p_at_k", "P@5").note
    assert "no single threshold" in note
    assert "grade >= 3 or grade >= 4" in note and "needs grade >= 2" in note
    assert "[1, 1, 0, 1, 0] (grade >= 3)" in note and "P@5 = 0.6" in note
    assert "grade >= 2" in record(report, "p_at_k_code", "P@5").note


def test_code_claims(report):
    note = record(report, "ndcg_exponential_code", "NDCG@5").note
    assert "returns 0.8645478846264829" in note and "no gain/discount convention" in note
    note = record(report, "nineteen_items_ndcg_code", "NDCG@19 of the ranking by pred_scores").note
    assert "input order" in note and "0.872" in note and "0.953" in note and "min-max" in note.lower()


def test_numpy_code_without_import_and_removed_function(report):
    found = record(report, "ndcg_numpy_code", "NDCG@5")
    assert not found.agrees
    assert "np without importing it (NameError)" in found.note
    assert ("np.asfarray was removed in NumPy 2.0" in found.note) == (not hasattr(np, "asfarray"))


def test_removed_function_is_detected_at_run_time(monkeypatch):
    monkeypatch.setattr(np, "asfarray", np.asarray, raising=False)
    found = record(audit("001"), "ndcg_numpy_code", "NDCG@5")
    assert "asfarray" not in found.note and "NameError" in found.note and not found.agrees


def test_code_that_runs_and_prints_the_right_number_agrees(report):
    assert record(report, "p_at_k_code", "P@3").agrees
    assert record(report, "nineteen_items_ndcg_code", "NDCG@19 the code prints").agrees


def test_binary_claim_counterexample(report):
    note = record(report, "binary_grades_claim", "DCG, Järvelin form minus (2^rel - 1) form, on 0/1 grades").note
    assert "On [0, 1], the shortest counterexample, DCG@2 is 1.0000 against 0.6309" in note


def test_ranked_by_predictions_matches_scikit_learn():
    metrics = pytest.importorskip("sklearn.metrics")
    gains = 2 ** RESCALED_002 - 1
    assert metrics.ndcg_score([gains], [PRED_002]) == pytest.approx(RANKED_002, rel=1e-12)
    assert metrics.ndcg_score([TRUE_002], [PRED_002]) == pytest.approx(0.9527642778792439, rel=1e-12)


def test_records_are_immutable_with_exactly_the_seven_fields(report):
    assert [f.name for f in dataclasses.fields(AuditRecord)] == [
        "source", "example", "quantity", "published", "computed", "agrees", "note"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        report[0].computed = 0.0
    with pytest.raises(TypeError):
        report[0] = report[1]
    assert all(isinstance(r.published, str) and isinstance(r.computed, float) for r in report)


def test_report_views(report):
    assert isinstance(report, tuple) and isinstance(report.disagreements(), AuditReport)
    assert len(report.disagreements()) + len(report.agreements()) == len(report) == 77
    assert len(report.disagreements()) == 33
    assert all(r.note for r in report.disagreements()) and not any(r.note for r in report.agreements())
    assert {r.source for r in report.for_source("003")} == {"003_96b46f85e61a2d0a.txt"}
    assert audit("003") == report.for_source("003")
    assert report.summary == "77 printed numbers audited: 44 agree, 33 disagree."


def test_rows_are_plain_dicts(report):
    rows = report.to_rows()
    assert rows[0] == {"source": "000_6d16541d6fd5e69f.txt", "example": "web_search_p_at_10", "quantity": "P@10",
                       "published": "0.7", "computed": 0.7, "agrees": True, "note": None}
    assert len(rows) == len(report)


def test_text_and_html_are_deterministic_and_complete(report):
    text = str(report)
    assert text == repr(report) == str(audit())
    assert text.splitlines()[0] == report.summary
    assert "000_6d16541d6fd5e69f.txt «排序模型评估:准确率@K和NDCG»" in text
    assert "  products_ndcg_exponential  DCG@5 term 2" in text
    html = report._repr_html_()
    assert html == audit()._repr_html_()
    assert html.count('<tr class="ndcg-audit-no">') == 33 and html.count('<tr class="ndcg-audit-yes">') == 44
    assert ".ndcg-audit" in html and "&#x27;" in html and "<script" not in html
    assert 'title="0.8645478846"' in html


def test_every_tooltip_is_the_same_on_any_machine(report):
    # Another CPU's log2 or BLAS kernel moves a computed number by a few units in its last place (1e-16): the
    # tooltip shows no digit that such a change could turn, for every number of the audit.
    for record in report:
        value = record.computed
        assert tooltip(value * (1 - 1e-13)) == tooltip(value) == tooltip(value * (1 + 1e-13)), record


def test_unknown_source_is_refused():
    with pytest.raises(ValueError, match=r"Got 'x' instead\."):
        audit("x")

