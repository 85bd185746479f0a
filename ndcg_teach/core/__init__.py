"""The per-list library: one ranked list's metrics, each step shown. Lessons 00 to 06 teach it; every metric is here.

A metric reads the grades of one ranked list, position 1 first, and returns a float; its ``explain_*`` twin returns
the same value with every step (a :class:`Trace`). Read it in this order:

- ``gains`` and ``discounts``: what a grade is worth, and how much less a position further down counts;
- ``steps``: the per-position record every metric computes (gains, contributions, their running sum);
- ``trace``, ``table`` and ``formulas``: a value with its steps, as a table and a formula with the numbers;
- ``metrics/``: one module per metric family (CG, DCG, NDCG, P@k, AP, RR, ... and trec_eval's own), each with its
  steps, plain function, ``explain_*`` twin, batch path and registration;
- ``registry/``: the metric specs, and :func:`call`, which scores a query with any metric;
- ``context``: :class:`Query`, everything a metric may read about a query (its pool, counts, subtopics, ...);
- ``mean``, ``ties``, ``items``: means over queries, scores to ranks with a tie policy, named items;
- ``validation``, ``shown``, ``checks``, ``item_checks``: the input checks, whose messages end "Got X instead.";
- ``binary``, ``subtopics``, ``trec_gains``, ``c_numbers``: relevant or not, subtopic judgements, trec_eval's gain
  maps and C's number syntax, which the metrics of lessons 10 to 16 read;
- ``conventions/``: every convention, and what each peer library (scikit-learn, trec_eval, ranx, ...) chooses;
- ``explained``: how a result that is not a per-position metric (lessons 13 to 21) shows its steps;
- ``deprecation``: old keyword names that still work for one release.

May import: ``i18n``. Nothing here reads a run file, draws, or knows a lesson: the rooms above it build on it.
"""

from . import metrics as _metric_families
from .context import Query
from .items import ideal_order, relevances_from
from .mean import mean
from .metrics import *  # noqa: F403 - every metric family's public names, read from the modules themselves
from .registry import Metric, Param, call, explain, metric, metrics, register_metric, unregister_metric
from .table import Span, aligned
from .ties import ndcg_score
from .trace import Column, Row, Trace
from .trec_gains import TrecGains

__all__ = [
    "Column", "Metric", "Param", "Query", "Row", "Span", "Trace", "TrecGains", "aligned", "call", "explain",
    "ideal_order", "mean", "metric", "metrics", "ndcg_score", "register_metric", "relevances_from",
    "unregister_metric", *_metric_families.__all__,
]
