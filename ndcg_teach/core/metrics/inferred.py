"""Inferred AP (infAP): average precision estimated from a judged sample of the pool.

When only a random sample of the pooled items was judged, infAP (Yilmaz and
Aslam, CIKM 2006) estimates AP: at each judged relevant item it takes the
precision above it from the judged items alone, counting the pooled items
that were not judged as relevant in the same proportion as the judged ones,
and the items that were never pooled as not relevant. trec_eval's ``infAP``
(``m_infap.c``, 9.0.8) reads the pool from the qrels: an item listed with a
negative grade was pooled but not judged. With every pooled item judged it
is AP. Lesson 12 teaches incomplete judgements.
"""

import numpy as np

from ..binary import relevant_flags
from ..formulas import at, number, threshold_note
from ...i18n import _, mark
from ..registry import Metric, register_metric
from ..trace import CONTRIBUTION, GRADE, ITEM, JUDGED, POSITION, RELEVANT, RUNNING, Column, Trace, rows_of
from ..validation import check_items, check_judged_relevances, check_k, check_n_relevant, check_pooled, check_threshold

__all__ = ["infap", "explain_infap"]

EPSILON = 0.00001  # trec_eval's INFAP_EPSILON
POOLED = Column("pooled", mark("pooled"), "flag", mark("whether the item was in the judgement pool (judged or not)"))
COLUMNS = (POSITION, ITEM, GRADE, POOLED, JUDGED, RELEVANT, CONTRIBUTION, RUNNING)


def infap_steps(grades, judged, pooled, k, threshold, n_relevant):
    """``(R, relevant, terms)``: each judged relevant item's estimate of precision at its rank (0 elsewhere), in the
    order of trec_eval's loop; infAP is their sum over R."""
    total = check_n_relevant(n_relevant, int((judged & relevant_flags(grades, threshold)).sum()))
    relevant = judged[:k] & relevant_flags(grades[:k], threshold)
    terms = np.zeros(relevant.size)
    found = nonrelevant = pooled_unjudged = 0
    for j, (seen, inside, hit) in enumerate(zip(judged[:k].tolist(), pooled[:k].tolist(), relevant.tolist())):
        if not seen:
            pooled_unjudged += inside
            continue
        if not hit:
            nonrelevant += 1
            continue
        found += 1
        if j == 0:
            terms[j] = 1.0
        else:
            fj = float(j)
            terms[j] = (1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((found - 1 + nonrelevant + pooled_unjudged) / fj)
                        * ((found - 1 + EPSILON) / (found - 1 + nonrelevant + 2 * EPSILON)))
    return total, relevant, terms


def _checked(relevances, k, pooled, threshold, negative):
    grades, judged = check_judged_relevances(relevances, negative)
    pooled = judged if pooled is None else check_pooled(pooled, grades.size) | judged
    return grades, judged, pooled, check_k(k), check_threshold(threshold)


def _running(total, terms):
    """infAP after each position: the terms summed in order, as trec_eval sums them, over R."""
    return np.cumsum(terms) / total if total else np.zeros(terms.size)


def _value(total, terms):
    return float(_running(total, terms)[-1]) if terms.size else 0.0


def infap(relevances, k=None, *, pooled=None, n_relevant=None, threshold=1, negative="raise"):
    """Inferred AP: AP estimated when only a sample of the pooled items was judged (trec_eval ``infAP``).

    For a judged relevant item at rank j + 1 (j > 0), with ``r`` judged relevant,
    ``n`` judged non-relevant and ``u`` pooled but unjudged items above it:
    ``1 / (j + 1) + j / (j + 1) * (r + n + u) / j * (r + e) / (r + n + 2e)``,
    ``e = 0.00001``; at rank 1 it is 1. infAP is their sum over R. Items
    never pooled count as non-relevant (they only add to j).

    Parameters
    ----------
    relevances : sequence of float or None
        Grades of the ranked items, position 1 first; None marks an item
        nobody judged. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list.
    pooled : sequence of bool or None, default None
        Which ranked items were in the judgement pool, judged or not
        (trec_eval: in the qrels, a negative grade meaning pooled but not
        judged). None: exactly the judged ones, and infAP is AP over R.
    n_relevant : int or None, default None
        R, the judged relevant items of the query in total; None counts them in ``relevances``.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> infap([1, 0, 1], n_relevant=2)  # everything pooled was judged: AP = (1 + 2/3) / 2
    0.8333333333333333
    >>> round(infap([1, None, 1], pooled=[True, True, True], n_relevant=2), 4)  # pooled, unjudged: relevant as 1 of 1
    1.0
    """
    grades, judged, pooled, k, threshold = _checked(relevances, k, pooled, threshold, negative)
    total, _relevant, terms = infap_steps(grades, judged, pooled, k, threshold, n_relevant)
    return _value(total, terms)


def explain_infap(relevances, k=None, *, pooled=None, n_relevant=None, threshold=1, negative="raise", ranking=None):
    """infAP with every step: each judged relevant item's estimated precision, then their sum over R.

    ``ranking`` names the ranked items; other parameters as in :func:`infap`.

    Examples
    --------
    >>> print(explain_infap([1, None, 1], pooled=[True, False, True], n_relevant=2).formula)
    infAP = (1.0000 + 0.6667) / 2 = 0.8333
    """
    grades, judged, pooled, k, threshold = _checked(relevances, k, pooled, threshold, negative)
    labels = check_items(ranking, grades.size)
    total, relevant, terms = infap_steps(grades, judged, pooled, k, threshold, n_relevant)
    value = _value(total, terms)
    shown = relevant.size
    contributions = terms / total if total else terms
    rows = rows_of(COLUMNS, range(1, shown + 1), labels[:shown], grades[:shown].tolist(), pooled[:shown].tolist(),
                   judged[:shown].tolist(), relevant.tolist(), contributions.tolist(), _running(total, terms).tolist())
    name = at("infAP", k)
    kept = [number(term) for term in terms[relevant]]
    if total and kept:
        formula = f"{name} = ({' + '.join(kept)}) / {total} = {number(value)}"
    else:
        formula = _("{name} = 0 (no judged relevant item in the list)").format(name=name)
    notes = (threshold_note(threshold),
             _("at a judged relevant item at rank j + 1: 1/(j+1) + j/(j+1) * (r + n + u)/j * (r + e)/(r + n + 2e), "
               "r, n, u the judged relevant, judged non-relevant and pooled unjudged items above it, e = 0.00001"),
             _("items never pooled count as non-relevant; pooled unjudged ones as relevant in the judged proportion"))
    return Trace(name, value, rows, formula, rf"\mathrm{{{name}}} = {number(value)}", COLUMNS, notes)


register_metric(Metric(
    "infap", "infAP@{k}", "binary", infap, explain_infap,
    mark("AP estimated from a judged sample of the pool"), "12-incomplete-judgements", order=97,
    names={"infAP": {}}, needs=("judged", "pooled", "n_relevant", "threshold"), params={}, columns=COLUMNS))
