"""ndcg_teach: ranking metrics computed exactly, with every step shown.

Every per-list metric takes ``(relevances, k=None, *, ...)``: the grades of
the ranked items, position 1 first, as textbooks write them (``[5, 2, 3]``),
then the cut-off, then keyword-only conventions. Each has an ``explain_*``
twin that returns a :class:`Trace` with the step table and the formula with
its numbers. :func:`metrics` lists every registered metric (see
:mod:`ndcg_teach.registry`); :func:`call` scores a :class:`Query` with any
of them. :func:`evaluate` scores a whole run (TREC
qrels and run files, dicts or DataFrames) with trec_eval's numbers, and
``python -m ndcg_teach QRELS RUN -m ndcg_cut.10`` prints them as trec_eval does. Widgets live in :mod:`ndcg_teach.widgets` and the
source documents' worked examples in :mod:`ndcg_teach.examples`; neither is
imported here, so ``import ndcg_teach`` needs only NumPy.

>>> import ndcg_teach as nt
>>> round(nt.ndcg([5, 2, 3]), 4)
0.9834
"""

from . import metrics as _metric_families
from .context import Query
from .evaluation import Comparison, Evaluation, compare, evaluate
from .i18n import language, language_set, set_language
from .items import ideal_order, relevances_from
from .mean import mean
from .metrics import *  # noqa: F403 - every metric family's public names, read from the modules themselves
from .registry import Metric, Param, call, explain, metric, metrics, register_metric, unregister_metric
from .table import Span, aligned
from .ties import ndcg_score
from .trace import Column, Row, Trace
from .trec import TrecFormatError, example_files, read_qrels, read_run
from .trec_gains import TrecGains

__version__ = "0.1.0"

# Subpackages that need more than NumPy load on first use, so `import ndcg_teach` stays light.
LAZY_SUBMODULES = ("answers", "conventions", "examples", "exercises", "glossary", "many_systems", "plots", "significance", "widgets")
# Lessons 13-21's names, each loaded from its module on first use: imported here they would add ~50 ms (measured
# with benchmarks/import_time.py) to every `import ndcg_teach`, for lessons most sessions never open.
LAZY_NAMES = {
    **dict.fromkeys(("ab_test_power", "ab_test_size", "ab_test_size_means"), "ab_testing"),
    **dict.fromkeys(("answer_collection", "citation_support", "faithfulness", "judge_assignments", "nugget_evaluation",
                     "nugget_judge_effect", "nugget_scores"), "answers"),
    **dict.fromkeys(("cohen_kappa", "fleiss_kappa"), "agreement"),
    "BanditProblem": "bandit_problem",
    **dict.fromkeys(("CascadeModel", "PositionBasedModel"), "click_models"),
    **dict.fromkeys(("Log", "direct_method", "doubly_robust", "ips", "snips"), "counterfactual"),
    **dict.fromkeys(("position_based_exact", "position_based_ips"), "counterfactual_rankings"),
    **dict.fromkeys(("balanced", "interleaving_outcomes", "simulate_interleaving", "team_draft"), "interleaving"),
    **dict.fromkeys(("macro_micro", "rag_collection", "rag_collections"), "rag_data"),
    **dict.fromkeys(("corrected_metric", "sampled_metric_estimates"), "sampled_metrics"),
    **dict.fromkeys(("SimulatedJudge", "judge_effect"), "simulated_judges"),
    **dict.fromkeys(("kendall_tau", "swapped_pairs", "tau_ap"), "stability"),
}


def __getattr__(name):
    if name in LAZY_SUBMODULES or name in LAZY_NAMES:
        import importlib

        if name in LAZY_SUBMODULES:
            return importlib.import_module(f"{__name__}.{name}")
        value = getattr(importlib.import_module(f"{__name__}.{LAZY_NAMES[name]}"), name)
        globals()[name] = value  # found directly next time
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(LAZY_NAMES) | set(LAZY_SUBMODULES))


__all__ = [
    "Column", "Comparison", "Evaluation", "Metric", "Param", "Query", "Row", "Span", "Trace", "TrecFormatError",
    "TrecGains", "aligned", "call",
    "compare", "evaluate", "example_files", "explain", "ideal_order", "language", "language_set", "mean", "metric",
    "metrics", "ndcg_score", "read_qrels", "read_run", "register_metric", "relevances_from", "set_language",
    "unregister_metric",
]
__all__ += _metric_families.__all__
__all__ += list(LAZY_NAMES)
