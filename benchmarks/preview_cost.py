"""What one preview request costs the kernel in a long explorer: seconds to answer and bytes sent.

When the pointer rests on a row (or a drag starts), the browser asks for that
item's previews: what every destination of the item would show, computed
ahead so that a drop never waits for the kernel. This script builds a
RankingExplorer of n items (grades 0-4, k = n, the default), sends it preview
requests exactly as the front end does, and times the kernel's answer
(computing and JSON-encoding the message, as Jupyter's session does) and
counts its bytes. It also times a drop (a new order from the browser) and
counts the bytes of the numbers it sends back. Worst of ``--repeats`` runs,
each asking for a different item; the 1-minute load average is printed before
and after, since the machine may be shared.

Usage: python benchmarks/preview_cost.py [--items 60 500 2000] [--repeats 3]
"""

import argparse
import os
import time

import numpy as np
from jupyter_client.session import json_packer

from ndcg_teach.widgets import RankingExplorer


def wired(n):
    rng = np.random.default_rng(0)
    items = [f"doc {i}" for i in range(n)]
    explorer = RankingExplorer(items, {item: int(grade) for item, grade in zip(items, rng.integers(0, 5, n))})
    sent = []
    explorer.comm.send = lambda data=None, buffers=None, **_: sent.append(json_packer(data))
    return explorer, items, sent


def timed(explorer, sent, message):
    """Seconds and bytes of the kernel's answer to ``message`` (a widget comm message from the browser)."""
    sent.clear()
    start = time.perf_counter()
    explorer._handle_msg({"content": {"data": message}, "buffers": []})
    return time.perf_counter() - start, sum(map(len, sent))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, nargs="+", default=[60, 500, 2000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'items':>6}  {'preview':>9}  {'preview MB':>10}  {'drop':>9}  {'drop MB':>8}  (worst of {args.repeats})")
    for n in args.items:
        explorer, items, sent = wired(n)
        previews, drops = [], []
        for run in range(args.repeats):
            item = items[(run + 1) * n // (args.repeats + 2)]
            previews.append(timed(explorer, sent, {"method": "custom", "content": {"event": "preview", "ranking": "order", "item": item}}))
            order = list(explorer.order)
            order.insert(0, order.pop(order.index(item)))
            drops.append(timed(explorer, sent, {"method": "update", "state": {"order": order}, "buffer_paths": []}))
        (preview_seconds, preview_bytes), (drop_seconds, drop_bytes) = (max(previews), max(drops))
        print(f"{n:>6}  {preview_seconds:>7.3f} s  {preview_bytes / 1e6:>10.3f}  {drop_seconds:>7.3f} s  {drop_bytes / 1e6:>8.3f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
