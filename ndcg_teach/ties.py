"""Scores to ranks: ``ndcg_score`` in scikit-learn's shapes, with an explicit tie policy.

A model gives scores, not a ranking. When two items get the same score the
order between them is undecided, and libraries settle it differently:

* ``"average"``: every order of a tied group counts equally, so each item
  of the group gets the group's mean gain at each of its positions
  (McSherry and Najork, 2008; scikit-learn's default);
* ``"optimistic"``: ties broken with the more relevant item first (an upper bound);
* ``"pessimistic"``: ties broken with the less relevant item first (a lower bound);
* ``"stable"``: ties keep their input order (ranx, pandas' stable sort).

trec_eval breaks ties by document id, descending, which is none of these.
Lesson 08 compares them.
"""

import numpy as np

from .discounts import discount_values
from .gains import gain_values
from .metrics.dcg import dcg_steps, ideal_steps, normalise
from .validation import check_choice, check_k, check_score_arrays, check_zero_idcg

TIE_CHOICES = ("average", "optimistic", "pessimistic", "stable")


def ranked_by_score(true, score, ties):
    """Grades of one query in ranked order under a tie-breaking policy (not "average")."""
    if ties == "stable":
        order = np.argsort(-score, kind="stable")
    else:
        # lexsort sorts by the last key first: score descending, then grade.
        secondary = -true if ties == "optimistic" else true
        order = np.lexsort((secondary, -score))
    return true[order]


def tie_averaged_dcg(true, score, k, gain, discount, log_base):
    """DCG where each group of tied scores shares its mean gain over the group's positions."""
    n = true.size
    order = np.argsort(-score, kind="stable")
    gains = gain_values(true[order], gain)
    discounts = discount_values(n, discount, log_base)
    if k is not None:
        discounts[k:] = 0.0
    _, starts = np.unique(-score[order], return_index=True)
    sizes = np.diff(np.append(starts, n))
    group_gain = np.add.reduceat(gains, starts) / sizes
    return float(np.dot(group_gain, np.add.reduceat(discounts, starts)))


def query_ndcg(true, score, k, gain, ties, discount="log2", log_base=2, zero_idcg=0.0):
    """NDCG of one query from its grades and scores; the ideal comes from the grades themselves."""
    if ties == "average":
        dcg_value = tie_averaged_dcg(true, score, k, gain, discount, log_base)
    else:
        dcg_value = dcg_steps(ranked_by_score(true, score, ties), k, gain, discount, log_base).total
    return normalise(dcg_value, ideal_steps(true, k, gain, discount, log_base, None).total, zero_idcg)


def ndcg_score(y_true, y_score, k=None, *, gain="linear", discount="log2", log_base=2, zero_idcg=0.0, ties="average"):
    """NDCG from true grades and model scores, averaged over queries.

    Accepts scikit-learn's shapes (2-D: one row per query) and also a single
    query as two 1-D arrays, which scikit-learn refuses. As in scikit-learn,
    the ideal ranking is built from each row of ``y_true`` and a row whose
    ideal DCG is 0 scores 0.0.

    Parameters
    ----------
    y_true : array-like of shape (n_items,) or (n_queries, n_items)
        Non-negative relevance grades.
    y_score : array-like of the same shape
        Model scores; higher means ranked higher.
    k : int or None, default None
        Cut-off; None uses every item.
    gain : {"linear", "exponential"}, mapping or callable, default "linear"
        scikit-learn uses "linear"; see :func:`~ndcg_teach.dcg`.
    discount : {"log2", "jarvelin"}, default "log2"
        As in :func:`~ndcg_teach.dcg`.
    log_base : float, default 2
        As in :func:`~ndcg_teach.dcg`; it does not change NDCG under "log2".
    zero_idcg : float or "raise", default 0.0
        The value of a query whose ideal DCG is 0 (scikit-learn: 0.0).
    ties : {"average", "optimistic", "pessimistic", "stable"}, default "average"
        How equal scores are ordered; "average" is scikit-learn's default.

    Returns
    -------
    float
        The mean NDCG over queries.

    See Also
    --------
    ndcg : the same metric for a list already in ranked order. Lesson 08.

    Examples
    --------
    >>> round(ndcg_score([3, 2, 1], [0.9, 0.5, 0.5]), 4)  # items 2 and 3 tied: their order is averaged
    0.9863
    >>> round(ndcg_score([3, 2, 1], [0.9, 0.5, 0.5], ties="pessimistic"), 4)
    0.9725
    >>> round(ndcg_score([[3, 2, 1], [0, 1, 0]], [[3, 2, 1], [1, 0, 2]]), 4)  # (1.0 + 0.5) / 2
    0.75
    """
    true, score = check_score_arrays(y_true, y_score)
    k = check_k(k)
    check_choice("ties", ties, TIE_CHOICES)
    zero_idcg = check_zero_idcg(zero_idcg)
    gain_values(true[0], gain)  # refuses a bad gain before any work
    discount_values(1, discount, log_base)  # and a bad discount or base
    return float(np.mean([query_ndcg(t, s, k, gain, ties, discount, log_base, zero_idcg) for t, s in zip(true, score)]))
