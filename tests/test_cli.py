"""python -m ndcg_teach: trec_eval's output line for line, on trec_eval's own test files and on random files."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.__main__ import main

DATA = Path(__file__).parent / "data" / "trec_eval"
CUTS = "5,10,15,20,30,100,200,500,1000"  # trec_eval's default cut-offs, as in its all_trec output
MEASURES = ["map", "recip_rank", f"P.{CUTS}", f"recall.{CUTS}", "ndcg", f"ndcg_cut.{CUTS}", f"map_cut.{CUTS}"]
NAMES = {"map", "recip_rank", "ndcg"} | {f"{family}_{k}" for family in ("P", "recall", "ndcg_cut", "map_cut")
                                         for k in CUTS.split(",")}


def printed(capsys, *arguments):
    assert main([str(argument) for argument in arguments]) == 0
    return capsys.readouterr().out.splitlines()


def trec_eval_lines(name):
    """trec_eval's expected output, kept to the measures ndcg_teach computes."""
    return [line for line in (DATA / name).read_text().splitlines() if line.split("\t")[0].strip() in NAMES]


@pytest.mark.parametrize(("expected", "qrels", "run", "options"), [
    ("out.test.aq", "qrels.test", "results.test", ["-q"]),
    ("out.test.aqc", "qrels.test", "results.trunc", ["-q", "-c"]),
    ("out.test.aqcM", "qrels.test", "results.trunc", ["-q", "-c", "-M", "100"]),
    ("out.test.aql", "qrels.rel_level", "results.test", ["-q", "-l", "2"]),
])
def test_trec_eval_test_files_line_for_line(capsys, expected, qrels, run, options):
    measures = [argument for name in MEASURES for argument in ("-m", name)]
    ours = printed(capsys, DATA / qrels, DATA / run, *options, *measures)
    assert ours == trec_eval_lines(expected)


def test_shipped_collection_matches_trec_eval_output(capsys):
    qrels_path, run_path = nt.example_files()
    ours = printed(capsys, qrels_path, run_path, "-m", "map", "-m", "recip_rank", "-m", f"P.{CUTS}")
    assert ours == trec_eval_lines("main/out.comment.test")


def formatted(name, qid, value):
    return f"{name:<22}\t{qid}\t{value:6.4f}"


@pytest.mark.parametrize("seed", range(10))
def test_random_files_against_pytrec_eval_formatted_as_trec_eval(tmp_path, capsys, seed):
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
    ours = printed(capsys, tmp_path / "q", tmp_path / "r", "-q", *[a for m in measures for a in ("-m", m)])
    assert ours == expected


def test_errors_go_to_stderr_with_status_1(tmp_path, capsys):
    (tmp_path / "q").write_text("1 0 d1 1\n")
    (tmp_path / "r").write_text("1 Q0 d1 1\n")
    assert main([str(tmp_path / "q"), str(tmp_path / "r")]) == 1
    error = capsys.readouterr().err
    assert error.startswith("python -m ndcg_teach: ") and "line 1: is truncated; expected 6 columns" in error


def test_runs_as_a_module(tmp_path):
    qrels_path, run_path = nt.example_files()
    done = subprocess.run([sys.executable, "-m", "ndcg_teach", qrels_path, run_path, "-m", "ndcg_cut.10"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.startswith("ndcg_cut_10           \tall\t")
