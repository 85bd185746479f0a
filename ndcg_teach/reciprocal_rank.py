"""Reciprocal rank (RR): one over the position of the first relevant item.

Lesson 05 teaches RR and its mean over queries (MRR).
"""

import numpy as np

from .binary import checked_binary, hit_arrays
from .steps import Steps


def reciprocal_rank_steps(grades, k, threshold):
    """Steps of RR: only the first relevant position contributes ``1 / position``."""
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    first = relevant & (hits == 1)
    discounts = 1.0 / np.arange(1, hits.size + 1, dtype=np.float64)
    contributions = np.where(first, discounts, 0.0)
    return Steps(grades[:k], first.astype(np.float64), discounts, contributions, np.cumsum(contributions), relevant, hits, precision)


def reciprocal_rank(relevances, k=None, threshold=1, negative="raise"):
    """Reciprocal rank: ``1 / position`` of the first relevant item in the top ``k``, else 0.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
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
    grades, k, threshold = checked_binary(relevances, k, threshold, negative, k_required=False)
    return reciprocal_rank_steps(grades, k, threshold).total
