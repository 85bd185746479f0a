"""A bounded fuzz test over file lines: a malformed line gives a clear error naming its file and line; files of valid
lines give pytrec_eval's numbers (trec_eval 9.0.8 inside) for every query."""

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ndcg_teach as nt
from ndcg_teach.runs.trec import TrecFormatError

pytrec_eval = pytest.importorskip("pytrec_eval")

QIDS = ["q1", "q2", "q10", "Q-3", "é4"]
DOCNOS = ["d1", "d2", "d3", "d10", "D#1", "x_1", "aé", "d1.5", "z"]
SCORES = [0.5, 0.25, 1.0, -2.0, 0.812345674, 0.812345671, 3.0, 1e-3]  # ties, and two equal only in 32 bits
SEPARATORS = [" ", "\t", "  ", " \t "]
MEASURES = ["map", "P.1,5", "recall.3", "ndcg", "ndcg_cut.3", "recip_rank", "bpref", "Rprec"]
NAMES = ["map", "P_1", "P_5", "recall_3", "ndcg", "ndcg_cut_3", "recip_rank", "bpref", "Rprec"]
FAULTS = {  # how a line is broken, and the start of the error it must give
    "truncated": "is truncated; expected",
    "extra": "has too many columns; expected",  # qrels only: trec_eval reads text after a run's tag
    "word": "column must be",
    "nul": "is a binary file (it holds NUL bytes)",
}
_case = itertools.count()


def entries(draw, grade):
    pairs = draw(st.lists(st.tuples(st.sampled_from(QIDS), st.sampled_from(DOCNOS)), min_size=1, max_size=25,
                          unique=True))
    values = [draw(st.integers(-1, 3) if grade else st.sampled_from(SCORES)) for _ in pairs]
    return [(qid, docno, value) for (qid, docno), value in zip(pairs, values)]


def text_of(rows, run, draw):
    lines = []
    for index, (qid, docno, value) in enumerate(rows):
        parts = [qid, "Q0", docno, str(index + 1), repr(value), "sys"] if run else [qid, "0", docno, str(value)]
        if run and draw(st.booleans()):
            parts.append("trailing words")
        lines.append(draw(st.sampled_from(SEPARATORS)).join(parts))
    return lines


def broken(line, fault, run):
    parts = line.split()
    if fault == "truncated":
        return " ".join(parts[:-1] if not run else parts[:5])
    if fault == "extra":
        return line + " extra"
    if fault == "word":
        parts[4 if run else 3] = "high"
        return " ".join(parts)
    return line[:2] + "\0" + line[2:]


@st.composite
def files(draw):
    # pytrec_eval's trec_eval remembers the last query by id across evaluators (ids unique to this test and example),
    # and hangs on a query whose every judgement is negative (each query gets one grade of 0 or more)
    prefix = f"fuzz{next(_case)}_"
    qrels, seen = [], set()
    for qid, docno, grade in sorted(entries(draw, True), key=lambda entry: -entry[2]):
        qrels.append((prefix + qid, docno, grade if grade >= 0 or qid in seen else 0))
        seen.add(qid)
    run = [(prefix + q, d, s) for q, d, s in entries(draw, False)]
    qrels_lines, run_lines = text_of(qrels, False, draw), text_of(run, True, draw)
    fault = draw(st.sampled_from([None, None, *FAULTS]))
    target = draw(st.sampled_from(["qrels", "run"])) if fault else None
    if fault == "extra":
        target = "qrels"
    bad = None
    if fault:
        lines = qrels_lines if target == "qrels" else run_lines
        where = draw(st.integers(0, len(lines) - 1))
        lines[where] = bad = broken(lines[where], fault, target == "run")
    for lines in (qrels_lines, run_lines):  # blank lines and comments are skipped but counted as lines
        if draw(st.booleans()):
            lines.insert(0, draw(st.sampled_from(["# comment", "", "  "])))
    return qrels, run, qrels_lines, run_lines, fault, target, bad


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files())
def test_file_lines_give_a_clear_error_or_pytrec_evals_numbers(tmp_path, case):
    qrels, run, qrels_lines, run_lines, fault, target, bad = case
    (tmp_path / "qrels").write_text("\n".join(qrels_lines) + "\n")
    (tmp_path / "run").write_text("\n".join(run_lines) + "\n")
    if fault:
        line = (qrels_lines if target == "qrels" else run_lines).index(bad) + 1
        with pytest.raises(TrecFormatError) as caught:
            (nt.read_qrels if target == "qrels" else nt.read_run)(tmp_path / target)
        message = str(caught.value)
        assert message.startswith(f"{tmp_path / target}, line {line}: ") and FAULTS[fault] in message, message
        return
    judged = {}
    for qid, docno, grade in qrels:
        judged.setdefault(qid, {})[docno] = grade
    ranked = {}
    for qid, docno, score in run:
        ranked.setdefault(qid, {})[docno] = score
    oracle = pytrec_eval.RelevanceEvaluator(judged, set(MEASURES)).evaluate(ranked)
    if not oracle:
        with pytest.raises(ValueError, match="qrels and run must share at least one query"):
            nt.evaluate(tmp_path / "qrels", tmp_path / "run", MEASURES)
        return
    result = nt.evaluate(tmp_path / "qrels", tmp_path / "run", MEASURES)
    assert set(result.queries) == set(oracle)
    for qid in oracle:
        for name in NAMES:
            assert result.value(qid, name) == pytest.approx(oracle[qid][name], abs=1e-12), (qid, name)
    for name in NAMES:
        assert result.means[name] == pytest.approx(np.mean([oracle[qid][name] for qid in oracle]), abs=1e-12)
