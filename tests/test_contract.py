"""The metric contract: a new metric is one module (plus its locale strings and its tests), nothing else.

The proof follows the contract literally: it copies the package, writes a
Q-measure module in the new style into the copy's ``metrics/`` folder, adds
its Chinese strings to the copy's catalogue, and runs the suites that read the
registry there; then it checks that evaluate, mean, call, the explorer and the
command all pick the metric up, and that nothing but those two files differs
from the package. Q-measure (Sakai 2004) is the example because it needs the
pool, R and the threshold and has a convention and a step column of its own;
it is registered as ``toy_q`` so that it never meets the package's own.
"""

import shutil
import subprocess
import sys
import textwrap
from filecmp import dircmp
from pathlib import Path

from ndcg_teach.po import po_entry, read_po

ROOT = Path(__file__).resolve().parent.parent

Q_MEASURE = '''\
"""Q-measure (Sakai 2004): average precision whose precision at each relevant item is blended with graded gains.

``Q = (1/R) * sum over relevant positions i of (hits(i) + beta * cg(i)) / (i + beta * cg*(i))``, with cg the
cumulative gain (the grades) of the ranking and cg* that of the ideal ranking; beta = 0 would give AP.
"""

import numpy as np

from ..binary import batch_denominators, checked_binary, hit_arrays
from ..formulas import at, number, threshold_note
from ..i18n import mark
from ..registry import Metric, Param, register_metric
from ..trace import CONTRIBUTION, GRADE, HITS, ITEM, POSITION, RELEVANT, RUNNING, Column, Trace, rows_of
from ..validation import check_items, check_n_relevant, check_pool, check_positive

__all__ = ["toy_q", "explain_toy_q"]

BLENDED = Column("blended", mark("blended ratio"), "number", mark("(hits + beta cg) / (i + beta ideal cg) at this position"))
COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, HITS, BLENDED, CONTRIBUTION, RUNNING)
BETA = Param(float, (), 1.0, "how much the graded gains weigh against the hits")


def q_steps(grades, k, beta, threshold, pool, totals):
    """``(relevant, hits, blended, contributions)`` of one list or of a batch (one row per query, padded with 0)."""
    relevant, hits, _precision = hit_arrays(grades, k, threshold)
    shown = grades[..., :k]
    source = grades if pool is None else pool
    ideal = -np.sort(-source, axis=-1)[..., :shown.shape[-1]]
    padding = [(0, 0)] * (ideal.ndim - 1) + [(0, shown.shape[-1] - ideal.shape[-1])]
    positions = np.arange(1, shown.shape[-1] + 1)
    blended = (hits + beta * np.cumsum(shown, axis=-1)) / (positions + beta * np.cumsum(np.pad(ideal, padding), axis=-1))
    totals = np.asarray(totals)[..., np.newaxis]
    contributions = np.where(relevant & (totals > 0), blended, 0.0) / np.maximum(totals, 1)
    return relevant, hits, blended, contributions


def _checked(relevances, k, beta, pool, n_relevant, threshold, negative):
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    pool = None if pool is None else check_pool(pool, grades, negative)
    total = check_n_relevant(n_relevant, int(((grades if pool is None else pool) >= threshold).sum()))
    return grades, k, check_positive("beta", beta, "how much the graded gains weigh"), pool, total, threshold


def toy_q(relevances, k=None, *, beta=1.0, pool=None, n_relevant=None, threshold=1, negative="raise"):
    """Q-measure: AP with each precision blended with the ratio of cumulative gains (Sakai 2004). Lesson 05.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
    k : int or None, default None
        Cut-off; None uses the whole list.
    beta : float, default 1.0
        How much the graded gains weigh against the hits.
    pool : sequence of float or None, default None
        Grades of every judged item of the query, for the ideal; None uses the list.
    n_relevant : int or None, default None
        R; None counts the relevant items of the pool (or the list).
    threshold : float, default 1
        Smallest grade that counts as relevant.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Examples
    --------
    >>> round(toy_q([2, 0, 1]), 4)  # ((1 + 2)/(1 + 2) + (2 + 3)/(3 + 3)) / 2
    0.9167
    """
    grades, k, beta, pool, total, threshold = _checked(relevances, k, beta, pool, n_relevant, threshold, negative)
    return float(np.cumsum(q_steps(grades, k, beta, threshold, pool, total)[3])[-1]) if grades[:k].size else 0.0


def explain_toy_q(relevances, k=None, *, beta=1.0, pool=None, n_relevant=None, threshold=1, negative="raise",
                      ranking=None):
    """Q-measure with every step: the blended ratio at each position and what each relevant item adds.

    Examples
    --------
    >>> print(explain_toy_q([2, 0, 1]).formula)
    Q = (1/2) * (1.0000 + 0.8333) = 0.9167
    """
    grades, k, beta, pool, total, threshold = _checked(relevances, k, beta, pool, n_relevant, threshold, negative)
    labels = check_items(ranking, grades.size)
    relevant, hits, blended, contributions = q_steps(grades, k, beta, threshold, pool, total)
    running = np.cumsum(contributions)
    value = float(running[-1]) if running.size else 0.0
    rows = rows_of(COLUMNS, range(1, running.size + 1), labels, grades.tolist(), relevant.tolist(), hits.tolist(),
                   blended.tolist(), contributions.tolist(), running.tolist())
    name = at("Q", k)
    terms = " + ".join(number(b) for b, rel in zip(blended, relevant) if rel) or "0"
    return Trace(name, value, rows, f"{name} = (1/{total}) * ({terms}) = {number(value)}",
                 rf"\\mathrm{{{name}}} = {number(value)}", COLUMNS, (threshold_note(threshold),))


def toy_q_batch(grades, lengths, k=None, *, beta=1.0, pool=None, n_relevant=None, threshold=1):
    """Q-measure of each row of ``grades`` (one query per row, padded with 0). Lesson 09."""
    totals = batch_denominators(n_relevant, ((grades if pool is None else pool) >= threshold).sum(axis=-1))
    running = np.cumsum(q_steps(grades, k, beta, threshold, pool, totals)[3], axis=-1)
    return running[..., -1] if running.shape[-1] else np.zeros(running.shape[:-1])


register_metric(Metric(
    "toy_q", "ToyQ@{k}", "graded", toy_q, explain_toy_q, mark("AP with graded gains blended into each precision"),
    "05-average-precision-map-rr", order=75, batch=toy_q_batch, names={"ToyQ": {}, "ToyQ@{k}": {}},
    needs=("pool", "n_relevant", "threshold"), params={"beta": BETA}, columns=COLUMNS))
'''

Q_STRINGS = {
    "blended ratio": "混合比",
    "(hits + beta cg) / (i + beta ideal cg) at this position": "此位置的 (命中数 + beta cg) / (i + beta 理想 cg)",
    "AP with graded gains blended into each precision": "在每个精确率中混入分级增益的 AP",
}

# The suites that read the registry: every metric they find is checked there, the new one included.
SUITES = ["test_registry.py", "test_explain.py", "test_mean.py", "test_i18n.py", "test_package.py",
          "test_widgets_explorer.py"]

PICKED_UP = textwrap.dedent("""
    import subprocess, sys
    import numpy as np
    import ndcg_teach as nt
    from ndcg_teach.widgets import RankingExplorer

    assert "toy_q" in nt.__all__ and nt.metric("toy_q").needs == ("pool", "n_relevant", "threshold")
    query = nt.Query.of([2, 0, 1], pool=[2, 2, 1], n_relevant=3)
    assert nt.call("toy_q", query, 3) == nt.toy_q([2, 0, 1], 3, pool=[2, 2, 1], n_relevant=3)
    assert nt.explain("toy_q", query, 3).value == nt.call("toy_q", query, 3)
    queries = [[2, 0, 1], [0, 1], []]
    assert abs(nt.mean("toy_q", queries, beta=0.5) - np.mean([nt.toy_q(q, beta=0.5) for q in queries])) < 1e-15
    qrels = {"q1": {"a": 2, "b": 0, "c": 1, "d": 2}, "q2": {"x": 1}}
    run = {"q1": {"a": 0.9, "b": 0.8, "c": 0.7}, "q2": {"y": 0.9, "x": 0.5}}
    result = nt.evaluate(qrels, run, ["ToyQ", "ToyQ@2"])
    assert result.per_query["ToyQ"].tolist() == [nt.toy_q([2, 0, 1], pool=[2, 2, 1], n_relevant=3),
                                               nt.toy_q([0, 1], pool=[1], n_relevant=1)]
    assert result.explain("q1", "ToyQ@2").value == result.value("q1", "ToyQ@2")
    explorer = RankingExplorer(["B", "A", "C"], {"A": 2, "B": 0, "C": 1}, metrics=["ndcg", "toy_q"])
    assert explorer.metrics["toy_q"] == nt.toy_q([0, 2, 1], 3)
    assert [card["key"] for card in explorer.panels[0]["metrics"]] == ["ndcg", "toy_q"]
    qrels_path, run_path = nt.example_files()
    printed = subprocess.run([sys.executable, "-m", "ndcg_teach", str(qrels_path), str(run_path), "-m", "ToyQ"],
                             capture_output=True, text=True, check=True).stdout
    assert ["ToyQ", "all", f"{nt.evaluate(qrels_path, run_path, ['ToyQ'])['ToyQ']:.4f}"] in [line.split() for line in printed.splitlines()]
    print("picked up")
""")


def test_a_new_metric_is_one_module_and_its_locale_strings(tmp_path):
    copy = tmp_path / "repo"
    for name in ("ndcg_teach", "tests"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__", "browser"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    (copy / "ndcg_teach" / "metrics" / "toy_q.py").write_text(Q_MEASURE, encoding="utf-8")
    catalogue = copy / "ndcg_teach" / "locales" / "zh-CN.po"
    strings = read_po(catalogue.read_text(encoding="utf-8"))
    new = "".join("\n" + po_entry(message, text) for message, text in Q_STRINGS.items() if message not in strings)
    catalogue.write_text(catalogue.read_text(encoding="utf-8") + new, encoding="utf-8")

    changed = _differences(dircmp(ROOT / "ndcg_teach", copy / "ndcg_teach"), "ndcg_teach")
    # Its Chinese strings may be in the catalogue already (a real Q-measure may share them): then only the module differs.
    assert changed[-1] == "ndcg_teach/metrics/toy_q.py"
    assert set(changed) <= {"ndcg_teach/locales/zh-CN.po", "ndcg_teach/metrics/toy_q.py"}

    suites = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-x",
                             *(f"tests/{suite}" for suite in SUITES), "ndcg_teach/metrics/toy_q.py"],
                            cwd=copy, capture_output=True, text=True, timeout=900)
    assert suites.returncode == 0, suites.stdout[-3000:] + suites.stderr[-2000:]
    assert " passed" in suites.stdout.splitlines()[-1] and "toy_q" in _collected(copy)

    used = subprocess.run([sys.executable, "-c", PICKED_UP], cwd=copy, capture_output=True, text=True, timeout=300)
    assert used.stdout.strip() == "picked up", used.stderr[-3000:]


def _differences(comparison, prefix):
    """Files added to or changed in the copy (right side), as paths under ``prefix``."""
    found = [f"{prefix}/{name}" for name in comparison.right_only + comparison.diff_files]
    for name, sub in comparison.subdirs.items():
        found += _differences(sub, f"{prefix}/{name}")
    return sorted(found)


def _collected(copy):
    """The test ids the registry suites collect in the copy (the new metric's cases among them)."""
    listed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly",
                             "tests/test_explain.py", "tests/test_mean.py"], cwd=copy, capture_output=True, text=True,
                            timeout=300)
    return listed.stdout
