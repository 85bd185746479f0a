"""trec_eval's ndcg with a gain map (``-m ndcg.1=3.5,2=9``), and trec_eval 10.0's ``dcg`` and ``ideal_dcg`` with one.

A port of trec_eval's ``te_calc_ndcg``: each item's gain is its level's gain
in trec_eval's list of gains (:mod:`ndcg_teach.core.trec_gains`: an unjudged item
is level -1, a judged one with a negative grade level -2, both gain 0 unless
the map names their level), discounted by ``log2(rank + 1)``; the ideal
ranking walks the list from its best gain and stops at the first level
whose gain is not positive. Gains may be 0 or negative, and level 0 may have
one: ``ndcg.0=1`` counts the judged non-relevant items in the ideal too.
Without a gain map :func:`~ndcg_teach.ndcg` with ``pool=`` gives the same
numbers. Lesson 11 shows trec_eval's graded measures.
"""

import math

import numpy as np

from ..formulas import at, number
from ...i18n import _, mark
from ..registry import Metric, Param, register_metric
from ..trace import GAIN, GRADE, ITEM, JUDGED, POSITION, Column, Trace, rows_of
from ..trec_gains import NEGATIVE_LEVEL, UNJUDGED_LEVEL, TrecGains, level_counts
from ..validation import (check_choice, check_items, check_judged_relevances, check_k, check_n_nonrelevant, check_pool,
                          check_pooled, check_threshold)

__all__ = ["trec_ndcg", "explain_trec_ndcg"]

IDEAL = Column("ideal_gain", mark("ideal gain"), "number", mark("the gain of the ideal ranking's item at this rank"))
DCG_SO_FAR = Column("dcg_so_far", "DCG", "number", mark("the ranking's DCG down to this position"))
IDCG_SO_FAR = Column("idcg_so_far", "IDCG", "number", mark("the ideal ranking's DCG down to this position"))

VALUES = ("ndcg", "dcg", "ideal_dcg")
GAINS_PARAM = Param(object, (), None, "gains by relevance level, trec_eval's -m ndcg.1=3,2=9 (None: each level's "
                                      "number)")
VALUE_PARAM = Param(str, VALUES, "ndcg", "what is reported: DCG / IDCG (ndcg), or trec_eval 10.0's dcg or ideal_dcg")
COLUMNS = (POSITION, ITEM, GRADE, JUDGED, GAIN, IDEAL, DCG_SO_FAR, IDCG_SO_FAR)


def c_divide(numerator, denominator):
    """``numerator / denominator`` as C divides two doubles: ``x / 0`` is infinite and ``0 / 0`` NaN (x86's, which
    printf writes ``-nan``), where Python would raise.

    >>> c_divide(1.0, 4), c_divide(-1.0, 0), c_divide(0.0, 0)
    (0.25, -inf, nan)
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(numerator) / np.float64(denominator))


def c_log2(value):
    """C's ``log2``: ``-inf`` at 0 and NaN (glibc's, printed ``-nan``) below it, where Python would raise.

    >>> c_log2(8.0), c_log2(0.0), c_log2(-1.0)
    (3.0, -inf, nan)
    """
    if value > 0:
        return math.log2(value)
    return -math.inf if value == 0 else -math.nan


def ideal_note(ideal):
    """The ideal ranking's gains as runs, best first: ``3 x 2, 10 x 1``."""
    runs = []
    for gain in np.asarray(ideal).tolist():
        if runs and runs[-1][1] == gain:
            runs[-1][0] += 1
        else:
            runs.append([1, gain])
    return _("ideal gains, best first: {ideal}").format(ideal=", ".join(f"{n} x {g:g}" for n, g in runs) or "-")


def query_levels(relevances, pool, n_nonrelevant, threshold, pooled, negative):
    """``(grades, judged, levels, counts)`` of one query as trec_eval sees it: each ranked item's level (its grade;
    -1 unjudged, -2 pooled but unjudged, a negative grade) and the judged items of each level 0, 1, ... from the
    pool (every judged grade; with ``n_nonrelevant``, the pool's positive grades and ``n_nonrelevant`` minus those
    below ``threshold`` grade-0 items, as :func:`~ndcg_teach.evaluate` gives them) or else the list's judged items."""
    grades, judged = check_judged_relevances(relevances, negative)
    threshold = check_threshold(threshold)
    pooled = judged if pooled is None else check_pooled(pooled, grades.size) | judged
    if pool is None:
        counts = level_counts(grades[judged].tolist())
    else:
        pool = check_pool(pool, grades, negative)
        positive = pool[pool > 0]
        listed_zeros = int((judged & (grades == 0)).sum())
        below = int((positive < threshold).sum())
        zeros = int((pool == 0).sum()) if n_nonrelevant is None else check_n_nonrelevant(n_nonrelevant, 0) - below
        counts = level_counts([*positive.tolist(), *[0] * max(zeros, listed_zeros)])
    levels = np.where(judged, np.trunc(grades), np.where(pooled, NEGATIVE_LEVEL, UNJUDGED_LEVEL)).astype(np.int64)
    return grades, judged, levels, counts


def trec_gains_of(relevances, gains, pool, n_nonrelevant, threshold, pooled, negative, k):
    """``(grades, judged, results, ideal)``: each ranked item's gain (cut at ``k``) and the ideal ranking's gains
    (whole), by trec_eval's rules for ``gains`` (a mapping, pairs or :class:`~ndcg_teach.core.trec_gains.TrecGains`)."""
    gains = TrecGains.of(gains, "gains", "{1: 3.5, 2: 9.0}")
    k = check_k(k)
    grades, judged, levels, counts = query_levels(relevances, pool, n_nonrelevant, threshold, pooled, negative)
    table = gains.table(counts)
    results = np.array([gains.gain_of(table, level) for level in levels[:k].tolist()])
    return grades[:k], judged[:k], results, np.array(gains.ideal(table))


def trec_ndcg_steps(results, ideal):
    """``(dcg, idcg)``: the running DCG at each rank and the ideal's running DCG, each added up as trec_eval adds
    them (a gain over ``log2(rank + 1)``, one at a time)."""
    dcg, total = np.zeros(results.size), 0.0
    for i, gain in enumerate(results.tolist()):
        if gain != 0:
            total += gain / math.log2(i + 2)
        dcg[i] = total
    idcg, total = np.zeros(ideal.size), 0.0
    for i, gain in enumerate(ideal.tolist()):
        total += gain / math.log2(i + 2)
        idcg[i] = total
    return dcg, idcg


def _value(dcg, idcg, value):
    found = float(dcg[-1]) if dcg.size else 0.0
    ideal = float(idcg[-1]) if idcg.size else 0.0
    if value == "dcg":
        return found
    if value == "ideal_dcg":
        return ideal
    return found / ideal if ideal > 0.0 else 0.0


def trec_ndcg(relevances, k=None, *, gains=None, pool=None, n_nonrelevant=None, threshold=1, pooled=None,
              value="ndcg", negative="raise"):
    """NDCG with trec_eval's gain map (``-m ndcg.1=3.5,2=9``): DCG over the IDCG of trec_eval's ideal ranking.

    Parameters
    ----------
    relevances : sequence of float or None
        Grades of the ranked items, position 1 first; None marks an unjudged item (level -1).
    k : int or None, default None
        Cut-off for the ranking and the ideal; None uses the whole list.
    gains : mapping, pairs, str or TrecGains, default None
        Gains by relevance level (``{1: 3.5, 2: 9.0}``, ``"1=3.5,2=9"``); a level
        not named keeps its number; may be 0 or negative. None: each level's number.
    pool : sequence of float or None, default None
        The grades of every judged item of the query (the ideal is built from
        them); None uses the list's judged items.
    n_nonrelevant : int or None, default None
        Judged items below ``threshold``, to count the judged grade-0 items
        (which matter when ``gains`` gives level 0 a gain).
    threshold : float, default 1
        The relevance level ``n_nonrelevant`` was counted at.
    pooled : sequence of bool or None, default None
        Which ranked items are in the qrels: an unjudged one that is (a
        negative grade) is level -2, one that is not level -1.
    value : {"ndcg", "dcg", "ideal_dcg"}, default "ndcg"
        DCG / IDCG (0 when IDCG is not positive), or trec_eval 10.0's ``dcg`` or ``ideal_dcg``.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0.

    Returns
    -------
    float

    Examples
    --------
    >>> # d0 and d2 are judged 0, d1 is judged 1; the run ranks d0, d1 and an unjudged item
    >>> round(trec_ndcg([0, 1, None], gains="0=1", pool=[1, 0, 0]), 4)  # (1 + 1/log2(3)) / (1 + 1/log2(3) + 1/2)
    0.7654
    >>> # level 2's gain 0.5 and level 1's 1 compare equal, so level 2 stays below level 1 and the ideal ranks the
    >>> # grade-1 item first: (0.5 + 1/log2(3)) / (1 + 0.5/log2(3))
    >>> round(trec_ndcg([2, 1], gains="2=0.5"), 4)
    0.8597
    """
    value = check_choice("value", value, VALUES)
    grades, judged, results, ideal = trec_gains_of(relevances, gains, pool, n_nonrelevant, threshold, pooled,
                                                   negative, k)
    return _value(*trec_ndcg_steps(results, ideal[:k]), value)


def explain_trec_ndcg(relevances, k=None, *, gains=None, pool=None, n_nonrelevant=None, threshold=1, pooled=None,
                      value="ndcg", negative="raise", ranking=None):
    """trec_eval's gain-map NDCG with every step: each item's gain, the ideal's gain, DCG and IDCG so far.

    ``ranking`` names the ranked items; other parameters as in :func:`trec_ndcg`.

    Examples
    --------
    >>> print(explain_trec_ndcg([0, 1, None], gains="0=1", pool=[1, 0, 0]).formula)
    ndcg = DCG / IDCG = 1.6309 / 2.1309 = 0.7654
    """
    value = check_choice("value", value, VALUES)
    grades, judged, results, ideal = trec_gains_of(relevances, gains, pool, n_nonrelevant, threshold, pooled,
                                                   negative, k)
    labels = check_items(ranking, grades.size)
    ideal = ideal[:k]
    dcg, idcg = trec_ndcg_steps(results, ideal)
    found = float(dcg[-1]) if dcg.size else 0.0
    best = float(idcg[-1]) if idcg.size else 0.0
    reported = _value(dcg, idcg, value)
    name = at({"ndcg": "ndcg", "dcg": "dcg", "ideal_dcg": "ideal_dcg"}[value], k)
    if value == "ndcg":
        formula = (f"{name} = DCG / IDCG = {number(found)} / {number(best)} = {number(reported)}" if best > 0
                   else _("{name} = 0 (IDCG is not positive)").format(name=name))
    else:
        formula = f"{name} = {number(reported)}"
    ideal_at = [float(ideal[i]) if i < ideal.size else 0.0 for i in range(grades.size)]
    idcg_at = [float(idcg[min(i, idcg.size - 1)]) if idcg.size else 0.0 for i in range(grades.size)]
    rows = rows_of(COLUMNS, range(1, grades.size + 1), labels, grades.tolist(), judged.tolist(), results.tolist(),
                   ideal_at, dcg.tolist(), idcg_at)
    notes = (ideal_note(ideal), _("an unjudged item is level -1 and one with a negative grade level -2: gain 0 "
                                  "unless the gain map names its level"))
    return Trace(name, reported, rows, formula, rf"\mathrm{{{name}}} = {number(reported)}", COLUMNS, notes)


register_metric(Metric(
    "trec_ndcg", "ndcg@{k}", "graded", trec_ndcg, explain_trec_ndcg,
    mark("NDCG with trec_eval's gains by relevance level"), "11-user-models", order=124,
    names={"ndcg.{gains}": {}, "dcg.{gains}": {"value": "dcg"}, "ideal_dcg.{gains}": {"value": "ideal_dcg"}},
    needs=("judged", "pool", "n_nonrelevant", "threshold", "pooled"),
    params={"gains": GAINS_PARAM, "value": VALUE_PARAM}, columns=COLUMNS))
