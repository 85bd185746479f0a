"""Cohen's and Fleiss' κ against scikit-learn and statsmodels, their invariants, and their refusals."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

from ndcg_teach import language_set
from ndcg_teach.statistics.agreement import cohen_kappa, fleiss_kappa, strength

TOL = 1e-12
invariant = settings(max_examples=150, deadline=None, derandomize=True)


def judged_pair(rng, n, grades):
    """Two judges who mostly agree: B copies A's grade, or picks another at random."""
    a = rng.integers(0, grades, size=n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, grades, size=n))
    return a, b


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_kappa_equals_scikit_learn(weights):
    rng = np.random.default_rng(15)
    checked = 0
    for _ in range(500):
        a, b = judged_pair(rng, int(rng.integers(2, 60)), int(rng.integers(2, 5)))
        if len(set(a) | set(b)) < 2:
            continue
        ours = cohen_kappa(a, b, weights=weights).value
        assert ours == pytest.approx(cohen_kappa_score(a, b, weights=weights), abs=TOL), (a, b)
        checked += 1
    assert checked > 450


def test_cohen_kappa_with_word_labels_and_a_label_order_for_the_weights():
    a = ["high", "low", "mid", "mid", "high", "low"]
    b = ["high", "mid", "mid", "low", "high", "low"]
    order = ["low", "mid", "high"]
    ours = cohen_kappa(a, b, weights="linear", labels=order)
    assert ours.categories == ("low", "mid", "high")
    assert ours.value == pytest.approx(cohen_kappa_score(a, b, weights="linear", labels=order), abs=TOL)
    # Sorted alphabetically ("high" < "low" < "mid") the distances change, and so does weighted κ.
    assert cohen_kappa(a, b, weights="linear").value == pytest.approx(cohen_kappa_score(a, b, weights="linear"), abs=TOL)


def test_cohen_kappa_worked_example_and_its_explanation():
    result = cohen_kappa([1, 1, 1, 1, 1, 0, 0, 0, 0, 0], [1, 1, 1, 1, 0, 1, 0, 0, 0, 0])
    assert (result.observed, result.expected, round(result.value, 12)) == (0.8, 0.5, 0.6)
    assert result.counts == ((4, 1), (1, 4))
    text = str(result)
    assert "p_o = (4 + 4) / 10 = 0.8000" in text and "p_e = (5·5 + 5·5) / 10² = 0.5000" in text
    assert text.splitlines()[0] == "Cohen's κ = 0.6000"
    html = result._repr_html_()
    assert "<table>" in html and "0.6000" in html and "ndcg-explained" in html


def test_weighted_kappa_shows_its_weights_and_sums():
    result = cohen_kappa([0, 1, 2, 2, 1, 0, 3], [0, 2, 2, 1, 1, 0, 3], weights="quadratic")
    assert result.tables[1].rows[0] == ("0", 0, 1, 4, 9)
    assert "D_o = Σ w_ij·n_ij / n = (1·1 + 1·1) / 7 = 0.2857" in result.formula
    assert result.value == pytest.approx(1 - (2 / 7) / (104 / 49), abs=TOL)


def test_fleiss_kappa_equals_statsmodels():
    rng = np.random.default_rng(1971)
    checked = 0
    for _ in range(400):
        items, raters, grades = int(rng.integers(1, 40)), int(rng.integers(2, 7)), int(rng.integers(2, 5))
        truth = rng.integers(0, grades, size=items)
        ratings = np.where(rng.random((items, raters)) < 0.7, truth[:, None], rng.integers(0, grades, (items, raters)))
        if len(np.unique(ratings)) < 2:
            continue
        table, _ = aggregate_raters(ratings)
        theirs = statsmodels_fleiss(table, method="fleiss")
        assert fleiss_kappa(ratings).value == pytest.approx(theirs, abs=TOL)
        assert fleiss_kappa(table, counts=True).value == pytest.approx(theirs, abs=TOL)
        checked += 1
    assert checked > 350



def test_lesson_15s_tables_against_scikit_learn_and_statsmodels():
    # IIR's table 8.2 (lesson 15, section 1): both relevant 300, only judge 1 20, only judge 2 10, both not 70.
    judge_1 = [1] * 320 + [0] * 80
    judge_2 = [1] * 300 + [0] * 20 + [1] * 10 + [0] * 70
    assert cohen_kappa(judge_1, judge_2).value == pytest.approx(cohen_kappa_score(judge_1, judge_2), abs=TOL)
    assert cohen_kappa(judge_1, judge_2).value == pytest.approx((0.925 - 0.665) / (1 - 0.665), abs=TOL)
    pooled, _ = aggregate_raters(np.column_stack([judge_1, judge_2]))
    pooled_p_e = (630 / 800) ** 2 + (170 / 800) ** 2  # IIR's pooled shares
    assert fleiss_kappa(list(zip(judge_1, judge_2))).value == pytest.approx(statsmodels_fleiss(pooled, method="fleiss"), abs=TOL)
    assert fleiss_kappa(list(zip(judge_1, judge_2))).value == pytest.approx((0.925 - pooled_p_e) / (1 - pooled_p_e), abs=TOL)
    # Section 1's graded pair and section 2's three judges, then exercises 1 and 2.
    grades_1, grades_2 = [0, 1, 2, 3, 2, 1, 0, 0, 3, 2], [0, 1, 3, 3, 1, 1, 0, 1, 2, 2]
    for weights in (None, "quadratic"):
        assert cohen_kappa(grades_1, grades_2, weights=weights).value == pytest.approx(
            cohen_kappa_score(grades_1, grades_2, weights=weights), abs=TOL
        )
    a, b = [1, 1, 0, 1, 0, 0, 1, 1, 0, 1], [1, 0, 0, 1, 0, 1, 1, 1, 0, 0]
    assert cohen_kappa(a, b).value == pytest.approx(cohen_kappa_score(a, b), abs=TOL) and cohen_kappa_score(a, b) == pytest.approx(0.4)
    for ratings in ([[2, 2, 2], [1, 2, 1], [0, 0, 0], [1, 0, 0], [2, 1, 2], [0, 0, 1]],
                    [[1, 1, 1, 1], [1, 1, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0], [1, 0, 1, 0]]):
        table, _ = aggregate_raters(np.array(ratings))
        assert fleiss_kappa(ratings).value == pytest.approx(statsmodels_fleiss(table, method="fleiss"), abs=TOL)

def test_fleiss_kappa_on_fleiss_1971_table():
    # Fleiss (1971) worked data as reprinted widely: 10 items, 14 raters, 5 categories; κ = 0.210.
    table = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
             [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    result = fleiss_kappa(table, counts=True)
    assert result.raters == 14 and round(result.value, 3) == 0.210
    assert result.observed == pytest.approx(0.378021978021978, abs=TOL)
    assert result.expected == pytest.approx((20**2 + 28**2 + 39**2 + 21**2 + 32**2) / 140**2, abs=TOL)  # 0.213 printed


def test_two_judges_fleiss_is_scotts_pi_not_cohens_kappa():
    a, b = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0], [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]  # A says 1 far more often than B
    pooled = (np.array(a + b) == 1).mean()
    expected = pooled**2 + (1 - pooled) ** 2
    observed = np.mean(np.array(a) == np.array(b))
    pi = (observed - expected) / (1 - expected)
    assert fleiss_kappa(np.column_stack([a, b])).value == pytest.approx(pi, abs=TOL)
    assert cohen_kappa(a, b).value != pytest.approx(pi, abs=1e-6)


labels = st.integers(0, 3)


@invariant
@given(st.lists(st.tuples(labels, labels), min_size=1, max_size=40),
       st.sampled_from([None, "linear", "quadratic"]))
def test_kappa_lies_in_minus_one_to_one_and_is_symmetric(pairs, weights):
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    try:
        forward = cohen_kappa(a, b, weights=weights).value
    except ValueError:
        assert len(set(a) | set(b)) == 1
        return
    assert -1 - TOL <= forward <= 1 + TOL
    assert cohen_kappa(b, a, weights=weights).value == pytest.approx(forward, abs=TOL)


@invariant
@given(st.lists(st.lists(labels, min_size=3, max_size=3), min_size=1, max_size=20))
def test_fleiss_kappa_is_at_most_one_and_one_for_unanimous_items(ratings):
    try:
        result = fleiss_kappa(ratings)
    except ValueError:
        assert len({label for row in ratings for label in row}) == 1
        return
    assert result.value <= 1 + TOL
    assert result.value >= -1 / (result.raters - 1) - TOL  # Fleiss' κ cannot fall below -1 / (r - 1)
    unanimous = [[row[0]] * 3 for row in ratings]
    if len({row[0] for row in ratings}) > 1:
        assert fleiss_kappa(unanimous).value == pytest.approx(1.0, abs=TOL)


def test_strength_words_follow_landis_and_koch():
    assert [strength(v) for v in (-0.2, 0.1, 0.3, 0.5, 0.7, 0.9)] == ["poor", "slight", "fair", "moderate",
                                                                       "substantial", "almost perfect"]


def test_a_result_keeps_its_language():
    with language_set("zh-CN"):
        result = cohen_kappa([0, 1, 1], [0, 1, 0])
    assert result.language == "zh-CN"
    assert cohen_kappa([0, 1, 1], [0, 1, 0]) == result  # the language is not part of the value


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: cohen_kappa([1, 0], [1]), ValueError, r"a and b must label the same items, one label each\. Got 2 and 1"),
    (lambda: cohen_kappa("10", [1, 0]), TypeError, r"a must be a list of labels .* Got '10' instead\."),
    (lambda: cohen_kappa([], []), ValueError, r"a must hold at least one label .* Got \[\] instead\."),
    (lambda: cohen_kappa([1, None], [1, 0]), TypeError, r"a must be a flat list of labels"),
    (lambda: cohen_kappa([1, 1], [1, 1]), ValueError, r"p_e = 1\) and κ is 0 / 0\. Got a=\[1, 1\], b=\[1, 1\] instead\."),
    (lambda: cohen_kappa([1, 0], [1, 0], weights="cubic"), ValueError, r"weights must be one of 'linear', 'quadratic'\. Got 'cubic'"),
    (lambda: cohen_kappa([1, 2], [1, 0], labels=[0, 1]), ValueError, r"labels must include every label used in a and b; \[2\] are missing"),
    (lambda: cohen_kappa([1, 0], [1, 0], labels=[0, 1, 1]), ValueError, r"labels must name each category once"),
    (lambda: cohen_kappa([1.0, float("nan")], [1, 0]), ValueError, r"a must hold finite labels"),
    (lambda: fleiss_kappa([[1, 0], [1]]), ValueError, r"same number of judges \(rows of equal length\)\. Got rows of lengths \[1, 2\]"),
    (lambda: fleiss_kappa([[1], [0]]), ValueError, r"at least 2 judges per item .* Got 2 items with 1 judge\(s\) each instead\."),
    (lambda: fleiss_kappa([[1, 1], [1, 1]]), ValueError, r"ratings must use at least two labels"),
    (lambda: fleiss_kappa(5), TypeError, r"ratings must be a table: one row per item"),
    (lambda: fleiss_kappa([[2, 1], [1, 1]], counts=True), ValueError, r"same number of judges .* Got row totals \[3, 2\] instead\."),
    (lambda: fleiss_kappa([[2, -1]], counts=True), ValueError, r"whole numbers of judges of at least 0"),
    (lambda: fleiss_kappa([[2, 1]], counts=True, labels=["a"]), ValueError, r"labels must name each of the 2 columns"),
])
def test_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()
