"""The cases of issue 28, one test each: python -m ndcg_teach prints what trec_eval prints (and, with the real
trec_eval beside the clone, the test checks the binary says the same), and bad input gives a clear error.

Each command line runs through ``python -m ndcg_teach`` in this process; ``_agrees`` also runs it through the real
trec_eval 9.0.8 or 10.0-rc3 when tests/trec_binaries.py finds them.
"""

import contextlib
import io
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.runs.measures import parse_measures
from ndcg_teach.core.mean import running_sum
from ndcg_teach.runs.trec_output import summary
from trec_binaries import binary, run_binary, run_command


def _files(tmp_path, qrels, run, **others):
    paths = {}
    for name, text in {"qrels": qrels, "run": run, **others}.items():
        paths[name] = tmp_path / name
        paths[name].write_bytes(text if isinstance(text, bytes) else text.encode())
    return paths


def _agrees(version, arguments):
    """``(status, stdout, stderr)`` of ndcg_teach, after checking the real trec_eval's status and stdout, if found."""
    ours = run_command(version, arguments)
    if binary(version) is not None:
        assert ours[:2] == run_binary(version, arguments)[:2]
    return ours


# The smallest case of the all line: 8 queries whose set_P sum to 4.55 (mean 0.56875, half a unit of the 4th decimal)
SET_P = [1, 1 / 5, 1, 3 / 4, 1 / 2, 1 / 2, 0, 3 / 5]


def test_all_line_adds_the_queries_one_at_a_time_as_trec_eval(tmp_path):
    assert f"{running_sum(SET_P) / 8:.4f}" == "0.5687" != f"{np.sum(SET_P) / 8:.4f}"
    assert f"{summary(parse_measures('set_P')[0], np.array(SET_P), 8, 8, False, 0):.4f}" == "0.5687"
    qrels, run = [], []
    for q, value in enumerate(SET_P):  # query q retrieves 20 documents, 20 * value of them relevant
        hits = round(20 * value)
        qrels += [f"q{q} 0 d{d} {int(d < hits)}" for d in range(20)]
        run += [f"q{q} Q0 d{d} {d} {1 - d / 100} t" for d in range(20)]
    paths = _files(tmp_path, "\n".join(qrels) + "\n", "\n".join(run) + "\n")
    for version in ("9.0.8", "10.0"):
        status, out, _ = _agrees(version, ["-m", "set_P", paths["qrels"], paths["run"]])
        assert (status, out) == (0, b"set_P                 \tall\t0.5687\n")
    assert f"{nt.mean('precision', [[1] * round(20 * v) + [0] * (20 - round(20 * v)) for v in SET_P], 20):.4f}" \
        == "0.5687"


def test_gm_map_adds_its_logarithms_one_at_a_time(tmp_path):
    qrels = "".join(f"q{q} 0 d{d} {int(d <= q)}\n" for q in range(12) for d in range(15))
    run = "".join(f"q{q} Q0 d{d} {d} {(d * 7 + q) % 15} t\n" for q in range(12) for d in range(15))
    paths = _files(tmp_path, qrels, run)
    status, out, _ = _agrees("9.0.8", ["-m", "gm_map", "-m", "gm_bpref", paths["qrels"], paths["run"]])
    assert status == 0 and out.startswith(b"gm_map")


def test_ndcg_with_a_gain_for_grade_0(tmp_path):
    paths = _files(tmp_path, "q1 0 d1 1\nq1 0 d0 0\nq1 0 d2 0\n", "q1 Q0 d0 1 0.9 t\nq1 Q0 d1 2 0.8 t\nq1 Q0 d9 3 0.7 t\n")
    for version in ("9.0.8", "10.0"):
        status, out, _ = _agrees(version, ["-m", "ndcg.0=1", paths["qrels"], paths["run"]])
        assert (status, out) == (0, b"ndcg_0=1              \tall\t0.7654\n")
    assert round(nt.evaluate(paths["qrels"], paths["run"], ["ndcg.0=1"])["ndcg.0=1"], 4) == 0.7654
    assert round(nt.trec_ndcg([0, 1, None], gains={0: 1}, pool=[1, 0, 0]), 4) == 0.7654


@pytest.mark.parametrize(("measure", "expected"), [
    ("ndcg.1=3.5,1=4", "0.6446"),    # a level named twice: its first sorted entry gives the gain
    ("ndcg.1=5,1=3.5", "0.4902"),    # ... which here is not the entry the ideal counts
    ("ndcg.2=0.5,1=1", "0.8463"),    # gains less than 1 apart compare equal under (int)(a - b)
    ("ndcg.-1=2", "0.9473"),         # level -1: the unjudged document
    ("ndcg.0=-1,1=-2", "-0.7003"),   # negative gains are allowed
    ("Rndcg.1=0,2=0", "  -nan"),     # Rndcg reads NDCG nowhere: 0 / 0
    ("G.-1=9", "  -nan"),            # G's log2 of a negative shortfall
])
def test_gain_map_rules(tmp_path, measure, expected):
    paths = _files(tmp_path, "q1 0 d1 1\nq1 0 d0 0\nq1 0 d2 0\nq1 0 d3 2\n",
                   "q1 Q0 d0 1 0.9 t\nq1 Q0 d1 2 0.8 t\nq1 Q0 d9 3 0.7 t\nq1 Q0 d3 4 0.6 t\n")
    status, out, _ = _agrees("9.0.8", ["-m", measure, paths["qrels"], paths["run"]])
    assert status == 0 and out.decode().endswith(f"\tall\t{expected}\n"), out


def test_a_plain_gain_mapping_is_refused_negative_and_trec_gains_point_to_trec_ndcg():
    with pytest.raises(ValueError, match="finite, non-negative gains"):
        nt.ndcg([1, 0], gain={0: -1, 1: 1})
    with pytest.raises(TypeError, match=r"trec_ndcg\(\.\.\., gains=\)"):
        nt.ndcg([1, 0], gain=nt.TrecGains("1=3"))


@pytest.mark.parametrize("zscores", [b"", None])
def test_an_empty_zscore_file_is_trec_evals_status_255(tmp_path, zscores):
    paths = _files(tmp_path, "q1 0 d1 1\n", "q1 Q0 d1 1 0.9 t\n", z=zscores or b"")
    z = paths["z"] if zscores is not None else "/dev/null"
    for version in ("9.0.8", "10.0"):
        status, out, err = _agrees(version, ["-Z", z, "-m", "map", paths["qrels"], paths["run"]])
        assert (status, out) == (255, b"") and "Cannot read zscores file" in err and "holds no lines" in err


def test_ids_that_are_not_utf8_print_as_their_bytes(tmp_path):
    paths = _files(tmp_path, b"q\xff 0 d1 1\nq\xfe 0 d1 1\n", b"q\xff Q0 d1 1 0.9 t\nq\xfe Q0 d2 1 0.9 t\n")
    status, out, _ = _agrees("9.0.8", ["-q", "-m", "P.1", paths["qrels"], paths["run"]])
    assert (status, out.splitlines()) == (0, [b"P_1                   \tq\xfe\t0.0000", b"P_1                   \tq\xff\t1.0000",
                                              b"P_1                   \tall\t0.5000"])
    assert nt.evaluate(paths["qrels"], paths["run"], "P.1").queries == ("q\udcfe", "q\udcff")


def test_a_duplicate_document_below_the_cut_is_accepted(tmp_path):
    paths = _files(tmp_path, "q1 0 a 1\nq1 0 b 1\n", "q1 Q0 a 1 0.9 t\nq1 Q0 b 2 0.8 t\nq1 Q0 a 3 0.1 t\n")
    status, out, _ = _agrees("9.0.8", ["-M", "2", "-m", "P.2", paths["qrels"], paths["run"]])
    assert (status, out) == (0, b"P_2                   \tall\t1.0000\n")
    assert _agrees("9.0.8", ["-M", "3", "-m", "P.2", paths["qrels"], paths["run"]])[0] == 4
    assert nt.evaluate(paths["qrels"], paths["run"], "P.2", max_docs=2)["P.2"] == 1.0


@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
def test_a_blank_qrels_line_stops_trec_eval_and_a_blank_run_line_does_not(tmp_path, version):
    paths = _files(tmp_path, "q1 0 d1 1\n\nq1 0 d2 0\n", "q1 Q0 d1 1 0.9 t\n\n  \nq1 Q0 d2 2 0.8 t\n")
    status, out, err = _agrees(version, ["-m", "P.1", paths["qrels"], paths["run"]])
    assert (status, out) == (2, b"") and "line 2: is blank, which trec_eval calls a malformed line" in err
    paths = _files(tmp_path, "q1 0 d1 1\nq1 0 d2 0\n", "q1 Q0 d1 1 0.9 t\n\n  \nq1 Q0 d2 2 0.8 t\n")
    assert _agrees(version, ["-m", "P.1", paths["qrels"], paths["run"]])[:2] == (0, b"P_1                   \tall\t1.0000\n")
    assert nt.read_qrels(tmp_path / "qrels").grades.tolist() == [1.0, 0.0]


def test_comment_lines_are_data_to_9_0_8_and_comments_to_10(tmp_path):
    paths = _files(tmp_path, "# 0 d1 1\nq1 0 d1 1\n", "q1 Q0 d1 1 0.9 t\n# Q0 d1 1 0.9 t\n")
    status, out, _ = _agrees("9.0.8", ["-m", "num_q", "-m", "num_rel", paths["qrels"], paths["run"]])
    assert (status, out) == (0, b"num_q                 \tall\t2\nnum_rel               \tall\t2\n")  # query '#' too
    status, out, _ = _agrees("10.0", ["-m", "num_q", "-m", "num_rel", paths["qrels"], paths["run"]])
    assert (status, out) == (0, b"num_q                 \tall\t1\nnum_rel               \tall\t1\n")
    status, out, err = run_command("9.0.8", ["--strict", "-m", "num_q", paths["qrels"], paths["run"]])
    assert (status, out) == (2, b"") and "starts with '#'" in err and "--strict refuses it" in err


def test_a_score_that_is_no_number_is_read_as_0_with_a_note_or_refused_with_strict(tmp_path):
    paths = _files(tmp_path, "q1 0 a 1\nq1 0 b 0\n", "q1 Q0 a 1 high t\nq1 Q0 b 2 0.5 t\n")
    status, out, err = _agrees("9.0.8", ["-m", "recip_rank", paths["qrels"], paths["run"]])
    assert (status, out) == (0, b"recip_rank            \tall\t0.5000\n")  # 'high' is 0, below b's 0.5
    assert "note:" in err and "'high' holds no number; trec_eval reads it as 0" in err
    status, out, err = run_command("9.0.8", ["--strict", "-m", "recip_rank", paths["qrels"], paths["run"]])
    assert (status, out) == (2, b"") and "the score column must be a number" in err


def test_a_blank_zscore_line_is_malformed_and_a_word_is_0(tmp_path):
    paths = _files(tmp_path, "q1 0 a 1\n", "q1 Q0 a 1 1 t\n", z="q1 map 0.5 0.25\n\n", w="q1 map x 0.5\n")
    status, out, err = _agrees("9.0.8", ["-Z", paths["z"], "-m", "map", paths["qrels"], paths["run"]])
    assert (status, out) == (255, b"") and "line 2: must hold 4 columns" in err
    status, out, err = _agrees("9.0.8", ["-Z", paths["w"], "-m", "map", paths["qrels"], paths["run"]])
    assert (status, out) == (0, b"Zmap                   \tall\t2.0000\n") and "'x' holds no number" in err


def test_rbp_in_10_reads_what_the_measure_before_it_left(tmp_path):
    paths = _files(tmp_path, "q1 0 d1 1\nq1 0 d2 2\nq1 0 d3 0\nq1 0 d4 1\n",
                   "q1 Q0 d3 1 0.9 t\nq1 Q0 d1 2 0.8 t\nq1 Q0 d9 3 0.7 t\nq1 Q0 d2 4 0.6 t\n")
    alone = _agrees("10.0", ["-m", "rbp.p=0.95", paths["qrels"], paths["run"]])
    after = _agrees("10.0", ["-m", "ndcg.1=3.5,2=9.0", "-m", "rbp.p=0.95", paths["qrels"], paths["run"]])
    assert alone[1] == b"rbp_p=0.95            \tall\t0.0666\n"  # gains 0, 1/2, 1 (levels over 2)
    assert after[1].splitlines()[-1] == b"rbp_p=0.95            \tall\t0.0103\n".strip()  # over ndcg's IDCG, 12.96


def test_10_stops_at_a_judged_query_the_run_lacks_unless_c(tmp_path):
    paths = _files(tmp_path, "q1 0 a 1\nq2 0 b 1\nq3 0 c 1\n", "q1 Q0 a 1 1 t\nq3 Q0 c 1 1 t\n")
    status, out, err = _agrees("10.0", ["-q", "-m", "P.1", paths["qrels"], paths["run"]])
    assert (status, out) == (4, b"P_1                   \tq1\t1.0000\n") and "result qid 'q2' not found" in err
    assert _agrees("10.0", ["-c", "-m", "P.1", paths["qrels"], paths["run"]])[:2] == (
        0, b"P_1                   \tall\t0.6667\n")


def test_deep_nesting_and_huge_numbers_are_clear_errors():
    deep = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(ValueError, match=r"relevances must be a flat list .* Got \[\[\[\[\.\.\.\]\]\]\] instead"):
        nt.ndcg(deep)
    with pytest.raises(TypeError, match=r"run must be a file name.* Got \[\[\[\[\.\.\.\]\]\]\] instead"):
        nt.evaluate({"q": {"d": 1}}, deep)
    with pytest.raises(ValueError, match="the score of query 'q', item 'd' must be a number float64 can hold"):
        nt.evaluate({"q": {"d": 1}}, {"q": {"d": 10 ** 400}})
    with pytest.raises(ValueError, match="the grade of query 'q', item 'd' must be a number float64 can hold"):
        nt.read_qrels({"q": {"d": 10 ** 400}})


def test_running_out_of_memory_while_reading_names_max_bytes(tmp_path):
    """A gzip that expands past the memory (a small address-space limit in a child process) is a clear MemoryError."""
    script = textwrap.dedent("""
        import gzip, resource, sys
        import ndcg_teach as nt
        member = gzip.compress(b"q1 Q0 d1 1 0.5 run\\n" * 60_000, 9)
        with open(sys.argv[1], "wb") as handle:
            handle.write(member * 400)
        size = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (size + 150 * 2 ** 20, size + 150 * 2 ** 20))
        try:
            nt.evaluate({"q1": {"d1": 1}}, sys.argv[1])
        except MemoryError as error:
            print("MemoryError:", error)
    """)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "bomb.gz")], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "holds more than this machine's memory can read; pass a smaller max_bytes=" in done.stdout


def test_the_docs_examples_print_what_the_docs_say():
    text = (Path(__file__).resolve().parents[1] / "docs" / "trec_eval.md").read_text(encoding="utf-8")
    block = r"((?:(?!```).)*)"
    examples = re.findall(rf"```python\n{block}```\n\nprints\n\n```text\n{block}```", text, re.S)
    assert examples
    for code, output in examples:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, "docs/trec_eval.md", "exec"), {})
        assert printed.getvalue() == output
