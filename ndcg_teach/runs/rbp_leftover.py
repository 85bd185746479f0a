"""What trec_eval 10.0-rc3's rbp starts from: the numbers the measures computed before it left on its stack.

``m_rbp.c`` leaves its running minimum and maximum gain unset (see :mod:`ndcg_teach.core.metrics.trec_rbp`), so
trec_eval's rbp of a query depends on which measures ran before it in the same command, in trec_eval's own order
(:data:`~ndcg_teach.runs.measures.TREC_EVAL`). :func:`leftover` finds those two numbers for one query and the
measures asked for; :func:`~ndcg_teach.evaluate` passes them to the rbp metric as ``leftover=``. ``docs/trec_eval.md``
says which measures write what.
"""

import math
import struct
from dataclasses import replace

import numpy as np

from ..core.mean import running_sum
from ..core.metrics.trec_ndcg import query_levels, trec_ndcg_steps
from ..core.registry import call
from ..core.trec_gains import TrecGains
from .measures import TREC_EVAL

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
    (one query: a :class:`~ndcg_teach.core.context.Query` with its pool and counts), given the ``measures`` asked for
    (:func:`~ndcg_teach.runs.measures.parse_measures`): the locals that the last measure before rbp in trec_eval's table
    left in those two stack slots (an ndcg's final ideal gain and IDCG, an ndcg_cut's DCG and IDCG at its last
    cut-off, G's ideal gain and its sum, set_F's P and R, ...); 0 when none did. ``values`` holds the measures' values
    so far (gm_map's logarithms).

    >>> from ndcg_teach.core.context import Query
    >>> from ndcg_teach.runs.measures import parse_measures
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
