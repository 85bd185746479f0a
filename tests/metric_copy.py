"""A copy of the package with a metric module added or taken out: the machinery of the proofs that a metric is one
module plus its locale strings (tests/test_contract.py for Q-measure, tests/test_contributing.py for the example
CONTRIBUTING.md walks through).

The copy holds ``ndcg_teach/``, ``tests/`` (without the browser tests) and ``pyproject.toml``; the registry suites
run there exactly as they run here, and :func:`picked_up` checks, in a fresh process, that every caller of the
registry reaches a metric without an edit of its own.
"""

import shutil
import subprocess
import sys
import textwrap
from filecmp import dircmp
from pathlib import Path

from ndcg_teach.i18n.po import po_header, po_text, read_po

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = Path("ndcg_teach", "i18n", "locales", "zh-CN.po")

# The suites that read the registry: every metric they find is checked there.
SUITES = ["test_registry.py", "test_explain.py", "test_mean.py", "test_i18n.py", "test_package.py",
          "test_widgets_explorer.py"]




def package_copy(tmp_path, *, files=None, strings=None, remove=(), unmark=()):
    """A copy of the repository's package and tests under ``tmp_path``, changed as a contributor would change it.

    ``files`` maps paths (relative to the repository) to the text written there; ``strings`` (English: Chinese)
    join the Chinese catalogue; ``remove`` lists paths taken out and ``unmark`` messages taken out of the catalogue.
    """
    copy = tmp_path / "repo"
    for name in ("ndcg_teach", "tests"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__", "browser"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    for path, text in (files or {}).items():
        (copy / path).write_text(text, encoding="utf-8")
    for path in remove:
        (copy / path).unlink()
    text = (copy / CATALOGUE).read_text(encoding="utf-8")
    catalogue = {message: shown for message, shown in {**read_po(text), **(strings or {})}.items() if message not in unmark}
    (copy / CATALOGUE).write_text(po_text(catalogue, po_header(text)), encoding="utf-8")
    return copy


def changed_files(copy, folder="ndcg_teach"):
    """Files of ``folder`` added, removed or changed in the copy, as paths relative to the repository."""
    def walk(comparison, prefix):
        found = [f"{prefix}/{name}" for name in comparison.left_only + comparison.right_only + comparison.diff_files]
        for name, sub in comparison.subdirs.items():
            found += walk(sub, f"{prefix}/{name}")
        return found

    ignored = ["__pycache__", ".hypothesis", "browser"]  # what the copy leaves out, and what runs leave behind
    return sorted(walk(dircmp(ROOT / folder, copy / folder, ignore=ignored), folder))


def run_suites(copy, *targets, suites=SUITES):
    """Run the registry ``suites`` (and any other ``targets``) in the copy; the last line pytest printed."""
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-x",
                             *(f"tests/{suite}" for suite in suites), *targets],
                            cwd=copy, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    return result.stdout.splitlines()[-1]


def collected(copy, suites=("test_explain.py", "test_mean.py")):
    """The test ids ``suites`` collect in the copy (each registered metric's cases among them)."""
    listed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly",
                             *(f"tests/{suite}" for suite in suites)], cwd=copy, capture_output=True, text=True,
                            timeout=300)
    return listed.stdout


PICKED_UP = textwrap.dedent("""
    import subprocess, sys
    import numpy as np
    import ndcg_teach as nt
    from ndcg_teach.widgets import RankingExplorer

    key, name = sys.argv[1:]
    spec = nt.metric(key)
    assert {spec.function.__name__, spec.explain.__name__} <= set(nt.__all__)
    assert {name, name + "@{k}"} <= set(spec.names) and set(spec.needs) <= {"pool", "n_relevant", "threshold"}

    def facts(pool):
        given = {"pool": pool, "n_relevant": sum(grade >= 1 for grade in pool)}
        return {fact: value for fact, value in given.items() if fact in spec.keywords}

    query = nt.Query.of([2, 0, 1], **facts([2, 2, 1]))
    assert nt.call(key, query, 3) == spec.function([2, 0, 1], 3, **facts([2, 2, 1]))
    assert nt.explain(key, query, 3).value == nt.call(key, query, 3)
    queries = [[2, 0, 1], [0, 1], []]
    assert abs(nt.mean(key, queries) - np.mean([spec.function(q) for q in queries])) < 1e-15
    qrels = {"q1": {"a": 2, "b": 0, "c": 1, "d": 2}, "q2": {"x": 1}}
    run = {"q1": {"a": 0.9, "b": 0.8, "c": 0.7}, "q2": {"y": 0.9, "x": 0.5}}
    result = nt.evaluate(qrels, run, [name, name + "@2"])
    assert result.per_query[name].tolist() == [spec.function([2, 0, 1], **facts([2, 2, 1])),
                                               spec.function([0, 1], **facts([1]))]
    assert result.explain("q1", name + "@2").value == result.value("q1", name + "@2")
    explorer = RankingExplorer(["B", "A", "C"], {"A": 2, "B": 0, "C": 1}, metrics=["ndcg", key])
    assert explorer.metrics[key] == spec.function([0, 2, 1], 3)
    assert [card["key"] for card in explorer.panels[0]["metrics"]] == ["ndcg", key]
    qrels_path, run_path = nt.example_files()
    printed = subprocess.run([sys.executable, "-m", "ndcg_teach", str(qrels_path), str(run_path), "-m", name],
                             capture_output=True, text=True, check=True).stdout
    mean = nt.evaluate(qrels_path, run_path, [name])[name]
    assert [name, "all", f"{mean:.4f}"] in [line.split() for line in printed.splitlines()]
    print("picked up")
""")


def picked_up(where, key, name):
    """Check, in a fresh process importing the package found at ``where``, that ``call``, ``explain``, ``mean``,
    ``evaluate`` (by ``name`` and ``name@2``), the explorer and the command all reach the metric ``key``."""
    used = subprocess.run([sys.executable, "-c", PICKED_UP, key, name], cwd=where, capture_output=True, text=True,
                          timeout=300)
    assert used.stdout.strip() == "picked up", used.stderr[-3000:]
