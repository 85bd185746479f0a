"""The per-position record every metric is computed from.

A metric's value is the last running total of its steps, and its ``explain_*``
table is built from the same arrays, so a number and its explanation agree by
construction.
"""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Steps:
    """Per-position arrays behind one metric, for the first ``min(k, n)`` positions.

    The arrays are 1-D for one query, or 2-D (one row per query, position
    along the last axis) when many queries are computed at once. Each field
    means the same for every metric; a metric leaves None what it does not
    have (and keeps anything of its own, such as ERR's stop probabilities,
    beside its steps).

    Attributes
    ----------
    grades : numpy.ndarray
        The grades at the positions counted.
    contributions : numpy.ndarray
        What each position adds to the value.
    running : numpy.ndarray
        The running sum of the contributions: its last entry is the value.
    gains : numpy.ndarray or None
        What each item is worth before its position counts: the gain of its
        grade (CG, DCG), 1 or 0 for relevant or not (binary metrics); None for
        a metric whose items are not worth a fixed amount each (RR, ERR).
    discounts : numpy.ndarray or None
        The weight of each position, a function of the position alone:
        ``1/log2(i+1)`` (DCG), ``1/i`` (RR, ERR), ``p^(i-1)`` (RBP); None
        when positions are not discounted (P@k, R@k, AP).
    relevant, hits, precision : numpy.ndarray or None
        Binary metrics: whether each item is relevant, the relevant items up
        to each position, and P@i.
    denominator : int, numpy.ndarray or None
        What the contributions were divided by: k (P@k), R (R@k, AP), one per
        row for a batch.
    """

    grades: np.ndarray
    contributions: np.ndarray
    running: np.ndarray
    gains: np.ndarray = None
    discounts: np.ndarray = None
    relevant: np.ndarray = None
    hits: np.ndarray = None
    precision: np.ndarray = None
    denominator: int = None

    @property
    def total(self):
        # Sums run left to right, so the last running total is the value itself.
        return float(self.running[-1]) if self.running.size else 0.0

    @property
    def totals(self):
        """One value per query (the last running total of each row); 0 for rows with no position."""
        if self.running.shape[-1] == 0:
            return np.zeros(self.running.shape[:-1])
        return self.running[..., -1]
