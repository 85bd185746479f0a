"""Reading qrels and runs: files (plain, gzip), dicts, DataFrames, and every malformed input refused with its line."""

import gzip

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach import trec
from ndcg_teach.trec import TrecFormatError, read_qrels, read_run

QRELS = "q1 0 d1 2\nq1 0 d2 0\nq2 0 d3 1\n"
RUN = "q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2 0.5 sys\nq2 Q0 d3 1 1.5 sys\n"


def written(tmp_path, text, name="file.txt", mode="w"):
    path = tmp_path / name
    if mode == "gz":
        path.write_bytes(gzip.compress(text.encode()))
    elif isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def test_plain_and_gzip_files_read_the_same(tmp_path):
    plain = read_qrels(written(tmp_path, QRELS, "q.txt"))
    packed = read_qrels(written(tmp_path, QRELS, "q.gz", "gz"))
    assert plain.queries == packed.queries == ("q1", "q2")
    assert plain.docnos.tolist() == packed.docnos.tolist() == [b"d1", b"d2", b"d3"]
    assert plain.grades.tolist() == packed.grades.tolist() == [2.0, 0.0, 1.0]
    run = read_run(written(tmp_path, RUN, "r.gz", "gz"))
    assert run.scores.tolist() == [0.9, 0.5, 1.5] and run.tag == "sys"


def test_dicts_and_files_give_the_same_columns(tmp_path):
    from_dict = read_run({"q1": {"d1": 0.9, "d2": 0.5}, "q2": {"d3": 1.5}})
    from_file = read_run(written(tmp_path, RUN))
    for column in ("qids", "docnos", "scores"):
        assert getattr(from_dict, column).tolist() == getattr(from_file, column).tolist()


def test_dataframes_with_named_columns():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"qid": ["q1", "q1"], "doc": ["a", "b"], "grade": [2, 0]})
    qrels = read_qrels(frame, query="qid", item="doc", relevance="grade")
    assert qrels.docnos.tolist() == [b"a", b"b"] and qrels.grades.tolist() == [2.0, 0.0]
    with pytest.raises(TrecFormatError, match=r"qrels DataFrame must have the columns \['query', 'item', 'relevance'\].*'query' is missing.*Got columns \['qid', 'doc', 'grade'\] instead"):
        read_qrels(frame)
    bad = pd.DataFrame({"query": ["q1"], "item": ["a"], "score": ["high"]})
    with pytest.raises(TrecFormatError, match=r"column 'score' must hold finite numbers; row 0 holds 'high'"):
        read_run(bad)
    with pytest.raises(TrecFormatError, match="must hold at least one row"):
        read_run(bad.iloc[:0])


def test_blank_lines_comments_and_text_after_the_tag_are_skipped(tmp_path):
    text = "# judged by hand\n\nq1 0 d1 2\n#q1 0 d9 3\nq1 0 d2 1\n"
    qrels = read_qrels(written(tmp_path, text))
    assert qrels.docnos.tolist() == [b"d1", b"d2"] and qrels.lines.tolist() == [3, 5]
    run = read_run(written(tmp_path, "q1 Q0 d1 1 0.9 sys trailing words\n", "r.txt"))
    assert run.docnos.tolist() == [b"d1"]


def test_ids_may_hold_hash_signs_long_names_and_unicode(tmp_path):
    long_id = "doc_" + "x" * 100
    text = f"q1 0 msmarco#1_2 1\nq1 0 {long_id} 2\nq1 0 café 3\n"
    qrels = read_qrels(written(tmp_path, text))
    assert [d.decode() for d in qrels.docnos] == ["msmarco#1_2", long_id, "café"]


def test_fast_and_line_by_line_readers_agree(tmp_path, monkeypatch):
    rng = np.random.default_rng(3)
    lines = [f"q{rng.integers(50)} Q0 d{rng.integers(10**6)} {i} {rng.normal():.6g} run\n" for i in range(5000)]
    path = written(tmp_path, "".join(lines))
    fast = read_run(path)
    monkeypatch.setattr(trec, "_fast_columns", lambda *args: None)
    slow = read_run(path)
    for column in ("qids", "docnos", "scores", "lines"):
        assert getattr(fast, column).tolist() == getattr(slow, column).tolist()


def test_blocks_split_a_large_file_without_losing_a_line(tmp_path, monkeypatch):
    monkeypatch.setattr(trec, "CHUNK_BYTES", 64)
    text = "".join(f"q{i % 7} 0 d{i} {i % 3}\n" for i in range(200))
    qrels = read_qrels(written(tmp_path, text))
    assert len(qrels) == 200 and qrels.lines.tolist() == list(range(1, 201))


@pytest.mark.parametrize(("text", "message"), [
    ("q1 0 d1 2\nq1 0 d2\n", r"file.txt, line 2: is truncated; expected 4 columns \(qid iter docno rel\). Got 3 column\(s\) 'q1 0 d2' instead"),
    ("q1 0 d1 2\nq1 0 d2 1 extra\n", r"file.txt, line 2: has too many columns; expected 4 columns \(qid iter docno rel\). Got 5 column\(s\)"),
    ("q1 0 d1 high\n", r"file.txt, line 1: the rel column must be a finite number. Got 'high' in 'q1 0 d1 high' instead"),
    ("q1 0 d1 nan\n", r"line 1: the rel column must be a finite number. Got 'nan'"),
    ("", r"file.txt: holds no lines; expected one line of 4 columns \(qid iter docno rel\) per entry. Got an empty file instead"),
    ("# only a comment\n\n", r"holds no lines"),
    (b"\x00\x01\x02binary", r"file.txt: is a binary file \(it holds NUL bytes\), not a text file of TREC lines"),
    (b"\x1f\x8bnot really gzip", r"file.txt: starts like a gzip file but cannot be decompressed"),
])
def test_malformed_qrels_name_the_file_and_line(tmp_path, text, message):
    with pytest.raises(TrecFormatError, match=message):
        read_qrels(written(tmp_path, text))


@pytest.mark.parametrize(("text", "message"), [
    ("q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2 0.8\n", r"line 2: is truncated; expected 6 columns \(qid Q0 docno rank score tag\)"),
    ("q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2 abc sys\n", r"line 2: the score column must be a finite number. Got 'abc'"),
    ("q1 Q0 d1 1 inf sys\n", r"line 1: the score column must be a finite number. Got 'inf'"),
])
def test_malformed_runs_name_the_file_and_line(tmp_path, text, message):
    with pytest.raises(TrecFormatError, match=message):
        read_run(written(tmp_path, text))


def test_a_bad_line_stops_the_evaluation_before_any_number(tmp_path):
    qrels = written(tmp_path, QRELS, "q.txt")
    run = written(tmp_path, RUN + "q2 Q0 d4 2 oops sys\n", "r.txt")
    with pytest.raises(TrecFormatError, match=r"r.txt, line 4: the score column"):
        nt.evaluate(qrels, run, ["map"])


def test_missing_file_and_wrong_types():
    with pytest.raises(FileNotFoundError, match=r"no-such-file: cannot be read"):
        read_qrels("no-such-file")
    with pytest.raises(TypeError, match=r"qrels must be a file name, a \{qid: \{docno: grade\}\} dict or a DataFrame. Got 3 instead"):
        read_qrels(3)
    with pytest.raises(TypeError, match=r"run must be a file name.*Got \[1, 2\] instead"):
        read_run([1, 2])


def test_bad_dicts():
    with pytest.raises(TrecFormatError, match=r"qrels must map each query id to a \{item id: grade\} dict.*query 'q1' maps to 3"):
        read_qrels({"q1": 3})
    with pytest.raises(TrecFormatError, match=r"the score of query 'q1', item 'd1' must be a finite number. Got 'x' instead"):
        read_run({"q1": {"d1": "x"}})
    with pytest.raises(TrecFormatError, match=r"qrels must hold at least one entry. Got \{\} instead"):
        read_qrels({})


def test_duplicates_are_refused_with_both_lines_or_resolved(tmp_path):
    run = written(tmp_path, "q1 Q0 d1 1 0.2 s\nq1 Q0 d2 2 0.5 s\nq1 Q0 d1 3 0.9 s\n", "r.txt")
    qrels = {"q1": {"d1": 1, "d2": 0}}
    with pytest.raises(TrecFormatError, match=r"r.txt: the run lists item 'd1' twice for query 'q1' \(lines 1 and 3\); trec_eval refuses that"):
        nt.evaluate(qrels, run, ["recip_rank"])
    assert nt.evaluate(qrels, run, ["recip_rank"], duplicates="first")["recip_rank"] == 0.5  # d1 keeps 0.2: d2 first
    assert nt.evaluate(qrels, run, ["recip_rank"], duplicates="last")["recip_rank"] == 1.0
    assert nt.evaluate(qrels, run, ["recip_rank"], duplicates="max")["recip_rank"] == 1.0
    twice = written(tmp_path, "q1 0 d1 1\nq1 0 d1 0\n", "q.txt")
    with pytest.raises(TrecFormatError, match=r"q.txt: the qrels lists item 'd1' twice for query 'q1' \(lines 1 and 2\)"):
        nt.evaluate(twice, {"q1": {"d1": 1.0}}, ["P.1"])
    assert nt.evaluate(twice, {"q1": {"d1": 1.0}}, ["P.1"], duplicates="last")["P.1"] == 0.0


def test_example_files_are_the_shipped_collection():
    qrels_path, run_path = nt.example_files()
    assert read_qrels(qrels_path).source == qrels_path
    assert read_run(run_path).tag == "comment.test"
