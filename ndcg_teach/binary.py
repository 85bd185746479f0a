"""From graded relevance to relevant / not relevant, and the hits that follow.

P@k, R@k, AP and RR only ask whether an item is relevant. A grade counts as
relevant when it is ``>= threshold`` (1 by default, as in trec_eval's
``relevance_level``). Lesson 04 shows how the threshold changes every answer.
"""

import numpy as np

from .validation import check_k, check_relevances, check_threshold


def relevant_flags(grades, threshold):
    """Boolean array: which grades count as relevant at ``threshold``."""
    return grades >= threshold


def hit_arrays(grades, k, threshold):
    """``(relevant, hits, precision)`` for the first ``min(k, n)`` positions.

    ``hits[i]`` counts the relevant items in positions ``1..i+1`` and
    ``precision[i] = hits[i] / (i + 1)``.
    """
    relevant = relevant_flags(grades[:k], threshold)
    hits = np.cumsum(relevant, dtype=np.int64)
    precision = hits / np.arange(1, hits.size + 1, dtype=np.float64)
    return relevant, hits, precision


def checked_binary(relevances, k, threshold, negative):
    """Checked ``(grades, k, threshold)`` for a binary metric."""
    return check_relevances(relevances, negative), check_k(k), check_threshold(threshold)


def last_hits(steps):
    """Relevant items in the positions a binary trace shows (0 for an empty list)."""
    return int(steps.hits[-1]) if steps.hits.size else 0
