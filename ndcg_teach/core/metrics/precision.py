"""Precision@k and recall@k: how many of the top k are relevant, and how many of the relevant are in the top k.

Each metric sits beside its ``explain_*`` twin; both read the same steps.
Lesson 04 teaches them, and what a relevance threshold does to them.
"""

import numpy as np

from ..binary import batch_denominators, checked_binary, divided, hit_arrays, last_hits, relevant_flags
from ..deprecation import renamed
from ..formulas import binary_rows, number, threshold_note
from ...i18n import _, gettext, mark
from ..registry import Metric, Param, register_metric
from ..steps import Steps
from ..trace import GRADE, HITS, ITEM, POSITION, PRECISION, RELEVANT, Trace
from ..validation import check_items, check_n_relevant

__all__ = ["precision_at_k", "recall_at_k", "explain_precision_at_k", "explain_recall_at_k"]

PRECISION_COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, HITS, PRECISION)
RECALL_COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, HITS)
ADAPTIVE_K_PARAM = Param(bool, (False, True), False, "a list shorter than k: divide by k (False: trec_eval, ranx) or "
                                                     "by the list's length (True: Evidently, torchmetrics)")


def _divided(grades, k, relevant, hits, precision, denominator):
    """Steps in which each relevant item adds ``1 / denominator`` (nothing when the denominator is 0).

    ``denominator`` is one number, or one per row when ``grades`` is 2-D.
    """
    gains = relevant.astype(np.float64)
    return Steps(grades[..., :k], divided(gains, denominator), divided(hits, denominator), gains=gains,
                 relevant=relevant, hits=hits, precision=precision, denominator=denominator)


def precision_steps(grades, k, threshold, adaptive_k=False):
    """Steps of P@k: each relevant item in the top ``k`` adds ``1 / denominator``."""
    if not isinstance(adaptive_k, (bool, np.bool_)):
        raise TypeError(gettext("adaptive_k must be True or False. Got {adaptive_k!r} instead.")
                               .format(adaptive_k=adaptive_k))
    k = grades.size if k is None else k
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    return _divided(grades, k, relevant, hits, precision, min(k, grades.size) if adaptive_k else k)


def precision_at_k(relevances, k=None, *, threshold=1, adaptive_k=False, negative="raise"):
    """Precision at k: the share of the top ``k`` positions that hold a relevant item.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list (P@n).
    threshold : float, default 1
        Smallest grade that counts as relevant.
    adaptive_k : bool, default False
        When the list is shorter than ``k``: False divides by ``k`` (trec_eval,
        ranx: missing positions count as misses); True divides by the list
        length (Evidently, torchmetrics ``adaptive_k``).
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    See Also
    --------
    explain_precision_at_k. Lesson 04 teaches P@k.

    Examples
    --------
    >>> precision_at_k([4, 5, 2, 3, 1], k=3, threshold=3)  # grades 4 and 5 count: 2 / 3
    0.6666666666666666
    >>> precision_at_k([1, 0], k=4)  # 1 hit / 4 positions
    0.25
    >>> precision_at_k([1, 0], k=4, adaptive_k=True)  # 1 hit / 2 items
    0.5
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    return precision_steps(grades, k, threshold, adaptive_k).total


@renamed(items="ranking")
def explain_precision_at_k(relevances, k=None, *, threshold=1, adaptive_k=False, negative="raise", ranking=None):
    """P@k with every step: which of the top ``k`` are relevant.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`precision_at_k`.

    Examples
    --------
    >>> print(explain_precision_at_k([4, 5, 2, 3, 1], k=3, threshold=3).formula)
    P@3 = (relevant in the top 3) / 3 = 2 / 3 = 0.6667
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    steps = precision_steps(grades, k, threshold, adaptive_k)
    cut = grades.size if k is None else k
    hits, denominator = last_hits(steps), steps.denominator
    name = f"P@{cut}"
    formula = _("{name} = (relevant in the top {cut}) / {denominator} = {hits} / {denominator} = {value}").format(
        name=name, cut=cut, denominator=denominator, hits=hits, value=number(steps.total))
    notes = [threshold_note(threshold)]
    if cut > grades.size:
        notes.append(_("the list has {n} items; {rule}").format(n=grades.size, rule=(
            _("adaptive_k=True divides by the list length") if adaptive_k
            else _("missing positions count as misses (trec_eval)"))))
    if denominator == 0:
        notes.append(_("nothing was retrieved: P is 0.0"))
    latex = rf"\mathrm{{{name}}} = \frac{{{hits}}}{{{denominator}}} = {number(steps.total)}"
    return Trace(name, steps.total, binary_rows(steps, labels, PRECISION_COLUMNS), formula, latex, PRECISION_COLUMNS,
                 tuple(notes))


def recall_steps(grades, k, threshold, n_relevant=None):
    """Steps of R@k: each relevant item in the top ``k`` adds ``1 / n_relevant``."""
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    total = check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum()))
    return _divided(grades, k, relevant, hits, precision, total)


def recall_at_k(relevances, k=None, *, threshold=1, n_relevant=None, negative="raise"):
    """Recall at k: the share of the query's relevant items found in the top ``k``.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    n_relevant : int or None, default None
        Relevant items of the query in total, retrieved or not (what
        trec_eval divides by). None counts the relevant items in
        ``relevances``, which assumes the list holds every relevant item.
        A query with no relevant item has recall 0.0.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    See Also
    --------
    explain_recall_at_k. Lesson 04 teaches R@k.

    Examples
    --------
    >>> recall_at_k([1, 0, 1, 1], k=2)  # 1 of the 3 relevant items is in the top 2
    0.3333333333333333
    >>> recall_at_k([1, 0, 1, 1], k=2, n_relevant=4)  # one more relevant item was never retrieved
    0.25
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    return recall_steps(grades, k, threshold, n_relevant).total


@renamed(items="ranking")
def explain_recall_at_k(relevances, k=None, *, threshold=1, n_relevant=None, negative="raise", ranking=None):
    """R@k with every step: how many of the relevant items the top ``k`` found.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`recall_at_k`.

    Examples
    --------
    >>> print(explain_recall_at_k([1, 0, 1, 1], k=2).formula)
    R@2 = (relevant in the top 2) / (relevant in total) = 1 / 3 = 0.3333
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    steps = recall_steps(grades, k, threshold, n_relevant)
    cut = grades.size if k is None else k
    total, hits = steps.denominator, last_hits(steps)
    name = f"R@{cut}"
    formula = _("{name} = (relevant in the top {cut}) / (relevant in total) = {hits} / {total} = {value}").format(
        name=name, cut=cut, hits=hits, total=total, value=number(steps.total))
    notes = [threshold_note(threshold),
             _("relevant in total = n_relevant") if n_relevant is not None
             else _("relevant in total counted in the list (pass n_relevant for the query's true total)")]
    if total == 0:
        notes.append(_("the query has no relevant item: recall is 0.0 by convention"))
    latex = rf"\mathrm{{{name}}} = \frac{{{hits}}}{{{total}}} = {number(steps.total)}"
    return Trace(name, steps.total, binary_rows(steps, labels, RECALL_COLUMNS), formula, latex, RECALL_COLUMNS,
                 tuple(notes))


def precision_batch(grades, lengths, k=None, *, threshold=1, adaptive_k=False):
    """P@k of each row of ``grades`` (one query per row, padded with 0), from the same steps as :func:`precision_at_k`. Lesson 09.

    Examples
    --------
    >>> precision_batch(np.array([[1.0, 0.0, 1.0], [1.0, 0.0, 0.0]]), np.array([3, 1]), k=2)  # 1 / 2 and 1 / 2
    array([0.5, 0.5])
    >>> precision_batch(np.array([[1.0, 0.0, 1.0], [1.0, 0.0, 0.0]]), np.array([3, 1]))  # P@n: 2 / 3 and 1 / 1
    array([0.66666667, 1.        ])
    """
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    cut = lengths if k is None else np.full(lengths.shape, k)
    denominators = np.minimum(cut, lengths) if adaptive_k else cut
    return _divided(grades, k, relevant, hits, precision, denominators).totals


def recall_batch(grades, lengths, k=None, *, threshold=1, n_relevant=None):
    """R@k of each row of ``grades``; ``n_relevant`` one count per query, as in :func:`recall_at_k`. Lesson 09.

    Examples
    --------
    >>> recall_batch(np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]), np.array([3, 2]), k=2, n_relevant=np.array([4, 1]))
    array([0.25, 1.  ])
    """
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    denominators = batch_denominators(n_relevant, relevant_flags(grades, threshold).sum(axis=-1))
    return _divided(grades, k, relevant, hits, precision, denominators).totals


register_metric(Metric(
    "precision", "P@{k}", "binary", precision_at_k, explain_precision_at_k, mark("share of the top k that is relevant"),
    "04-precision-recall-at-k", order=50, batch=precision_batch, names={"P.{k}": {}, "P@{k}": {}, "set_P": {}},
    needs=("threshold",), params={"adaptive_k": ADAPTIVE_K_PARAM}, columns=PRECISION_COLUMNS))
register_metric(Metric(
    "recall", "R@{k}", "binary", recall_at_k, explain_recall_at_k, mark("share of the relevant items found in the top k"),
    "04-precision-recall-at-k", order=60, batch=recall_batch, names={"recall.{k}": {}, "R@{k}": {}, "set_recall": {}},
    needs=("threshold", "n_relevant"), params={}, columns=RECALL_COLUMNS))
