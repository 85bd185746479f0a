"""Q-measure (Sakai 2004, 2007): average precision with graded gains blended into the precision at each relevant item.

At each relevant position ``r`` Q-measure reads the *blended ratio*

``BR(r) = (C(r) + beta * cg(r)) / (r + beta * cg*(r))``

where ``C(r)`` is the number of relevant items in the top ``r`` (so ``C(r) / r``
is P@r), ``cg(r)`` the cumulative gain of the ranking (each relevant item's
grade is its gain) and ``cg*(r)`` that of the ideal ranking, the relevant items
of the query sorted by grade. ``Q = (1/R) * sum of BR(r)`` over the relevant
positions; with a cut-off, ``Q@k`` sums the top ``k`` and divides by
``min(k, R)``, as NTCIREVAL does. ``beta = 0`` gives AP exactly; a larger
``beta`` weighs the grades more. Lesson 05 teaches AP, which Q-measure extends.
"""

from numbers import Real

import numpy as np

from ..binary import batch_denominators, checked_binary, divided, hit_arrays
from ..formulas import at, averaged, threshold_note
from ...i18n import _, mark
from ..registry import Metric, Param, register_metric
from ..steps import Steps
from ..trace import CONTRIBUTION, GAIN, GRADE, HITS, ITEM, POSITION, RELEVANT, RUNNING, Column, Trace, rows_of
from ..validation import check_items, check_n_relevant, check_pool, check_positive

__all__ = ["q_measure", "explain_q_measure"]

CUMULATIVE = Column("cg", "cg(i)", "number", mark("the gain of the relevant items up to this position"))
IDEAL_CUMULATIVE = Column("ideal_cg", "cg*(i)", "number",
                          mark("the same sum for the ideal ranking: the relevant items, highest grade first"))
BLENDED = Column("blended", "BR(i)", "number",
                 mark("blended ratio (hits + beta cg) / (i + beta cg*): P@i when beta is 0"))
Q_COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, HITS, GAIN, CUMULATIVE, IDEAL_CUMULATIVE, BLENDED, CONTRIBUTION, RUNNING)
BETA_MEANING = mark("how much the graded gains weigh against the hits (or exactly 0, which gives AP)")
BETA = Param(float, (), 1.0, BETA_MEANING)


def _beta(beta):
    """``beta`` as a float >= 0: 0 is AP, and any positive finite weight is Q-measure."""
    if isinstance(beta, Real) and not isinstance(beta, (bool, np.bool_)) and beta == 0:
        return 0.0
    return check_positive("beta", beta, BETA_MEANING)


def q_steps(grades, k, beta, threshold, pool, totals):
    """``(steps, cg, ideal_cg, blended)`` of one list or of a batch (one row per query, padded with 0).

    ``steps.gains`` holds each item's gain (its grade when relevant, else 0),
    ``steps.denominator`` what the blended ratios are divided by: ``R``, or
    ``min(k, R)`` with a cut-off.
    """
    relevant, hits, _precision = hit_arrays(grades, k, threshold)
    width = relevant.shape[-1]
    gains = np.where(relevant, grades[..., :k], 0.0)
    source = grades if pool is None else pool
    ideal = -np.sort(-np.where(source >= threshold, source, 0.0), axis=-1)[..., :width]
    ideal = np.pad(ideal, [(0, 0)] * (ideal.ndim - 1) + [(0, width - ideal.shape[-1])])
    cumulative, ideal_cumulative = np.cumsum(gains, axis=-1), np.cumsum(ideal, axis=-1)
    blended = (hits + beta * cumulative) / (np.arange(1, width + 1) + beta * ideal_cumulative)
    denominator = totals if k is None else np.minimum(totals, k)
    contributions = divided(np.where(relevant, blended, 0.0), denominator)
    steps = Steps(grades[..., :k], contributions, np.cumsum(contributions, axis=-1), gains=gains, relevant=relevant,
                  hits=hits, denominator=denominator)
    return steps, cumulative, ideal_cumulative, blended


def _checked(relevances, k, beta, pool, n_relevant, threshold, negative):
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    pool = None if pool is None else check_pool(pool, grades, negative)
    listed = int((grades >= threshold).sum())
    total = listed if pool is None else int((pool >= threshold).sum())
    total = total if n_relevant is None else check_n_relevant(n_relevant, listed)
    return grades, k, _beta(beta), pool, total, threshold


def q_measure(relevances, k=None, *, beta=1.0, pool=None, n_relevant=None, threshold=1, negative="raise"):
    """Q-measure: the blended ratio at each relevant position, summed and divided by R (Sakai 2004).

    ``Q = (1/R) * sum over relevant positions r of (C(r) + beta cg(r)) / (r + beta cg*(r))``:
    AP whose precision ``C(r)/r`` is blended with how close the ranking's
    cumulative gain ``cg(r)`` comes to the ideal ranking's ``cg*(r)``. With a
    cut-off, ``Q@k`` sums the top ``k`` and divides by ``min(k, R)``
    (NTCIREVAL's ``Q@k``). A grade is an item's gain, as NTCIREVAL's gain
    values are (``-g 1:2:3``); grades below ``threshold`` count as not
    relevant and gain nothing.

    Parameters
    ----------
    relevances, k, threshold, negative
        As in :func:`average_precision`: the grades in ranked order, the
        cut-off, the smallest relevant grade, how negative grades are read.
    beta : float, default 1.0
        How much the graded gains weigh against the hits; 0 gives AP exactly.
    pool : sequence of float or None, default None
        Grades of every judged item of the query, retrieved or not: the ideal
        ranking and R come from it, as NTCIREVAL does. None uses the list itself.
    n_relevant : int or None, default None
        R, the relevant items of the query in total; None counts the relevant
        grades of the pool (or of the list). Q is 0.0 when it is 0.

    Returns
    -------
    float
        From 0 to 1; 1 for the ideal ranking.

    See Also
    --------
    explain_q_measure, average_precision. Lesson 05 teaches AP.

    Examples
    --------
    >>> q_measure([3, 0, 1])  # BR(1) = (1 + 3)/(1 + 3), BR(3) = (2 + 4)/(3 + 4): ((4/4) + (6/7)) / 2
    0.9285714285714286
    >>> round(q_measure([0, 3, 0, 2], pool=[3, 3, 3, 2, 2, 2, 1, 1, 1, 1]), 4)  # NTCIREVAL's sample: 0.0967
    0.0967
    >>> q_measure([0, 1, 1], beta=0)  # AP: (1/2 + 2/3) / 2
    0.5833333333333333
    """
    grades, k, beta, pool, total, threshold = _checked(relevances, k, beta, pool, n_relevant, threshold, negative)
    return q_steps(grades, k, beta, threshold, pool, total)[0].total


def explain_q_measure(relevances, k=None, *, beta=1.0, pool=None, n_relevant=None, threshold=1, negative="raise",
                      ranking=None):
    """Q-measure with every step: the hits, both cumulative gains and the blended ratio at each position.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`q_measure`.

    Examples
    --------
    >>> print(explain_q_measure([3, 0, 1]).formula)
    Q = (BR(1) + BR(3)) / 2 = (1.0000 + 0.8571) / 2 = 0.9286
    """
    grades, k, beta, pool, total, threshold = _checked(relevances, k, beta, pool, n_relevant, threshold, negative)
    labels = check_items(ranking, grades.size)
    steps, cumulative, ideal_cumulative, blended = q_steps(grades, k, beta, threshold, pool, total)
    rows = rows_of(Q_COLUMNS, range(1, steps.grades.size + 1), labels, steps.grades.tolist(), steps.relevant.tolist(),
                   steps.hits.tolist(), steps.gains.tolist(), cumulative.tolist(), ideal_cumulative.tolist(),
                   blended.tolist(), steps.contributions.tolist(), steps.running.tolist())
    name, denominator = at("Q", k), int(steps.denominator)
    picked = [(f"BR({i})", ratio) for i, (rel, ratio) in enumerate(zip(steps.relevant, blended), start=1) if rel]
    formula, latex = averaged(name, k, picked, denominator, steps.total, None if k is None else f"min({k}, {total})")
    source = _("every judged grade of the query (pool)") if pool is not None else _("the ranked list itself")
    notes = (threshold_note(threshold), _("beta = {beta:g}; beta = 0 would give AP").format(beta=beta),
             _("ideal order built from {source}").format(source=source),
             _("R = {total} relevant items in the query").format(total=total))
    return Trace(name, steps.total, rows, formula, latex, Q_COLUMNS, notes)


def q_measure_batch(grades, lengths, k=None, *, beta=1.0, pool=None, n_relevant=None, threshold=1):
    """Q-measure of each row of ``grades`` (one query per row, padded with 0), from :func:`q_steps`. Lesson 09.

    Examples
    --------
    >>> q_measure_batch(np.array([[3.0, 0.0, 1.0], [0.0, 2.0, 0.0]]), np.array([3, 2])).round(4)
    array([0.9286, 0.75  ])
    """
    listed = (grades >= threshold).sum(axis=-1)
    found = listed if pool is None else (pool >= threshold).sum(axis=-1)
    totals = found if n_relevant is None else batch_denominators(n_relevant, listed)
    return q_steps(grades, k, _beta(beta), threshold, pool, totals)[0].totals


register_metric(Metric(
    "q_measure", "Q@{k}", "graded", q_measure, explain_q_measure,
    mark("AP with each precision blended with how close the gains come to the ideal's"), "05-average-precision-map-rr",
    order=75, batch=q_measure_batch, names={"Q": {}, "Q@{k}": {}}, needs=("pool", "n_relevant", "threshold"),
    params={"beta": BETA}, columns=Q_COLUMNS))
