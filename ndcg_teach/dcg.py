"""Cumulative gain and its discounted and normalised forms: CG, DCG, IDCG, NDCG.

Every public function here is a thin layer over :func:`dcg_steps`, which keeps
each position's grade, gain, discount, contribution and running total. The
``explain_*`` functions build their tables from the same steps, so a number and
its explanation can never disagree. Lessons 01 to 03 teach these functions.
"""

import numpy as np

from .discounts import discount_values
from .gains import gain_values
from .steps import Steps
from .validation import check_k, check_pool, check_relevances, check_zero_idcg


def dcg_steps(grades, k=None, gain="linear", discount="log2", log_base=2):
    """Steps of the DCG of already-checked ``grades`` (float64 array) cut at ``k``."""
    grades = grades[:k]
    gains = gain_values(grades, gain)
    discounts = discount_values(grades.size, discount, log_base)
    contributions = gains * discounts
    return Steps(grades, gains, discounts, contributions, np.cumsum(contributions))


def cg_steps(grades, k=None):
    """Steps of the CG of already-checked ``grades``: every position counts in full."""
    grades = grades[:k]
    return Steps(grades, grades, np.ones(grades.size), grades, np.cumsum(grades))


def ideal_grades(grades, pool=None, k=None):
    """Grades in the ideal order: every judged grade (``pool``, or the list itself) sorted best first, cut at ``k``."""
    source = grades if pool is None else pool
    return np.sort(source)[::-1][:k]


def _checked(relevances, k, negative):
    return check_relevances(relevances, negative), check_k(k)


def _checked_pool(pool, grades, negative):
    return None if pool is None else check_pool(pool, grades, negative)


def cg(relevances, k=None, negative="raise"):
    """Cumulative gain: the sum of the grades in the top ``k`` positions.

    CG ignores order: any shuffle of the same top ``k`` grades has the same CG.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
    k : int or None, default None
        Cut-off; None sums the whole list.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    See Also
    --------
    explain_cg : the same number with every step shown. Lesson 01 teaches CG.

    Examples
    --------
    >>> cg([5, 2, 3])  # 5 + 2 + 3
    10.0
    >>> cg([2, 3, 5]) == cg([5, 2, 3])  # order does not matter
    True
    >>> cg([5, 2, 3], k=2)  # 5 + 2
    7.0
    """
    grades, k = _checked(relevances, k, negative)
    return cg_steps(grades, k).total


def dcg(relevances, k=None, gain="linear", discount="log2", log_base=2, negative="raise"):
    """Discounted cumulative gain of the top ``k`` positions.

    ``DCG@k = sum_{i=1..k} gain(rel_i) * discount(i)``; positions beyond the
    end of the list add 0.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
    k : int or None, default None
        Cut-off; None uses the whole list.
    gain : {"linear", "exponential"} or callable, default "linear"
        "linear" is ``rel`` (trec_eval, scikit-learn); "exponential" is
        ``2**rel - 1`` (Burges et al.); a callable maps an array of grades to gains.
    discount : {"log2", "jarvelin"}, default "log2"
        "log2" multiplies position ``i`` by ``1/log_b(i+1)``; "jarvelin" is the
        original form: no discount before position ``b``, ``1/log_b(i)`` after.
    log_base : float, default 2
        The base ``b``. It scales DCG but never changes NDCG under "log2".
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    See Also
    --------
    explain_dcg : every step of the sum. Lesson 02 teaches DCG.

    Examples
    --------
    >>> round(dcg([5, 2, 3]), 4)  # 5/log2(2) + 2/log2(3) + 3/log2(4) = 5 + 1.2619 + 1.5
    7.7619
    >>> round(dcg([5, 2, 3], gain="exponential"), 4)  # 31/1 + 3/1.585 + 7/2
    36.3928
    >>> round(dcg([5, 2, 3], discount="jarvelin"), 4)  # 5 + 2/log2(2) + 3/log2(3)
    8.8928
    """
    grades, k = _checked(relevances, k, negative)
    return dcg_steps(grades, k, gain, discount, log_base).total


def idcg(relevances, k=None, gain="linear", discount="log2", log_base=2, pool=None, negative="raise"):
    """Ideal DCG: the DCG of the best possible order of the judged items.

    Two choices are in use for which items the ideal is built from:

    * ``pool=None`` (default): the ranked list itself, sorted best first, as
      scikit-learn and torchmetrics do. A list that misses a highly relevant
      item can then still reach NDCG = 1.
    * ``pool=[...]``: the grades of every judged item of the query, retrieved
      or not, as trec_eval, ranx and recommenders do. This is the stricter and
      usually the right choice: missing a relevant item costs NDCG. The ideal
      list then runs to ``k`` even when the ranked list is shorter.

    Parameters
    ----------
    relevances, k, gain, discount, log_base, negative
        As in :func:`dcg`.
    pool : sequence of float or None, default None
        Grades of all judged items of the query. It must contain every
        positive grade of ``relevances``.

    Returns
    -------
    float

    See Also
    --------
    explain_idcg. Lesson 03 teaches the ideal ranking.

    Examples
    --------
    >>> round(idcg([5, 2, 3]), 4)  # ideal order [5, 3, 2]: 5 + 3/log2(3) + 2/log2(4)
    7.8928
    >>> round(idcg([5, 2, 3], k=3, pool=[5, 4, 3, 2]), 4)  # a grade-4 item was judged, not retrieved
    9.0237
    """
    grades, k = _checked(relevances, k, negative)
    pool = _checked_pool(pool, grades, negative)
    return dcg_steps(ideal_grades(grades, pool, k), k, gain, discount, log_base).total


def normalise(dcg_value, idcg_value, zero_idcg):
    """``dcg_value / idcg_value``, or ``zero_idcg`` when the ideal is 0."""
    if idcg_value > 0:
        return dcg_value / idcg_value
    if zero_idcg == "raise":
        raise ValueError(
            "IDCG is 0 (no judged item has a positive gain), so NDCG = DCG / IDCG is undefined. "
            "Pass zero_idcg=0.0 (scikit-learn, trec_eval) or zero_idcg=1.0 (LightGBM) to choose a value. Got zero_idcg='raise' instead."
        )
    return zero_idcg


def ndcg(relevances, k=None, gain="linear", discount="log2", log_base=2, pool=None, zero_idcg=0.0, negative="raise"):
    """Normalised DCG: ``DCG@k / IDCG@k``, between 0 and 1.

    Parameters
    ----------
    relevances, k, gain, discount, log_base, negative
        As in :func:`dcg`.
    pool : sequence of float or None, default None
        Grades of all judged items of the query; see :func:`idcg`.
    zero_idcg : float or "raise", default 0.0
        The value when IDCG is 0 (nothing relevant to find): 0.0 as in
        scikit-learn and trec_eval, 1.0 as in LightGBM and allRank, or
        "raise" to refuse.

    Returns
    -------
    float

    See Also
    --------
    explain_ndcg : DCG and IDCG side by side. Lesson 03 teaches NDCG.

    Examples
    --------
    >>> round(ndcg([5, 2, 3]), 4)  # 7.7619 / 7.8928
    0.9834
    >>> round(ndcg([4, 5, 2, 3, 1], gain="exponential"), 4)
    0.8645
    >>> ndcg([0, 0, 0])  # nothing relevant: scikit-learn's and trec_eval's 0.0
    0.0
    """
    grades, k = _checked(relevances, k, negative)
    pool = _checked_pool(pool, grades, negative)
    zero_idcg = check_zero_idcg(zero_idcg)
    dcg_value = dcg_steps(grades, k, gain, discount, log_base).total
    idcg_value = dcg_steps(ideal_grades(grades, pool, k), k, gain, discount, log_base).total
    return normalise(dcg_value, idcg_value, zero_idcg)
