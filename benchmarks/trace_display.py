"""Cost of explaining a very long list: build the trace, then print it and render its HTML.

A trace keeps one row per position (``trace.rows``), so building it grows with
the list; what a notebook shows of it (``str`` and ``_repr_html_``) shows the
first and last rows and the first and last terms of each sum, so it stays the
same size however long the list. Prints seconds and megabytes per list length,
worst of ``--repeats`` runs, with the 1-minute load average before and after.

Usage: python benchmarks/trace_display.py [--items 1000 100000 1000000] [--repeats 3]
"""

import argparse
import os
import time

import numpy as np

import ndcg_teach as nt


def worst(function, repeats, clock=time.perf_counter):
    """(worst seconds by ``clock``, last result) of ``repeats`` calls."""
    seconds, result = [], None
    for _ in range(repeats):
        start = clock()
        result = function()
        seconds.append(clock() - start)
    return max(seconds), result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, nargs="+", default=[1_000, 100_000, 1_000_000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'items':>9}  {'explain_ndcg':>12}  {'str':>8}  {'str MB':>7}  {'HTML':>8}  {'HTML MB':>7}  (worst of {args.repeats})")
    for n in args.items:
        grades = np.random.default_rng(0).integers(0, 4, n).astype(np.float64)
        build, trace = worst(lambda grades=grades: nt.explain_ndcg(grades), args.repeats)
        text_seconds, text = worst(lambda trace=trace: str(trace), args.repeats)
        html_seconds, html = worst(trace._repr_html_, args.repeats)
        assert len(trace.rows) == n
        print(f"{n:>9,}  {build:>10.2f} s  {text_seconds:>6.3f} s  {len(text.encode()) / 1e6:>7.3f}"
              f"  {html_seconds:>6.3f} s  {len(html.encode()) / 1e6:>7.3f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
