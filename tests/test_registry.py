"""The metric registry: one spec per metric, read by the means, the conventions, the explorer and these tests."""

import inspect
import itertools
import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt

SPECS = nt.metrics()


BUILT_IN = ["ndcg", "dcg", "idcg", "cg", "err", "precision", "recall", "r_precision", "f_measure", "ap", "rr", "success",
            "rbp", "bpref"]
BINARY = ["precision", "recall", "r_precision", "f_measure", "ap", "rr", "success", "rbp", "bpref"]


def test_every_builtin_metric_is_registered_in_display_order():
    # A metric added later may take any place among them: the built-ins are all there, in this order.
    keys = [spec.key for spec in SPECS]
    assert [key for key in keys if key in BUILT_IN] == BUILT_IN
    assert [spec.key for spec in nt.metrics("binary") if spec.key in BUILT_IN] == BINARY
    assert all(spec.group in ("graded", "binary") and spec.meaning and spec.lesson for spec in SPECS)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.key)
def test_functions_and_explain_twins_take_relevances_then_k_then_keywords_only(spec):
    plain = inspect.signature(spec.function).parameters
    assert list(plain)[:2] == ["relevances", "k"] and plain["k"].default is None
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in list(plain.values())[2:])
    twin = inspect.signature(spec.explain).parameters
    # The twin has exactly the plain function's parameters, with the same defaults, plus the ids of the ranked items.
    assert [(name, p.kind, p.default) for name, p in twin.items() if name != "ranking"] == [
        (name, p.kind, p.default) for name, p in plain.items()]
    assert twin["ranking"].kind is inspect.Parameter.KEYWORD_ONLY and twin["ranking"].default is None


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.key)
def test_every_public_name_of_a_family_is_exported(spec):
    assert getattr(nt, spec.function.__name__) is spec.function
    assert getattr(nt, spec.explain.__name__) is spec.explain
    assert spec.function.__name__ in nt.__all__ and spec.explain.__name__ in nt.__all__


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.key)
def test_explain_value_is_the_plain_value_for_every_keyword_the_metric_takes(spec):
    choices = {"gain": "exponential", "discount": "jarvelin", "log_base": 3, "pool": [5, 4, 3, 1, 0, 2, 2],
               "zero_idcg": 0.0, "threshold": 2, "adaptive_k": True, "n_relevant": 5, "negative": "zero"}
    grades = [1, 4, -1, 5, 3, 2]
    keywords = spec.accepted(choices)
    assert spec.explain(grades, 4, **keywords).value == spec.function(grades, 4, **keywords)


def test_title_writes_the_cut_off():
    assert nt.metric("ndcg").title(5) == "NDCG@5" and nt.metric("ndcg").title(None) == "NDCG"


def test_a_registered_metric_is_found_by_metrics_mean_and_the_explorer():
    def half_cg(relevances, k=None, *, threshold=1):
        """Half the CG of the relevant items."""
        return sum(g for g in list(relevances)[:k] if g >= threshold) / 2

    spec = nt.register_metric(nt.Metric("half", "Half@{k}", "graded", half_cg, meaning="half the CG"))
    try:
        assert nt.metrics()[-1] is spec
        assert nt.mean("half", [[2, 4], [1]], k=1) == (1 + 0.5) / 2
        with pytest.raises(ValueError, match=r"spec\.key must be new; 'half' is registered already \(pass replace=True\)"):
            nt.register_metric(spec)
    finally:
        nt.unregister_metric("half")
    assert "half" not in [s.key for s in nt.metrics()]


def test_a_custom_metric_reaches_the_explorer_in_a_fresh_process():
    script = textwrap.dedent("""
        import ndcg_teach as nt
        from ndcg_teach.widgets import RankingExplorer
        from ndcg_teach.widgets.panel import DEFAULT_CARDS

        def top_grade(relevances, k=None):
            return float(max(list(relevances)[:k], default=0))

        nt.register_metric(nt.Metric("top", "Top@{k}", "graded", top_grade, meaning="the best grade in the top k"))
        explorer = RankingExplorer(["B", "A", "C"], {"A": 3, "B": 1, "C": 2}, k=1, metrics=[*DEFAULT_CARDS, "top"])
        assert explorer.metrics["top"] == 1.0
        explorer.move("A", 1)
        assert explorer.metrics["top"] == 3.0
        cards = [card["key"] for card in explorer.panels[0]["metrics"]]
        assert cards[-1] == "top", cards
        only = RankingExplorer(["B", "A", "C"], {"A": 3, "B": 1, "C": 2}, metrics=["top", "cg"])
        assert [card["key"] for card in only.panels[0]["metrics"]] == ["top", "cg"]
        nt.register_metric(nt.Metric("hidden", "Hidden@{k}", "graded", top_grade))
        shown = RankingExplorer(["B", "A"], {"A": 3, "B": 1})
        # The default cards are the course's choice: registering a metric does not add one.
        assert [card["key"] for card in shown.panels[0]["metrics"]] == list(DEFAULT_CARDS)
        asked = RankingExplorer(["B", "A"], {"A": 3, "B": 1}, metrics=["hidden"])
        assert asked.metrics["hidden"] == 3.0
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "ok", result.stderr


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ("ndcg", TypeError, r"spec must be an ndcg_teach\.Metric\. Got 'ndcg' instead\."),
        (nt.Metric("a b", "X", "graded", len), ValueError, r"Metric key must be a Python identifier such as 'ndcg'\. Got 'a b' instead\."),
        (nt.Metric("x", "X", "ordinal", len), ValueError, r"Metric group must be one of 'graded', 'binary'\. Got 'ordinal' instead\."),
        (nt.Metric("x", "X", "graded", 3), TypeError, r"Metric function must be a function\. Got 3 instead\."),
        (nt.Metric("x", "X", "graded", lambda grades: 0.0), ValueError, r"Metric function must take \(relevances, k=None, \*, \.\.\.\)"),
        (nt.Metric("x", "X", "graded", len, names=["P.5"]), TypeError, r"Metric names must map measure names to keyword dicts.*Got \['P\.5'\] instead\."),
        (nt.Metric("x", "X@{k}{", "graded", len), ValueError, r"Metric label must be a non-empty string whose only field is \{k\}.*Got 'X@\{k\}\{' instead\."),
        (nt.Metric("x", "X@{n}", "graded", len), ValueError, r"Metric label must be .*Got 'X@\{n\}' instead\."),
        (nt.Metric("x", "X", "graded", lambda relevances, k=None, *, pool=None: 0.0, needs=("pools",)), ValueError,
         r"Metric needs must be facts of a Query \(judged, pool, .*\)\. Got \['pools'\] instead\."),
        (nt.Metric("x", "X", "graded", lambda relevances, k=None, *, alpha=0.5: 0.0, needs=(), params={"alpha": 0.5}),
         TypeError, r"Metric params must map convention names .* Got 'alpha': 0\.5 instead\."),
        (nt.Metric("x", "X", "graded", lambda relevances, k=None, *, pool=None: 0.0, needs=(), params={}), ValueError,
         r"Metric 'x': its function's keywords must be the facts it needs and its params\. Got keywords \['pool'\]"),
        (nt.Metric("x", "X", "graded", lambda relevances, k=None, *, alpha=0.5: 0.0, needs=(),
                   params={"alpha": nt.Param(float, (), 0.25, "")}), ValueError, r"alpha's declared default must be the function's \(0\.5\)"),
    ],
)
def test_malformed_specs_are_refused(spec, error, message):
    with pytest.raises(error, match=message):
        nt.register_metric(spec)


# ---- Bug 1: the ideal order sorts by gain, so NDCG never exceeds 1 -----------------------------

def test_a_gain_that_falls_with_the_grade_no_longer_lifts_ndcg_above_one():
    def gain(grades):
        return np.where(grades == 1, 4.0, np.where(grades == 2, 2.0, 0.0))

    # g(1) = 4, g(2) = 2: [1, 2] is already the best order (it gave 1.1632 before the fix).
    assert nt.ndcg([1, 2], gain=gain) == 1.0
    assert nt.ndcg([2, 1], gain=gain) == pytest.approx((2 + 4 / math.log2(3)) / (4 + 2 / math.log2(3)), abs=1e-15)


def test_trec_evals_help_example_gain_map():
    # trec_eval -m ndcg.1=3.5,2=9.0,4=7.0: grade 2 is worth more than grade 4, so the ideal is 2, 4, 1.
    gains = {0: 0.0, 1: 3.5, 2: 9.0, 4: 7.0}
    ranked = [4, 1, 2, 0]
    dcg = 7.0 + 3.5 / math.log2(3) + 9.0 / 2
    ideal = 9.0 + 7.0 / math.log2(3) + 3.5 / 2
    assert nt.ndcg(ranked, gain=gains) == pytest.approx(dcg / ideal, abs=1e-15)
    assert nt.explain_idcg(ranked, gain=gains).ideal_items == ("#3", "#1", "#2", "#4")


def test_ir_measures_gain_map_that_rewards_non_relevant_items():
    # ir_measures' nDCG(gains={0: 1, 1: 4}) case: a grade-0 item is worth 1.
    ranked = [0, 1, 0]
    dcg = 1 + 4 / math.log2(3) + 1 / 2
    ideal = 4 + 1 / math.log2(3) + 1 / 2
    assert nt.ndcg(ranked, gain={0: 1, 1: 4}) == pytest.approx(dcg / ideal, abs=1e-15)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    grades=st.lists(st.integers(0, 3), min_size=1, max_size=6),
    extra=st.lists(st.integers(0, 3), max_size=2),
    gain_table=st.lists(st.floats(0, 10, allow_nan=False), min_size=4, max_size=4),
    k=st.one_of(st.none(), st.integers(1, 7)),
)
def test_ndcg_is_dcg_over_the_best_dcg_of_any_permutation_of_the_pool(grades, extra, gain_table, k):
    """Brute force: the ideal is the best of every order of the judged items, whatever the gain map."""
    gains = dict(enumerate(gain_table))
    pool = grades + extra
    best = max(nt.dcg(list(order), k, gain=gains) for order in set(itertools.permutations(pool)))
    value = nt.ndcg(grades, k, gain=gains, pool=pool)
    expected = nt.dcg(grades, k, gain=gains) / best if best > 0 else 0.0
    assert value == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert value <= 1.0 + 1e-12
