"""Reciprocal rank (RR): one over the position of the first relevant item; and its mean, MRR.

Lesson 05 teaches RR and MRR.
"""

import numpy as np

from ..binary import checked_binary, hit_arrays
from ..deprecation import renamed
from ..formulas import at, binary_rows, number, threshold_note
from ...i18n import _, mark
from ..mean import mean
from ..registry import Metric, register_metric
from ..steps import Steps
from ..trace import CONTRIBUTION, GRADE, ITEM, POSITION, RELEVANT, RUNNING, Trace
from ..validation import check_items

__all__ = ["reciprocal_rank", "explain_reciprocal_rank", "mean_reciprocal_rank"]

RR_COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, CONTRIBUTION, RUNNING)


def reciprocal_rank_steps(grades, k, threshold):
    """Steps of RR: only the first relevant position contributes ``1 / position``."""
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    first = relevant & (hits == 1)
    discounts = 1.0 / np.arange(1, hits.shape[-1] + 1, dtype=np.float64)
    contributions = np.where(first, discounts, 0.0)
    return Steps(grades[..., :k], contributions, np.cumsum(contributions, axis=-1), discounts=discounts,
                 relevant=relevant, hits=hits, precision=precision)


def reciprocal_rank_batch(grades, lengths, k=None, *, threshold=1):
    """RR of each row of ``grades`` (one query per row, padded with 0), from :func:`reciprocal_rank_steps`. Lesson 09.

    Examples
    --------
    >>> reciprocal_rank_batch(np.array([[0.0, 0.0, 3.0], [1.0, 0.0, 0.0]]), np.array([3, 1]))
    array([0.33333333, 1.        ])
    """
    return reciprocal_rank_steps(grades, k, threshold).totals


def reciprocal_rank(relevances, k=None, *, threshold=1, negative="raise"):
    """Reciprocal rank: ``1 / position`` of the first relevant item in the top ``k``, else 0.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    See Also
    --------
    explain_reciprocal_rank, mean_reciprocal_rank. Lesson 05 teaches RR.

    Examples
    --------
    >>> reciprocal_rank([0, 0, 3, 1])  # first relevant item at position 3
    0.3333333333333333
    >>> reciprocal_rank([0, 0, 3, 1], k=2)  # none in the top 2
    0.0
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    return reciprocal_rank_steps(grades, k, threshold).total


@renamed(items="ranking")
def explain_reciprocal_rank(relevances, k=None, *, threshold=1, negative="raise", ranking=None):
    """RR with every step: where the first relevant item is.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`reciprocal_rank`.

    Examples
    --------
    >>> print(explain_reciprocal_rank([0, 0, 3, 1]).formula)
    RR = 1 / 3 = 0.3333  (first relevant item at position 3)
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    steps = reciprocal_rank_steps(grades, k, threshold)
    name = at("RR", k)
    found = np.flatnonzero(steps.relevant)
    if found.size:
        first = int(found[0]) + 1
        formula = _("{name} = 1 / {first} = {value}  (first relevant item at position {first})").format(
            name=name, first=first, value=number(steps.total))
        latex = rf"\mathrm{{{name}}} = \frac{{1}}{{{first}}} = {number(steps.total)}"
    else:
        formula = (_("{name} = 0 (no relevant item in the list)") if k is None
                   else _("{name} = 0 (no relevant item in the list top {k})")).format(name=name, k=k)
        latex = rf"\mathrm{{{name}}} = 0"
    return Trace(name, steps.total, binary_rows(steps, labels, RR_COLUMNS), formula, latex, RR_COLUMNS,
                 (threshold_note(threshold),))


def mean_reciprocal_rank(queries, k=None, *, per_query=None, **keywords):
    """MRR: mean reciprocal rank over queries, ``mean("rr", ...)``; keywords as in :func:`reciprocal_rank`.

    Examples
    --------
    >>> mean_reciprocal_rank([[0, 1], [1, 0], [0, 0]])  # (1/2 + 1 + 0) / 3
    0.5
    """
    return mean("rr", queries, k, per_query=per_query, **keywords)


register_metric(Metric(
    "rr", "RR@{k}", "binary", reciprocal_rank, explain_reciprocal_rank, mark("1 / position of the first relevant item"),
    "05-average-precision-map-rr", order=80, batch=reciprocal_rank_batch,
    names={"recip_rank": {}, "RR": {}, "RR@{k}": {}}, needs=("threshold",), params={}, columns=RR_COLUMNS))
