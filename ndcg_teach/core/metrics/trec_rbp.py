"""trec_eval 10.0's rbp and rbp_resid: rank-biased precision with graded gains, and what unjudged items leave open.

RBP (Moffat and Zobel 2008) is ``(1 - p) * sum_i g_i p^(i-1)``: a reader
goes on from each position with probability ``p``. trec_eval 10.0's ``rbp``
(``m_rbp.c``) reads ``p`` from its parameters (``rbp.p=0.95``, default 0.9)
and takes each judged item's gain by level (``rbp.1=1,2=3``; a level's
number by default); when any gain lies outside [0, 1] every gain is rescaled
to ``(g - min) / (max - min)`` over the query's levels, so a query judged 0
to 4 gives grade 2 the gain 0.5. ``rbp_resid`` is how much RBP could still
rise if every unjudged item retrieved had gain 1, plus the mass past the end
of the list, ``p^n + (1 - p) * sum over unjudged i of p^(i-1)``; trec_eval
prints 0 when no retrieved item is unjudged. :func:`~ndcg_teach.rank_biased_precision`
is lesson 11's RBP with relevant / not relevant; these are trec_eval's.

The gains are trec_eval's gain map (:mod:`ndcg_teach.core.trec_gains`) as 10.0
reads it: a parameter whose name is not a whole number (``p``) names no level.
``m_rbp.c`` leaves its running minimum and maximum unset: they start from
whatever the measure computed before it left on the stack, which
:func:`rescaled` takes as ``start`` (0 and 0 by default, what trec_eval 10.0-rc3
holds there when no earlier measure wrote a number; ``docs/trec_eval.md`` says
which do; :mod:`ndcg_teach.runs.rbp_leftover` finds it for a query evaluated with other measures).
"""

import numpy as np

from ..formulas import at, number
from ...i18n import _, gettext, mark
from ..registry import Metric, Param, register_metric
from ..trace import CONTRIBUTION, GAIN, GRADE, ITEM, JUDGED, POSITION, RUNNING, Trace, rows_of
from ..trec_gains import TrecGains
from ..validation import check_items, check_judged_relevances, check_k, shown
from .trec_ndcg import c_divide, query_levels
from .user_models import RESIDUAL, WEIGHT

__all__ = ["trec_rbp", "explain_trec_rbp", "trec_rbp_resid", "explain_trec_rbp_resid"]

DEFAULT_P = 0.9
PARAMETERS = Param(object, (), None, "trec_eval's name=value parameters: p (persistence, default 0.9) and "
                                     "level=gain pairs")
LEFTOVER = Param(tuple, (), (0.0, 0.0), "what m_rbp.c's unset minimum and maximum gain hold when it starts (0 and 0; "
                                        "see leftover())")
RBP_COLUMNS = (POSITION, ITEM, GRADE, JUDGED, GAIN, WEIGHT, CONTRIBUTION, RUNNING)
RESID_COLUMNS = (POSITION, ITEM, GRADE, JUDGED, WEIGHT, RESIDUAL)


def _parameters(parameters):
    """The parameters as trec_eval 10.0 reads them (a name that is not a whole number, such as ``p``, is no level)."""
    found = TrecGains.of(parameters, "parameters", "{'p': 0.95, '2': 3.0}", version="10.0")
    return found if found.version == "10.0" else TrecGains(found.pairs, "10.0")


def _persistence(parameters):
    found = parameters.persistence
    return DEFAULT_P if found is None else found


def _weights(n, p):
    """p^0, p^1, ... as trec_eval multiplies them out, and p^n after the last."""
    weights, current = np.empty(n), 1.0
    for i in range(n):
        weights[i] = current
        current *= p
    return weights, current


def rescaled(table, start=(0.0, 0.0)):
    """trec_eval 10.0's rbp gains: when any gain of the query's list (:mod:`~ndcg_teach.core.trec_gains`) lies outside
    [0, 1], every gain becomes ``(g - min) / (max - min)``. m_rbp.c never sets the running ``min`` and ``max``
    before its loop: ``start`` is what they hold then (0 and 0 when no measure before it left a number there)."""
    low, high = start
    for entry in table:
        if entry.gain < low:
            low = entry.gain
        if entry.gain > high:
            high = entry.gain
    if low < 0 or high > 1:
        return [entry._replace(gain=c_divide(entry.gain - low, high - low)) for entry in table]
    return table


def rbp_steps(relevances, k, parameters, pool, pooled, negative, leftover=(0.0, 0.0)):
    """``(grades, judged, p, gains, weights, terms)``: each position's gain, p^(i-1) and what it adds to the sum."""
    parameters = _parameters(parameters)
    grades, judged, levels, counts = query_levels(relevances, pool, None, 1, pooled, negative)
    k = check_k(k)
    table = rescaled(parameters.table(counts), _leftover(leftover))
    grades, judged = grades[:k], judged[:k]
    p = _persistence(parameters)
    gains = np.array([parameters.gain_of(table, level) for level in levels[:k].tolist()])
    weights = _weights(grades.size, p)[0]
    return grades, judged, p, gains, weights, gains * weights


def trec_rbp(relevances, k=None, *, parameters=None, pool=None, pooled=None, leftover=(0.0, 0.0), negative="raise"):
    """trec_eval 10.0's rbp: ``(1 - p) * sum_i g_i p^(i-1)`` with graded gains rescaled to [0, 1].

    Parameters
    ----------
    relevances : sequence of float or None
        Grades of the ranked items, position 1 first; None marks an unjudged item (gain 0).
    k : int or None, default None
        Cut-off; None uses the whole list.
    parameters : mapping, TrecGains or None, default None
        trec_eval's ``rbp.p=0.95,2=3``: ``"p"`` the persistence (default
        0.9), each level's gain (default its number).
    pool : sequence of float or None, default None
        The grades of every judged item of the query: its levels decide the
        rescaling. None uses the list's judged items.
    pooled : sequence of bool or None, default None
        Which ranked items are in the qrels: an unjudged one that is (a
        negative grade) is level -2, one that is not level -1 (gain 0 unless named).
    leftover : (float, float), default (0.0, 0.0)
        What m_rbp.c's running minimum and maximum gain hold before its
        loop, which never sets them: trec_eval 10.0-rc3 leaves there what the
        measure computed before it wrote (:func:`leftover`); 0 and 0 otherwise.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> round(trec_rbp([1, 0, 1]), 4)  # 0.1 * (1 + 0.81)
    0.181
    >>> round(trec_rbp([2, 0, 1], pool=[4, 2, 1]), 5)  # levels 0-4: gains 2/4 and 1/4; 0.1 * (0.5 + 0.25 * 0.81)
    0.07025
    """
    *_, p, _gains, _weights_, terms = rbp_steps(relevances, k, parameters, pool, pooled, negative, leftover)
    return float((1.0 - p) * np.cumsum(terms)[-1]) if terms.size else 0.0


def explain_trec_rbp(relevances, k=None, *, parameters=None, pool=None, pooled=None, leftover=(0.0, 0.0),
                     negative="raise", ranking=None):
    """trec_eval's rbp with every step: each position's gain (rescaled), p^(i-1), and the running RBP.

    ``ranking`` names the ranked items; other parameters as in :func:`trec_rbp`.

    Examples
    --------
    >>> print(explain_trec_rbp([1, 0, 1]).formula)
    rbp = (1 - 0.9) * (1 * 1.0000 + 1 * 0.8100) = 0.1810
    """
    grades, judged, p, gains, weights, terms = rbp_steps(relevances, k, parameters, pool, pooled, negative, leftover)
    labels = check_items(ranking, grades.size)
    running = (1.0 - p) * np.cumsum(terms)
    value = float(running[-1]) if terms.size else 0.0
    name = at("rbp", k)
    parts = [f"{g:g} * {number(w)}" for g, w in zip(gains.tolist(), weights.tolist()) if g]
    formula = (f"{name} = (1 - {p:g}) * ({' + '.join(parts)}) = {number(value)}" if parts
               else _("{name} = 0 (no retrieved item has a gain)").format(name=name))
    rows = rows_of(RBP_COLUMNS, range(1, grades.size + 1), labels, grades.tolist(), judged.tolist(), gains.tolist(),
                   weights.tolist(), ((1.0 - p) * terms).tolist(), running.tolist())
    notes = (_("p = {p:g}; a gain outside [0, 1] rescales every level's gain to (g - min) / (max - min)").format(p=p),)
    return Trace(name, value, rows, formula, rf"\mathrm{{{name}}} = {number(value)}", RBP_COLUMNS, notes)


def _leftover(value):
    if not isinstance(value, tuple) or len(value) != 2 or not all(isinstance(v, (int, float)) for v in value):
        raise TypeError(gettext("leftover must be a pair of numbers (minimum, maximum), e.g. (0.0, 0.0). Got {got} "
                                "instead.").format(got=shown(value)))
    return float(value[0]), float(value[1])


def _residual(relevances, k, parameters, negative):
    grades, judged = check_judged_relevances(relevances, negative)
    k, parameters = check_k(k), _parameters(parameters)
    grades, judged = grades[:k], judged[:k]
    p = _persistence(parameters)
    weights, tail = _weights(grades.size, p)
    unjudged = np.where(judged, 0.0, weights)
    total = 0.0
    for weight in unjudged[~judged].tolist():
        total += weight
    value = tail + (1 - p) * total if (~judged).any() else 0.0
    return grades, judged, p, weights, unjudged, tail, float(value)


def trec_rbp_resid(relevances, k=None, *, parameters=None, negative="raise"):
    """trec_eval 10.0's rbp_resid: what RBP leaves open, ``p^n + (1 - p) * sum over unjudged i of p^(i-1)``.

    0 when no retrieved item is unjudged (trec_eval's rule, though ``p^n`` is
    still open); see :func:`~ndcg_teach.rbp_residual` for the residual that
    always counts it.

    Parameters
    ----------
    relevances : sequence of float or None
        Grades of the ranked items, position 1 first; None marks an unjudged item.
    k : int or None, default None
        Cut-off; None uses the whole list.
    parameters : mapping, TrecGains or None, default None
        trec_eval's ``rbp_resid.p=0.95``: ``"p"`` the persistence (default 0.9).
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> round(trec_rbp_resid([1, None, 0]), 4)  # 0.9^3 + 0.1 * 0.9
    0.819
    >>> trec_rbp_resid([1, 0, 0])
    0.0
    """
    return _residual(relevances, k, parameters, negative)[-1]


def explain_trec_rbp_resid(relevances, k=None, *, parameters=None, negative="raise", ranking=None):
    """rbp_resid with every step: which positions are unjudged and the weight each leaves open.

    ``ranking`` names the ranked items; other parameters as in :func:`trec_rbp_resid`.

    Examples
    --------
    >>> print(explain_trec_rbp_resid([1, None, 0]).formula)
    rbp_resid = 0.9^3 + (1 - 0.9) * (0.9000) = 0.8190
    """
    grades, judged, p, weights, unjudged, tail, value = _residual(relevances, k, parameters, negative)
    labels = check_items(ranking, grades.size)
    name = at("rbp_resid", k)
    parts = [number(w) for w in unjudged[~judged].tolist()]
    formula = (f"{name} = {p:g}^{grades.size} + (1 - {p:g}) * ({' + '.join(parts)}) = {number(value)}" if parts
               else _("{name} = 0 (no retrieved item is unjudged)").format(name=name))
    rows = rows_of(RESID_COLUMNS, range(1, grades.size + 1), labels, grades.tolist(), judged.tolist(),
                   weights.tolist(), ((1 - p) * unjudged).tolist())
    return Trace(name, value, rows, formula, rf"\mathrm{{{name}}} = {number(value)}", RESID_COLUMNS,
                 (_("p = {p:g}; p^n is the weight past the end of the list").format(p=p),))


register_metric(Metric(
    "trec_rbp", "rbp@{k}", "graded", trec_rbp, explain_trec_rbp,
    mark("RBP with graded gains rescaled to [0, 1] (trec_eval 10.0)"), "11-user-models", order=91,
    names={"rbp": {}, "rbp.{parameters}": {}}, needs=("judged", "pool", "pooled"),
    params={"parameters": PARAMETERS, "leftover": LEFTOVER},
    columns=RBP_COLUMNS))
register_metric(Metric(
    "trec_rbp_resid", "rbp_resid@{k}", "graded", trec_rbp_resid, explain_trec_rbp_resid,
    mark("how much RBP could still rise from unjudged items (trec_eval 10.0)"), "11-user-models", order=92,
    names={"rbp_resid": {}, "rbp_resid.{parameters}": {}}, needs=("judged",), params={"parameters": PARAMETERS},
    columns=RESID_COLUMNS))
