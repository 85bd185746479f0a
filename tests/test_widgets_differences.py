"""Lesson 13's DifferenceExplorer on the Python side: its numbers against scipy and an exact enumeration, its changes.

The front end is simulated by the custom messages differences.js sends; the
real browser is in ``tests/browser/test_explorers_12_13_browser.py``.
"""

import itertools
import re

import numpy as np
import pytest
from scipy import stats

from ndcg_teach.statistics.significance import bootstrap_interval
from ndcg_teach.widgets import DifferenceExplorer

# Lesson 13's per-query AP of systems A and B on 8 queries.
A = [0.42, 0.31, 0.65, 0.20, 0.55, 0.48, 0.37, 0.60]
B = [0.50, 0.35, 0.62, 0.32, 0.61, 0.47, 0.46, 0.65]


def message(widget, content):
    """Deliver a custom message exactly as ``model.send(content)`` in differences.js does."""
    widget._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def exact_randomisation_p(differences):
    """Two-sided p over every sign assignment, enumerated here (the oracle)."""
    observed = abs(np.mean(differences))
    means = [abs(np.mean(np.multiply(signs, differences))) for signs in itertools.product([-1, 1], repeat=len(differences))]
    return float(np.mean(np.array(means) >= observed - 1e-12))


def check_against_oracles(explorer, a, b):
    d = np.array(b) - np.array(a)
    summary = explorer.summary
    assert np.allclose(explorer.differences, d, atol=1e-15, rtol=0)
    assert summary["differences"] == [f"{value:+.4f}" for value in d]
    assert summary["mean"] == f"{d.mean():+.4f}"
    oracle = stats.ttest_rel(b, a)
    t_test = explorer.tests["t_test"]
    assert abs(t_test.statistic - oracle.statistic) < 1e-9 and abs(t_test.p_value - oracle.pvalue) < 1e-12
    assert summary["t"]["statistic"] == f"{oracle.statistic:.4f}"
    assert explorer.tests["randomisation"].p_value == pytest.approx(exact_randomisation_p(d), abs=1e-12)
    interval = bootstrap_interval(b, a, n=10_000, seed=0)
    assert summary["bootstrap"]["range"] == [interval.low, interval.high]
    assert summary["bootstrap"]["excludes_zero"] == (not interval.low <= 0 <= interval.high)


def test_the_numbers_are_scipy_s_t_test_the_exact_randomisation_p_and_the_library_s_interval():
    explorer = DifferenceExplorer(A, B)
    check_against_oracles(explorer, A, B)
    # What lesson 13 prints: t = 2.8204 (p = 0.0258), exact randomisation p = 10/256 = 0.0391, both < 0.05.
    summary = explorer.summary
    assert (summary["t"]["statistic"], summary["t"]["p"], summary["randomisation"]["p"]) == ("2.8204", "0.0258", "0.0391")
    assert summary["randomisation"]["details"] == "all 256 sign assignments (exact)"
    assert summary["wins"] == [6, 2] and summary["bootstrap"]["excludes_zero"]


def test_swapping_a_query_flips_its_difference_and_every_test_follows():
    explorer = DifferenceExplorer(A, B)
    message(explorer, {"event": "swap", "query": 3})
    a, b = list(A), list(B)
    a[3], b[3] = b[3], a[3]
    check_against_oracles(explorer, a, b)
    assert explorer.differences[3] == pytest.approx(-0.12)
    assert explorer.notice["text"] == "Swapped A and B on q4: its difference is now -0.1200."
    assert float(explorer.summary["randomisation"]["p"]) > 0.05  # one flipped query and B's lead is no longer clear
    explorer.swap("q4")
    check_against_oracles(explorer, A, B)


def test_dragging_a_score_recomputes_from_the_library():
    explorer = DifferenceExplorer(A, B)
    message(explorer, {"event": "score", "system": "b", "query": 0, "score": 0.2})
    b = [0.2, *B[1:]]
    assert explorer.b == b
    check_against_oracles(explorer, A, b)
    explorer.reset()
    assert explorer.b == B and explorer.notice["text"] == "Back to the starting scores."


@pytest.mark.parametrize("content, text", [
    ({"event": "score", "system": "b", "query": 0, "score": 1.5}, "score must be a number from 0 to 1. Got 1.5 instead."),
    ({"event": "score", "system": "c", "query": 0, "score": 0.5}, "system must be 'a' or 'b'. Got 'c' instead."),
    ({"event": "swap", "query": 8}, "query must be an index from 0 to 7 or one of"),
    ({"event": "dance"}, "A message from the widget must have event 'score', 'swap' or 'reset'."),
])
def test_a_bad_change_from_the_page_is_refused_with_a_notice_and_nothing_moves(content, text):
    explorer = DifferenceExplorer(A, B)
    message(explorer, content)
    assert explorer.notice["kind"] == "error" and explorer.notice["text"].startswith(text)
    assert explorer.a == A and explorer.b == B


def test_the_page_cannot_set_the_scores_directly():
    explorer = DifferenceExplorer(A, B)
    explorer.set_state({"b": [1.0] * 8})
    assert explorer.b == B and explorer.notice["kind"] == "error"


def test_equal_differences_leave_t_undefined_and_the_other_tests_working():
    explorer = DifferenceExplorer([0.25, 0.5, 0.625], [0.5, 0.75, 0.875])  # every difference exactly 0.25
    assert explorer.tests["t_test"] is None and explorer.summary["t"] is None
    assert explorer.summary["t_undefined"].startswith("undefined: every difference is the same")
    assert explorer.tests["randomisation"].p_value == pytest.approx(0.25)  # + + + and - - - of 8
    assert "undefined" in explorer._repr_mimebundle_()[0]["text/html"]


def test_many_queries_draw_random_sign_assignments():
    rng = np.random.default_rng(3)
    a = rng.uniform(0.2, 0.6, 16).round(2).tolist()
    b = rng.uniform(0.2, 0.7, 16).round(2).tolist()
    explorer = DifferenceExplorer(a, b, resamples=2000, seed=5)
    assert explorer.summary["randomisation"]["details"] == "2000 random sign assignments, seed 5"
    assert abs(explorer.tests["randomisation"].p_value - exact_randomisation_p(np.array(b) - np.array(a))) < 0.03


def test_the_chinese_explorer_speaks_chinese():
    explorer = DifferenceExplorer(A, B, language="zh-CN")
    explorer.swap(0)
    assert explorer.notice["text"] == "已交换 q1 上 A 与 B 的指标值：它的差值现在是 -0.0800。"
    assert explorer.messages["t_test"] == "配对 t 检验"
    assert explorer.summary["randomisation"]["details"] == "精确：穷举全部 256 种符号组合"
    assert "配对 t 检验" in explorer.summary["t"]["text"]


def test_the_picture_shows_every_query_and_the_three_results():
    explorer = DifferenceExplorer(A, B, queries=[f"topic {i}" for i in range(8)])
    html = explorer._repr_mimebundle_()[0]["text/html"]
    assert "Run this cell to drag the scores" in html
    assert all(f"<td>topic {i}</td>" in html for i in range(8))
    assert explorer.summary["bootstrap"]["text"] in html and explorer.summary["t"]["text"] in html


@pytest.mark.parametrize("settings, error, text", [
    ({"a": [0.2, 1.2], "b": [0.1, 0.3]}, ValueError, "a must hold scores from 0 to 1"),
    ({"a": [0.2], "b": [0.1]}, ValueError, "at least 2 queries"),
    ({"a": [0.2, 0.3], "b": [0.1, 0.3], "queries": ["x", "x"]}, ValueError, "queries must name each of the 2 queries once"),
    ({"a": [0.2, 0.3], "b": [0.1, 0.3], "resamples": 0}, ValueError, "resamples"),
])
def test_bad_arguments_are_refused_by_name(settings, error, text):
    with pytest.raises(error, match=text):
        DifferenceExplorer(**settings)


def test_the_front_end_is_dom_js_and_its_own_file_joined_into_one_module():
    module = DifferenceExplorer._esm
    declared = re.findall(r"^(?:function|class|const|let|var) (\w+)", module, flags=re.MULTILINE)
    assert {"h", "draw", "render"} <= set(declared)
    assert len(declared) == len(set(declared)), sorted(name for name in set(declared) if declared.count(name) > 1)
    assert module.count("export default") == 1
