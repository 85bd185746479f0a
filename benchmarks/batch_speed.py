"""Many queries at once: ndcg_score and evaluate() against plain NumPy, scikit-learn, pytrec_eval and trec_eval.

Prints figures measured on this machine (with its load average, since a shared
machine slows everything):

1. NDCG@10 on 10,000 queries x 100 items: ``ndcg_teach.ndcg_score`` against
   a plain NumPy computation (untied scores; target: within 1.5x) and against
   scikit-learn's ``ndcg_score`` (target: at least 10x faster, equal values,
   with and without tied scores); each the best of several runs, the
   contenders taking turns in one process;
2. a 2,000,000-line TREC run file (2,000 queries x 1,000 documents, in rank
   order as runs are written; 600,000 judgements), ``ndcg_cut.10`` and
   ``map``, parsing included, each contender in a fresh process: ``python -m
   ndcg_teach``, pytrec_eval's ``parse_qrel`` + ``parse_run`` + ``evaluate``,
   and the trec_eval binary when one is given (``--trec-eval PATH`` or the
   ``TREC_EVAL`` environment variable; build it from
   https://github.com/usnistgov/trec_eval, it is never part of this
   repository). Wall time and peak resident memory (``ru_maxrss`` of the
   process, read by a small launcher so that nothing of this process counts),
   the worst of ``--rounds`` rounds (default 3), the contenders taking turns
   (target: ndcg_teach within 1.5x trec_eval's time and memory);
3. the same run with one 2,000-character document id: ndcg_teach's memory
   must not grow with the longest id.

Run: ``python benchmarks/batch_speed.py [--trec-eval PATH] [--rounds N]``
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import ndcg_teach as nt

N_QUERIES, N_ITEMS, K = 10_000, 100, 10


def best(functions, rounds=10):
    """The best time and the value of each function, the functions taking turns (so load hits them alike)."""
    times = {name: [] for name in functions}
    values = {}
    for _ in range(rounds):
        for name, function in functions.items():
            start = time.perf_counter()
            values[name] = function()
            times[name].append(time.perf_counter() - start)
    return {name: (min(times[name]), values[name]) for name in functions}


def plain_numpy_ndcg(y_true, y_score, k):
    """The textbook vectorised NDCG@k: sort by score, gather, discount, divide by the ideal (no tie handling)."""
    discounts = 1.0 / np.log2(np.arange(2, k + 2))
    order = np.argsort(-y_score, axis=1)[:, :k]
    dcg = np.take_along_axis(y_true, order, axis=1) @ discounts
    ideal = -np.sort(-y_true, axis=1)[:, :k] @ discounts
    return float(np.mean(np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1.0), 0.0)))


def ndcg_figures():
    from sklearn.metrics import ndcg_score as sklearn_ndcg

    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 5, size=(N_QUERIES, N_ITEMS)).astype(np.float64)
    untied = rng.random((N_QUERIES, N_ITEMS))
    tied = np.round(untied, 1)  # about 11 distinct scores per query: many ties
    fast = best({"ours": lambda: nt.ndcg_score(y_true, untied, K), "numpy": lambda: plain_numpy_ndcg(y_true, untied, K),
                 "tied": lambda: nt.ndcg_score(y_true, tied, K)}, rounds=15)
    slow = best({"sklearn": lambda: sklearn_ndcg(y_true, untied, k=K), "tied": lambda: sklearn_ndcg(y_true, tied, k=K)},
                rounds=3)
    (ours, value), (numpy_time, numpy_value) = fast["ours"], fast["numpy"]
    (tied_ours, tied_value), (sklearn_time, sklearn_value) = fast["tied"], slow["sklearn"]
    tied_sklearn, tied_sklearn_value = slow["tied"]
    print(f"NDCG@{K}, {N_QUERIES:,} queries x {N_ITEMS} items")
    print(f"  ndcg_teach.ndcg_score  {ours * 1e3:8.1f} ms")
    print(f"  plain NumPy            {numpy_time * 1e3:8.1f} ms   ndcg_teach / NumPy = {ours / numpy_time:.2f}x "
          f"(|difference| {abs(value - numpy_value):.1e})")
    print(f"  scikit-learn           {sklearn_time * 1e3:8.1f} ms   scikit-learn / ndcg_teach = {sklearn_time / ours:.1f}x "
          f"(|difference| {abs(value - sklearn_value):.1e})")
    print(f"  with tied scores (averaged): ndcg_teach {tied_ours * 1e3:.1f} ms, scikit-learn {tied_sklearn * 1e3:.1f} ms, "
          f"scikit-learn / ndcg_teach = {tied_sklearn / tied_ours:.1f}x (|difference| {abs(tied_value - tied_sklearn_value):.1e})")


LAUNCHER = """
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, kB on Linux
print(time.perf_counter() - start, usage.ru_maxrss * scale, status)
"""
PYTREC = """
import sys, pytrec_eval
with open(sys.argv[1]) as handle:
    qrels = pytrec_eval.parse_qrel(handle)
with open(sys.argv[2]) as handle:
    run = pytrec_eval.parse_run(handle)
result = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "map"}).evaluate(run)
"""
N_QUERIES_FILE, N_DOCUMENTS, N_JUDGED = 2_000, 1_000, 300


def write_files(folder, long_id=False):
    """A run in rank order and its qrels (a third of the judged documents are never retrieved)."""
    rng = np.random.default_rng(1)
    run, qrels = folder / ("run-long-id.txt" if long_id else "run.txt"), folder / "qrels.txt"
    with open(run, "w") as handle:
        for q in range(N_QUERIES_FILE):
            scores = np.sort(rng.random(N_DOCUMENTS))[::-1]
            order = rng.permutation(N_DOCUMENTS)
            handle.write("".join(f"q{q} Q0 doc{q}_{d} {rank + 1} {scores[rank]:.6f} bench\n"
                                 for rank, d in enumerate(order)))
            if long_id and q == 0:
                handle.write(f"q0 Q0 {'x' * 2000} {N_DOCUMENTS + 1} 0.000000 bench\n")
    with open(qrels, "w") as handle:
        for q in range(N_QUERIES_FILE):
            judged = rng.choice(N_DOCUMENTS * 3 // 2, N_JUDGED, replace=False)
            grades = rng.integers(0, 4, judged.size)
            handle.write("".join(f"q{q} 0 doc{q}_{d} {g}\n" for d, g in zip(judged, grades)))
    return qrels, run


def launched(command):
    """``(seconds, peak bytes)`` of ``command`` in a fresh process."""
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *command], capture_output=True, text=True, check=True)
    seconds, peak, status = done.stdout.split()
    if status != "0":
        raise RuntimeError(f"{command[0]} failed (wait status {status}): {done.stderr}")
    return float(seconds), int(peak)


def load():
    return "load average " + ", ".join(f"{value:.2f}" for value in os.getloadavg()) if hasattr(os, "getloadavg") else ""


def file_figures(trec_eval, rounds):
    contenders = {"ndcg_teach (python -m ndcg_teach)": lambda q, r: [sys.executable, "-m", "ndcg_teach", "-m",
                                                                        "ndcg_cut.10", "-m", "map", str(q), str(r)]}
    try:
        import pytrec_eval  # noqa: F401 - only to know whether it is installed
        contenders["pytrec_eval (parse + evaluate)"] = lambda q, r: [sys.executable, "-c", PYTREC, str(q), str(r)]
    except ImportError:
        print("  (pytrec_eval is not installed: pip install pytrec-eval-terrier)")
    if trec_eval:
        contenders["trec_eval (binary)"] = lambda q, r: [trec_eval, "-m", "ndcg_cut.10", "-m", "map", str(q), str(r)]
    with tempfile.TemporaryDirectory() as folder:
        qrels, run = write_files(Path(folder))
        print(f"a {N_QUERIES_FILE * N_DOCUMENTS:,}-line run file ({N_QUERIES_FILE:,} queries x {N_DOCUMENTS:,} "
              f"documents, {run.stat().st_size / 1e6:.0f} MB), ndcg_cut.10 and map, worst of {rounds} rounds; "
              f"{load()} before")
        worst = {name: (0.0, 0) for name in contenders}
        for _ in range(rounds):
            for name, command in contenders.items():
                seconds, peak = launched(command(qrels, run))
                worst[name] = (max(worst[name][0], seconds), max(worst[name][1], peak))
        ours = worst["ndcg_teach (python -m ndcg_teach)"]
        for name, (seconds, peak) in worst.items():
            ratio = "" if name.startswith("ndcg_teach") else \
                f"   ndcg_teach / this: {ours[0] / seconds:.2f}x time, {ours[1] / peak:.2f}x memory"
            print(f"  {name:34s} {seconds:6.2f} s {peak / 2 ** 20:7.0f} MB{ratio}")
        _, long_run = write_files(Path(folder), long_id=True)
        figures = [launched(contenders["ndcg_teach (python -m ndcg_teach)"](qrels, long_run)) for _ in range(rounds)]
        seconds, peak = max(figure[0] for figure in figures), max(figure[1] for figure in figures)
        print(f"  the same run with one 2,000-character document id: ndcg_teach {seconds:.2f} s, {peak / 2 ** 20:.0f} MB"
              f"; {load()} after")


if __name__ == "__main__":
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--trec-eval", default=os.environ.get("TREC_EVAL"), help="a trec_eval binary to compare with")
    options.add_argument("--rounds", type=int, default=3)
    arguments = options.parse_args()
    ndcg_figures()
    file_figures(arguments.trec_eval, arguments.rounds)
