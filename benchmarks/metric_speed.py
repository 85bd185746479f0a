"""Speed of ndcg_teach's NDCG against scikit-learn's in the same process.

Both compute NDCG@10 of the same random queries (100 items each, grades 0-4,
no ties in the scores). ndcg_teach is asked per query through `ndcg_score`
(2-D, like scikit-learn) and through `ndcg` on lists already in ranked order.
Prints the median time per call over several repeats and the ratio against
scikit-learn; on a shared machine the ratio is the figure to read.

Usage: python benchmarks/metric_speed.py [--queries 200] [--repeats 7]
"""

import argparse
import statistics
import time

import numpy as np

import ndcg_teach as nt


def timed(function, repeats):
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    from sklearn.metrics import ndcg_score as sklearn_ndcg_score

    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 5, size=(args.queries, 100)).astype(float)
    y_score = rng.permuted(np.tile(np.arange(100.0), (args.queries, 1)), axis=1)
    ranked = [t[np.argsort(-s)] for t, s in zip(y_true, y_score)]

    reference = timed(lambda: sklearn_ndcg_score(y_true, y_score, k=10), args.repeats)
    ours_2d = timed(lambda: nt.ndcg_score(y_true, y_score, k=10), args.repeats)
    ours_lists = timed(lambda: [nt.ndcg(r, k=10) for r in ranked], args.repeats)
    agree = abs(nt.ndcg_score(y_true, y_score, k=10) - sklearn_ndcg_score(y_true, y_score, k=10))
    print(f"{args.queries} queries x 100 items, NDCG@10, median of {args.repeats} repeats")
    print(f"scikit-learn ndcg_score           {reference * 1000:8.2f} ms  (reference)")
    print(f"ndcg_teach.ndcg_score, ties=avg   {ours_2d * 1000:8.2f} ms  ratio {ours_2d / reference:.2f}")
    print(f"ndcg_teach.ndcg per ranked list   {ours_lists * 1000:8.2f} ms  ratio {ours_lists / reference:.2f}")
    print(f"|difference| between the two NDCG means: {agree:.1e}")


if __name__ == "__main__":
    main()
