"""Reading qrels and run files: plain, gzip and streams, in blocks, with trec_eval's number syntax, every malformed
line refused with its file and line. The real trec_eval 9.0.8 (tests/trec_binaries.py) checks the number syntax too."""

import gzip
import subprocess

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.runs import trec_files
from ndcg_teach.runs.trec import TrecFormatError, read_qrels, read_run
from trec_binaries import TREC_EVAL

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


def test_plain_gzip_multi_member_gzip_and_streams_read_the_same(tmp_path):
    plain = read_qrels(written(tmp_path, QRELS, "q.txt"))
    packed = read_qrels(written(tmp_path, QRELS, "q.gz", "gz"))
    members = read_qrels(written(tmp_path, gzip.compress(QRELS[:10].encode()) + gzip.compress(QRELS[10:].encode()),
                                 "m.gz"))
    with open(tmp_path / "q.txt", "rb") as handle:
        streamed = read_qrels(handle)
    for qrels in (packed, members, streamed):
        assert qrels.queries == plain.queries == ("q1", "q2")
        assert qrels.docnos.tolist() == plain.docnos.tolist() == [b"d1", b"d2", b"d3"]
        assert qrels.grades.tolist() == plain.grades.tolist() == [2.0, 0.0, 1.0]
    run = read_run(written(tmp_path, RUN, "r.gz", "gz"))
    assert run.scores.tolist() == [0.9, 0.5, 1.5] and run.tag == "sys"


def test_the_run_id_is_the_last_lines_tag_as_in_trec_eval(tmp_path):
    assert read_run(written(tmp_path, "q1 Q0 a 1 1 first\nq1 Q0 b 2 0 last extra words\n")).tag == "last"


def test_blank_lines_comments_crlf_and_text_after_the_tag(tmp_path):
    text = "# judged by hand\n\nq1 0 d1 2\r\n#q1 0 d9 3\n  \nq1\t0\td2\t1\n"
    qrels = read_qrels(written(tmp_path, text))
    assert qrels.docnos.tolist() == [b"d1", b"d2"] and qrels.lines.tolist() == [3, 6] and qrels.grades.tolist() == [2, 1]
    run = read_run(written(tmp_path, "q1 Q0 d1 1 0.9 sys trailing words\nq1 Q0 d2 2 0.8 sys\n", "r.txt"))
    assert run.docnos.tolist() == [b"d1", b"d2"]


def test_ids_may_hold_hash_signs_long_names_control_bytes_and_unicode(tmp_path):
    long_id = "doc_" + "x" * 3000
    text = f"q1 0 msmarco#1_2 1\nq1 0 {long_id} 2\nq1 0 café 3\nq1 0 a\x01b 0\n"
    qrels = read_qrels(written(tmp_path, text))
    assert [d.decode() for d in qrels.docnos.tolist()] == ["msmarco#1_2", long_id, "café", "a\x01b"]


def test_id_memory_grows_with_the_ids_not_with_the_longest(tmp_path):
    lines = [f"q{i % 50} Q0 doc{i} {i} {i / 7:.4f} run\n" for i in range(20000)]
    lines[123] = f"q2 Q0 {'x' * 2000} 1 0.5 run\n"
    run = read_run(written(tmp_path, "".join(lines)))
    assert run.docnos.nbytes_per_id() < 30  # a 2,000-byte id costs its own words only (fixed width: 2,000 per id)
    assert run.docnos[123] == b"x" * 2000 and run.docnos.tolist()[124] == b"doc124"


def test_blocks_split_a_large_file_without_losing_a_line(tmp_path, monkeypatch):
    monkeypatch.setattr(trec_files, "BLOCK_BYTES", 64)
    text = "".join(f"q{i % 7} 0 d{i} {i % 3}\n" for i in range(200)) + "q1 0 last 2"  # no final newline
    qrels = read_qrels(written(tmp_path, text))
    assert len(qrels) == 201 and qrels.lines.tolist() == list(range(1, 202)) and qrels.docnos[200] == b"last"
    packed = read_qrels(written(tmp_path, text, "q.gz", "gz"))
    assert packed.docnos.tolist() == qrels.docnos.tolist() and packed.grades.tolist() == qrels.grades.tolist()


def test_regular_and_irregular_blocks_agree(tmp_path):
    rng = np.random.default_rng(3)
    lines = [f"q{rng.integers(50)} Q0 d{rng.integers(10**6)} {i} {rng.normal():.6g} run\n" for i in range(5000)]
    regular = read_run(written(tmp_path, "".join(lines), "a"))
    irregular = read_run(written(tmp_path, "# header\n\n" + "".join(line.rstrip() + " x\n" for line in lines), "b"))
    for column in ("docnos", "qids"):
        assert getattr(regular, column).tolist() == getattr(irregular, column).tolist()
    assert regular.scores.tolist() == irregular.scores.tolist()
    assert irregular.lines.tolist() == [line + 2 for line in regular.lines.tolist()]


# token: (grade as trec_eval reads it (atol), grade in full, score (atof)); None: refused, with the line
NUMBERS = {
    "2": (2, 2.0, 2.0), "1.5": (1, 1.5, 1.5), "0.7": (0, 0.7, 0.7), "1_0": (1, 1.0, 1.0), "1e3": (1, 1000.0, 1000.0),
    ".5": (0, 0.5, 0.5), "-1.5": (-1, -1.5, -1.5), "+2": (2, 2.0, 2.0), "0x10": (0, 16.0, 16.0),
    "0x1p-1": (0, 0.5, 0.5), "-0": (0, -0.0, -0.0), "0.9abc": (0, 0.9, 0.9), "inf": (None, None, float("inf")),
    "high": (None, None, None), "nan": (None, None, None), "1e400": (None, None, float("inf")),
}


@pytest.mark.parametrize("token", NUMBERS)
def test_numbers_are_read_as_c_reads_them(tmp_path, token):
    integer, full, score = NUMBERS[token]
    qrels = written(tmp_path, f"q1 0 a 1\nq1 0 b {token}\n", "q")
    if integer is None:
        with pytest.raises(TrecFormatError, match=rf"q, line 2: the rel column must be a finite number.*'{token}'"):
            read_qrels(qrels)
    else:
        assert read_qrels(qrels).grades.tolist() == [1, integer]
        assert read_qrels(qrels, grades="float").grades.tolist() == [1, full]
    run = written(tmp_path, f"q1 Q0 a 1 0.6 t\nq1 Q0 b 2 {token} t\n", "r")
    if score is None:
        with pytest.raises(TrecFormatError, match=rf"r, line 2: the score column must be a number.*'{token}'"):
            read_run(run)
    else:
        assert read_run(run).scores.tolist() == [0.6, score]
    binary = TREC_EVAL
    if binary and integer is not None:  # grade b as trec_eval reads it: relevant (num_rel 2) when it is >= 1
        done = subprocess.run([binary, "-m", "num_rel", str(qrels), str(run)], capture_output=True, text=True,
                              check=True)
        assert done.stdout.split()[-1] == str(1 + (integer >= 1))


@pytest.mark.parametrize(("text", "message"), [
    ("q1 0 d1 2\nq1 0 d2\n", r"file.txt, line 2: is truncated; expected 4 columns \(qid iter docno rel\). Got 3 column\(s\) 'q1 0 d2' instead"),
    ("q1 0 d1 2\nq1 0 d2 1 extra\n", r"file.txt, line 2: has too many columns; expected 4 columns \(qid iter docno rel\). Got 5 column\(s\)"),
    ("q1 0 d1 high\n", r"file.txt, line 1: the rel column must be a finite number \(trec_eval would read it as 0\). Got 'high' in 'q1 0 d1 high' instead"),
    ("", r"file.txt: holds no lines; expected one line of 4 columns \(qid iter docno rel\) per entry. Got an empty file instead"),
    ("# only a comment\n\n", r"holds no lines"),
    (b"q1 0 d1 1\nq1 0 d\x002 1\n", r"file.txt, line 2: is a binary file \(it holds NUL bytes\), not a text file of TREC lines"),
    (b"q1 0 d1 1\x00", r"file.txt, line 1: is a binary file"),
    (b"\x1f\x8bnot really gzip", r"file.txt: starts like a gzip file but cannot be decompressed"),
    (gzip.compress(QRELS.encode(), mtime=0)[:-12], r"file.txt: starts like a gzip file but cannot be decompressed \(it ends in the middle"),
])
def test_malformed_qrels_name_the_file_and_line(tmp_path, text, message):
    with pytest.raises(TrecFormatError, match=message):
        read_qrels(written(tmp_path, text))


@pytest.mark.parametrize(("text", "message"), [
    ("q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2 0.8\n", r"line 2: is truncated; expected 6 columns \(qid Q0 docno rank score tag\)"),
    ("q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2 abc sys\n", r"line 2: the score column must be a number \(trec_eval would read it as 0\). Got 'abc'"),
    ("q1 Q0 d1 1 nan sys\n", r"line 1: the score column must be a number, not NaN. Got 'nan'"),
])
def test_malformed_runs_name_the_file_and_line(tmp_path, text, message):
    with pytest.raises(TrecFormatError, match=message):
        read_run(written(tmp_path, text))


def test_a_bad_line_stops_the_evaluation_before_any_number(tmp_path):
    qrels = written(tmp_path, QRELS, "q.txt")
    run = written(tmp_path, RUN + "q2 Q0 d4 2 oops sys\n", "r.txt")
    with pytest.raises(TrecFormatError, match=r"r.txt, line 4: the score column"):
        nt.evaluate(qrels, run, ["map"])


def test_wrong_types():
    with pytest.raises(TypeError, match=r"qrels must be a file name, a \{qid: \{docno: grade\}\} dict or a DataFrame. Got 3 instead"):
        read_qrels(3)
    with pytest.raises(TypeError, match=r"run must be a file name.*Got \[1, 2\] instead"):
        read_run([1, 2])
    with pytest.raises(ValueError, match=r"grades must be one of 'integer', 'float'. Got 'half' instead"):
        read_qrels({"q": {"a": 1}}, grades="half")
    with pytest.raises(TypeError, match=r"max_bytes must be a positive whole number of bytes.*Got 0 instead"):
        read_run("x", max_bytes=0)


def test_duplicates_are_refused_with_both_lines_or_resolved(tmp_path):
    run = written(tmp_path, "q1 Q0 d1 1 0.2 s\nq1 Q0 d2 2 0.5 s\nq1 Q0 d1 3 0.9 s\n", "r.txt")
    qrels = {"q1": {"d1": 1, "d2": 0}}
    with pytest.raises(TrecFormatError, match=r"r.txt: the run lists item 'd1' twice for query 'q1' \(lines 1 and 3\); trec_eval refuses that \(duplicate docs d1\)"):
        nt.evaluate(qrels, run, ["recip_rank"])
    assert nt.evaluate(qrels, run, ["recip_rank"], duplicates="first")["recip_rank"] == 0.5  # d1 keeps 0.2: d2 first
    assert nt.evaluate(qrels, run, ["recip_rank"], duplicates="last")["recip_rank"] == 1.0
    assert nt.evaluate(qrels, run, ["recip_rank"], duplicates="max")["recip_rank"] == 1.0
    twice = written(tmp_path, "q1 0 d1 1\nq1 0 d1 0\n", "q.txt")
    with pytest.raises(TrecFormatError, match=r"q.txt: the qrels lists item 'd1' twice for query 'q1' \(lines 1 and 2\)"):
        nt.evaluate(twice, {"q1": {"d1": 1.0}}, ["P.1"])
    assert nt.evaluate(twice, {"q1": {"d1": 1.0}}, ["P.1"], duplicates="last")["P.1"] == 0.0
    # trec_eval looks only at evaluated queries: a duplicate in a query without judgements is no error
    other = written(tmp_path, "q1 Q0 d1 1 0.2 s\nq9 Q0 x 1 0.5 s\nq9 Q0 x 2 0.4 s\n", "o.txt")
    assert nt.evaluate(qrels, other, ["P.1"])["P.1"] == 1.0


def test_example_files_are_the_shipped_collection():
    qrels_path, run_path = nt.example_files()
    assert read_qrels(qrels_path).source == qrels_path
    assert read_run(run_path).tag == "comment.test"
