"""The metric registry: one :class:`Metric` spec per metric, and one :func:`call` that scores a query with it.

Each metric family module in :mod:`ndcg_teach.core.metrics` registers its metrics
when it is imported. A spec declares what the metric reads from a query
(``needs``: facts of a :class:`~ndcg_teach.core.context.Query`) and its conventions
(``params``: one :class:`Param` each, as ir_measures' ``SUPPORTED_PARAMS``
do); the explorer's cards, the conventions' recipes, :func:`~ndcg_teach.core.mean`,
:func:`~ndcg_teach.evaluate`, the package's ``__all__`` and the tests read
those declarations instead of keeping lists of their own or reading parameter
names, so a new metric is one new module. This module alone reads a
function's signature: to check a spec against its functions, and to fill in
the declarations of a metric registered without them. An instructor can
register a metric of their own the same way:

>>> import ndcg_teach as nt
>>> def top_grade(relevances, k=None):
...     '''The best grade in the top k.'''
...     return float(max(list(relevances)[:k], default=0))
>>> spec = nt.register_metric(nt.Metric("top", "Top@{k}", "graded", top_grade, meaning="the best grade in the top k"))
>>> spec.title(3), spec.keywords
('Top@3', ())
>>> nt.mean("top", [[1, 3], [2]])  # (3 + 2) / 2
2.5
>>> nt.unregister_metric("top")
"""

from .calling import call, explain, route
from .registered import metric, metrics, register_metric, unregister_metric
from .spec import GROUPS, READING, Metric, Param

__all__ = ["GROUPS", "READING", "Metric", "Param", "call", "explain", "metric", "metrics", "register_metric", "route",
           "unregister_metric"]
