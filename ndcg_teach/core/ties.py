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
    """Grades in ranked order under a tie-breaking policy (not "average"), row by row when 2-D."""
    if ties == "stable":
        order = np.argsort(-score, axis=-1, kind="stable")
    else:
        # lexsort sorts by the last key first: score descending, then grade.
        secondary = -true if ties == "optimistic" else true
        order = np.lexsort((secondary, -score), axis=-1)
    return np.take_along_axis(true, order, axis=-1)


def tie_averaged_dcg(true, score, k, gain, discount, log_base):
    """DCG where each group of tied scores shares its mean gain over the group's positions.

    ``true`` and ``score`` are one query (1-D) or one query per row (2-D).
    Only the first ``k`` positions are discounted, so only the groups that
    reach into them matter. A group that lies inside the top ``k`` gets its
    mean from the running sum of the ranked gains; the group at position
    ``k`` may run on below it, so its mean is taken over every item of the
    row with that score.
    """
    single = true.ndim == 1
    true, score = np.atleast_2d(true), np.atleast_2d(score)
    n = true.shape[1]
    cut = n if k is None else min(k, n)
    discounts = discount_values(cut, discount, log_base)
    order = np.argsort(-score, axis=-1)[:, :cut + 1]  # any order inside a tied group gives the same average
    extended = np.take_along_axis(score, order, axis=-1)  # the top k and the next score
    head, order = extended[:, :cut], order[:, :cut]
    gains = gain_values(np.take_along_axis(true, order, axis=-1), gain)
    starts = np.ones(head.shape, dtype=bool)  # starts[:, i]: a group of tied scores begins at position i
    starts[:, 1:] = head[:, 1:] != head[:, :-1]
    if starts.all() and (extended.shape[1] == cut or (extended[:, cut] != head[:, -1]).all()):  # no tie reaches the top k
        values = gains @ discounts
        return float(values[0]) if single else values
    positions = np.arange(cut + 1)
    running = np.zeros((head.shape[0], cut + 1))
    np.cumsum(gains, axis=-1, out=running[:, 1:])
    first = np.maximum.accumulate(np.where(starts, positions[:cut], 0), axis=-1)
    after = np.where(starts[:, 1:], positions[1:cut], cut)
    end = np.minimum.accumulate(np.concatenate([after, np.full((head.shape[0], 1), cut)], axis=-1)[:, ::-1], axis=-1)[:, ::-1]
    mean_gain = (np.take_along_axis(running, end, axis=-1) - np.take_along_axis(running, first, axis=-1)) / (end - first)
    # The group at position k: every item of the row with its score, wherever the sort put it.
    in_last = score == head[:, -1:]
    last_mean = np.where(in_last, gain_values(true, gain), 0.0).sum(axis=-1) / in_last.sum(axis=-1)
    mean_gain = np.where(end == cut, last_mean[:, np.newaxis], mean_gain)
    values = mean_gain @ discounts
    return float(values[0]) if single else values


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
    zero_idcg : float from 0 to 1, "nan" or "raise", default 0.0
        The value of a query whose ideal DCG is 0 (scikit-learn: 0.0), as in :func:`~ndcg_teach.ndcg`.
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
    # Every query at once: one row per query, the same steps as ndcg() (see ndcg_teach.core.metrics.dcg and .ndcg).
    if ties == "average":
        dcg_values = tie_averaged_dcg(true, score, k, gain, discount, log_base)
    else:
        dcg_values = dcg_steps(ranked_by_score(true, score, ties), k, gain, discount, log_base).totals
    return float(np.mean(normalise(dcg_values, ideal_steps(true, k, gain, discount, log_base, None).totals, zero_idcg)))
