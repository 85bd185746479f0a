"""Average precision (AP): precision measured at every relevant item, averaged.

Lesson 05 teaches AP, MAP and the denominators in use.
"""

import numpy as np

from .binary import checked_binary, hit_arrays
from .steps import Steps
from .validation import check_n_relevant


def average_precision_steps(grades, k, threshold, n_relevant=None):
    """Steps of AP: each relevant position adds its precision ``/ denominator``."""
    relevant, hits, precision = hit_arrays(grades, k, threshold)
    denominator = check_n_relevant(n_relevant, int(hits[-1]) if hits.size else 0)
    gains = relevant.astype(np.float64)
    if denominator == 0:
        zeros = np.zeros(hits.size)
        return Steps(grades[:k], gains, zeros, zeros, zeros, relevant, hits, precision, 0)
    picked = np.where(relevant, precision, 0.0)
    discounts = np.full(hits.size, 1.0 / denominator)
    return Steps(grades[:k], gains, discounts, picked / denominator, np.cumsum(picked) / denominator, relevant, hits, precision,
                 denominator)


def average_precision(relevances, k=None, threshold=1, n_relevant=None, negative="raise"):
    """Average precision: the mean of P@i over the positions i that hold a relevant item.

    ``AP = (sum over relevant positions i <= k of P@i) / denominator``. Three
    denominators are in use, and they give different numbers:

    * relevant items retrieved in the top ``k`` (default, ``n_relevant=None``):
      torchmetrics, and the AP formula of the document 003 notes;
    * every relevant item of the query, retrieved or not
      (``n_relevant=R``): trec_eval ``map``, ranx; a missed relevant item
      then counts as precision 0;
    * ``min(R, k)`` (``n_relevant=min(R, k)``): recommenders ``map_at_k``.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
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
    grades, k, threshold = checked_binary(relevances, k, threshold, negative, k_required=False)
    return average_precision_steps(grades, k, threshold, n_relevant).total
