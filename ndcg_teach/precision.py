"""Precision@k and recall@k: how many of the top k are relevant.

Lesson 04 teaches both, and what a relevance threshold does to them.
"""

import numpy as np

from .binary import checked_binary, hit_arrays, relevant_flags
from .steps import Steps
from .validation import check_n_relevant


def precision_steps(grades, k, threshold, adaptive_k=False):
    """Steps of P@k: each relevant item in the top ``k`` adds ``1 / denominator``."""
    if not isinstance(adaptive_k, (bool, np.bool_)):
        raise TypeError(f"adaptive_k must be True or False. Got {adaptive_k!r} instead.")
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    denominator = min(k, grades.size) if adaptive_k else k
    gains = relevant.astype(np.float64)
    discounts = np.full(hits.size, 1.0 / denominator)
    return Steps(grades[:k], gains, discounts, gains / denominator, hits / denominator, relevant, hits, precision, denominator)


def precision_at_k(relevances, k, threshold=1, adaptive_k=False, negative="raise"):
    """Precision at k: the share of the top ``k`` positions that hold a relevant item.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
    k : int
        Cut-off (required).
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
    grades, k, threshold = checked_binary(relevances, k, threshold, negative, k_required=True)
    return precision_steps(grades, k, threshold, adaptive_k).total


def recall_steps(grades, k, threshold, n_relevant=None):
    """Steps of R@k: each relevant item in the top ``k`` adds ``1 / n_relevant``."""
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    total = check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum()))
    gains = relevant.astype(np.float64)
    if total == 0:
        zeros = np.zeros(hits.size)
        return Steps(grades[:k], gains, zeros, zeros, zeros, relevant, hits, precision, 0)
    discounts = np.full(hits.size, 1.0 / total)
    return Steps(grades[:k], gains, discounts, gains / total, hits / total, relevant, hits, precision, total)


def recall_at_k(relevances, k, threshold=1, n_relevant=None, negative="raise"):
    """Recall at k: the share of the query's relevant items found in the top ``k``.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
    k : int
        Cut-off (required).
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
    grades, k, threshold = checked_binary(relevances, k, threshold, negative, k_required=True)
    return recall_steps(grades, k, threshold, n_relevant).total
