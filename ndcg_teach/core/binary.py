"""From graded relevance to relevant / not relevant, and the hits that follow.

P@k, R@k, AP and RR only ask whether an item is relevant. A grade counts as
relevant when it is ``>= threshold`` (1 by default, as in trec_eval's
``relevance_level``). Lesson 04 shows how the threshold changes every answer.
"""

import numpy as np

from .validation import check_k, check_relevances, check_threshold, shown
from ..i18n import gettext


def relevant_flags(grades, threshold):
    """Boolean array: which grades count as relevant at ``threshold``."""
    return grades >= threshold


def hit_arrays(grades, k, threshold):
    """``(relevant, hits, precision)`` for the first ``min(k, n)`` positions.

    ``hits[i]`` counts the relevant items in positions ``1..i+1`` and
    ``precision[i] = hits[i] / (i + 1)``. ``grades`` may be 2-D, one query
    per row (padded with 0, which is never relevant since ``threshold > 0``).
    """
    relevant = relevant_flags(grades[..., :k], threshold)
    hits = np.cumsum(relevant, axis=-1, dtype=np.int64)
    precision = hits / np.arange(1, hits.shape[-1] + 1, dtype=np.float64)
    return relevant, hits, precision


def checked_binary(relevances, k, threshold, negative):
    """Checked ``(grades, k, threshold)`` for a binary metric."""
    return check_relevances(relevances, negative), check_k(k), check_threshold(threshold)


def divided(numerators, denominators):
    """``numerators / denominators`` row by row, 0 where a denominator is 0 (nothing to divide by).

    ``denominators`` is one number (one query) or one per row of ``numerators``.

    Examples
    --------
    >>> divided(np.array([[1, 2], [1, 1]]), np.array([4, 0]))
    array([[0.25, 0.5 ],
           [0.  , 0.  ]])
    """
    numerators = np.asarray(numerators, dtype=np.float64)
    denominators = np.asarray(denominators, dtype=np.float64)
    if denominators.ndim:
        denominators = denominators[:, np.newaxis]
    safe = np.where(denominators > 0, denominators, 1.0)
    return np.where(denominators > 0, numerators / safe, 0.0)


def batch_denominators(n_relevant, found):
    """Per-query ``n_relevant`` as an int array (``found`` where None), refusing one below what the list holds."""
    if n_relevant is None:
        return found
    n_relevant = np.asarray(n_relevant)
    if n_relevant.shape != found.shape or n_relevant.dtype.kind not in "iu":
        raise TypeError(gettext("n_relevant must hold one whole number per query ({size}). Got {got} instead.")
                               .format(size=found.size, got=shown(n_relevant)))
    short = np.flatnonzero(n_relevant < found)
    if short.size:
        query = int(short[0])
        raise ValueError(gettext("query {query}: n_relevant must be at least the number of relevant items "
                                 "already in the list ({found}). Got {n_relevant} instead.")
                                .format(query=query + 1, found=int(found[query]), n_relevant=int(n_relevant[query])))
    return n_relevant


def last_hits(steps):
    """Relevant items in the positions a binary trace shows (0 for an empty list)."""
    return int(steps.hits[-1]) if steps.hits.size else 0
