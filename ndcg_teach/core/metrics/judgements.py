"""Incomplete judgements: bpref (Buckley & Voorhees 2004) and condensed lists (Sakai 2007).

TREC judges only the pooled top items of the systems it had; a new system can
retrieve items nobody judged. The metrics of lessons 04-07 read such an item
as "not relevant" (write its grade as 0). Here ``None`` marks it instead, so
that the choice is a switch: bpref uses only the judged items, and
:func:`condensed` drops the unjudged ones so that any metric can be computed
on the judged items alone. Lesson 12 teaches both.
"""

import numpy as np

from ..binary import relevant_flags
from ..formulas import at, number, threshold_note
from ...i18n import _, mark
from ..registry import Metric, register_metric
from ..trace import CONTRIBUTION, GRADE, ITEM, JUDGED, POSITION, RELEVANT, RUNNING, Column, Trace, rows_of
from ..validation import (check_items, check_judged_relevances, check_k, check_n_nonrelevant, check_n_relevant,
                          check_threshold)

__all__ = ["bpref", "explain_bpref", "condensed"]

NONRELEVANT_ABOVE = Column("nonrelevant_above", mark("non-relevant above"), "count",
                           mark("judged non-relevant items ranked above this one"))
BPREF_COLUMNS = (POSITION, ITEM, GRADE, JUDGED, RELEVANT, NONRELEVANT_ABOVE, CONTRIBUTION, RUNNING)


def condensed(relevances):
    """The ranked list with its unjudged items (``None``) removed, the rest in the same order.

    Sakai (2007): computing AP, NDCG, ... on the condensed list ranks systems
    almost as the complete judgements would, where reading unjudged items as
    not relevant under-scores systems that find new relevant items.
    trec_eval's ``-J`` option does the same.

    Parameters
    ----------
    relevances : sequence of float or None
        Grades of the ranked items, position 1 first; None marks an unjudged item.

    Returns
    -------
    list
        The judged grades, as given.

    See Also
    --------
    bpref. Lesson 12 teaches condensed lists.

    Examples
    --------
    >>> from ndcg_teach import average_precision
    >>> run = [None, 1, 0, None, 1]
    >>> condensed(run)
    [1, 0, 1]
    >>> average_precision(condensed(run))  # (1/1 + 2/3) / 2: on the judged items alone
    0.8333333333333333
    >>> average_precision([0, 1, 0, 0, 1])  # unjudged read as not relevant: (1/2 + 2/5) / 2
    0.45
    """
    check_judged_relevances(relevances, negative="zero")
    return [value for value in relevances if value is not None]


def bpref_steps(grades, judged, k, threshold, n_relevant, n_nonrelevant):
    """``(R, N, relevant, nonrelevant_above, contributions, running)`` for the top ``k``: what each judged relevant
    item adds, and bpref so far (the kept shares added up, then divided by R, as trec_eval divides once)."""
    relevant = judged & relevant_flags(grades, threshold)
    nonrelevant = judged & ~relevant
    total = check_n_relevant(n_relevant, int(relevant.sum()))
    negatives = check_n_nonrelevant(n_nonrelevant, int(nonrelevant.sum()))
    shown = slice(None, k)
    above = np.cumsum(nonrelevant[shown], dtype=np.int64) - nonrelevant[shown]
    if total == 0:
        return total, negatives, relevant[shown], above, np.zeros(above.size), np.zeros(above.size)
    # An item with no judged non-relevant item above it keeps all its preferences (this also avoids 0 / 0 when N = 0).
    kept = np.where(above > 0, 1.0 - np.minimum(above, total) / max(min(negatives, total), 1), 1.0)
    kept = np.where(relevant[shown], kept, 0.0)
    return total, negatives, relevant[shown], above, kept / total, np.cumsum(kept) / total


def _checked(relevances, k, threshold, negative):
    grades, judged = check_judged_relevances(relevances, negative)
    return grades, judged, check_k(k), check_threshold(threshold)


def bpref(relevances, k=None, *, n_relevant=None, n_nonrelevant=None, threshold=1, negative="raise"):
    """bpref: how often judged relevant items are ranked above judged non-relevant ones; unjudged items are ignored.

    ``bpref = (1/R) * sum over judged relevant items r of (1 - min(n_r, R) / min(N, R))``
    where ``n_r`` counts the judged non-relevant items above r, R the
    relevant and N the judged non-relevant items of the query (Buckley &
    Voorhees 2004, as trec_eval computes it). An item with no judged
    non-relevant item above it adds ``1/R``. The 2004 paper divides by R;
    trec_eval's ``min(N, R)`` keeps the score meaningful when fewer than R
    non-relevant items were judged. trec_eval reads a negative qrels grade as
    "in the pool but unjudged": write None for such an item.

    Parameters
    ----------
    relevances : sequence of float or None
        Grades of the ranked items, position 1 first; None marks an unjudged
        item, which bpref skips. An empty list scores 0.
    k : int or None, default None
        Cut the list to its top ``k`` first; None (trec_eval's ``bpref``)
        keeps the whole list.
    n_relevant : int or None, default None
        R: relevant items of the query, retrieved or not. None counts the
        judged relevant items in ``relevances``. A query with R = 0 scores 0.
    n_nonrelevant : int or None, default None
        N: judged non-relevant items of the query, retrieved or not. None
        counts them in ``relevances``.
    threshold : float, default 1
        Smallest grade that counts as relevant; a judged item below it is a
        judged non-relevant item.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0 (judged non-relevant).

    Returns
    -------
    float

    See Also
    --------
    explain_bpref, condensed. Lesson 12 teaches bpref.

    Examples
    --------
    >>> bpref([1, 0, None, 1], n_relevant=3, n_nonrelevant=2)  # (1 + (1 - 1/2) + 0) / 3, min(N, R) = 2
    0.5
    >>> bpref([1, 0, 1], n_relevant=3, n_nonrelevant=2)  # the unjudged item changes nothing
    0.5
    """
    grades, judged, k, threshold = _checked(relevances, k, threshold, negative)
    running = bpref_steps(grades, judged, k, threshold, n_relevant, n_nonrelevant)[5]
    return float(running[-1]) if running.size else 0.0


def explain_bpref(relevances, k=None, *, n_relevant=None, n_nonrelevant=None, threshold=1, negative="raise",
                  ranking=None):
    """bpref with every step: for each judged relevant item, how many judged non-relevant items are above it.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`bpref`.

    Examples
    --------
    >>> trace = explain_bpref([1, 0, None, 1], n_relevant=3, n_nonrelevant=2)
    >>> print(trace.formula)
    bpref = (1/R) * sum of (1 - min(n_r, R) / min(N, R)) = (1/3) * ((1 - 0/2) + (1 - 1/2)) = 0.5000
    >>> [row.nonrelevant_above for row in trace.rows]
    [0, 0, 1, 1]
    """
    grades, judged, k, threshold = _checked(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    total, negatives, relevant, above, contributions, running = bpref_steps(grades, judged, k, threshold, n_relevant,
                                                                            n_nonrelevant)
    value = float(running[-1]) if running.size else 0.0
    seen = judged[: above.size].tolist()
    rows = rows_of(BPREF_COLUMNS, range(1, above.size + 1), labels,
                   [g if j else None for g, j in zip(grades.tolist(), seen)], seen, relevant.tolist(), above.tolist(),
                   contributions.tolist(), running.tolist())
    name = at("bpref", k)
    cap = min(negatives, total)
    terms = [f"(1 - {min(int(n), total)}/{cap})" if cap else "1" for n, rel in zip(above, relevant) if rel]
    if total == 0:
        formula = _("{name} = 0 (the query has no relevant item, R = 0)").format(name=name)
    elif not terms:
        formula = (_("{name} = 0 (no judged relevant item)") if k is None
                   else _("{name} = 0 (no judged relevant item in the top {k})")).format(name=name, k=k)
    else:
        formula = _("{name} = (1/R) * sum of (1 - min(n_r, R) / min(N, R)) = (1/{total}) * ({terms}) = {value}").format(
            name=name, total=total, terms=" + ".join(terms), value=number(value))
    latex = rf"\mathrm{{{name}}} = {number(value)}"
    notes = (threshold_note(threshold),
             _("R = {total} relevant, N = {negatives} judged non-relevant items").format(total=total, negatives=negatives),
             _("unjudged items (None) are skipped: they neither help nor hurt"))
    return Trace(name, value, rows, formula, latex, BPREF_COLUMNS, notes)


register_metric(Metric(
    "bpref", "bpref@{k}", "binary", bpref, explain_bpref,
    mark("share of judged non-relevant items ranked below the relevant ones; unjudged items skipped"),
    "12-incomplete-judgements", order=95, names={"bpref": {}, "Bpref": {}},
    needs=("judged", "threshold", "n_relevant", "n_nonrelevant"), params={}, columns=BPREF_COLUMNS))
