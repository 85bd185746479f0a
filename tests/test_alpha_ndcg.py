"""α-nDCG: worked examples, an independent oracle written from Clarke et al. (SIGIR 2008), invariants, refusals.

The oracle below is plain loops over Python lists, in exact rational
arithmetic for the gains (``fractions.Fraction``): the novelty-biased gain of
the item at rank r is ``sum_i J(r, i) (1 - alpha)^C_i(r-1)``, ``C_i`` the
items above r relevant to subtopic i; the ideal takes, position by position,
the first remaining row with the largest gain (ndeval's greedy rule).
ndeval's own numbers (through pyndeval, a wrapper of its C source) are the
second oracle, in tests/test_diversity_qrels.py.
"""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt
from ndcg_teach.core.context import Query
from ndcg_teach.core.registry import call, route

TOL = 1e-12


def gains_of(rows, alpha, graded):
    seen = [0] * (len(rows[0]) if rows else 0)
    gains = []
    for row in rows:
        gain = Fraction(0)
        for i, grade in enumerate(row):
            if grade > 0:
                gain += Fraction(grade if graded else 1) * (1 - alpha) ** seen[i]
        gains.append(gain)
        for i, grade in enumerate(row):
            seen[i] += grade > 0
    return gains


def greedy(rows, alpha, graded, depth):
    left, chosen = list(range(len(rows))), []
    while left and len(chosen) < depth:
        scores = [gains_of([rows[c] for c in chosen] + [rows[i]], alpha, graded)[-1] for i in left]
        best = left[scores.index(max(scores))]  # the first row with the largest gain
        chosen.append(best)
        left.remove(best)
    return [rows[c] for c in chosen]


def dcg(gains):
    return sum(float(g) / math.log2(r + 1) for r, g in enumerate(gains, start=1))


def oracle(rows, k=None, alpha=0.5, graded=False, pool=None):
    alpha = Fraction(alpha).limit_denominator(10**6)
    shown = rows[:k]
    source = rows if pool is None else pool
    ideal = greedy(source, alpha, graded, len(source) if k is None else k)
    best = dcg(gains_of(ideal, alpha, graded))
    return dcg(gains_of(shown, alpha, graded)) / best if best > 0 else 0.0


tables = st.integers(1, 4).flatmap(lambda s: st.lists(st.lists(st.integers(0, 2), min_size=s, max_size=s), max_size=8))


# ---- Worked examples -------------------------------------------------------------------------------

def test_a_list_that_repeats_a_subtopic_loses_to_one_that_covers_the_next():
    # Rows: which of two subtopics each item is relevant to. Gains 1, 1/2, 1 against the greedy ideal's 1, 1, 1/2.
    repeating = [[1, 0], [1, 0], [0, 1]]
    dcg_value = 1 + 0.5 / math.log2(3) + 1 / 2
    ideal = 1 + 1 / math.log2(3) + 0.5 / 2
    assert nt.alpha_ndcg(repeating) == pytest.approx(dcg_value / ideal, abs=TOL)
    assert nt.alpha_ndcg([[1, 0], [0, 1], [1, 0]]) == 1.0


def test_the_pool_holds_what_the_list_missed():
    # The list found subtopic 1 twice; the judged items also cover subtopic 2.
    value = nt.alpha_ndcg([[1, 0], [1, 0]], subtopic_pool=[[1, 0], [1, 0], [0, 1]])
    assert value == pytest.approx((1 + 0.5 / math.log2(3)) / (1 + 1 / math.log2(3) + 0.5 / 2), abs=TOL)
    assert nt.alpha_ndcg([[1, 0], [1, 0]]) == 1.0  # without the pool the list is its own ideal


def test_alpha_one_counts_each_subtopic_once_and_alpha_zero_counts_every_hit():
    rows = [[1, 1], [1, 0], [0, 1], [1, 1]]
    assert nt.explain_alpha_ndcg(rows, alpha=1.0).rows[1].gain == 0.0
    assert [row.gain for row in nt.explain_alpha_ndcg(rows, alpha=0.0).rows] == [2.0, 1.0, 1.0, 2.0]


def test_graded_judgements_count_their_grade_when_asked():
    assert [row.gain for row in nt.explain_alpha_ndcg([[2, 0], [3, 1]], graded=True).rows] == [2.0, 3 * 0.5 + 1]
    assert [row.gain for row in nt.explain_alpha_ndcg([[2, 0], [3, 1]]).rows] == [1.0, 0.5 + 1]


def test_a_list_can_beat_the_greedy_ideal():
    # Finding the best order is NP-hard; ndeval builds the ideal greedily, and so a list can score above 1.
    pool = [[0, 0, 1, 0, 1], [0, 0, 1, 1, 0], [0, 1, 0, 0, 1], [1, 0, 0, 0, 1]]
    best = max(itertools.permutations(pool), key=lambda order: nt.alpha_ndcg(list(order), 3, subtopic_pool=pool))
    assert nt.alpha_ndcg(list(best), 3, subtopic_pool=pool) == pytest.approx(oracle(list(best), 3, pool=pool), abs=TOL)
    assert nt.alpha_ndcg(list(best), 3, subtopic_pool=pool) > 1.08


# ---- The oracle ------------------------------------------------------------------------------------

@settings(max_examples=400, deadline=None, derandomize=True)
@given(rows=tables, k=st.one_of(st.none(), st.integers(1, 10)), alpha=st.sampled_from([0.0, 0.25, 0.5, 0.9, 1.0]),
       graded=st.booleans(), extra=st.lists(st.integers(0, 2), max_size=4))
def test_alpha_ndcg_equals_the_papers_definition(rows, k, alpha, graded, extra):
    assert nt.alpha_ndcg(rows, k, alpha=alpha, graded=graded) == pytest.approx(oracle(rows, k, alpha, graded), abs=TOL)
    if rows:
        pool = rows + [[g] * len(rows[0]) for g in extra]
        assert nt.alpha_ndcg(rows, k, alpha=alpha, graded=graded, subtopic_pool=pool) == pytest.approx(
            oracle(rows, k, alpha, graded, pool), abs=TOL)


# ---- Invariants ------------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None, derandomize=True)
@given(grades=st.lists(st.integers(0, 3), max_size=10), k=st.one_of(st.none(), st.integers(1, 10)))
def test_alpha_zero_on_one_subtopic_is_ndcg_with_binary_gains(grades, k):
    binary = [float(g > 0) for g in grades]
    assert nt.alpha_ndcg([[g] for g in grades], k, alpha=0.0) == pytest.approx(nt.ndcg(binary, k), abs=TOL)
    assert nt.alpha_ndcg([[g] for g in grades], k, alpha=0.0, graded=True) == pytest.approx(nt.ndcg(grades, k), abs=TOL)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(rows=tables, k=st.one_of(st.none(), st.integers(1, 10)))
def test_range_and_the_greedy_order_scores_one(rows, k):
    value = nt.alpha_ndcg(rows, k)
    assert value >= 0.0
    if rows and any(any(row) for row in rows):
        ideal = greedy(rows, Fraction(1, 2), False, len(rows))
        assert nt.alpha_ndcg(ideal, k) == pytest.approx(1.0, abs=TOL)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(rows=tables, k=st.one_of(st.none(), st.integers(1, 10)), alpha=st.sampled_from([0.0, 0.5, 1.0]))
def test_explain_equals_plain_equals_batch(rows, k, alpha):
    trace = nt.explain_alpha_ndcg(rows, k, alpha=alpha)
    assert trace.value == nt.alpha_ndcg(rows, k, alpha=alpha)
    shown = [row for row in trace.rows if row.item is not None]
    if shown:
        assert shown[-1].running == pytest.approx(sum(row.contribution for row in shown), abs=TOL)
    width = len(rows[0]) if rows else 1
    padded = np.zeros((2, max(len(rows), 1), width))
    padded[0, :len(rows)] = rows if rows else 0.0
    padded[1, :1] = 1.0
    batch = Query(padded[:, :, 0], np.array([len(rows), 1]), subtopics=padded)
    assert route("alpha_ndcg", batch, alpha=alpha) == "batch"
    values = call("alpha_ndcg", batch, k, alpha=alpha)
    assert values[0] == trace.value and values[1] == nt.alpha_ndcg([[1.0] * width], k, alpha=alpha)


def test_the_trace_shows_each_subtopics_novelty_and_the_ideal_beside():
    trace = nt.explain_alpha_ndcg([[1, 0], [1, 1]], ranking=["a", "b"], subtopic_pool=[[1, 0], [1, 1], [0, 1]])
    first, second, third = trace.rows
    assert (first.item, first.subtopics, first.novelty, first.gain) == ("a", "1", "1: 1", 1.0)
    assert (second.subtopics, second.novelty, second.gain) == ("1, 2", "1: 0.5, 2: 1", 1.5)
    assert (first.ideal_item, first.ideal_gain, second.ideal_item, third.ideal_item) == ("b", 2.0, "a", "(not retrieved)")
    assert third.item is None and third.ideal_running == pytest.approx(2 + 0.5 / math.log2(3) + 0.5 / 2, abs=TOL)
    assert trace.formula.splitlines()[-1].startswith("α-nDCG@2 = α-DCG@2 / ideal α-DCG@2 = ")
    assert [column.key for column in trace.columns] == [column.key for column in nt.metric("alpha_ndcg").columns]


def test_nothing_relevant_scores_zero_and_says_why():
    assert nt.alpha_ndcg([]) == 0.0 and nt.alpha_ndcg([[0, 0]]) == 0.0
    assert "no subtopic has a relevant item" in nt.explain_alpha_ndcg([[0, 0]]).formula
    assert nt.explain_alpha_ndcg([]).rows == ()


# ---- Bad inputs ------------------------------------------------------------------------------------

@pytest.mark.parametrize("function", [nt.alpha_ndcg, nt.explain_alpha_ndcg])
@pytest.mark.parametrize("bad, error, message", [
    ([1, 0], ValueError, r"judgements must be 2-D: one row per ranked item, one column per subtopic\. Got shape \(2,\) "
                         r"\(\[1, 0\]\) instead\."),
    ([[1, 0], [1]], ValueError, r"judgements must be a table of numbers with the same number of subtopics \(columns\) "
                                r"in every row\. Got \[\[1, 0\], \[1\]\] instead\."),
    ([[1, math.nan]], ValueError, r"judgements must be finite numbers; row 1, subtopic 2 holds nan\."),
    ([[1, -1]], ValueError, r"row 1, subtopic 2 holds -1\. Pass negative='zero' to read a negative grade as 0"),
    ([["a"]], TypeError, r"judgements must hold numbers \(grades\), not text\. Got \[\['a'\]\] instead\."),
    ("11", TypeError, r"judgements must be a table of grades, one row per ranked item"),
])
def test_bad_judgements_are_refused(function, bad, error, message):
    with pytest.raises(error, match=message):
        function(bad)


def test_bad_conventions_and_pools_are_refused():
    with pytest.raises(ValueError, match=r"alpha must be a number from 0 to 1: how much a subtopic already covered "
                                         r"loses.*Got 1\.5 instead\."):
        nt.alpha_ndcg([[1]], alpha=1.5)
    with pytest.raises(TypeError, match=r"graded must be True or False: .*Got 1 instead\."):
        nt.alpha_ndcg([[1]], graded=1)
    with pytest.raises(ValueError, match=r"subtopic_pool must have the judgements' number of subtopics \(2 columns\)\. "
                                         r"Got 1 columns instead\."):
        nt.alpha_ndcg([[1, 0]], subtopic_pool=[[1]])
    with pytest.raises(ValueError, match=r"subtopic_pool must hold every judged item of the query, so it must contain "
                                         r"each ranked row with a positive grade; the row \['1', '1'\] is missing\."):
        nt.alpha_ndcg([[1, 1]], subtopic_pool=[[1, 0], [0, 1]])
    assert nt.alpha_ndcg([[1, -2]], negative="zero") == nt.alpha_ndcg([[1, 0]])


def test_mean_over_queries_is_the_average_of_the_function():
    tables_ = [[[1, 0], [1, 0], [0, 1]], [[2], [0]], [], [[0, 1, 1], [1, 0, 0]]]
    pools = [[[1, 0], [1, 0], [0, 1], [1, 1]], [[2], [0], [1]], [[1, 1]], [[0, 1, 1], [1, 0, 0]]]
    assert nt.mean("alpha_ndcg", tables_, 2, alpha=0.25) == pytest.approx(
        np.mean([nt.alpha_ndcg(t, 2, alpha=0.25) for t in tables_]), abs=TOL)
    assert nt.mean("alpha_ndcg", tables_, per_query={"subtopic_pool": pools}) == pytest.approx(
        np.mean([nt.alpha_ndcg(t, subtopic_pool=p) for t, p in zip(tables_, pools)]), abs=TOL)
    with pytest.raises(ValueError, match=r"query 2: judgements must be 2-D: one row per ranked item"):
        nt.mean("alpha_ndcg", [[[1]], [1, 0]])


def test_an_explorer_without_subtopics_refuses_a_diversity_card_and_shows_it_with_them():
    from ndcg_teach.widgets import RankingExplorer

    with pytest.raises(ValueError, match=r"^subtopics is required for the alpha_ndcg, err_ia card: it reads each item's "
                                         r"grade per subtopic; pass subtopics=\{item: \[grade per subtopic, \.\.\.\]\}.* "
                                         r"Got metrics=\['ndcg', 'alpha_ndcg', 'err_ia'\] and no subtopics instead\.$"):
        RankingExplorer(["a", "b"], {"a": 3, "b": 1}, metrics=["ndcg", "alpha_ndcg", "err_ia"])
    explorer = RankingExplorer(["a", "b"], {"a": 3, "b": 1}, metrics=["alpha_ndcg"], subtopics={"a": [0, 1], "b": [1, 1]})
    assert explorer.metrics["alpha_ndcg"] == nt.alpha_ndcg([[0, 1], [1, 1]])  # more in tests/test_widgets_subtopics.py


@settings(max_examples=150, deadline=None, derandomize=True)
@given(rows=tables, k=st.one_of(st.none(), st.integers(1, 10)), graded=st.booleans())
def test_a_threshold_reads_lower_grades_as_not_relevant(rows, k, graded):
    below = [[g if g >= 2 else 0 for g in row] for row in rows]
    assert nt.alpha_ndcg(rows, k, graded=graded, threshold=2) == nt.alpha_ndcg(below, k, graded=graded)
