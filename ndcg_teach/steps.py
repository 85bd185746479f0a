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
