"""Gain: how much a grade is worth before any discount.

Two gains are in use. The linear gain is the grade itself (trec_eval,
scikit-learn, ranx ``ndcg``). The exponential gain ``2**grade - 1`` (Burges et
al., 2005) rewards highly relevant items much more. They agree exactly when
every grade is 0 or 1. Lesson 02 teaches both.
"""

from collections.abc import Mapping

import numpy as np

from .i18n import _, gettext, mark
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
    if isinstance(gain, TrecGains) and grades.ndim == 1:  # trec_eval's own order (see TrecGains.ideal_levels)
        return gain.ideal_levels(grades)[:k]
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


class TrecGains:
    """trec_eval's gains by relevance level (``-m ndcg.1=3,2=9``): each level named gets its value, every other level
    keeps its own number as its gain, as trec_eval's ``setup_gains`` does. A function of the grades, for ``gain=``.

    ``pairs`` maps level names to gains as trec_eval reads them (``{"1": 3.0}``; a name that is not a whole number
    is level 0, as C's ``atol`` reads it: trec_eval 10's ``rbp.p=0.8`` also gives level 0 the gain 0.8); ``pairs``
    keeps them as given.

    Examples
    --------
    >>> gains = TrecGains({"1": 3.0, "4": 4.5})
    >>> gains(np.array([0.0, 1.0, 2.0, 4.0]))
    array([0. , 3. , 2. , 4.5])
    >>> gains.__name__
    'trec_eval gains 1=3,4=4.5'
    """

    def __init__(self, pairs):
        from .trec_files import c_number

        self.pairs = {str(name): float(value) for name, value in pairs.items()}
        self.levels = {}
        for name, value in pairs.items():
            level = c_number(str(name).encode(), integer=True)
            self.levels[float(level or 0)] = float(value)
        self.__name__ = "trec_eval gains " + ",".join(f"{name}={float(value):g}" for name, value in pairs.items())

    @classmethod
    def of(cls, value, name, example):
        """``value`` (None, a ``{name: value}`` mapping or TrecGains) as TrecGains; ``name`` and ``example`` word
        the refusal.

        >>> TrecGains.of({"1": 3}, "gains", "{1: 3.5}").levels
        {1.0: 3.0}
        """
        if value is None or isinstance(value, Mapping):
            return cls(value or {})
        if isinstance(value, TrecGains):
            return value
        raise TypeError(gettext("{name} must be None, a mapping such as {example} or TrecGains. Got {got} "
                                "instead.").format(name=name, example=example, got=shown(value)))

    def ideal_levels(self, grades):
        """The judged ``grades`` (every level >= 0 of the query) in the order of trec_eval's ideal ranking.

        trec_eval sorts its levels by gain with ``qsort`` and the comparison
        ``(int) (gain_a - gain_b)``, so gains less than 1 apart compare equal
        and keep their order (named levels first, then levels 0, 1, ...), in
        glibc's merge sort; it then reads them from the last, and stops at the
        first level whose gain is not positive.

        >>> TrecGains({"1": 0.5}).ideal_levels(np.array([0.0, 1.0, 2.0]))  # 0 and 0.5 tie: level 0 stays above 1
        array([2.])
        """
        counts = {}
        for grade in np.asarray(grades, dtype=np.float64).ravel().tolist():
            if grade >= 0:
                counts[int(grade)] = counts.get(int(grade), 0) + 1
        entries = [[int(level), gain, 0] for level, gain in self._named()]
        for level in range(max(counts, default=-1) + 1):
            found = next((entry for entry in entries if entry[0] == level), None)
            if found is None:
                entries.append([level, float(level), counts.get(level, 0)])
            else:
                found[2] = counts.get(level, 0)
        ordered = _merge_sorted(entries, lambda a, b: int(a[1] - b[1]))
        ideal = []
        if ordered and ordered[-1][1] > 0:
            for level, gain, count in reversed(ordered):
                if count and gain <= 0:
                    break
                ideal += [float(level)] * count
        return np.array(ideal)

    def _named(self):
        """The named levels in the order given, as trec_eval lists them (a name that is not a number is level 0)."""
        from .trec_files import c_number

        return [(c_number(name.encode(), integer=True) or 0, value) for name, value in self.pairs.items()]

    def __call__(self, grades):
        grades = np.asarray(grades, dtype=np.float64)
        return np.array([self.levels.get(float(grade), float(grade)) for grade in grades.ravel()],
                        dtype=np.float64).reshape(grades.shape)

    def __eq__(self, other):
        return isinstance(other, TrecGains) and other.levels == self.levels

    def __hash__(self):
        return hash(tuple(sorted(self.levels.items())))

    def __repr__(self):
        return self.__name__


def _merge_sorted(items, compare):
    """glibc's ``qsort`` (its merge sort: halves, the left half first when they compare equal) with ``compare``."""
    if len(items) <= 1:
        return list(items)
    half = len(items) // 2
    left, right = _merge_sorted(items[:half], compare), _merge_sorted(items[half:], compare)
    merged = []
    while left and right:
        merged.append(left.pop(0) if compare(left[0], right[0]) <= 0 else right.pop(0))
    return merged + left + right
