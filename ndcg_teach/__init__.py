"""ndcg_teach: ranking metrics computed exactly, with every step shown.

Every per-list metric takes ``(relevances, k=None, *, ...)``: the grades of
the ranked items, position 1 first, as textbooks write them (``[5, 2, 3]``),
then the cut-off, then keyword-only conventions. Each has an ``explain_*``
twin that returns a :class:`Trace` with the step table and the formula with
its numbers. :func:`metrics` lists every registered metric (see
:mod:`ndcg_teach.core.registry`); :func:`call` scores a :class:`Query` with any
of them. :func:`evaluate` scores a whole run (TREC qrels and run files, dicts
or DataFrames) with trec_eval's numbers, and ``python -m ndcg_teach QRELS RUN
-m ndcg_cut.10`` prints them as trec_eval does.

Every name is here, flat, as ``nt.<name>``; each lives in one room of the
package, a subpackage named by its purpose, whose docstring says what it holds
and what it may import (tests/test_layout.py keeps to it):

============== ==================================================================
``core``       the per-list library: gains, discounts, steps, traces, checks,
               the query context, the registry and every metric (lessons 00-06)
``i18n``       the learner's language, English or Chinese, and its catalogue
``runs``       whole runs: qrels and runs in, trec_eval's numbers out, the
               command ``python -m ndcg_teach``
``statistics`` paired tests, agreement, rank correlation, many systems, A/B sizes
``online``     click models, interleaving, counterfactual estimators
``plots``      matplotlib pictures of a trace
``course``     the lessons' material: the source documents' examples, simulated
               collections and judges, generated answers, the glossary
``widgets``    the explorers a learner drags items in
``exercises``  the lessons' exercises and questions, checked with hints
``jupyter``    the Jupyter server extension and ``python -m ndcg_teach.jupyter.setup``
============== ==================================================================

``import ndcg_teach`` loads the core only (it needs only NumPy); every other
name loads its room on first use. The module paths from before the rooms
(``ndcg_teach.runs.trec``, ``ndcg_teach.core.metrics.dcg``, ...) still work for one
release, with a DeprecationWarning (see ``_moved.py``).

>>> import ndcg_teach as nt
>>> round(nt.ndcg([5, 2, 3]), 4)
0.9834
"""

from . import _moved
from .core import *  # noqa: F403 - the per-list library, every metric family's names included
from .core import __all__ as _core_names
from .i18n import language, language_set, set_language

__version__ = "0.1.0"

_moved.install()

# The rooms beyond the core load on first use, so `import ndcg_teach` stays light.
LAZY_SUBMODULES = ("core", "course", "exercises", "i18n", "jupyter", "online", "plots", "runs", "statistics", "widgets")
# Each name beyond the core, loaded from its module on first use: imported here they would add ~50 ms (measured with
# benchmarks/import_time.py) to every `import ndcg_teach`, for lessons most sessions never open.
LAZY_NAMES = {
    **dict.fromkeys(("Comparison", "compare"), "runs.comparison"),
    **dict.fromkeys(("Evaluation", "evaluate"), "runs.evaluation"),
    **dict.fromkeys(("TrecFormatError", "example_files", "read_qrels", "read_run"), "runs.trec"),
    **dict.fromkeys(("ab_test_power", "ab_test_size", "ab_test_size_means"), "statistics.ab_testing"),
    **dict.fromkeys(("cohen_kappa", "fleiss_kappa"), "statistics.agreement"),
    **dict.fromkeys(("kendall_tau", "swapped_pairs", "tau_ap"), "statistics.stability"),
    "BanditProblem": "online.bandit_problem",
    **dict.fromkeys(("CascadeModel", "PositionBasedModel"), "online.click_models"),
    **dict.fromkeys(("Log", "direct_method", "doubly_robust", "ips", "snips"), "online.counterfactual"),
    **dict.fromkeys(("position_based_exact", "position_based_ips"), "online.counterfactual_rankings"),
    **dict.fromkeys(("balanced", "interleaving_outcomes", "simulate_interleaving", "team_draft"), "online.interleaving"),
    **dict.fromkeys(("answer_collection", "citation_support", "faithfulness", "judge_assignments", "nugget_evaluation",
                     "nugget_judge_effect", "nugget_scores"), "course.answers"),
    **dict.fromkeys(("macro_micro", "rag_collection", "rag_collections"), "course.rag_data"),
    **dict.fromkeys(("corrected_metric", "sampled_metric_estimates"), "course.sampled_metrics"),
    **dict.fromkeys(("SimulatedJudge", "judge_effect"), "course.simulated_judges"),
}


def __getattr__(name):
    import importlib

    if name in LAZY_SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in LAZY_NAMES:
        value = getattr(importlib.import_module(f"{__name__}.{LAZY_NAMES[name]}"), name)
        globals()[name] = value  # found directly next time
        return value
    new = _moved.MOVED.get(f"{__name__}.{name}")
    if new is not None:  # a module of ndcg_teach 0.1, such as nt.significance
        _moved.warn(f"{__name__}.{name}", new, 2)
        return importlib.import_module(new)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(LAZY_NAMES) | set(LAZY_SUBMODULES))


__all__ = [*_core_names, "language", "language_set", "set_language", *LAZY_NAMES]
