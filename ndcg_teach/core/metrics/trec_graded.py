"""trec_eval's experimental graded measures: binG, G, ndcg_rel and Rndcg, as its ``m_*.c`` files compute them.

All four read gains by relevance level, trec_eval's way (a level's gain is
its number unless ``-m G.1=3,2=9`` names another, :class:`~ndcg_teach.core.gains.TrecGains`),
and an ideal ranking built from every judged item of the query (the pool),
best gain first. ``binG`` averages ``1 / log2(2 + non-relevant items above)``
over the relevant items; ``G`` discounts each item's gain by how far the
ranking so far falls short of the ideal (``log2(2 + ideal cost - gain so
far)``); ``ndcg_rel`` averages NDCG at each relevant item (an unretrieved one
counts NDCG at the end of the list); ``Rndcg`` averages NDCG at the ranks where
the ideal ranking's gain changes. Each is a port of trec_eval 9.0.8's loop,
its additions in the same order. Unjudged items have gain 0. Lesson 11 shows
user models; these are trec_eval's experiments with them.
"""

import math

import numpy as np

from ..binary import relevant_flags
from ..formulas import at, number, threshold_note
from ...i18n import _, mark
from ..registry import Metric, Param, register_metric
from ..trace import CONTRIBUTION, GAIN, GRADE, ITEM, JUDGED, POSITION, RELEVANT, RUNNING, Column, Trace, rows_of
from ..validation import check_items, check_judged_relevances, check_k, check_n_relevant, check_threshold
from .trec_ndcg import DCG_SO_FAR, IDCG_SO_FAR, IDEAL, c_divide, c_log2, ideal_note, trec_gains_of

__all__ = ["bin_g", "explain_bin_g", "g_measure", "explain_g_measure", "ndcg_rel", "explain_ndcg_rel", "rndcg",
           "explain_rndcg"]

SHORTFALL = Column("shortfall", mark("shortfall"), "number",
                   mark("ideal cost so far minus the gain so far: the discount is log2(2 + it)"))
NONRELEVANT_ABOVE = Column("nonrelevant_above", mark("not relevant above"), "count",
                           mark("items above this one that are not relevant (unjudged ones included)"))
POINT = Column("point", mark("NDCG here"), "number", mark("NDCG at this rank, where it enters the average"))
GAINS_PARAM = Param(object, (), None, "gains by relevance level, trec_eval's -m G.1=3,2=9 (None: each level's "
                                      "number)")
BIN_G_COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, NONRELEVANT_ABOVE, CONTRIBUTION, RUNNING)
G_COLUMNS = (POSITION, ITEM, GRADE, JUDGED, GAIN, IDEAL, SHORTFALL, CONTRIBUTION, RUNNING)
NDCG_COLUMNS = (POSITION, ITEM, GRADE, JUDGED, GAIN, IDEAL, DCG_SO_FAR, IDCG_SO_FAR, POINT)


def _checked(relevances, k, gains, pool, n_nonrelevant, threshold,
                                                         pooled, negative):
    """``(grades, judged, threshold, results, ideal)``: each ranked item's gain cut at ``k`` and the ideal ranking's
    gains, best first (not cut), by trec_eval's rules (:func:`~ndcg_teach.core.metrics.trec_ndcg.trec_gains_of`)."""
    grades, judged, results, ideal = trec_gains_of(relevances, gains, pool, n_nonrelevant, threshold, pooled,
                                                   negative, k)
    return grades, judged, check_threshold(threshold), results, ideal


def _ideal_at(ideal, i):
    return float(ideal[i]) if i < ideal.size else 0.0


# binG

def bin_g_steps(grades, threshold, n_relevant):
    """``(R, relevant, above, contributions)``: each relevant item adds 1 / log2(2 + items above it not relevant)."""
    relevant = relevant_flags(grades, threshold)
    total = check_n_relevant(n_relevant, int(relevant.sum()))
    above = np.arange(grades.size) - (np.cumsum(relevant) - relevant)
    terms = np.where(relevant, 1.0 / np.log2(2.0 + above), 0.0)
    return total, relevant, above, terms


def bin_g(relevances, k=None, *, n_relevant=None, threshold=1, negative="raise"):
    """binG (trec_eval): the mean over the relevant items of ``1 / log2(2 + items above it not relevant)``.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list.
    n_relevant : int or None, default None
        R, the query's relevant items in total (the mean divides by it); None counts them in ``relevances``.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> bin_g([1, 0, 1], n_relevant=2)  # (1/log2(2) + 1/log2(3)) / 2
    0.8154648767857288
    """
    grades, k, threshold = check_judged_relevances(relevances, negative)[0], check_k(k), check_threshold(threshold)
    total, _relevant, _above, terms = bin_g_steps(grades[:k], threshold, n_relevant)
    return float(np.cumsum(terms)[-1] / total) if total and terms.size else 0.0


def explain_bin_g(relevances, k=None, *, n_relevant=None, threshold=1, negative="raise", ranking=None):
    """binG with every step: how many items above each relevant one are not relevant.

    ``ranking`` names the ranked items; other parameters as in :func:`bin_g`.

    Examples
    --------
    >>> print(explain_bin_g([1, 0, 1], n_relevant=2).formula)
    binG = (1/log2(2 + 0) + 1/log2(2 + 1)) / 2 = 0.8155
    """
    grades, k, threshold = check_judged_relevances(relevances, negative)[0], check_k(k), check_threshold(threshold)
    labels = check_items(ranking, grades.size)
    grades = grades[:k]
    total, relevant, above, terms = bin_g_steps(grades, threshold, n_relevant)
    contributions = terms / total if total else np.zeros(terms.size)
    running = np.cumsum(terms) / total if total else np.zeros(terms.size)
    value = float(running[-1]) if terms.size else 0.0
    name = at("binG", k)
    parts = [f"1/log2(2 + {int(a)})" for a, hit in zip(above, relevant) if hit]
    formula = (f"{name} = ({' + '.join(parts)}) / {total} = {number(value)}" if parts
               else _("{name} = 0 (no relevant item in the list)").format(name=name))
    rows = rows_of(BIN_G_COLUMNS, range(1, grades.size + 1), labels, grades.tolist(), relevant.tolist(),
                   above.tolist(), contributions.tolist(), running.tolist())
    return Trace(name, value, rows, formula, rf"\mathrm{{{name}}} = {number(value)}", BIN_G_COLUMNS,
                 (threshold_note(threshold),))


# G

def g_steps(results, ideal):
    """``(shortfalls, terms, total ideal gain)``: trec_eval's G loop. At rank i, the ideal cost adds the ideal gain
    there (at least 1, and 1 past the ideal list); a gain r_i is discounted by log2(2 + cost - gains so far)."""
    shortfalls, terms = np.zeros(results.size), np.zeros(results.size)
    sum_results = sum_cost = 0.0
    for i, gain in enumerate(results.tolist()):
        sum_results += gain
        ideal_gain = _ideal_at(ideal, i)
        sum_cost += ideal_gain if ideal_gain >= 1.0 else 1.0
        shortfalls[i] = sum_cost - sum_results
        if gain != 0:
            terms[i] = c_divide(gain, c_log2(2 + sum_cost - sum_results))
    sum_ideal = 0.0
    for gain in ideal.tolist():
        sum_ideal += gain
    return shortfalls, terms, sum_ideal


def g_measure(relevances, k=None, *, gains=None, pool=None, n_nonrelevant=None, threshold=1, pooled=None,
              negative="raise"):
    """G (trec_eval, experimental): each gain discounted by how far the ranking so far trails the ideal, over the
    ideal's total gain.

    ``G = sum_i g_i / log2(2 + C_i - S_i) / sum of ideal gains``, with ``S_i``
    the gains down to rank i and ``C_i`` the ideal ranking's gains down to
    rank i, each counted as at least 1 (and 1 past the ideal list).

    Parameters
    ----------
    relevances : sequence of float or None
        Grades of the ranked items, position 1 first; None marks an unjudged item (gain 0).
    k : int or None, default None
        Cut-off; None uses the whole list.
    gains : mapping, TrecGains or None, default None
        Gains by relevance level (``{1: 3.5, 2: 9.0}``; levels not named keep
        their number), trec_eval's ``-m G.1=3.5,2=9``. None: each level's number.
    pool : sequence of float or None, default None
        The grades of every judged item of the query (the ideal is built from
        them); None uses the list's judged items.
    n_nonrelevant : int or None, default None
        Judged items below ``threshold``, to count the judged grade-0 items
        (which matter only when ``gains`` gives level 0 a gain).
    threshold : float, default 1
        The relevance level ``n_nonrelevant`` was counted at.
    pooled : sequence of bool or None, default None
        Which ranked items are in the qrels: an unjudged one that is (a
        negative grade) is level -2, one that is not level -1 (gain 0 unless named).
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> round(g_measure([2, 0, 1]), 4)  # ideal [2, 1]: (2/log2(2 + 2 - 2) + 1/log2(2 + 4 - 3)) / (2 + 1)
    0.877
    """
    grades, judged, threshold, results, ideal = _checked(relevances, k, gains, pool, n_nonrelevant, threshold,
                                                         pooled, negative)
    _shortfalls, terms, total = g_steps(results, ideal)
    return float(np.cumsum(terms)[-1] / total) if total > 0 and terms.size else 0.0


def explain_g_measure(relevances, k=None, *, gains=None, pool=None, n_nonrelevant=None, threshold=1, pooled=None,
                      negative="raise", ranking=None):
    """G with every step: the gain, the ideal gain, the shortfall the discount reads, and each term.

    ``ranking`` names the ranked items; other parameters as in :func:`g_measure`.

    Examples
    --------
    >>> print(explain_g_measure([2, 0, 1]).formula)
    G = (2/log2(2 + 0) + 1/log2(2 + 1)) / 3 = 0.8770
    """
    grades, judged, threshold, results, ideal = _checked(relevances, k, gains, pool, n_nonrelevant, threshold,
                                                         pooled, negative)
    labels = check_items(ranking, grades.size)
    shortfalls, terms, total = g_steps(results, ideal)
    running = np.cumsum(terms) / total if total > 0 else np.zeros(terms.size)
    value = float(running[-1]) if terms.size else 0.0
    name = at("G", k)
    parts = [f"{gain:g}/log2(2 + {short:g})" for gain, short in zip(results.tolist(), shortfalls.tolist()) if gain]
    formula = (f"{name} = ({' + '.join(parts)}) / {total:g} = {number(value)}" if parts and total > 0
               else _("{name} = 0 (no retrieved item has a gain)").format(name=name))
    rows = rows_of(G_COLUMNS, range(1, grades.size + 1), labels, grades.tolist(), judged.tolist(), results.tolist(),
                   [_ideal_at(ideal, i) for i in range(grades.size)], shortfalls.tolist(),
                   (terms / total if total > 0 else terms).tolist(), running.tolist())
    notes = (ideal_note(ideal),
             _("the ideal cost adds at least 1 per rank, and 1 per rank past the ideal list"))
    return Trace(name, value, rows, formula, rf"\mathrm{{G}} = {number(value)}", G_COLUMNS, notes)


# ndcg_rel and Rndcg: NDCG read at chosen ranks

def ndcg_rel_steps(results, ideal):
    """``(dcg, idcg, points, value)``: trec_eval's ndcg_rel loop. NDCG at each retrieved item with a positive gain,
    and NDCG at the end of the list once for each positive-gain ideal item not retrieved, averaged over the ideal's
    positive-gain items. ``dcg`` and ``idcg`` hold each rank's running sums (the ideal's up to its last gain)."""
    n = results.size
    dcg, idcg, points = np.zeros(n), np.zeros(n), np.full(n, np.nan)
    results_dcg = ideal_dcg = total = 0.0
    found = n_ideal = i = 0
    ideal_gain = _ideal_at(ideal, 0)
    while i < n:
        gain = float(results[i])
        if gain != 0:
            results_dcg += gain / math.log2(i + 2)
        if ideal_gain > 0.0:
            ideal_gain = _ideal_at(ideal, i)
            if ideal_gain > 0.0:
                n_ideal += 1
                ideal_dcg += ideal_gain / math.log2(i + 2)
        if gain > 0:
            points[i] = c_divide(results_dcg, ideal_dcg)
            total += float(points[i])
            found += 1
        dcg[i], idcg[i] = results_dcg, ideal_dcg
        i += 1
    while ideal_gain > 0.0:
        ideal_gain = _ideal_at(ideal, i)
        if ideal_gain > 0.0:
            n_ideal += 1
            ideal_dcg += ideal_gain / math.log2(i + 2)
        i += 1
    total += c_divide(float(n_ideal - found) * results_dcg, ideal_dcg)  # NaN or infinite when IDCG is 0, as in C
    return dcg, idcg, points, c_divide(total, n_ideal) if total > 0.0 else 0.0, n_ideal - found, ideal_dcg


def rndcg_steps(results, ideal, n_relevant):
    """``(dcg, idcg, points, value, later)``: trec_eval's Rndcg loop. NDCG just before each rank where the ideal
    gain changes (``points`` at the rank above the change), at the end of a list longer than the ideal, and at
    changes past the end of the list (``later``), averaged; 0 when R = 0, and NaN (trec_eval's ``-nan``) when NDCG is
    read nowhere (no positive ideal gain)."""
    n = results.size
    dcg, idcg, points, later = np.zeros(n), np.zeros(n), np.full(n, np.nan), []
    results_dcg = ideal_dcg = total = 0.0
    count = i = 0
    ideal_gain = old_gain = _ideal_at(ideal, 0)
    while i < n and ideal_gain > 0.0:
        gain = float(results[i])
        ideal_gain = _ideal_at(ideal, i)
        if old_gain != ideal_gain:
            if ideal_dcg > 0.0:
                points[i - 1] = results_dcg / ideal_dcg
                total, count = total + points[i - 1], count + 1
            old_gain = ideal_gain
        if gain != 0:
            results_dcg += gain / math.log2(i + 2)
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(i + 2)
        dcg[i], idcg[i] = results_dcg, ideal_dcg
        i += 1
    if i < n:
        while i < n:
            gain = float(results[i])
            if gain != 0:
                results_dcg += gain / math.log2(i + 2)
            dcg[i], idcg[i] = results_dcg, ideal_dcg
            i += 1
        if ideal_dcg > 0.0:
            points[n - 1] = results_dcg / ideal_dcg
            total, count = total + points[n - 1], count + 1
    while ideal_gain > 0.0:
        ideal_gain = _ideal_at(ideal, i)
        if old_gain != ideal_gain:
            if ideal_dcg > 0.0:
                later.append(results_dcg / ideal_dcg)
                total, count = total + later[-1], count + 1
            old_gain = ideal_gain
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(i + 2)
        i += 1
    value = 0.0 if n_relevant == 0 else c_divide(total, count)  # no rank to read NDCG at: 0 / 0, C's -nan
    return dcg, idcg, points, value, later


_NDCG_PARAMETERS = '''
    Parameters
    ----------
    relevances : sequence of float or None
        Grades of the ranked items, position 1 first; None marks an unjudged item (gain 0).
    k : int or None, default None
        Cut-off; None uses the whole list.
    gains : mapping, TrecGains or None, default None
        Gains by relevance level (``{1: 3.5, 2: 9.0}``; levels not named keep
        their number), trec_eval's ``-m ndcg_rel.1=3.5,2=9``. None: each level's number.
    pool : sequence of float or None, default None
        The grades of every judged item of the query (the ideal is built from
        them); None uses the list's judged items.
    n_nonrelevant : int or None, default None
        Judged items below ``threshold``, to count the judged grade-0 items
        (which matter only when ``gains`` gives level 0 a gain).
    n_relevant : int or None, default None
        R (Rndcg scores 0 when R = 0); None counts the relevant items in the list.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    pooled : sequence of bool or None, default None
        Which ranked items are in the qrels: an unjudged one that is (a
        negative grade) is level -2, one that is not level -1 (gain 0 unless named).
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float
'''


def _ndcg_rows(grades, judged, labels, results, ideal, dcg, idcg, points):
    return rows_of(NDCG_COLUMNS, range(1, grades.size + 1), labels, grades.tolist(), judged.tolist(), results.tolist(),
                   [_ideal_at(ideal, i) for i in range(grades.size)], dcg.tolist(), idcg.tolist(),
                   [None if math.isnan(point) else point for point in points.tolist()])


def ndcg_rel(relevances, k=None, *, gains=None, pool=None, n_nonrelevant=None, threshold=1, pooled=None,
             negative="raise"):
    """ndcg_rel (trec_eval, experimental): NDCG averaged over the relevant items, read at each one.

    NDCG is read at each retrieved item with a positive gain; each
    positive-gain item of the pool that was not retrieved counts the NDCG at
    the end of the list; the sum is divided by the pool's positive-gain items.
    """
    grades, judged, threshold, results, ideal = _checked(relevances, k, gains, pool, n_nonrelevant, threshold,
                                                         pooled, negative)
    return ndcg_rel_steps(results, ideal)[3]


ndcg_rel.__doc__ += _NDCG_PARAMETERS.replace("    n_relevant : int or None, default None\n        R (Rndcg scores 0 when "
                                             "R = 0); None counts the relevant items in the list.\n", "") + '''
    Examples
    --------
    >>> round(ndcg_rel([0, 2, 1], pool=[2, 1, 1]), 4)  # NDCG at ranks 2 and 3, and at the end for the missing 1
    0.535
'''


def explain_ndcg_rel(relevances, k=None, *, gains=None, pool=None, n_nonrelevant=None, threshold=1, pooled=None,
                     negative="raise", ranking=None):
    """ndcg_rel with every step: DCG and IDCG down to each rank, and NDCG where a relevant item stands.

    ``ranking`` names the ranked items; other parameters as in :func:`ndcg_rel`.

    Examples
    --------
    >>> print(explain_ndcg_rel([0, 2, 1], pool=[2, 1, 1]).formula)
    ndcg_rel = (0.4796 + 0.5627 + 1 * 0.5627) / 3 = 0.5350
    """
    grades, judged, threshold, results, ideal = _checked(relevances, k, gains, pool, n_nonrelevant, threshold,
                                                         pooled, negative)
    labels = check_items(ranking, grades.size)
    dcg, idcg, points, value, missing, full = ndcg_rel_steps(results, ideal)
    name = at("ndcg_rel", k)
    parts = [number(point) for point in points.tolist() if not math.isnan(point)]
    if missing and full > 0.0:
        parts.append(f"{missing} * {number((dcg[-1] if dcg.size else 0.0) / full)}")
    formula = (f"{name} = ({' + '.join(parts)}) / {ideal.size} = {number(value)}" if value
               else _("{name} = 0 (no retrieved item has a gain)").format(name=name))
    notes = (ideal_note(ideal),
             _("each relevant item not retrieved counts NDCG at the end of the list"))
    return Trace(name, value, _ndcg_rows(grades, judged, labels, results, ideal, dcg, idcg, points), formula,
                 rf"\mathrm{{{name}}} = {number(value)}", NDCG_COLUMNS, notes)


def rndcg(relevances, k=None, *, gains=None, pool=None, n_nonrelevant=None, n_relevant=None, threshold=1,
          pooled=None, negative="raise"):
    """Rndcg (trec_eval, experimental): NDCG averaged over the ranks where the ideal ranking's gain changes.

    With 5 items of gain 3, 3 of gain 2 and 10 of gain 1 in the pool, it is the
    mean of NDCG@5, NDCG@8, NDCG@18 and NDCG at the end of the list (when the
    list is longer than the ideal). 0 when R = 0.
    """
    grades, judged, threshold, results, ideal = _checked(relevances, k, gains, pool, n_nonrelevant, threshold,
                                                         pooled, negative)
    total = check_n_relevant(n_relevant, int((judged & relevant_flags(grades, threshold)).sum()))
    return rndcg_steps(results, ideal, total)[3]


rndcg.__doc__ += _NDCG_PARAMETERS + '''
    Examples
    --------
    >>> round(rndcg([1, 2, 0, 0], pool=[2, 1]), 4)  # NDCG@1, NDCG@2 and at the end: (1/2 + 0.8597 + 0.8597) / 3
    0.7398
'''


def explain_rndcg(relevances, k=None, *, gains=None, pool=None, n_nonrelevant=None, n_relevant=None, threshold=1,
                  pooled=None, negative="raise", ranking=None):
    """Rndcg with every step: DCG and IDCG down to each rank, and NDCG where the ideal gain changes.

    ``ranking`` names the ranked items; other parameters as in :func:`rndcg`.

    Examples
    --------
    >>> print(explain_rndcg([1, 2, 0, 0], pool=[2, 1]).formula)
    Rndcg = (0.5000 + 0.8597 + 0.8597) / 3 = 0.7398
    """
    grades, judged, threshold, results, ideal = _checked(relevances, k, gains, pool, n_nonrelevant, threshold,
                                                         pooled, negative)
    labels = check_items(ranking, grades.size)
    total = check_n_relevant(n_relevant, int((judged & relevant_flags(grades, threshold)).sum()))
    dcg, idcg, points, value, later = rndcg_steps(results, ideal, total)
    name = at("Rndcg", k)
    parts = [number(point) for point in [*points.tolist(), *later] if not math.isnan(point)]
    formula = (f"{name} = ({' + '.join(parts)}) / {len(parts)} = {number(value)}" if parts and total
               else _("{name} = 0 (no relevant item, or no rank where NDCG can be read)").format(name=name))
    notes = (threshold_note(threshold),
             ideal_note(ideal),
             _("NDCG is read just above each rank where the ideal gain changes, and at the end of the list"))
    return Trace(name, value, _ndcg_rows(grades, judged, labels, results, ideal, dcg, idcg, points), formula,
                 rf"\mathrm{{{name}}} = {number(value)}", NDCG_COLUMNS, notes)


_LESSON = "11-user-models"
_POOL_NEEDS = ("judged", "pool", "n_nonrelevant", "threshold", "pooled")
register_metric(Metric(
    "bin_g", "binG@{k}", "binary", bin_g, explain_bin_g,
    mark("mean over relevant items of 1 / log2(2 + items above not relevant)"), _LESSON, order=120,
    names={"binG": {}}, needs=("n_relevant", "threshold"), params={}, columns=BIN_G_COLUMNS))
register_metric(Metric(
    "g_measure", "G@{k}", "graded", g_measure, explain_g_measure,
    mark("gains discounted by how far the ranking trails the ideal"), _LESSON, order=121,
    names={"G": {}, "G.{gains}": {}}, needs=_POOL_NEEDS, params={"gains": GAINS_PARAM}, columns=G_COLUMNS))
register_metric(Metric(
    "ndcg_rel", "ndcg_rel@{k}", "graded", ndcg_rel, explain_ndcg_rel,
    mark("NDCG averaged over the relevant items"), _LESSON, order=122,
    names={"ndcg_rel": {}, "ndcg_rel.{gains}": {}}, needs=_POOL_NEEDS, params={"gains": GAINS_PARAM},
    columns=NDCG_COLUMNS))
register_metric(Metric(
    "rndcg", "Rndcg@{k}", "graded", rndcg, explain_rndcg,
    mark("NDCG averaged over the ranks where the ideal gain changes"), _LESSON, order=123,
    names={"Rndcg": {}, "Rndcg.{gains}": {}}, needs=(*_POOL_NEEDS, "n_relevant"), params={"gains": GAINS_PARAM},
    columns=NDCG_COLUMNS))
