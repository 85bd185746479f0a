"""The metric registry: one spec per metric, read by the means, the conventions, the explorer and these tests."""

import inspect
import itertools
import math
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt
from ndcg_teach.core.context import FACTS, Query
from ndcg_teach.core.registry import call, explain, route

SPECS = nt.metrics()


def ranked(spec, grades):
    """What ``spec`` takes first: ``grades``, or for a diversity metric a table of two subtopics built from them."""
    return [[g, 1 - g % 2] for g in grades] if "subtopics" in spec.needs else grades


BUILT_IN = ["ndcg", "dcg", "idcg", "cg", "err", "precision", "recall", "r_precision", "f_measure", "ap", "rr", "success",
            "rbp", "bpref"]
BINARY = ["precision", "recall", "r_precision", "f_measure", "ap", "rr", "success", "rbp", "bpref"]


def test_every_builtin_metric_is_registered_in_display_order():
    # A metric added later may take any place among them: the built-ins are all there, in this order.
    keys = [spec.key for spec in SPECS]
    assert [key for key in keys if key in BUILT_IN] == BUILT_IN
    assert [spec.key for spec in nt.metrics("binary") if spec.key in BUILT_IN] == BINARY
    assert all(spec.group in ("graded", "binary", "diversity") and spec.meaning and spec.lesson for spec in SPECS)
    # The diversity metrics read grades per subtopic: their own group, so that no card says "every grade counts".
    assert [spec.key for spec in nt.metrics("diversity")] == [spec.key for spec in SPECS if "subtopics" in spec.needs]
    assert [spec.key for spec in nt.metrics("diversity")][:3] == ["subtopic_recall", "alpha_ndcg", "err_ia"]


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.key)
def test_functions_and_explain_twins_take_relevances_then_k_then_keywords_only(spec):
    plain = inspect.signature(spec.function).parameters
    first = "judgements" if "subtopics" in spec.needs else "relevances"  # a diversity metric takes a table per subtopic
    assert list(plain)[:2] == [first, "k"] and plain["k"].default is None
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
    grades = ranked(spec, [1, 4, -1, 5, 3, 2])
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
        (nt.Metric("x", "X", "ordinal", len), ValueError, r"Metric group must be one of 'graded', 'binary', 'diversity'\. Got 'ordinal' instead\."),
        (nt.Metric("x", "X", "diversity", lambda relevances, k=None: 0.0), ValueError,
         r"Metric group must be 'diversity' exactly when the metric needs 'subtopics' \(it reads each item's grades per "
         r"subtopic\)\. Got group 'diversity' and needs \(\) instead\."),
        (nt.Metric("x", "X", "graded", lambda judgements, k=None: 0.0, needs=("subtopics",), params={}), ValueError,
         r"Got group 'graded' and needs \('subtopics',\) instead\."),
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


# ---- Declarations: what each metric needs from a query, its conventions, its columns -----------

@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.key)
def test_declarations_match_the_functions(spec):
    # The registry checked this when the metric was registered; the built-ins declare everything themselves.
    facts = {FACTS[name].keyword for name in spec.needs if FACTS[name].keyword}
    assert set(spec.keywords) - {"negative"} == facts | set(spec.params)
    defaults = {name: p.default for name, p in inspect.signature(spec.function).parameters.items()}
    for name, param in spec.params.items():
        assert isinstance(param, nt.Param) and param.description, name
        assert param.default == defaults[name] and type(param.default) is type(defaults[name]), name
        assert not param.choices or param.named(param.default), name
    assert spec.columns and all(isinstance(column, nt.Column) for column in spec.columns)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.key)
def test_every_trace_shows_declared_columns(spec):
    trace = spec.explain([3, 0, None, 1, 2] if "judged" in spec.needs else ranked(spec, [3, 0, 1, 2]), 6)
    declared = {column.key for column in spec.columns}
    assert {column.key for column in trace.columns} <= declared
    assert all(list(row.as_dict()) == [column.key for column in trace.columns] for row in trace.rows)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.key)
def test_every_convention_is_documented_with_its_default(spec):
    # The docs read the declarations: each param is in the plain function's docstring with its declared default.
    for name, param in spec.params.items():
        default = rf"default [\"']?{re.escape(str(param.default))}[\"']?$"
        assert re.search(rf"^\s*{name} : .*{default}", _documented(spec.function, name), re.MULTILINE), (spec.key, name)


def _documented(function, name):
    """The docstring that documents ``name``: the function's, or the one its "As in :func:`other`" line points to."""
    doc = function.__doc__
    shared = re.search(rf"^\s*(?:\w+, )*{name}(?:, \w+)*\n\s*As in :func:`(\w+)`", doc, re.MULTILINE)
    return _documented(getattr(nt, shared.group(1)), name) if shared else doc


def test_the_explorer_offers_the_gains_and_discounts_ndcg_declares():
    from ndcg_teach.widgets import explorer

    assert explorer.GAINS == nt.metric("ndcg").params["gain"].choices
    assert explorer.DISCOUNTS == nt.metric("ndcg").params["discount"].choices


def test_param_choices_keep_types_apart():
    flag = nt.Param(bool, (False, True), False, "a switch")
    assert flag.named(True) and not flag.named(1) and not flag.named("yes")
    assert nt.Param(str, (), "x", "").named("x") is False  # no choices: nothing is named


def test_a_label_that_does_not_format_is_refused_and_explorers_keep_working():
    from ndcg_teach.widgets import RankingExplorer

    def top(relevances, k=None):
        return 0.0

    with pytest.raises(ValueError, match=r"Metric label must be .*Got 'X@\{k\}\{' instead\."):
        nt.register_metric(nt.Metric("broken", "X@{k}{", "graded", top))
    assert "broken" not in [spec.key for spec in nt.metrics()]
    assert RankingExplorer(["A", "B"], {"A": 1, "B": 0}).metrics["ndcg"] == 1.0


def test_declarations_left_out_are_read_from_the_function_once():
    def judged_ratio(relevances, k=None, *, n_nonrelevant=None, threshold=1, damping=0.5, negative="raise"):
        return 0.0

    spec = nt.register_metric(nt.Metric("judged_ratio", "JR@{k}", "binary", judged_ratio))
    try:
        assert spec.needs == ("judged", "n_nonrelevant", "threshold")
        assert dict(spec.params) == {"damping": nt.Param(float, (), 0.5, "")}
    finally:
        nt.unregister_metric("judged_ratio")


# ---- call: one query or a batch, through the batch function or one by one -------------------

QUERIES = [[3, 0, 2, 1], [0, 1], [], [2, 2, 0, 1, 3]]
POOLS = [[3, 2, 1, 0, 3], [1, 2, 0], [1], [3, 2, 2, 1, 0, 0]]


@pytest.mark.parametrize("spec", [spec for spec in SPECS if "subtopics" not in spec.needs],  # tables: test_diversity.py
                         ids=lambda spec: spec.key)
@pytest.mark.parametrize("k", [None, 2, 6])
def test_call_on_a_batch_equals_the_plain_function_on_each_query(spec, k):
    facts = {"pool": POOLS, "n_relevant": [sum(g >= 1 for g in pool) for pool in POOLS],
             "n_nonrelevant": [sum(g < 1 for g in pool) for pool in POOLS]}
    given = {name: values for name, values in facts.items() if name in spec.keywords}
    batch = Query.from_lists(QUERIES, **given)
    values = call(spec, batch, k)
    expected = [spec.function(q, k, **{name: values_[i] for name, values_ in given.items()}) for i, q in enumerate(QUERIES)]
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-15)
    assert [call(spec, batch.row(i), k) for i in range(len(QUERIES))] == expected


def test_route_is_decided_from_the_declarations():
    batch = Query.from_lists([[3, 1], [0, 2]])
    assert route("ndcg", Query.of([3, 1])) == "one"
    assert route("ndcg", batch, gain="exponential", zero_idcg=1.0) == "batch"
    assert route("ndcg", batch, gain={1: 1.0, 3: 2.0}) == "loop"  # a gain map is not a named choice
    assert route("ndcg", batch, zero_idcg="raise") == "loop"  # not a number
    assert route("precision", batch, adaptive_k=1) == "loop"  # True is a choice, 1 is not
    assert route("err", batch) == "loop"  # no batch function
    assert call("precision", batch, 3, adaptive_k=True).tolist() == [2 / 2, 1 / 2]  # each list is shorter than 3


def test_call_refuses_what_is_not_a_convention():
    query = Query.of([1, 0])
    with pytest.raises(TypeError, match=r"conventions of ndcg must be its params; pool is a fact of the query: give it to "
                                        r"the Query\. Got pool= instead\."):
        call("ndcg", query, pool=[1])
    with pytest.raises(TypeError, match=r"negative is how grades are read: give it to the Query\. Got negative= instead\."):
        call("rr", query, negative="zero")
    with pytest.raises(TypeError, match=r"alpha is not one of rr's conventions \(it has none\)\. Got alpha= instead\."):
        call("rr", query, alpha=0.5)
    with pytest.raises(ValueError, match=r"k must be a positive integer"):
        call("rr", query, 0)


def test_the_loop_names_the_query_it_refuses():
    with pytest.raises(ValueError, match=r"^query 2: max_grade must be a finite number at least the largest grade"):
        call("err", Query.from_lists([[1], [3]]), max_grade=2)
    with pytest.raises(ValueError, match=r"^query 2: n_relevant must be at least the number of relevant items already in "
                                         r"the list \(1\)\. Got 0 instead\."):
        call("ap", Query.from_lists([[1], [2]], n_relevant=[1, 0]))


def test_explain_gives_the_trace_of_one_query_with_its_ids():
    query = Query.of([2, None, 0, 1], pool=[2, 1, 1, 0], n_relevant=3, n_nonrelevant=2, ranking=list("abcd"),
                     unjudged=True)
    trace = explain("bpref", query)
    assert trace.value == nt.bpref([2, None, 0, 1], n_relevant=3, n_nonrelevant=2) == call("bpref", query)
    assert [row.item for row in trace.rows] == list("abcd") and trace.rows[1].judged is False
    with pytest.raises(ValueError, match=r"explain shows the steps of one query"):
        explain("rr", Query.from_lists([[1], [0]]))
