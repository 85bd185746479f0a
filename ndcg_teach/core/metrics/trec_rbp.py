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

The gains are trec_eval's gain map (:mod:`ndcg_teach.trec_gains`) as 10.0
reads it: a parameter whose name is not a whole number (``p``) names no level.
``m_rbp.c`` leaves its running minimum and maximum unset: they start from
whatever the measure computed before it left on the stack, which
:func:`rescaled` takes as ``start`` (0 and 0 by default, what trec_eval 10.0-rc3
holds there when no earlier measure wrote a number; ``docs/trec_eval.md`` says
which do).
"""


import math
import struct
from dataclasses import replace

import numpy as np

from ..formulas import at, number
from ..i18n import _, gettext, mark
from ..mean import running_sum
from ..measures import TREC_EVAL
from ..registry import Metric, Param, call, register_metric
from ..trace import CONTRIBUTION, GAIN, GRADE, ITEM, JUDGED, POSITION, RUNNING, Trace, rows_of
from ..trec_gains import TrecGains
from ..validation import check_items, check_judged_relevances, check_k, shown
from .trec_ndcg import c_divide, query_levels, trec_ndcg_steps
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
    """trec_eval 10.0's rbp gains: when any gain of the query's list (:mod:`~ndcg_teach.trec_gains`) lies outside
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


# trec_eval 10.0-rc3's measures before rbp in its table, and what each one's calc function leaves in m_rbp.c's two
# stack slots (its unset minimum, its unset maximum) when it runs for a query, read from a debug build of the same
# source: a count or an address (as a double a tiny positive number, read as 0), a count that ends at -1 (as a double
# NaN), nothing, or (in _written) a double it computed.
_COUNT = 0.0  # a count or an address
_MINUS_ONE = struct.unpack("d", struct.pack("q", -1))[0]  # the long -1 read as a double: a NaN
_BOTH, _MAXIMUM = (_COUNT, _COUNT), (None, _COUNT)
_SLOTS = {"runid": _BOTH, "num_q": _BOTH, "num_ret": _BOTH, "num_rel": _BOTH, "num_rel_ret": _BOTH, "map": _BOTH,
          "Rprec": _BOTH, "bpref": _BOTH, "recip_rank": _MAXIMUM, "iprec_at_recall": (None, _MINUS_ONE), "P": _BOTH,
          "recall": _BOTH, "infAP": _BOTH, "gm_bpref": _MAXIMUM, "Rprec_mult": _BOTH,
          "utility": _MAXIMUM, "11pt_avg": (None, _MINUS_ONE), "binG": _BOTH, "map_cut": _BOTH, "relative_P": _BOTH,
          "success": _BOTH, "set_P": _BOTH, "set_relative_P": _BOTH, "set_recall": _BOTH, "set_map": _BOTH,
          "num_nonrel_judged_ret": _BOTH}


def _stop_gain(table):
    """The gain the ideal walk of trec_eval's ndcg loops ends on: the first level with items whose gain is not
    positive, 0 past the last level, or the top entry's gain when that is not positive."""
    if not table or table[-1].gain <= 0:
        return table[-1].gain if table else 0.0
    return next((entry.gain for entry in reversed(table) if entry.count and entry.gain <= 0), 0.0)


def _written(measure, query, values, row):
    """``(minimum slot, maximum slot)`` as ``measure``'s calc function leaves them for ``query`` (None: not
    written), for the ones that leave a double there; 0 for the rest."""
    family = measure.family
    grades, judged, levels, counts = query_levels(
        [float(g) if seen else None for g, seen in zip(query.grades.tolist(), query.judged.tolist())],
        query.pool, query.n_nonrelevant, query.threshold, query.pooled, "zero")
    if family in ("G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg"):
        gains = TrecGains(measure.parameter or (), "10.0")
        table = gains.table(counts)
        ideal, stop = np.array(gains.ideal(table)), _stop_gain(table)
        if family == "Rndcg":
            return (stop, stop) if query.n_relevant else (None, None)
        if family == "G":
            return stop, running_sum(ideal)
        return stop, float(trec_ndcg_steps(np.zeros(0), ideal)[1][-1]) if ideal.size else 0.0
    if family == "ndcg_cut":
        cut = int(measure.parameter)
        results = np.where(levels[:cut] > 0, levels[:cut], 0).astype(float)
        ideal = np.array(sorted((level for level, n in enumerate(counts) for _ in range(n) if level > 0),
                                reverse=True)[:cut], dtype=float)
        dcg, idcg = trec_ndcg_steps(results, ideal)
        return (float(dcg[-1]) if dcg.size else 0.0), (float(idcg[-1]) if idcg.size else 0.0)
    if family == "set_F":
        found = int((judged & (grades >= query.threshold)).sum())
        if not found:
            return None, None
        return found / grades.size, found / query.n_relevant
    if family == "gm_map":
        return None, math.log(max(float(values[measure.name][row]), 1e-5))  # the logarithm trec_eval keeps
    if family == "Rprec" and not min(grades.size, query.n_relevant):
        return None, _COUNT  # it returns before its loop counter is set
    if family == "relstring":  # its last character lands on the maximum's top byte: a small positive number
        return _COUNT, _COUNT if min(int(measure.parameter[0]), grades.size) > 0 else None
    return _SLOTS.get(family, (None, None))


def leftover(query, measures, values=None, row=0):
    """What m_rbp.c's unset running minimum and maximum gain hold when trec_eval 10.0-rc3 computes rbp for ``query``
    (one query: a :class:`~ndcg_teach.context.Query` with its pool and counts), given the ``measures`` asked for
    (:func:`~ndcg_teach.measures.parse_measures`): the locals that the last measure before rbp in trec_eval's table
    left in those two stack slots (an ndcg's final ideal gain and IDCG, an ndcg_cut's DCG and IDCG at its last
    cut-off, G's ideal gain and its sum, set_F's P and R, ...); 0 when none did. ``values`` holds the measures' values
    so far (gm_map's logarithms).

    >>> from ndcg_teach.context import Query
    >>> from ndcg_teach.measures import parse_measures
    >>> query = Query.of([0, 1, None, 2], pool=[2, 1, 1], n_relevant=3, n_nonrelevant=1, unjudged=True)
    >>> [round(value, 4) for value in leftover(query, parse_measures(["ndcg_cut.2", "rbp"], trec_eval="10.0"))]
    [0.6309, 2.6309]
    """
    low = high = 0.0
    families = {}
    for measure in measures:
        if measure.trec is not None and measure.family != "rbp":
            families.setdefault(measure.family, []).append(measure)
    order = [trec.name for trec in TREC_EVAL]
    for family in sorted(families, key=order.index):
        if order.index(family) > order.index("rbp"):
            continue
        chosen = families[family][0]
        if family == "ndcg_cut":
            chosen = replace(chosen, parameter=max(m.parameter for m in families[family]))
        written = _written(chosen, query, values or {}, row)
        low, high = (low if written[0] is None else written[0]), (high if written[1] is None else written[1])
    return low, high


def rbp_values(query, measure, measures, values):
    """trec_eval 10.0-rc3's rbp of each query of a batch, each with its :func:`leftover`."""
    spec = measure.spec
    return np.array([call(spec, query.row(row), measure.k, **{**measure.keywords,
                                                              "leftover": leftover(query.row(row), measures, values,
                                                                                   row)})
                     for row in range(query.grades.shape[0])])


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
