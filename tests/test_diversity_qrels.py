"""Diversity qrels (``topic subtopic docno grade``, the TREC Web track's format): reading them, and evaluate and the
command computing α-nDCG and ERR-IA on them exactly as ndeval does.

ndeval's numbers come from pyndeval, a Python wrapper of ndeval's C source
(TREC Web track, version 4.5). It ranks tied scores by docno ascending where
trec_eval (and ndcg_teach) go descending, so the runs here have no ties.
tests/data/diversity.qrels was written for these tests: graded and binary
grades, an item relevant to two subtopics, a subtopic nobody found relevant,
a query with nothing relevant, a query the run misses and one it answers
alone.
"""

import io
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt
from ndcg_teach.runs.cli import main

DATA = Path(__file__).parent / "data"
QRELS, RUN = DATA / "diversity.qrels", DATA / "diversity.run"
NDEVAL = ["alpha-nDCG@5", "alpha-nDCG@10", "alpha-nDCG@20", "ERR-IA@5", "ERR-IA@10", "ERR-IA@20", "nERR-IA@5",
          "nERR-IA@10", "nERR-IA@20", "alpha-nDCG@2", "ERR-IA@3"]
TOL = 1e-12


def ndeval(qrels, run, measures, relevance_level=1):
    pyndeval = pytest.importorskip("pyndeval", reason="pyndeval (ndeval's C source) has wheels for Linux x86-64 only")
    return pyndeval.RelevanceEvaluator(qrels, measures, relevance_level=relevance_level).evaluate(run)


def lines(path):
    return [line.split() for line in Path(path).read_text().splitlines()]


# ---- Reading ---------------------------------------------------------------------------------------

def test_the_second_column_is_the_subtopic():
    qrels = nt.read_qrels(QRELS, subtopics=True)
    assert qrels.subtopics.tolist()[:4] == [b"1", b"1", b"2", b"2"]
    assert qrels.docnos.tolist()[:3] == [b"web-a", b"web-b", b"web-b"] and qrels.grades[1] == 2.0
    assert nt.read_qrels(QRELS).subtopics is None  # trec_eval's reading ignores that column


def test_a_dict_of_subtopics_reads_as_the_file_does():
    nested = {}
    for topic, subtopic, docno, grade in lines(QRELS):
        nested.setdefault(topic, {}).setdefault(subtopic, {})[docno] = int(grade)
    from_dict = nt.evaluate(nested, RUN, ["alpha_nDCG@10", "ERR_IA@10"])
    from_file = nt.evaluate(QRELS, RUN, ["alpha_nDCG@10", "ERR_IA@10"])
    assert str(from_dict) == str(from_file)


def test_bad_files_and_inputs_are_refused_naming_the_file_and_line(tmp_path):
    path = tmp_path / "bad.qrels"
    path.write_text("1 1 web-a 1\n1 web-b 1\n")
    with pytest.raises(nt.TrecFormatError, match=r"bad\.qrels, line 2: is truncated; expected 4 columns \(topic "
                                                      r"subtopic docno grade\)\. Got 3 column\(s\) '1 web-b 1' instead\."):
        nt.read_qrels(path, subtopics=True)
    path.write_text("1 1 web-a 1\n1 2 web-b x\n")
    with pytest.raises(nt.TrecFormatError, match=r"bad\.qrels, line 2: the grade column must be a finite number"):
        nt.read_qrels(path, subtopics=True)
    with pytest.raises(TypeError, match=r"subtopics must be True \(diversity qrels: topic subtopic docno grade\) or "
                                        r"False\. Got 'yes' instead\."):
        nt.read_qrels(QRELS, subtopics="yes")
    with pytest.raises(nt.TrecFormatError, match=r"qrels with subtopics must map each query id to a \{subtopic: "
                                                      r"\{item id: grade\}\} dict; query '1' maps to 3\."):
        nt.read_qrels({"1": 3}, subtopics=True)
    with pytest.raises(TypeError, match=r"qrels must be read with read_qrels\(\.\.\., subtopics=True\) for the diversity "
                                        r"metrics.*Got qrels from dict instead\."):
        nt.evaluate(nt.read_qrels({"1": {"web-a": 1}}), {"1": {"web-a": 1.0}}, ["alpha-nDCG@10"])


def test_a_judgement_given_twice_for_one_subtopic_follows_the_duplicates_rule(tmp_path):
    path = tmp_path / "twice.qrels"
    path.write_text("1 1 web-a 1\n1 2 web-a 1\n1 1 web-a 0\n")
    run = {"1": {"web-a": 1.0}}
    with pytest.raises(nt.TrecFormatError, match=r"twice\.qrels: the qrels list item 'web-a' twice for query '1', "
                                                      r"subtopic '1' \(lines 1 and 3\)\. Pass duplicates="):
        nt.evaluate(path, run, ["alpha-nDCG@10"])
    assert nt.evaluate(path, run, ["alpha-nDCG@10"], duplicates="max").value("1", "alpha-nDCG@10") == 1.0
    last = nt.evaluate(path, run, ["alpha-nDCG@10", "ERR-IA@10"], duplicates="last")
    assert last.value("1", "alpha-nDCG@10") == 1.0 and last.value("1", "ERR-IA@10") == pytest.approx(
        0.5 / sum(0.5 ** r / r for r in range(1, 11)), abs=TOL)  # only subtopic 2 is relevant now


def test_other_measures_read_each_items_largest_grade():
    plain = {}
    for topic, _, docno, grade in lines(QRELS):
        plain.setdefault(topic, {})[docno] = max(int(grade), plain.get(topic, {}).get(docno, 0))
    mixed = nt.evaluate(QRELS, RUN, ["alpha-nDCG@10", "ndcg_cut.10", "map"])
    ordinary = nt.evaluate(plain, RUN, ["ndcg_cut.10", "map"])
    for query in ("1", "2", "3"):
        assert mixed.value(query, "ndcg_cut_10") == ordinary.value(query, "ndcg_cut_10")
        assert mixed.value(query, "map") == ordinary.value(query, "map")


# ---- ndeval's numbers ------------------------------------------------------------------------------

def test_the_test_files_score_as_ndeval_scores_them():
    qrels = [(topic, subtopic, docno, int(grade)) for topic, subtopic, docno, grade in lines(QRELS)]
    run = [(topic, docno, float(score)) for topic, _, docno, _, score, _ in lines(RUN)]
    expected = ndeval(qrels, run, NDEVAL)
    result = nt.evaluate(QRELS, RUN, NDEVAL)
    assert sorted(expected) == ["1", "2", "3"]  # topic 4 is not in the run, topic 5 not in the qrels
    for query, values in expected.items():
        for name in NDEVAL:
            assert result.value(query, name) == pytest.approx(values[name], abs=TOL), (query, name)
    assert result.value("1", "alpha-nDCG@10") == pytest.approx(0.8687600745844615, abs=TOL)  # ndeval prints 0.868760
    assert result.value("3", "ERR-IA@10") == 0.0  # nothing relevant: ndeval's 0


def test_ndevals_published_example():
    # pyndeval's README prints ndeval's numbers for this query to 4 decimals, cut (not rounded): 0.829787 is 0.8297.
    qrels = {"0": {"a": {"A": 1}, "b": {"B": 1, "D": 1}, "c": {"C": 1}}}
    run = {"0": {"A": 9.3, "D": 8.4, "E": 8.1, "B": 7.6}}
    published = {"ERR-IA@5": 0.3933, "ERR-IA@10": 0.3907, "ERR-IA@20": 0.3907, "nERR-IA@5": 0.8297,
                 "nERR-IA@10": 0.8297, "nERR-IA@20": 0.8297, "alpha-nDCG@5": 0.7868, "alpha-nDCG@10": 0.7868,
                 "alpha-nDCG@20": 0.7868}
    result = nt.evaluate(qrels, run, list(published))
    assert {name: math.floor(result.value("0", name) * 1e4) / 1e4 for name in published} == published


def test_a_relevance_level_reads_lower_grades_as_not_relevant_as_pyndeval_does():
    qrels = [(topic, subtopic, docno, int(grade)) for topic, subtopic, docno, grade in lines(QRELS)]
    run = [(topic, docno, float(score)) for topic, _, docno, _, score, _ in lines(RUN)]
    expected = ndeval(qrels, run, NDEVAL, relevance_level=2)
    result = nt.evaluate(QRELS, RUN, NDEVAL, relevance_level=2)
    assert expected["1"]["alpha-nDCG@10"] > 0.0  # web-b's grade 2 is still relevant to subtopic 1
    for query, values in expected.items():
        for name in NDEVAL:
            assert result.value(query, name) == pytest.approx(values[name], abs=TOL), (query, name)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_random_collections_against_ndeval(data):
    qrels, run = [], []
    for topic in range(data.draw(st.integers(1, 3))):
        docs = [f"d{i}" for i in range(data.draw(st.integers(1, 9)))]
        for subtopic in range(data.draw(st.integers(1, 4))):
            for docno in data.draw(st.lists(st.sampled_from(docs), unique=True, max_size=len(docs))):
                qrels.append((str(topic), str(subtopic + 1), docno, data.draw(st.integers(0, 2))))
        ranked = data.draw(st.permutations(docs + ["unjudged"]))
        run += [(str(topic), docno, float(len(ranked) - rank)) for rank, docno in enumerate(ranked)]
    if not qrels:
        return
    measures = ["alpha-nDCG@5", "alpha-nDCG@20", "ERR-IA@5", "ERR-IA@20", "nERR-IA@10"]
    expected = ndeval(qrels, run, measures)
    nested, scores = {}, {}
    for topic, subtopic, docno, grade in qrels:
        nested.setdefault(topic, {}).setdefault(subtopic, {})[docno] = grade
    for topic, docno, score in run:
        scores.setdefault(topic, {})[docno] = score
    result = nt.evaluate(nested, scores, measures, scores="float64")
    for query, values in expected.items():
        for name in measures:
            assert result.value(query, name) == pytest.approx(values[name], abs=TOL), (query, name)


# ---- The command and explanations ------------------------------------------------------------------

def test_the_command_prints_ndevals_measures_as_trec_eval_prints():
    out, err = io.StringIO(), io.StringIO()
    assert main(["-q", "-m", "alpha-nDCG@10", "-m", "ERR-IA@10", str(QRELS), str(RUN)], out=out, err=err) == 0
    printed = [line.split("\t") for line in out.getvalue().splitlines()]
    result = nt.evaluate(QRELS, RUN, ["alpha-nDCG@10", "ERR-IA@10"])
    assert [(name.strip(), query) for name, query, _ in printed[:2]] == [("alpha-nDCG@10", "1"), ("ERR-IA@10", "1")]
    assert printed[-2][1] == "all" and float(printed[-2][2]) == pytest.approx(
        np.mean([result.value(q, "alpha-nDCG@10") for q in "123"]), abs=5e-5)


def test_an_evaluation_explains_its_diversity_numbers():
    result = nt.evaluate(QRELS, RUN, ["alpha_nDCG@10", "ERR_IA@10"])
    trace = result.explain("1", "alpha_nDCG@10")
    assert trace.value == result.value("1", "alpha_nDCG@10")
    assert [row.item for row in trace.rows[:3]] == ["web-b", "web-a", "web-x"]
    assert trace.rows[0].subtopics == "1, 2"  # web-b is relevant to two subtopics (grade 2 read as 1)
    assert math.isclose(result.explain("1", "ERR_IA@10").value, result.value("1", "ERR_IA@10"), abs_tol=0)


def test_diversity_dicts_read_without_subtopics_say_how_to_read_them():
    with pytest.raises(nt.TrecFormatError, match=r"qrels must map each query id to an \{item id: grade\} dict; "
                                                      r"query '1' maps '2' to a dict, as diversity qrels map a subtopic: "
                                                      r"read those with read_qrels\(\.\.\., subtopics=True\)\."):
        nt.evaluate({"1": {"2": {"web-a": 1}}}, {"1": {"web-a": 1.0}}, ["ndcg_cut.10"])


def test_gzipped_and_bounded_files_read_as_trec_files_do(tmp_path):
    import gzip

    packed = tmp_path / "diversity.qrels.gz"
    packed.write_bytes(gzip.compress(QRELS.read_bytes()))
    assert str(nt.evaluate(packed, RUN, ["alpha-nDCG@10"])) == str(nt.evaluate(QRELS, RUN, ["alpha-nDCG@10"]))
    with pytest.raises(nt.TrecFormatError, match=r"max_bytes"):
        nt.read_qrels(QRELS, subtopics=True, max_bytes=64)
