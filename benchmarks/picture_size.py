"""Cost of displaying a long explorer: making it, then its static picture (the ``text/html`` a notebook keeps).

Displaying an explorer builds its picture at once (``_repr_mimebundle_``):
the list with the step table's first-and-last-rows rule, the numbers, and two
plots, the discount plot drawn in groups of positions past 50 items. Before,
one row and one bar per item made a 2,000-item explorer take 8.5 s to show.
Prints, per list length, the seconds to make the explorer, the seconds to make
its picture (wall clock, and the CPU time of this process, which other
processes' load changes less) and the picture's size in kB (worst of
``--repeats`` runs), with the 1-minute load average before and after (the
machine is shared: read the seconds with it).

Usage: python benchmarks/picture_size.py [--items 2000 10000 100000] [--repeats 3] [--k 10]
"""

import argparse
import os
import time

import numpy as np

from trace_display import worst  # benchmarks/, beside this script

from ndcg_teach.widgets import RankingExplorer
from ndcg_teach.widgets.picture import static_html


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, nargs="+", default=[2_000, 10_000, 100_000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    static_html(RankingExplorer(["A", "B"], {"A": 1, "B": 0}))  # matplotlib's first figure and fonts, once
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'items':>9}  {'explorer s':>10}  {'picture s':>9}  {'CPU s':>9}  {'picture kB':>10}  (worst of {args.repeats}, k={args.k})")
    for n in args.items:
        items = [f"doc{i}" for i in range(n)]
        grades = dict(zip(items, np.random.default_rng(0).integers(0, 4, n).tolist()))
        k = min(args.k, n)
        make, explorer = worst(lambda items=items, grades=grades, k=k: RankingExplorer(items, grades, k=k), args.repeats)
        draw, html = worst(lambda explorer=explorer: static_html(explorer), args.repeats)
        cpu, _ = worst(lambda explorer=explorer: static_html(explorer), args.repeats, clock=time.process_time)
        print(f"{n:>9,}  {make:>10.2f}  {draw:>9.2f}  {cpu:>9.2f}  {len(html.encode()) / 1000:>10.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
