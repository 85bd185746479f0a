"""Average precision (AP): precision measured at every relevant item, averaged; and its mean, MAP.

Lesson 05 teaches AP, MAP and the denominators in use.
"""

import warnings

import numpy as np

from ..binary import batch_denominators, checked_binary, divided, hit_arrays
from ..deprecation import renamed
from ..formulas import at, averaged, binary_rows, threshold_note
from ...i18n import _, mark
from ..mean import mean
from ..registry import Metric, register_metric
from ..steps import Steps
from ..trace import CONTRIBUTION, GRADE, HITS, ITEM, POSITION, PRECISION, RELEVANT, RUNNING, Trace
from ..validation import check_items, check_n_relevant

__all__ = ["average_precision", "explain_average_precision", "mean_average_precision"]

AP_COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, HITS, PRECISION, CONTRIBUTION, RUNNING)


def _averaged(grades, k, relevant, hits, precision, denominator):
    """Steps in which each relevant position adds its precision ``/ denominator`` (one per row when 2-D)."""
    picked = np.where(relevant, precision, 0.0)
    return Steps(grades[..., :k], divided(picked, denominator), divided(np.cumsum(picked, axis=-1), denominator),
                 gains=relevant.astype(np.float64), relevant=relevant, hits=hits, precision=precision,
                 denominator=denominator)


def average_precision_steps(grades, k, threshold, n_relevant=None):
    """Steps of AP: each relevant position adds its precision ``/ denominator``."""
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    denominator = check_n_relevant(n_relevant, int(hits[-1]) if hits.size else 0)
    return _averaged(grades, k, relevant, hits, precision, denominator)


def average_precision_batch(grades, lengths, k=None, *, threshold=1, n_relevant=None):
    """AP of each row of ``grades`` (one query per row, padded with 0), from the same steps as :func:`average_precision`. Lesson 09.

    Examples
    --------
    >>> average_precision_batch(np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]), np.array([3, 2]), n_relevant=np.array([4, 1]))
    array([0.41666667, 0.5       ])
    """
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    found = hits[..., -1] if hits.shape[-1] else np.zeros(hits.shape[:-1], dtype=np.int64)
    return _averaged(grades, k, relevant, hits, precision, batch_denominators(n_relevant, found)).totals


def average_precision(relevances, k=None, *, threshold=1, n_relevant=None, negative="raise"):
    """Average precision: the precision at each relevant position, summed and divided by a count of relevant items.

    ``AP = (sum over relevant positions i <= k of P@i) / denominator``. Three
    denominators are in use, and they give different numbers:

    * relevant items retrieved in the top ``k`` (default, ``n_relevant=None``):
      torchmetrics, and the AP formula of the document 003 notes;
    * every relevant item of the query, retrieved or not
      (``n_relevant=R``): trec_eval ``map``, ranx, Manning et al.; a missed
      relevant item then counts as precision 0;
    * ``min(R, k)`` (``n_relevant=min(R, k)``): recommenders ``map_at_k``.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    n_relevant : int or None, default None
        The denominator; see above. Must be at least the hits in the top ``k``.
        AP is 0.0 when it is 0.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    See Also
    --------
    explain_average_precision, mean_average_precision. Lesson 05 teaches AP.

    Examples
    --------
    >>> average_precision([1, 0, 1, 0])  # (P@1 + P@3) / 2 = (1 + 2/3) / 2
    0.8333333333333333
    >>> average_precision([1, 0, 1, 0], n_relevant=3)  # a third relevant item was never found
    0.5555555555555555
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    return average_precision_steps(grades, k, threshold, n_relevant).total


@renamed(items="ranking")
def explain_average_precision(relevances, k=None, *, threshold=1, n_relevant=None, negative="raise", ranking=None):
    """AP with every step: P@i at each relevant position, summed and divided.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`average_precision`.

    Examples
    --------
    >>> print(explain_average_precision([1, 0, 1, 0]).formula)
    AP = (P@1 + P@3) / 2 = (1.0000 + 0.6667) / 2 = 0.8333
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    steps = average_precision_steps(grades, k, threshold, n_relevant)
    denominator = steps.denominator
    picked = [(f"P@{i}", p) for i, (rel, p) in enumerate(zip(steps.relevant, steps.precision), start=1) if rel]
    name = at("AP", k)
    formula, latex = averaged(name, k, picked, denominator, steps.total)
    source = (_("n_relevant (relevant items of the query in total)") if n_relevant is not None
              else _("relevant items retrieved (pass n_relevant=R for trec_eval's denominator)"))
    notes = (threshold_note(threshold), _("denominator = {source}").format(source=source))
    return Trace(name, steps.total, binary_rows(steps, labels, AP_COLUMNS), formula, latex, AP_COLUMNS, notes)


def mean_average_precision(queries, k=None, *, per_query=None, **keywords):
    """MAP: mean average precision over queries, ``mean("ap", ...)``; keywords as in :func:`average_precision`.

    Parameters
    ----------
    queries : list of sequences of float
        One relevance list per query, in ranked order.
    k : int or None
        Cut-off for every query.
    per_query : dict, optional
        ``{"n_relevant": [R_1, R_2, ...]}``: relevant items of each query in
        total (trec_eval's ``map`` divides by these). Without it each list's
        own relevant items are counted.
    **keywords
        Passed to :func:`average_precision` for every query (threshold, ...).

    Examples
    --------
    >>> mean_average_precision([[1, 0, 1], [0, 1]])  # ((1 + 2/3) / 2 + 1/2) / 2
    0.6666666666666666
    >>> mean_average_precision([[1, 0, 1], [0, 1]], per_query={"n_relevant": [4, 1]})  # ((1 + 2/3) / 4 + 1/2) / 2
    0.4583333333333333
    """
    n_relevant = keywords.get("n_relevant")
    if n_relevant is not None and not np.isscalar(n_relevant):
        warnings.warn("mean_average_precision(n_relevant=[...]) is now spelled per_query={'n_relevant': [...]}; "
                      "a list in n_relevant= will stop working in the next release.", DeprecationWarning, stacklevel=2)
        per_query = {**(per_query or {}), "n_relevant": keywords.pop("n_relevant")}
    return mean("ap", queries, k, per_query=per_query, **keywords)


register_metric(Metric(
    "ap", "AP@{k}", "binary", average_precision, explain_average_precision,
    mark("mean of P@i over the relevant positions i <= k"), "05-average-precision-map-rr", order=70,
    batch=average_precision_batch, names={"map": {}, "map_cut.{k}": {}, "AP": {}, "AP@{k}": {}},
    needs=("threshold", "n_relevant"), params={}, columns=AP_COLUMNS))
