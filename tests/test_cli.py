"""python -m ndcg_teach: trec_eval's options, output and exit statuses; random files against pytrec_eval; --explain.

The exit statuses and the trec_eval lines on stderr were read off trec_eval 9.0.8 built from its source
(tests/test_quicktest.py covers its own test outputs). With the real trec_eval (tests/trec_binaries.py: beside the
clone, or TREC_EVAL / TREC_EVAL_10) the status table and random files run against the binaries too.
"""

import gzip
import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.runs.cli import main
from trec_binaries import TREC_EVAL, TREC_EVAL_10, needs

DATA = Path(__file__).parent / "data" / "trec_eval"
QRELS = "q1 0 a 1\nq1 0 b 0\nq2 0 c 1\n"
RUN = "q1 Q0 a 1 0.9 sys\nq1 Q0 b 2 0.5 sys\nq2 Q0 c 1 0.3 sys\n"


def command(*arguments):
    out, err = io.StringIO(), io.StringIO()
    status = main([str(argument) for argument in arguments], out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def files(tmp_path, qrels=QRELS, run=RUN):
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "r").write_text(run)
    return tmp_path / "q", tmp_path / "r"


def test_shipped_collection_matches_trec_eval_10s_output():
    qrels_path, run_path = nt.example_files()
    status, out, _ = command(qrels_path, run_path, "-m", "map", "-m", "recip_rank", "-m", "P", "-m", "runid", "-m",
                             "num_q", "-m", "gm_map", "-m", "Rprec", "-m", "bpref")
    expected = (DATA / "main" / "out.comment.test").read_text().splitlines()
    names = {line.split("\t")[0].strip() for line in out.splitlines()}
    assert status == 0 and out.splitlines() == [line for line in expected if line.split("\t")[0].strip() in names]


def formatted(name, qid, value):
    return f"{name:<22}\t{qid}\t{value:6.4f}"


@pytest.mark.parametrize("seed", range(10))
def test_random_files_against_pytrec_eval_formatted_as_trec_eval(tmp_path, seed):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(seed)
    # ids unique to the seed: trec_eval inside pytrec_eval caches the last query by id across evaluators
    qids = sorted({f"{seed}-{rng.integers(1, 400)}" for _ in range(8)})
    qrels = {qid: {f"D{d}": int(rng.integers(0, 4)) for d in rng.choice(60, 20, replace=False)} for qid in qids}
    run = {qid: {f"D{d}": float(np.round(rng.random(), 2)) for d in rng.choice(80, 30, replace=False)} for qid in qids}
    (tmp_path / "q").write_text("".join(f"{q} 0 {d} {g}\n" for q in qrels for d, g in qrels[q].items()))
    (tmp_path / "r").write_text("".join(f"{q}\tQ0\t{d}\t{i}\t{s}\tx\n" for q in run for i, (d, s) in enumerate(run[q].items())))
    measures = ["map", "recip_rank", "P.5,10", "recall.10", "ndcg_cut.10"]
    oracle = pytrec_eval.RelevanceEvaluator(qrels, set(measures)).evaluate(run)
    names = ["map", "recip_rank", "P_5", "P_10", "recall_10", "ndcg_cut_10"]  # trec_eval's print order
    expected = [formatted(name, qid, oracle[qid][name]) for qid in qids for name in names]
    expected += [formatted(name, "all", np.mean([oracle[qid][name] for qid in qids])) for name in names]
    status, out, _ = command(tmp_path / "q", tmp_path / "r", "-q", *[a for m in measures for a in ("-m", m)])
    assert status == 0 and out.splitlines() == expected


# (arguments, files, exit status, trec_eval's line on stderr), as trec_eval 9.0.8 answers them
STATUSES = [
    (["-m", "foo"], {}, 1, "trec_eval: illegal measure 'foo'"),
    (["-m", "P."], {}, 1, "trec_eval: illegal measure 'P'"),
    (["-m", "P.0"], {}, 2, "trec_eval: Cannot initialize measure 'P'"),
    (["-m", "P.5,5"], {}, 2, "trec_eval: duplicate cutoffs detected"),
    (["-m", "ndcg.1"], {}, 2, "trec_eval: malformed pair parameters in '1'"),
    (["-X"], {}, 1, ""),
    (["-m", "map", "-R", "foo"], {}, 2, "trec_eval: Illegal rel_format 'foo'"),
    (["-m", "map", "-T", "foo"], {}, 2, "trec_eval: Illegal retrieval results format 'foo'"),
    (["-m", "map"], {"q": None}, 2, "trec_eval: Quit in file"),
    (["-m", "map"], {"r": "q1 Q0 a 1\n"}, 2, "trec_eval: Quit in file"),
    (["-m", "map"], {"q": ""}, 2, "trec_eval: Quit in file"),
    (["-m", "map"], {"q": "q9 0 a 1\n"}, 7, "trec_eval: No queries with both results and relevance info"),
    (["-m", "map", "-c"], {"q": "q9 0 a 1\n"}, 7, "trec_eval: No queries with both results and relevance info"),
    (["-m", "map"], {"r": RUN + "q1 Q0 a 3 0.1 sys\n"}, 4, "duplicate docs a"),
    (["-m", "map"], {"q": QRELS + "q1 0 a 0\n"}, 4, "duplicate docs a"),
    (["-m", "map", "-Z", "missing-zscores"], {}, 255, "Cannot read zscores file"),
]


@pytest.mark.parametrize(("arguments", "contents", "status", "trec_eval"), STATUSES)
def test_exit_statuses_by_cause_with_trec_evals_line(tmp_path, arguments, contents, status, trec_eval):
    qrels, run = files(tmp_path, contents.get("q", QRELS) or "", contents.get("r", RUN))
    if "q" in contents and contents["q"] is None:
        qrels = tmp_path / "missing"
    found, out, err = command(*arguments, qrels, run)
    assert (found, out) == (status, "")
    assert err.startswith(("python -m ndcg_teach: ", "usage: python -m ndcg_teach")) and trec_eval in err
    if TREC_EVAL and "--" not in arguments:
        done = subprocess.run([TREC_EVAL, *map(str, arguments), str(qrels), str(run)], capture_output=True, text=True)
        assert done.returncode == status and trec_eval in done.stderr


def test_trec_eval_10_prints_unanswered_queries_under_c_and_does_not_stop_without_shared_queries(tmp_path):
    qrels, run = files(tmp_path, QRELS + "q3 0 z 1\n")
    status, out, _ = command("--trec-eval", "10.0", "-c", "-q", "-m", "P.1", qrels, run)
    assert status == 0 and "P_1                   \tq3\t0.0000" in out
    assert "P_1                   \tall\t0.6667" in out  # (1 + 1 + 0) / 3
    status, out, _ = command("-c", "-q", "-m", "P.1", qrels, run)
    assert "\tq3\t" not in out and "P_1                   \tall\t0.6667" in out
    qrels, run = files(tmp_path, "q9 0 a 1\n")
    status, out, _ = command("--trec-eval", "10.0", "-c", "-m", "num_q", "-m", "P.1", qrels, run)
    assert status == 0 and out.splitlines() == ["num_q                 \tall\t1", "P_1                   \tall\t0.0000"]


def test_options_no_summary_judged_only_and_first_parameters_win(tmp_path):
    qrels, run = files(tmp_path, run="q1 Q0 x 1 0.95 sys\n" + RUN)  # x: unjudged, ranked first
    assert command("-n", "-m", "P.1", qrels, run)[1] == ""
    assert command("-q", "-n", "-m", "P.1", qrels, run)[1].splitlines() == [
        "P_1                   \tq1\t0.0000", "P_1                   \tq2\t1.0000"]
    assert command("-J", "-m", "P.1", qrels, run)[1] == "P_1                   \tall\t1.0000\n"
    # trec_eval's rule: the first parameters given for a measure are the ones it uses
    assert command("-m", "P.1", "-m", "P.2", qrels, run)[1] == "P_1                   \tall\t0.5000\n"
    assert command("-m", "P.1,2", "--query_eval_wanted", qrels, run)[1].count("\n") == 6
    assert command("-N", "1000", "-m", "P.1", qrels, run)[0] == 0


def test_scores_are_ranked_as_32_bit_floats_unless_asked(tmp_path):
    qrels, run = files(tmp_path, "q1 0 b 1\nq1 0 a 0\n", "q1 Q0 a 1 0.812345674 t\nq1 Q0 b 2 0.812345671 t\n")
    assert command("-m", "recip_rank", qrels, run)[1] == "recip_rank            \tall\t1.0000\n"
    assert command("-m", "recip_rank", "--scores", "float64", qrels, run)[1] == "recip_rank            \tall\t0.5000\n"
    assert command("-m", "recip_rank", "--trec-eval", "10.0", qrels, run)[1] == "recip_rank            \tall\t0.5000\n"


def test_grades_are_read_as_whole_numbers_unless_asked(tmp_path):
    qrels, run = files(tmp_path, "q1 0 a 1\nq1 0 b 1.5\n", "q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\n")
    assert command("-m", "ndcg", qrels, run)[1] == "ndcg                  \tall\t1.0000\n"
    assert command("-m", "ndcg", "--grades", "float", qrels, run)[1] == "ndcg                  \tall\t0.9134\n"


def test_explain_prints_the_steps_of_one_value():
    qrels_path, run_path = nt.example_files()
    status, out, _ = command(qrels_path, run_path, "-m", "map", "--explain", "2024-96359", "ndcg_cut.10")
    assert status == 0 and out.splitlines()[0] == "NDCG@10 = 0.312686"  # the headline prints six decimals on any machine
    assert "NDCG@10 = DCG@10 / IDCG@10 = 1.9307 / 6.1745 = 0.3127" in out
    status, _, err = command(qrels_path, run_path, "-m", "map", "--explain", "nope", "map")
    assert status == 1 and "qid must be an evaluated query" in err


def test_gzip_run_and_standard_input(tmp_path):
    qrels, _ = files(tmp_path)
    packed = tmp_path / "r.gz"
    packed.write_bytes(gzip.compress(RUN.encode()))
    assert command("-m", "P.1", qrels, packed)[1] == "P_1                   \tall\t1.0000\n"
    done = subprocess.run([sys.executable, "-m", "ndcg_teach", "-m", "P.1", str(qrels), "-"], input=RUN.encode(),
                          capture_output=True, check=True)
    assert done.stdout == b"P_1                   \tall\t1.0000\n"


def test_limits_and_refusals_name_themselves(tmp_path):
    qrels, run = files(tmp_path)
    status, _, err = command("-m", "map", "--max-bytes", "10", qrels, run)
    status, _, err = command("-m", "map", "-R", "prefs", qrels, run)
    assert status == 2 and "-R prefs reads preference judgements, which ndcg_teach does not" in err
    status, _, err = command("-m", "map", "--max-bytes", "10", qrels, run)
    assert status == 2 and "max_bytes=10 bytes" in err and "--max-bytes" in err
    status, _, err = command("-l", "0", qrels, run)
    assert status == 1 and "-l must be at least 1" in err
    status, _, err = command("-m", "set_F.0.5", qrels, run)  # set_F with a parameter other than its default
    assert status == 1 and "set_F_0.5 is trec_eval's, which ndcg_teach does not compute yet" in err
    status, _, err = command("-D", "1", qrels, run)
    assert status == 1 and "--explain" in err


def test_running_out_of_memory_is_a_message_not_a_traceback(tmp_path, monkeypatch):
    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr("ndcg_teach.runs.cli.evaluate", exhausted)
    status, out, err = command("-m", "map", *files(tmp_path))
    assert (status, out) == (2, "") and "--max-bytes N refuses inputs larger than N bytes" in err


def test_runs_as_a_module():
    qrels_path, run_path = nt.example_files()
    done = subprocess.run([sys.executable, "-m", "ndcg_teach", qrels_path, run_path, "-m", "ndcg_cut.10"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.startswith("ndcg_cut_10           \tall\t")


# Every measure of all_trec, some with other parameters (named first: trec_eval uses a measure's first parameters)
COMPUTED = ["G.1=3,2=9,3=0.5", "ndcg_rel.2=5", "Rndcg.1=0.5,3=4", "ndcg.1=2,3=1", "utility.2,-1,-0.5,0.25",
            "iprec_at_recall.0.15,0.5", "11pt_avg.0.25,0.5", "Rprec_mult.0.5,3", "relstring.5", "all_trec"]
# trec_eval 10.0 (f4253652) crashes when two of dcg, ideal_dcg and ndcg come with gain parameters
# (docs/trec_eval.md): dcg and ideal_dcg come without; rbp reads what the measure before it left on the stack.
COMPUTED_10 = ["rbp.p=0.8,2=3", "rbp_resid.p=0.7", "unj.3,7", "dcg", "ideal_dcg", "G.1=3,2=9,3=0.5",
               "Rndcg.1=0.5,3=4", "utility.2,-1,-0.5,0.25", "relstring.5", "iprec_at_recall.0.15,0.5",
               "11pt_avg.0.25,0.5", "Rprec_mult.0.5,3", "all_trec"]


@needs("9.0.8")
@pytest.mark.parametrize("seed", range(40))
def test_random_files_and_options_against_the_trec_eval_binary(tmp_path, seed):
    rng = np.random.default_rng(seed)
    qids = [f"q{q}" for q in rng.choice(12, 6, replace=False)]
    scores = [0.5, 0.25, 0.812345674, 0.812345671, 1.0, 3.0]
    qrels = "".join(f"{q} 0 d{d} {int(rng.integers(-1, 4))}\n" for q in qids[:5] for d in rng.choice(25, 8, replace=False))
    run = "".join(f"{q} Q0 d{d} {r} {rng.choice(scores)} tag{seed}\n" for q in qids[1:]
                  for r, d in enumerate(rng.choice(25, int(rng.integers(1, 20)), replace=False)))
    options = [option for option in (["-q"], ["-c"], ["-M", "5"], ["-l", "2"], ["-J"], ["-n"]) if rng.random() < 0.4]
    arguments = [*sum(options, []), *[a for m in COMPUTED for a in ("-m", m)], "-N", "60", *files(tmp_path, qrels, run)]
    ours = command(*arguments)
    done = subprocess.run([TREC_EVAL, *map(str, arguments)], capture_output=True, text=True)
    assert (ours[0], ours[1]) == (done.returncode, done.stdout)


@needs("10.0")
@pytest.mark.parametrize("seed", range(20))
def test_random_files_against_trec_eval_10_with_c(tmp_path, seed):
    """trec_eval 10.0-rc3 stops (status 4) on a judged query missing from the run unless -c: always -c here."""
    rng = np.random.default_rng(100 + seed)
    qids = [f"q{q}" for q in rng.choice(12, 6, replace=False)]
    qrels = "".join(f"{q} 0 d{d} {int(rng.integers(-1, 4))}\n" for q in qids[:5] for d in rng.choice(25, 8, replace=False))
    run = "".join(f"{q} Q0 d{d} {r} {rng.choice([0.5, 0.812345674, 0.812345671, 2.0])} t\n" for q in qids[1:]
                  for r, d in enumerate(rng.choice(25, int(rng.integers(1, 20)), replace=False)))
    options = ["-c", *sum([o for o in (["-q"], ["-M", "5"], ["-l", "2"], ["-J"]) if rng.random() < 0.4], [])]
    arguments = [*options, *[a for m in COMPUTED_10 for a in ("-m", m)], "-N", "40", *files(tmp_path, qrels, run)]
    ours = command("--trec-eval", "10.0", *arguments)
    done = subprocess.run([TREC_EVAL_10, *map(str, arguments)], capture_output=True, text=True)
    assert (ours[0], ours[1]) == (done.returncode, done.stdout)
