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
    along the last axis) when many queries are computed at once.

    ``relevant``, ``hits`` and ``precision`` are filled by the binary metrics
    (P@k, R@k, AP, RR) and are None for the graded ones; ``denominator`` is
    what P@k, R@k and AP divide by.
    """

    grades: np.ndarray
    gains: np.ndarray
    discounts: np.ndarray
    contributions: np.ndarray
    running: np.ndarray
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
