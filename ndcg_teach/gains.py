"""Gain: how much a grade is worth before any discount.

Two gains are in use. The linear gain is the grade itself (trec_eval,
scikit-learn, ranx ``ndcg``). The exponential gain ``2**grade - 1`` (Burges et
al., 2005) rewards highly relevant items much more. They agree exactly when
every grade is 0 or 1. Lesson 02 teaches both.
"""

import numpy as np

from .validation import check_choice, shown

GAIN_CHOICES = ("linear", "exponential")


def linear_gain(grades):
    """Gain equal to the grade: ``gain = rel``.

    Examples
    --------
    >>> linear_gain(np.array([5.0, 2.0, 3.0]))
    array([5., 2., 3.])
    """
    return np.asarray(grades, dtype=np.float64).copy()


def exponential_gain(grades):
    """Gain ``2**rel - 1``: grade 3 is worth 7, grade 5 is worth 31.

    Examples
    --------
    >>> exponential_gain(np.array([5.0, 2.0, 0.0]))
    array([31.,  3.,  0.])
    """
    return np.exp2(np.asarray(grades, dtype=np.float64)) - 1.0


def gain_values(grades, gain="linear"):
    """Gains of ``grades`` under ``gain``: "linear", "exponential" or a callable.

    A callable receives the grades as a float64 array and must return one
    finite, non-negative gain per grade.

    Examples
    --------
    >>> gain_values(np.array([3.0, 1.0]), "exponential")
    array([7., 1.])
    >>> gain_values(np.array([3.0, 1.0]), lambda g: g ** 2)
    array([9., 1.])
    """
    if callable(gain):
        try:
            values = np.asarray(gain(np.asarray(grades, dtype=np.float64)), dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(f"gain, when a function, must map an array of grades to numbers; it raised {error!r}. Got {shown(gain)} instead.") from None
        if values.shape != np.shape(grades) or not np.isfinite(values).all() or (values < 0).any():
            raise ValueError(
                "gain, when a function, must return one finite, non-negative gain per grade. "
                f"Got {shown(values)} for grades {shown(np.asarray(grades))} instead."
            )
        return values
    check_choice("gain", gain, GAIN_CHOICES)
    return linear_gain(grades) if gain == "linear" else exponential_gain(grades)


def gain_symbol(gain, grade):
    """How the gain of ``grade`` is written in a formula: ``5`` or ``(2^5-1)``."""
    text = f"{grade:g}"
    if callable(gain):
        return f"g({text})"
    return text if gain == "linear" else f"(2^{text}-1)"


def gain_name(gain):
    """Short description of a gain for trace headers."""
    if callable(gain):
        return f"custom gain {getattr(gain, '__name__', 'function')}"
    return {"linear": "linear gain (rel)", "exponential": "exponential gain (2^rel - 1)"}[gain]
