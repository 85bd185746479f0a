"""ndcg_teach: ranking metrics computed exactly, with every step shown.

Every per-list function takes ``relevances``: the grades of the ranked items,
position 1 first, as textbooks write them (``[5, 2, 3]``). Each has an
``explain_*`` twin that returns a :class:`Trace` with the step table and the
formula with its numbers. Widgets live in :mod:`ndcg_teach.widgets` and the
source documents' worked examples in :mod:`ndcg_teach.examples`; neither is
imported here, so ``import ndcg_teach`` needs only NumPy.

>>> import ndcg_teach as nt
>>> round(nt.ndcg([5, 2, 3]), 4)
0.9834
"""

from .average_precision import average_precision
from .dcg import cg, dcg, idcg, ndcg
from .explain import (
    explain_average_precision,
    explain_cg,
    explain_dcg,
    explain_idcg,
    explain_ndcg,
    explain_precision_at_k,
    explain_recall_at_k,
    explain_reciprocal_rank,
)
from .items import ideal_order, relevances_from
from .mean import mean_average_precision, mean_ndcg, mean_reciprocal_rank
from .precision import precision_at_k, recall_at_k
from .reciprocal_rank import reciprocal_rank
from .ties import ndcg_score
from .trace import Row, Trace

__version__ = "0.1.0"

# Subpackages that need more than NumPy load on first use, so `import ndcg_teach` stays light.
LAZY_SUBMODULES = ("conventions", "examples", "exercises", "plots", "widgets")


def __getattr__(name):
    if name in LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Row",
    "Trace",
    "average_precision",
    "cg",
    "dcg",
    "explain_average_precision",
    "explain_cg",
    "explain_dcg",
    "explain_idcg",
    "explain_ndcg",
    "explain_precision_at_k",
    "explain_recall_at_k",
    "explain_reciprocal_rank",
    "idcg",
    "ideal_order",
    "mean_average_precision",
    "mean_ndcg",
    "mean_reciprocal_rank",
    "ndcg",
    "ndcg_score",
    "precision_at_k",
    "recall_at_k",
    "reciprocal_rank",
    "relevances_from",
]
