"""Many queries at once: ndcg_score and evaluate() against plain NumPy, scikit-learn and pytrec_eval.

Prints ratios measured in one process (each timing the best of several runs,
the contenders alternating), so a busy machine slows both sides alike:

1. NDCG@10 on 10,000 queries x 100 items: ``ndcg_teach.ndcg_score`` against
   a plain NumPy computation (untied scores; target: within 1.5x) and against
   scikit-learn's ``ndcg_score`` (target: at least 10x faster, equal values,
   with and without tied scores);
2. ``ndcg_teach.evaluate`` on a generated 1,000,000-line TREC run file
   (10,000 queries x 100 documents, 300,000 judgements), parsing included,
   against pytrec_eval's ``parse_qrel`` + ``parse_run`` + ``evaluate``
   (target: within 1.5x), and the peak memory of each (the high-water mark
   of resident memory of a fresh subprocess, Linux; target < 400 MB).

Run: ``python benchmarks/batch_speed.py``
"""

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


def write_files(folder):
    rng = np.random.default_rng(1)
    run, qrels = folder / "run.txt", folder / "qrels.txt"
    with open(run, "w") as handle:
        for q in range(N_QUERIES):
            scores = rng.random(N_ITEMS)
            handle.write("".join(f"q{q} Q0 doc{q}_{d} {d + 1} {scores[d]:.6f} bench\n" for d in range(N_ITEMS)))
    with open(qrels, "w") as handle:
        for q in range(N_QUERIES):
            judged = rng.choice(150, 30, replace=False)  # a third of them never retrieved
            grades = rng.integers(0, 4, judged.size)
            handle.write("".join(f"q{q} 0 doc{q}_{d} {g}\n" for d, g in zip(judged, grades)))
    return qrels, run


PYTREC = """
import pytrec_eval
with open({qrels!r}) as handle:
    qrels = pytrec_eval.parse_qrel(handle)
with open({run!r}) as handle:
    run = pytrec_eval.parse_run(handle)
result = pytrec_eval.RelevanceEvaluator(qrels, {{"ndcg_cut.10"}}).evaluate(run)
"""
OURS = """
import ndcg_teach
result = ndcg_teach.evaluate({qrels!r}, {run!r}, ["ndcg_cut.10"])
"""
# The child's own high-water mark of resident memory (VmHWM). Not ru_maxrss: Linux carries the parent's value
# over fork and exec, so a child started from this (large) process would report at least the parent's peak.
PEAK = "\nprint([line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM')][0])"


def peak_mb(code):
    done = subprocess.run([sys.executable, "-c", code + PEAK], capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1]) / 1024  # kB


def evaluate_figures():
    import pytrec_eval

    with tempfile.TemporaryDirectory() as folder:
        qrels, run = write_files(Path(folder))

        def theirs():
            with open(qrels) as handle:
                judged = pytrec_eval.parse_qrel(handle)
            with open(run) as handle:
                ranked = pytrec_eval.parse_run(handle)
            values = pytrec_eval.RelevanceEvaluator(judged, {"ndcg_cut.10"}).evaluate(ranked)
            return float(np.mean([v["ndcg_cut_10"] for v in values.values()]))

        timed = best({"ours": lambda: nt.evaluate(qrels, run, ["ndcg_cut.10"])["ndcg_cut.10"], "pytrec_eval": theirs},
                     rounds=3)
        (ours, our_value), (theirs_time, their_value) = timed["ours"], timed["pytrec_eval"]
        print(f"evaluate on a {N_QUERIES * N_ITEMS:,}-line run file ({N_QUERIES:,} queries), parse included, ndcg_cut.10")
        print(f"  ndcg_teach.evaluate    {ours:6.2f} s")
        print(f"  pytrec_eval            {theirs_time:6.2f} s   ndcg_teach / pytrec_eval = {ours / theirs_time:.2f}x "
              f"(|difference| of the means {abs(our_value - their_value):.1e})")
        base = peak_mb("import ndcg_teach")
        print(f"  peak memory (VmHWM of a fresh process): ndcg_teach {peak_mb(OURS.format(qrels=str(qrels), run=str(run))):.0f} MB, "
              f"pytrec_eval {peak_mb(PYTREC.format(qrels=str(qrels), run=str(run))):.0f} MB "
              f"(Python + NumPy + ndcg_teach alone: {base:.0f} MB)")


if __name__ == "__main__":
    ndcg_figures()
    evaluate_figures()
