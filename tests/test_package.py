"""The package: what importing it costs, and what it re-exports."""

import json
import re
import subprocess
import sys

import pytest

import ndcg_teach


def test_import_pulls_in_neither_matplotlib_nor_the_widget_stack():
    code = (
        "import json, sys; import ndcg_teach; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'matplotlib', 'ipywidgets', 'anywidget', 'traitlets', 'IPython', 'pandas', 'sklearn'})))"
    )
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert loaded == []


def test_every_public_name_is_documented_with_an_example():
    for name in ndcg_teach.__all__:
        doc = getattr(ndcg_teach, name).__doc__ or ""
        assert doc.strip(), name
        if callable(getattr(ndcg_teach, name)) and name not in ("Row", "Trace"):
            assert ">>>" in doc, f"{name} has no doctest example"


def test_public_metric_docstrings_name_the_lesson_that_teaches_them():
    for name in ["cg", "dcg", "idcg", "ndcg", "precision_at_k", "recall_at_k", "average_precision", "reciprocal_rank", "ndcg_score"]:
        assert "Lesson 0" in getattr(ndcg_teach, name).__doc__, name


def test_the_metrics_of_lessons_10_to_14_name_their_lesson():
    for name in ["r_precision", "f_measure", "success_at_k", "precision_recall_curve", "PrecisionRecallCurve",
                 "expected_reciprocal_rank", "rank_biased_precision", "rbp_residual", "bpref", "condensed"]:
        assert re.search(r"[Ll]esson 1[0-4]", getattr(ndcg_teach, name).__doc__), name


def test_scipy_loads_at_the_first_p_value_not_with_the_package_or_the_explorers():
    # Every lesson imports the explorers, and the difference explorer imports the paired tests, whose p-values need
    # scipy.special (about 0.1 s): a lesson that runs no test need not wait for it. The p-values are scipy's own.
    code = ("import json, sys, ndcg_teach as nt; from ndcg_teach.widgets import DifferenceExplorer, RankingExplorer; "
            "before = 'scipy' in sys.modules; a, b = [float(i) for i in range(20)], [0.5] * 20; "
            "t = nt.statistics.significance.paired_t_test([1, 2, 4], [0, 2, 3]); "
            "w = nt.statistics.significance.wilcoxon_test(a, b, method='normal'); after = 'scipy' in sys.modules; "
            "from scipy import stats; "
            "print(json.dumps([before, after, t.statistic, t.p_value, stats.ttest_rel([1, 2, 4], [0, 2, 3]).pvalue, "
            "w.p_value, stats.wilcoxon(a, b, method='approx').pvalue]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, after, statistic, t_p, scipy_t_p, w_p, scipy_w_p = json.loads(out)
    assert (before, after, round(statistic, 4)) == (False, True, 2.0)
    assert t_p == pytest.approx(scipy_t_p, rel=1e-12) and w_p == pytest.approx(scipy_w_p, rel=1e-12)
