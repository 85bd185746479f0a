"""Lesson 20's run explorer on a run of 2,000 queries: opening a query, and a drop painted in the query explorer.

A seeded run of 2,000 queries (100 documents each, and one query of 1,000) is evaluated with ndcg_cut.10, map,
P.10 and recip_rank, and shown in a RunExplorer in a throw-away JupyterLab on localhost, driven by Debian's chromium:

- **opening a query**: a click on one of the worst queries' buttons, until the query explorer below shows that
  query's first document and its ndcg_cut_10 card the value evaluate() gave it (also the 1,000-document query,
  opened from the kernel); and, in this process, ``RunExplorer.open_query`` alone;
- **a drop**: rows of the open 100-document query dragged with the mouse as a learner does (rest, press, 8 steps
  over about 320 ms, to a row at most 8 rows away, both in a 1440 x 1000 view; the next drag 250 ms after the kernel
  confirmed the last); timed from the drop to
  the moment the query's ndcg_cut_10 card and the run's mean card both show the new order's values (expected from
  evaluate() on the run with that order, in this process), "painted" one frame later.

Opening starts once the overview's resampling tests are done (after a change they take the kernel about a second
on 2,000 queries, and a click waits for them); the time they take after each drop is printed too. Prints the
figures against the targets: opening <= 1 s, drop painted p95 <= 33 ms. The kernel, the server and the
browser share this machine: each case prints the 1-minute load average before and after it.

Usage: python benchmarks/run_explorer.py [--drags 40] [--opens 10] [--repeat 1]
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from jupyter_harness import JupyterServer, NotebookPage, chromium_path, launch_chromium, write_notebook  # noqa: E402
from widget_latency import drag, percentile  # noqa: E402  (the learner's drag and the percentile, as measured there)

import ndcg_teach as nt  # noqa: E402

OPEN_TARGET_S = 1.0
DROP_TARGET_MS = 33
MEASURES = ["ndcg_cut.10", "map", "P.10", "recip_rank"]
# Run in this process and in the kernel, so that both hold the same run.
MAKE_RUN = """
import random
_rng = random.Random(2000)
qrels, run = {}, {}
for _q in range(2000):
    _qid = f"q{_q:04d}"
    _docs = [f"d{_q}-{_i:04d}" for _i in range(1000 if _q == 0 else 100)]
    qrels[_qid] = {_d: _rng.choice([0, 0, 1, 1, 2, 3]) for _d in _rng.sample(_docs, 40)}
    run[_qid] = {_d: _rng.random() for _d in _docs}
"""
INSTRUMENT = """() => {
  const state = (window.__drop = { drop: null, shown: null, painted: null, confirmed: null, expected: null });
  const root = () => document.querySelectorAll("[data-testid=ranking-explorer]")[0];
  const matches = () => {
    const e = state.expected;
    const card = (key) => root().querySelector(`[data-metric="${key}"]`).textContent;
    return card("ndcg_cut_10") === e.score && card("mean_ndcg_cut_10") === e.mean;
  };
  window.__expectDrop = (e) => { Object.assign(state, { drop: null, shown: null, painted: null, confirmed: null, expected: e }); return matches(); };
  window.addEventListener("pointerup", () => { state.drop = performance.now(); check(); }, true);
  const check = () => {
    if (state.drop === null) return;
    if (state.shown === null && matches()) {
      state.shown = performance.now() - state.drop;
      requestAnimationFrame(() => setTimeout(() => { state.painted = performance.now() - state.drop; }, 0));
    }
    if (state.confirmed === null && state.shown !== null && root().dataset.state === "confirmed") {
      state.confirmed = performance.now() - state.drop;
    }
  };
  new MutationObserver(check).observe(document.body, { childList: true, characterData: true, subtree: true, attributes: true, attributeFilter: ["data-state"] });
}"""
DROPPED = "() => window.__drop.painted !== null && window.__drop.confirmed !== null"
# The overview's resampling tests (about a second of kernel time on 2,000 queries, after each change) are done.
TESTED = "() => document.querySelector('[data-testid=run-explorer]').dataset.state === 'confirmed'"
OPENED = """([query, first, score]) => {
  const root = document.querySelectorAll("[data-testid=ranking-explorer]")[0];
  const row = root && root.querySelector("[data-item]");
  const card = root && root.querySelector('[data-metric="ndcg_cut_10"]');
  return row && row.dataset.item === first && card && card.textContent === score && root.dataset.state === "confirmed";
}"""


def the_run():
    space = {}
    exec(MAKE_RUN, space)  # noqa: S102 - our own generator, shared with the kernel
    return space["qrels"], space["run"]


def python_open(result, opens):
    """``open_query`` timed in this process: each of ``opens`` queries, and the 1,000-document one."""
    from ndcg_teach.widgets import RunExplorer

    explorer = RunExplorer(result)
    times = []
    for qid in [*explorer.scores.worst_first()[1:opens + 1], "q0000"]:
        explorer._explorers.clear()  # each query built anew, as the first time it is opened
        start = time.perf_counter()
        explorer.open_query(qid)
        times.append(time.perf_counter() - start)
    return times[:-1], times[-1]


def in_browser(result, qrels, run, drags, opens, warmup=3, seed=0):
    import random

    from playwright.sync_api import sync_playwright

    cell_run = MAKE_RUN + f"import ndcg_teach as nt\nresult = nt.evaluate(qrels, run, {MEASURES!r})"
    cell_show = "from ndcg_teach.widgets import RunExplorer\nexplorer = RunExplorer(result)\nexplorer"
    choose = random.Random(seed)
    opened, dropped, shown, confirmed, tested = [], [], [], [], []
    with JupyterServer("lab") as server, sync_playwright() as driver:
        write_notebook(server.root / "runs.ipynb", [cell_run, cell_show])
        browser = launch_chromium(driver, shell=False)
        page = browser.new_page(viewport={"width": 1440, "height": 1000})  # a laptop's screen: the list scrolls
        notebook = NotebookPage(page, server, "runs.ipynb").open(timeout=240_000)
        notebook.run_all(timeout=600_000)
        overview = page.locator("[data-testid=run-explorer]")
        buttons = overview.locator("[data-testid=worst] button")
        buttons.first.wait_for(timeout=240_000)
        page.locator("[data-testid=ranking-explorer] [data-item]").first.wait_for(timeout=240_000)
        page.wait_for_function(TESTED, timeout=240_000)
        for index in [*range(1, 10), *range(0, 10)][:opens]:
            qid = buttons.nth(index).get_attribute("data-query")
            expected = [result.ranking(qid)[0], f"{result.value(qid, 'ndcg_cut_10'):.4f}"]
            start = time.perf_counter()
            buttons.nth(index).click()
            page.wait_for_function(OPENED, arg=[qid, *expected], timeout=60_000, polling="raf")
            opened.append(time.perf_counter() - start)
            page.wait_for_timeout(500)
        notebook.execute("explorer._explorers.pop((0, 'q0000'), None)")  # built anew, as the first time
        start = time.perf_counter()
        notebook.execute("explorer.open_query('q0000')")
        page.wait_for_function(OPENED, arg=["q0000", result.ranking("q0000")[0], f"{result.value('q0000', 'ndcg_cut_10'):.4f}"],
                               timeout=60_000, polling="raf")
        thousand = time.perf_counter() - start
        qid = buttons.nth(1).get_attribute("data-query")
        buttons.nth(1).click()
        rows = page.locator("[data-testid=ranking-explorer]").first.locator("[data-item]")
        page.wait_for_function(OPENED, arg=[qid, result.ranking(qid)[0], f"{result.value(qid, 'ndcg_cut_10'):.4f}"],
                               timeout=60_000, polling="raf")
        page.evaluate(INSTRUMENT)
        for i in range(warmup + drags):
            order = rows.evaluate_all("rows => rows.map(row => row.dataset.item)")
            # As a learner drags on one screen: a row to another at most 8 rows away, both in view.
            source = choose.randrange(len(order))
            target = choose.choice([t for t in range(source - 8, source + 9) if t != source and 0 <= t < len(order)])
            item = order[source]
            new = order[:source] + order[source + 1:]
            new.insert(target, item)
            again = nt.evaluate(qrels, {**run, qid: {doc: float(len(new) - p) for p, doc in enumerate(new)}}, MEASURES)
            expected = {"score": f"{again.value(qid, 'ndcg_cut_10'):.4f}", "mean": f"{again.means['ndcg_cut_10']:.4f}"}
            if page.evaluate("(e) => window.__expectDrop(e)", expected):
                continue  # the new order shows the same numbers: nothing to time
            rows.nth(min(source, target)).evaluate("(row) => row.scrollIntoView({block: 'center'})")
            page.wait_for_timeout(100)
            drag(page, rows.nth(source), rows.nth(target))
            page.wait_for_function(DROPPED, timeout=60_000, polling="raf")
            start = time.perf_counter()
            page.wait_for_function(TESTED, timeout=60_000)
            tested.append(time.perf_counter() - start)
            if i >= warmup:
                to_shown, to_painted, to_confirmed = page.evaluate("() => [window.__drop.shown, window.__drop.painted, window.__drop.confirmed]")
                shown.append(to_shown)
                dropped.append(to_painted)
                confirmed.append(to_confirmed)
            page.wait_for_timeout(250)
        browser.close()
    return opened, thousand, shown, dropped, confirmed, tested


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drags", type=int, default=40, help="measured drags (at least 30)")
    parser.add_argument("--opens", type=int, default=10, help="queries opened by a click")
    parser.add_argument("--repeat", type=int, default=1, help="run everything this many times; the worst is reported")
    args = parser.parse_args()
    if args.drags < 30:
        parser.error(f"--drags must be at least 30. Got {args.drags} instead.")
    if chromium_path(shell=False) is None:
        sys.exit("No chromium on PATH (Debian: apt-get install chromium).")
    qrels, run = the_run()
    start = time.perf_counter()
    result = nt.evaluate(qrels, run, MEASURES)
    print(f"run: {len(result.queries)} queries, evaluated in {time.perf_counter() - start:.2f} s; "
          f"targets: open <= {OPEN_TARGET_S} s, drop painted p95 <= {DROP_TARGET_MS} ms")
    worst = {}
    for attempt in range(1, args.repeat + 1):
        load = os.getloadavg()[0]
        python_opens, python_thousand = python_open(result, args.opens)
        opened, thousand, shown, painted, confirmed, tested = in_browser(result, qrels, run, args.drags, args.opens)
        load = f"{load:.1f}-{os.getloadavg()[0]:.1f}"
        figures = {"python open max (s)": max(python_opens), "python open 1,000 documents (s)": python_thousand,
                   "browser open max (s)": max(opened), "browser open 1,000 documents (s)": thousand,
                   "drop shown p95 (ms)": percentile(shown, 0.95), "drop painted p50 (ms)": statistics.median(painted),
                   "drop painted p95 (ms)": percentile(painted, 0.95), "kernel confirmed p50 (ms)": statistics.median(confirmed),
                   "tests follow the confirmation, p50 (s)": statistics.median(tested)}
        print(f"attempt {attempt} (load {load}): " + "; ".join(f"{name} {value:.3f}" if "(s)" in name else
                                                              f"{name} {value:.1f}" for name, value in figures.items()),
              flush=True)
        for name, value in figures.items():
            worst[name] = max(worst.get(name, value), value)
    print()
    print(f"| figure | worst of {args.repeat} | target |")
    print("|---|---|---|")
    for name, value in worst.items():
        target = (f"<= {OPEN_TARGET_S} s ({'met' if value <= OPEN_TARGET_S else 'missed'})" if "open" in name else
                  f"<= {DROP_TARGET_MS} ms ({'met' if value <= DROP_TARGET_MS else 'missed'})" if name == "drop painted p95 (ms)" else "")
        print(f"| {name} | {value:.3f} | {target} |" if "(s)" in name else f"| {name} | {value:.1f} | {target} |")


if __name__ == "__main__":
    main()
