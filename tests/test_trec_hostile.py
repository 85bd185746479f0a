"""Hostile inputs (issue 19): what a compressed or endless input may expand to, OS errors with their own classes, and
dicts and DataFrames whose ids or numbers would otherwise give silent wrong numbers or forged output lines."""

import errno
import gzip
import io
import os

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.runs.cli import main
from ndcg_teach.runs.trec import TrecFormatError, read_qrels, read_run

LINE = b"q1 Q0 d1 1 0.5 run\n"


def test_a_gzip_bomb_stops_at_the_limit_it_names(tmp_path):
    member = gzip.compress(LINE * 500_000)  # 9.5 MB of text in about 20 kB
    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(member * 100)  # 950 MB of text in a 2 MB file
    with pytest.raises(TrecFormatError, match=r"bomb.gz: holds more than max_bytes=20,000,000 bytes once "
                                              r"decompressed.*Pass a larger max_bytes= \(command: --max-bytes\)"):
        read_run(bomb, max_bytes=20_000_000)


def test_the_limit_is_2_gib_by_default_and_configurable(tmp_path):
    path = tmp_path / "r.txt"
    path.write_bytes(LINE * 1000)  # 19,000 bytes
    assert read_run.__kwdefaults__["max_bytes"] == read_qrels.__kwdefaults__["max_bytes"] == 2 ** 31
    with pytest.raises(TrecFormatError, match=r"max_bytes=18,999"):
        read_run(path, max_bytes=18_999)
    assert len(read_run(path, max_bytes=19_000)) == 1000


class Endless(io.RawIOBase):
    """A stream of run lines that never ends (as a pipe from a program that loops)."""

    name = "endless"
    offset = 0

    def readable(self):
        return True

    def readinto(self, buffer):
        start = self.offset % len(LINE)
        chunk = (LINE * (len(buffer) // len(LINE) + 2))[start: start + len(buffer)]
        buffer[: len(chunk)] = chunk
        self.offset += len(chunk)
        return len(chunk)


def test_an_endless_stream_stops_at_the_limit():
    with pytest.raises(TrecFormatError, match=r"endless: holds more than max_bytes=5,000,000 bytes;"):
        read_run(io.BufferedReader(Endless()), max_bytes=5_000_000)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_dev_zero_is_refused_at_its_first_block():
    with pytest.raises(TrecFormatError, match=r"/dev/zero, line 1: is a binary file \(it holds NUL bytes\)"):
        read_run("/dev/zero")
    out, err = io.StringIO(), io.StringIO()
    assert main(["-m", "map", "/dev/zero", "/dev/zero"], out=out, err=err) == 2 and out.getvalue() == ""
    assert "trec_eval: Quit in file '/dev/zero'" in err.getvalue()


def test_file_errors_keep_their_own_classes(tmp_path, monkeypatch):
    with pytest.raises(FileNotFoundError, match=r"no-such-file: cannot be read \(no such file\)"):
        read_qrels(tmp_path / "no-such-file")
    with pytest.raises(IsADirectoryError, match=r"cannot be read \(it is a folder\)"):
        read_qrels(tmp_path)
    loop = tmp_path / "loop"
    os.symlink(loop, loop)
    with pytest.raises(OSError, match=r"loop: cannot be read \(its symbolic links form a loop\)") as caught:
        read_run(loop)
    assert caught.value.errno == errno.ELOOP and not isinstance(caught.value, FileNotFoundError)
    locked = tmp_path / "locked"
    locked.write_text("q1 0 d1 1\n")
    locked.chmod(0)
    if os.geteuid() == 0:  # root reads anything: make open() answer as it answers other users
        real_open = open

        def refusing(name, *args, **kwargs):
            if str(name) == str(locked):
                raise PermissionError(errno.EACCES, "Permission denied", str(name))
            return real_open(name, *args, **kwargs)

        monkeypatch.setattr("builtins.open", refusing)
    with pytest.raises(PermissionError, match=r"locked: cannot be read \(permission denied\)"):
        read_qrels(locked)


def test_bytes_ids_are_the_same_ids_as_their_text():
    result = nt.evaluate({b"q1": {b"d1": 1, "d2": 0}}, {"q1": {"d1": 0.5, b"d2": 0.9}}, ["P.1", "recip_rank"])
    assert result.queries == ("q1",) and result["P.1"] == 0.0 and result["recip_rank"] == 0.5


def test_whole_number_ids_match_their_text_and_nan_or_fractions_are_refused():
    pd = pytest.importorskip("pandas")
    run = pd.DataFrame({"query": [1.0, 1.0], "item": ["a", "b"], "score": [0.5, 0.9]})
    assert nt.evaluate({"1": {"a": 1}}, run, ["recip_rank"])["recip_rank"] == 0.5
    assert nt.evaluate({1: {"a": 1}}, {np.int64(1): {"a": 1.0}}, ["P.1"]).queries == ("1",)
    with pytest.raises(TrecFormatError, match=r"run DataFrame: the query id in row 1 \(column 'query'\) must be text or "
                                              r"a whole number, not NaN \(a missing value\?\). Got nan instead"):
        read_run(pd.DataFrame({"query": [1.0, np.nan], "item": ["a", "b"], "score": [0.5, 0.9]}))
    with pytest.raises(TrecFormatError, match=r"query id 1.5 must be text or a whole number \(7.0 is read as '7'\)"):
        read_qrels({1.5: {"a": 1}})
    with pytest.raises(TrecFormatError, match=r"must be text or a whole number, not True or False"):
        read_qrels({True: {"a": 1}})


def test_duplicate_column_names_are_named():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame([["q1", "a", 1, 2]], columns=["query", "item", "relevance", "relevance"])
    with pytest.raises(TrecFormatError, match=r"qrels DataFrame: column 'relevance' must appear once; it appears 2 "
                                              r"times. Got columns \['query', 'item', 'relevance', 'relevance'\]"):
        read_qrels(frame)


def test_bool_grades_are_1_and_0_from_dicts_and_dataframes_and_bool_scores_are_refused_from_both():
    pd = pytest.importorskip("pandas")
    from_dict = read_qrels({"q1": {"a": True, "b": False}})
    from_frame = read_qrels(pd.DataFrame({"query": ["q1", "q1"], "item": ["a", "b"], "relevance": [True, False]}))
    assert from_dict.grades.tolist() == from_frame.grades.tolist() == [1.0, 0.0]
    with pytest.raises(TrecFormatError, match=r"run: the score of query 'q1', item 'a' must be a number, not True or "
                                              r"False. Got True instead"):
        read_run({"q1": {"a": True}})
    with pytest.raises(TrecFormatError, match=r"run DataFrame: the score in row 0 \(column 'score'\) must be a number, "
                                              r"not True or False"):
        read_run(pd.DataFrame({"query": ["q1"], "item": ["a"], "score": [True]}))


@pytest.mark.parametrize("bad", ["d1\x00", "q\n1", "q\t1", "all P_1 1.0000", "a\u2028b", "", "\ud800"])
def test_ids_that_a_trec_file_cannot_hold_are_refused(bad):
    with pytest.raises(TrecFormatError, match=r"must be (non-empty text without white space, control characters or "
                                              r"NUL|text that UTF-8 can write)"):
        read_qrels({"q1": {bad: 1}})
    with pytest.raises(TrecFormatError, match=r"query id"):
        read_run({bad: {"d": 1.0}})


def test_a_newline_in_a_qid_cannot_forge_an_output_line():
    qrels = {"q1": {"a": 1}, "q2\nall\tP_1": {"b": 1}}
    with pytest.raises(TrecFormatError, match=r"query id 'q2\\nall\\tP_1' must be non-empty text"):
        nt.evaluate(qrels, {"q1": {"a": 1.0}}, ["P.1"])


def test_fractional_and_nan_numbers_in_dicts():
    assert read_qrels({"q1": {"a": 1.5, "b": 0.7, "c": -1.5}}).grades.tolist() == [1, 0, -1]  # int(), as C converts
    assert read_qrels({"q1": {"a": 1.5}}, grades="float").grades.tolist() == [1.5]
    with pytest.raises(TrecFormatError, match=r"qrels: the grade of query 'q1', item 'a' must be a finite number. Got "
                                              r"nan instead"):
        read_qrels({"q1": {"a": float("nan")}})
    with pytest.raises(TrecFormatError, match=r"run: the score of query 'q1', item 'a' must be a number other than NaN"):
        read_run({"q1": {"a": float("nan")}})
    assert read_run({"q1": {"a": float("inf")}}).scores.tolist() == [float("inf")]
