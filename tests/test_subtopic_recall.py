"""Subtopic recall (S-recall@k, Zhai, Cohen & Lafferty 2003): worked examples, an independent oracle written from the
paper's definition, ndeval's ``strec@k`` (through pyndeval, its C source), invariants and refusals.

The oracle counts, with Python sets, the subtopics that the top k rows hold a
relevant grade for, and divides by the subtopics that have a relevant row in
the pool (or the list): Zhai et al.'s n_A, as ndeval counts it.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt
from ndcg_teach.core.context import Query
from ndcg_teach.core.metrics.subtopic_recall import new_subtopics
from ndcg_teach.core.registry import call, route

TOL = 1e-12


def oracle(rows, k=None, pool=None, threshold=1):
    def covered(table):
        return {i for row in table for i, grade in enumerate(row) if grade >= threshold}

    subtopics = covered(rows if pool is None else pool)
    return len(covered(rows[:k]) & subtopics) / len(subtopics) if subtopics else 0.0


tables = st.integers(1, 4).flatmap(lambda s: st.lists(st.lists(st.integers(0, 3), min_size=s, max_size=s), max_size=7))


# ---- Worked examples -------------------------------------------------------------------------------

def test_the_jaguar_query_by_hand():
    # Subtopics: animal, car, operating system; the pool holds an item for each.
    pool = [[0, 1, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1], [1, 1, 0], [0, 0, 0]]
    cars_first = [[0, 1, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]]
    one_of_each = [[0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert nt.subtopic_recall(cars_first, k=2, subtopic_pool=pool) == pytest.approx(1 / 3, abs=TOL)
    assert nt.subtopic_recall(one_of_each, k=2, subtopic_pool=pool) == pytest.approx(2 / 3, abs=TOL)
    assert nt.subtopic_recall(one_of_each, k=3, subtopic_pool=pool) == 1.0
    assert nt.subtopic_recall(cars_first, k=3, subtopic_pool=pool) == pytest.approx(2 / 3, abs=TOL)


def test_the_trace_marks_the_subtopics_each_item_is_first_to_cover():
    trace = nt.explain_subtopic_recall([[1, 1, 0], [1, 0, 0], [0, 1, 1]], ranking=["a", "b", "c"])
    assert [(row.item, row.subtopics, row.new_subtopics, row.covered) for row in trace.rows] == [
        ("a", "1, 2", "1, 2", 2), ("b", "1", "-", 2), ("c", "2, 3", "3", 3)]
    assert [row.s_recall for row in trace.rows] == pytest.approx([2 / 3, 2 / 3, 1.0], abs=TOL)
    assert trace.formula == "S-recall@3 = 3 / 3 = 1.0000"
    assert nt.explain_subtopic_recall([[0, 0]]).formula.startswith("S-recall@1 = 0")


def test_new_subtopics_per_cell():
    table = np.array([[[2, 0, 0], [1, 1, 0], [0, 1, 1], [1, 0, 1]]], dtype=float)
    assert new_subtopics(table)[0].astype(int).tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]]
    assert new_subtopics(table, threshold=2)[0].astype(int).tolist() == [[1, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]


# ---- Oracles ---------------------------------------------------------------------------------------

@settings(max_examples=400, deadline=None, derandomize=True)
@given(rows=tables, k=st.one_of(st.none(), st.integers(1, 8)), threshold=st.integers(1, 3), extra=tables)
def test_against_the_definition(rows, k, threshold, extra):
    assert nt.subtopic_recall(rows, k, threshold=threshold) == pytest.approx(oracle(rows, k, threshold=threshold), abs=TOL)
    width = len(rows[0]) if rows else len(extra[0]) if extra else 0
    pool = rows + [row for row in extra if len(row) == width]
    if width:
        got = nt.subtopic_recall(rows, k, subtopic_pool=pool, threshold=threshold)
        assert got == pytest.approx(oracle(rows, k, pool, threshold), abs=TOL)
        trace = nt.explain_subtopic_recall(rows, k, subtopic_pool=pool, threshold=threshold)
        assert trace.value == got
        if trace.rows:
            assert trace.rows[-1].s_recall == pytest.approx(got, abs=TOL)


def test_ndevals_strec_on_the_test_files():
    pyndeval = pytest.importorskip("pyndeval", reason="pyndeval (ndeval's C source) has wheels for Linux x86-64 only")
    from test_diversity_qrels import QRELS, RUN, lines

    qrels = [(topic, subtopic, docno, int(grade)) for topic, subtopic, docno, grade in lines(QRELS)]
    run = [(topic, docno, float(score)) for topic, _, docno, _, score, _ in lines(RUN)]
    names = ["strec@1", "strec@3", "strec@5", "strec@10", "strec@20"]
    expected = pyndeval.RelevanceEvaluator(qrels, names).evaluate(run)
    result = nt.evaluate(QRELS, RUN, names)
    assert any(0 < values["strec@3"] < 1 for values in expected.values())
    for query, values in expected.items():
        for name in names:
            assert result.value(query, name) == pytest.approx(values[name], abs=TOL), (query, name)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_random_collections_against_ndeval(data):
    pyndeval = pytest.importorskip("pyndeval", reason="pyndeval (ndeval's C source) has wheels for Linux x86-64 only")
    nested, scores, qrels, run = {}, {}, [], []
    for topic in range(data.draw(st.integers(1, 3))):
        docs = [f"d{i}" for i in range(data.draw(st.integers(1, 9)))]
        for subtopic in range(data.draw(st.integers(1, 4))):
            for docno in data.draw(st.lists(st.sampled_from(docs), unique=True, max_size=len(docs))):
                grade = data.draw(st.integers(0, 2))
                qrels.append((str(topic), str(subtopic + 1), docno, grade))
                nested.setdefault(str(topic), {}).setdefault(str(subtopic + 1), {})[docno] = grade
        ranked = data.draw(st.permutations(docs + ["unjudged"]))
        for rank, docno in enumerate(ranked):
            run.append((str(topic), docno, float(len(ranked) - rank)))
            scores.setdefault(str(topic), {})[docno] = float(len(ranked) - rank)
    if not qrels:
        return
    names = ["strec@1", "strec@3", "strec@20"]
    expected = pyndeval.RelevanceEvaluator(qrels, names).evaluate(run)
    result = nt.evaluate(nested, scores, names, scores="float64")
    for query, values in expected.items():
        for name in names:
            assert result.value(query, name) == pytest.approx(values[name], abs=TOL), (query, name)


# ---- Invariants ------------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None, derandomize=True)
@given(rows=tables, k=st.integers(1, 8))
def test_it_never_falls_with_k_and_one_subtopic_is_recall_of_the_list(rows, k):
    assert nt.subtopic_recall(rows, k) <= nt.subtopic_recall(rows, k + 1) + TOL
    column = [[row[0]] for row in rows]
    relevant = [int(row[0] >= 1) for row in column]
    if any(relevant):
        assert nt.subtopic_recall(column, k) == float(any(relevant[:k]))


def test_batch_equals_the_function_query_by_query():
    tables_ = [[[1, 0, 0], [1, 1, 0]], [[0, 0, 1], [0, 0, 0], [1, 0, 1]], [[0, 0, 0]]]
    query = Query.stacked([Query.of_subtopics(table) for table in tables_])
    spec = nt.core.registry.metric("subtopic_recall")
    assert route(spec, query) == "batch"
    for k in (None, 1, 2, 5):
        expected = [nt.subtopic_recall(table, k) for table in tables_]
        assert call(spec, query, k).tolist() == pytest.approx(expected, abs=TOL)
    assert nt.mean("subtopic_recall", tables_, 2) == pytest.approx(np.mean([nt.subtopic_recall(t, 2) for t in tables_]))


def test_names_evaluate_and_the_command_accept():
    qrels = {"q": {"animal": {"cat": 1}, "car": {"dealer": 1, "review": 1}, "os": {"mac": 1}}}
    run = {"q": {"dealer": 3.0, "review": 2.0, "cat": 1.0}}
    result = nt.evaluate(qrels, run, ["strec@2", "S-recall@3", "StRecall@3"])
    assert result.value("q", "strec@2") == pytest.approx(1 / 3, abs=TOL)
    assert result.value("q", "S-recall@3") == result.value("q", "StRecall@3") == pytest.approx(2 / 3, abs=TOL)


# ---- Refusals --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("judgements", "keywords", "error", "words"), [
    ([1, 0], {}, ValueError, "must be 2-D"),
    ([[1, 0], [1]], {}, ValueError, "same number of subtopics"),
    ([[1, -1]], {}, ValueError, "non-negative"),
    ([[1, 0]], {"k": 0}, ValueError, "k"),
    ([[1, 0]], {"subtopic_pool": [[1, 0, 0]]}, ValueError, "number of subtopics"),
    ([[1, 0]], {"subtopic_pool": [[0, 1]]}, ValueError, "must hold every judged item"),
    ([[1, 0]], {"threshold": "high"}, TypeError, "threshold"),
])
def test_bad_input_is_refused_with_a_clear_message(judgements, keywords, error, words):
    with pytest.raises(error, match=words) as raised:
        nt.subtopic_recall(judgements, **keywords)
    assert "instead" in str(raised.value)
    with pytest.raises(error, match=words):
        nt.explain_subtopic_recall(judgements, **keywords)
