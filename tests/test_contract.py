"""The metric contract: a metric is one module (plus its locale strings and its tests), nothing else.

Q-measure (issue 20) is the proof on the package itself. A copy of the package without
``metrics/q_measure.py`` and without the Chinese strings only that module marks differs from the package in those
two files alone, and the suites that read the registry pass there: nothing else in the package needed it. In the
package, call, explain, mean, evaluate, the explorer and the command all reach it by its key and its names.
tests/test_contributing.py proves the same for a metric added by following CONTRIBUTING.md.
"""

from metric_copy import ROOT, changed_files, collected, package_copy, picked_up, run_suites

MODULE = "ndcg_teach/core/metrics/q_measure.py"

# The messages only q_measure.py marks. The suites prove the list right in the copy: a message left out would be a
# catalogue entry nothing marks (test_i18n fails), one too many a marked message without its translation.
Q_STRINGS = [
    "the gain of the relevant items up to this position",
    "the same sum for the ideal ranking: the relevant items, highest grade first",
    "blended ratio (hits + beta cg) / (i + beta cg*): P@i when beta is 0",
    "AP with each precision blended with how close the gains come to the ideal's",
    "beta = {beta:g}; beta = 0 would give AP",
    "R = {total} relevant items in the query",
    "how much the graded gains weigh against the hits (or exactly 0, which gives AP)",
]


def test_q_measure_is_one_module_and_its_locale_strings(tmp_path):
    copy = package_copy(tmp_path, remove=[MODULE], unmark=Q_STRINGS)
    assert changed_files(copy) == [MODULE, "ndcg_teach/i18n/locales/zh-CN.po"]
    assert " passed" in run_suites(copy)
    assert "q_measure" not in collected(copy) and "q_measure" in collected(ROOT)


def test_every_caller_reaches_q_measure_by_its_key_and_names():
    picked_up(ROOT, "q_measure", "Q")
