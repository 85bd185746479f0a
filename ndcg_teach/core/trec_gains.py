"""trec_eval's gain maps (``-m ndcg.1=3.5,2=9``): the gain of each relevance level and the ideal ranking they give.

trec_eval's ``setup_gains`` lists the levels named on the command line, in
the order given (``atol`` reads each name; trec_eval 10.0 skips a name that is
not a whole number, 9.0.8 reads it as 0), then every level 0 to the query's
highest judged level that was not named, with its own number as its gain.
The judged items of each level are counted on the first entry of that
level. The list is sorted with glibc's ``qsort`` (a merge sort) and the
comparison ``(int) (gain_a - gain_b)``, so gains less than 1 apart compare
equal and keep their order. An item's gain is that of the first entry of its
level in the sorted list (``get_gain``): an unjudged item is level -1 and a
judged item with a negative grade level -2, so both have gain 0 unless a
gain map names their level. The ideal ranking reads the list from its end,
skipping the levels without items, and stops at the first level whose gain
is not positive (:meth:`TrecGains.ideal`). Gains may be 0 or negative.

These rules are trec_eval's, computed as its C code computes them;
:func:`~ndcg_teach.trec_ndcg` (and ``G``, ``ndcg_rel``, ``Rndcg``, ``rbp``) read
them. A plain ``{grade: gain}`` mapping given to :func:`~ndcg_teach.ndcg` builds
the true ideal instead (every order sorted by gain). Lesson 11.

>>> gains = TrecGains("1=5,1=3.5")  # level 1 named twice
>>> table = gains.table([2, 3])     # two judged items of level 0, three of level 1
>>> [(entry.level, entry.gain, entry.count) for entry in table]
[(0, 0.0, 2), (1, 3.5, 0), (1, 5.0, 3)]
>>> gains.gain_of(table, 1), gains.ideal(table)  # an item of level 1 gains 3.5; the ideal's items 5
(3.5, [5.0, 5.0, 5.0])
"""

import math
from collections.abc import Mapping
from numbers import Real
from typing import NamedTuple

from ..i18n import gettext
from .c_numbers import c_number
from .validation import shown

INT_MIN, INT_MAX = -2 ** 31, 2 ** 31 - 1
UNJUDGED_LEVEL = -1    # trec_eval's RELVALUE_NONPOOL: an item not in the qrels
NEGATIVE_LEVEL = -2    # trec_eval's RELVALUE_UNJUDGED: in the qrels with a negative grade


class Level(NamedTuple):
    """One entry of trec_eval's list of gains: a relevance level, its gain and its judged items."""

    level: int
    gain: float
    count: int


def c_int(value):
    """``(int) value`` as x86-64 converts a double (``cvttsd2si``): towards 0; NaN or out of range is INT_MIN.

    >>> c_int(0.99), c_int(-1.5), c_int(3e9), c_int(float("nan"))
    (0, -1, -2147483648, -2147483648)
    """
    if math.isnan(value) or not INT_MIN - 1 < value < INT_MAX + 1:
        return INT_MIN
    return int(value)


def glibc_sorted(items, compare):
    """``items`` sorted as glibc's ``qsort`` (2.36, its merge sort ``msort``) sorts them with ``compare``.

    The list is split into its first ``n // 2`` items and the rest, each sorted, then merged, taking the left
    item whenever ``compare(left, right) <= 0``: items that compare equal keep their order.

    >>> glibc_sorted([0.5, 0.0, 3.0, 1.2], lambda a, b: c_int(a - b))  # 0.5 and 0.0 compare equal: 0.5 stays first
    [0.5, 0.0, 1.2, 3.0]
    """
    items = list(items)
    if len(items) <= 1:
        return items
    half = len(items) // 2
    left, right = glibc_sorted(items[:half], compare), glibc_sorted(items[half:], compare)
    merged, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if compare(left[i], right[j]) <= 0:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    return merged + left[i:] + right[j:]


def _valid_int(name):
    """trec_eval 10.0's ``valid_int``: an optional sign, then one digit or more and nothing else."""
    digits = name[1:] if name[:1] in ("+", "-") else name
    return bool(digits) and all("0" <= char <= "9" for char in digits)


def parse_pairs(text):
    """``name=value`` pairs as trec_eval reads them from ``1=3.5,2=9``, in order (a name may come twice); a value
    is C's ``atof`` of its text (0 when there is no number).

    >>> parse_pairs("1=3.5,2=9,1=4,p=x")
    (('1', 3.5), ('2', 9.0), ('1', 4.0), ('p', 0.0))
    """
    pairs = []
    for part in text.split(","):
        name, _, value = part.partition("=")
        pairs.append((name, c_number(value.encode()) or 0.0))
    return tuple(pairs)


class TrecGains:
    """trec_eval's gains by relevance level: ``-m ndcg.1=3,2=9`` (see the module's rules). Lesson 11.

    Parameters
    ----------
    pairs : str, mapping or sequence of (name, gain) pairs
        The pairs in trec_eval's order (``"1=3.5,2=9"``, ``{1: 3.5, 2: 9}`` or ``[("1", 3.5), ("1", 4)]``); a name
        is read with C's ``atol``. Gains may be any finite number, 0 or negative.
    version : {"9.0.8", "10.0"}, default "9.0.8"
        Whose reading of the names: 10.0 skips a name that is not a whole number (``rbp.p=0.9``'s ``p``), 9.0.8
        reads it as level 0.

    Examples
    --------
    >>> gains = TrecGains({1: 3, 4: 4.5})
    >>> table = gains.table([5, 1, 2, 0, 1])  # levels 0 to 4
    >>> [gains.gain_of(table, level) for level in (-1, 0, 1, 2, 4)]
    [0.0, 0.0, 3.0, 2.0, 4.5]
    >>> gains.ideal(table)  # level 4, level 1, the two of level 2; level 0 has gain 0 and ends it
    [4.5, 3.0, 2.0, 2.0]
    """

    def __init__(self, pairs=(), version="9.0.8"):
        if isinstance(pairs, TrecGains):
            pairs = pairs.pairs
        if isinstance(pairs, str):
            pairs = parse_pairs(pairs)
        items = list(pairs.items()) if isinstance(pairs, Mapping) else list(pairs)
        checked = []
        for item in items:
            name, value = item if isinstance(item, tuple) and len(item) == 2 else (None, None)
            if name is None or isinstance(value, bool) or not isinstance(value, Real) or \
                    not math.isfinite(value):
                raise TypeError(gettext("gains must map relevance levels to finite numbers, e.g. {{1: 3.5, 2: 9}} "
                                        "or '1=3.5,2=9'. Got {got} instead.").format(got=shown(pairs)))
            checked.append((str(name), float(value)))
        self.pairs, self.version = tuple(checked), version
        self.__name__ = "trec_eval gains " + ",".join(f"{name}={value:g}" for name, value in self.pairs)

    @classmethod
    def of(cls, value, name, example, version="9.0.8"):
        """``value`` (None, a mapping, pairs or TrecGains) as TrecGains; ``name`` and ``example`` word the refusal.

        >>> TrecGains.of({"1": 3}, "gains", "{1: 3.5}").pairs
        (('1', 3.0),)
        """
        if isinstance(value, TrecGains):
            return value
        if value is None or isinstance(value, (Mapping, list, tuple, str)):
            try:
                return cls(value or (), version)
            except TypeError:
                pass
        raise TypeError(gettext("{name} must be None, a mapping such as {example} or TrecGains. Got {got} "
                                "instead.").format(name=name, example=example, got=shown(value)))

    @property
    def persistence(self):
        """rbp's ``p`` among the pairs (trec_eval 10.0: the last one named ``p``), or None."""
        found = [value for name, value in self.pairs if name == "p"]
        return found[-1] if found else None

    def named(self):
        """``[(level, gain)]`` of the pairs that name a level, in order (``atol`` reads the name)."""
        return [(int(c_number(name.encode(), integer=True) or 0), gain) for name, gain in self.pairs
                if self.version == "9.0.8" or _valid_int(name)]

    def table(self, counts):
        """trec_eval's sorted list of :class:`Level` entries for a query whose level ``i`` has ``counts[i]`` judged
        items (levels 0 to its highest judged one)."""
        entries = [[level, gain, 0] for level, gain in self.named()]
        named = len(entries)
        for level, count in enumerate(int(count) for count in counts):
            found = next((entry for entry in entries[:named] if entry[0] == level), None)
            if found is None:
                entries.append([level, float(level), count])
            else:
                found[2] = count
        return [Level(*entry) for entry in glibc_sorted(entries, lambda a, b: c_int(a[1] - b[1]))]

    @staticmethod
    def gain_of(table, level):
        """The gain of an item of ``level`` (-1 unjudged, -2 a negative grade): the first entry of its level, else 0."""
        return next((entry.gain for entry in table if entry.level == level), 0.0)

    @staticmethod
    def ideal(table):
        """The ideal ranking's gains, best first, as trec_eval walks ``table`` from its end: levels without items
        are skipped; the walk stops at the first level whose gain is not positive (or at once if the last entry's
        gain is not)."""
        if not table or table[-1].gain <= 0:
            return []
        ideal = []
        for entry in reversed(table):
            if entry.count and entry.gain <= 0:
                break
            ideal += [entry.gain] * entry.count
        return ideal

    def __eq__(self, other):
        return isinstance(other, TrecGains) and (other.pairs, other.version) == (self.pairs, self.version)

    def __hash__(self):
        return hash((self.pairs, self.version))

    def __repr__(self):
        return f"TrecGains({','.join(f'{name}={value:g}' for name, value in self.pairs)!r})"


def level_counts(levels):
    """``counts[i]``: how many of ``levels`` (judged grades, read as whole numbers) are ``i``, for 0 to the
    highest; negative levels are not counted, as in trec_eval's ``rel_levels``.

    >>> level_counts([2, 0, 2, -1])
    [1, 0, 2]
    """
    whole = [int(level) for level in levels if level >= 0]
    counts = [0] * (max(whole, default=-1) + 1)
    for level in whole:
        counts[level] += 1
    return counts
