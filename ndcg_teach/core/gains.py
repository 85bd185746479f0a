"""Gain: how much a grade is worth before any discount.

Two gains are in use. The linear gain is the grade itself (trec_eval,
scikit-learn, ranx ``ndcg``). The exponential gain ``2**grade - 1`` (Burges et
al., 2005) rewards highly relevant items much more. They agree exactly when
every grade is 0 or 1. Lesson 02 teaches both.
"""

from collections.abc import Mapping

import numpy as np

from ..i18n import _, gettext, mark
from .trec_gains import TrecGains
from .validation import check_choice, check_finite_total, shown

GAIN_CHOICES = ("linear", "exponential")
# How a control shows each choice.
GAIN_LABELS = {"linear": "rel", "exponential": "2^rel − 1"}
# 2**1024 is the first power of two float64 cannot hold.
EXPONENTIAL_LIMIT = 1024


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

    From grade 1024 on, ``2**rel`` is beyond float64 (about 1.8e308): such a
    grade is refused rather than turned into an infinite gain.

    Examples
    --------
    >>> exponential_gain(np.array([5.0, 2.0, 0.0]))
    array([31.,  3.,  0.])
    >>> exponential_gain(np.array([1030.0, 1.0]))
    Traceback (most recent call last):
    ...
    ValueError: gain='exponential' needs grades below 1024: 2**grade - 1 is beyond float64 (about 1.8e308) from grade 1024 on. Got grade 1030 instead.
    """
    grades = np.asarray(grades, dtype=np.float64)
    if grades.size and grades.max() >= EXPONENTIAL_LIMIT:
        raise ValueError(
            gettext("gain='exponential' needs grades below {EXPONENTIAL_LIMIT}: 2**grade - 1 is beyond float64 "
                    "(about 1.8e308) from grade {EXPONENTIAL_LIMIT} on. Got grade {top:g} instead.")
                   .format(EXPONENTIAL_LIMIT=EXPONENTIAL_LIMIT, top=grades.max())
        )
    return np.exp2(grades) - 1.0


def _mapped(grades, gain):
    """Gains looked up in a ``{grade: gain}`` map (trec_eval's ``-m ndcg.1=3.5,2=9.0``, ir_measures' ``gains=``)."""
    table = {}
    for grade, value in gain.items():
        if isinstance(grade, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, bool) \
                or not np.isfinite(value) or value < 0:
            raise ValueError(gettext("gain, when a mapping, must map grades to finite, non-negative gains. Got "
                                     "{got} instead.").format(got=shown(dict(gain))))
        table[float(grade)] = float(value)
    missing = sorted({float(g) for g in np.ravel(grades)} - set(table))
    if missing:
        raise ValueError(
            gettext("gain, when a mapping, must give a gain for every grade; grade {grade:g} has none. Got {got} "
                    "instead.").format(grade=missing[0], got=shown(dict(gain)))
        )
    return np.array([table[float(g)] for g in np.ravel(grades)], dtype=np.float64).reshape(np.shape(grades))


def gain_values(grades, gain="linear"):
    """Gains of ``grades`` under ``gain``: "linear", "exponential", a ``{grade: gain}`` mapping or a callable.

    A mapping must name every grade that occurs. A callable receives the
    grades as a float64 array and must return one finite, non-negative gain
    per grade. Gains need not rise with the grade: the ideal order sorts by
    gain (see :func:`ideal_grades`).

    Examples
    --------
    >>> gain_values(np.array([3.0, 1.0]), "exponential")
    array([7., 1.])
    >>> gain_values(np.array([3.0, 1.0]), lambda g: g ** 2)
    array([9., 1.])
    >>> gain_values(np.array([2.0, 1.0, 0.0]), {0: 0, 1: 4, 2: 2})  # grade 1 is worth more than grade 2
    array([2., 4., 0.])
    """
    if isinstance(gain, TrecGains):
        raise TypeError(gettext("gain must be 'linear', 'exponential', a {{grade: gain}} mapping or a function; "
                                "trec_eval's gain maps ({got}) follow trec_eval's own rules (unjudged items, its "
                                "sort of the levels): pass them to trec_ndcg(..., gains=), or name them in evaluate "
                                "('ndcg.1=3,2=9'). Got {got} instead.").format(got=shown(gain)))
    if isinstance(gain, Mapping):
        values = _mapped(grades, gain)
    elif callable(gain):
        try:
            values = np.asarray(gain(np.asarray(grades, dtype=np.float64)), dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(gettext("gain, when a function, must map an array of grades to numbers; it raised "
                                     "{error!r}. Got {got} instead.").format(error=error, got=shown(gain))) from None
        if values.shape != np.shape(grades) or not np.isfinite(values).all() or (values < 0).any():
            raise ValueError(
                gettext("gain, when a function, must return one finite, non-negative gain per grade. Got "
                        "{values} for grades {got} instead.").format(values=shown(values),
                                                                     got=shown(np.asarray(grades)))
            )
    elif not isinstance(gain, str):
        raise TypeError(gettext("gain must be 'linear', 'exponential', a {{grade: gain}} mapping or a function. "
                                "Got {got} instead.").format(got=shown(gain)))
    elif check_choice("gain", gain, GAIN_CHOICES) == "linear":
        return linear_gain(grades)  # the grades' own sum was checked with them
    else:
        values = exponential_gain(grades)
    what = mark("exponential gains (2**grade - 1)") if isinstance(gain, str) else mark("gains")
    return check_finite_total("relevances", values, np.asarray(grades), what)


def ideal_grades(grades, gain="linear", k=None):
    """``grades`` in the ideal order, cut at ``k``: the order whose gains fall, so no order has a higher DCG.

    Sorting by gain, not by grade, matters when a mapped or custom gain does
    not rise with the grade. Equal gains keep the higher grade first. A 2-D
    array is sorted row by row (one query per row).

    Examples
    --------
    >>> ideal_grades(np.array([1.0, 3.0, 2.0]))
    array([3., 2., 1.])
    >>> ideal_grades(np.array([1.0, 2.0]), {1: 4, 2: 2})  # grade 1 is worth more
    array([1., 2.])
    """
    grades = np.asarray(grades, dtype=np.float64)
    if isinstance(gain, str) and gain in GAIN_CHOICES:
        # Both built-in gains rise with the grade, so falling gain is falling grade.
        return -np.sort(-grades, axis=-1)[..., :k]
    order = np.lexsort((-grades, -gain_values(grades, gain)), axis=-1)
    return np.take_along_axis(grades, order, axis=-1)[..., :k]


def gain_symbol(gain, grade):
    """How the gain of ``grade`` is written in a formula: ``5``, ``(2^5-1)``, or ``g(5)`` for a custom gain."""
    text = f"{grade:g}"
    if callable(gain) or isinstance(gain, Mapping):
        return f"g({text})"
    return text if gain == "linear" else f"(2^{text}-1)"


def gain_name(gain):
    """Short description of a gain for trace headers."""
    if isinstance(gain, Mapping):
        pairs = ", ".join(f"g({float(grade):g}) = {float(value):g}" for grade, value in sorted(gain.items()))
        return _("gain map: {pairs}").format(pairs=pairs)
    if callable(gain):
        return _("custom gain {name}").format(name=getattr(gain, "__name__", "function"))
    return _({"linear": mark("linear gain (rel)"), "exponential": mark("exponential gain (2^rel - 1)")}[gain])
