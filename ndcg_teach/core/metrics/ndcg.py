"""The ideal ranking and normalised DCG: IDCG and NDCG, and their mean over queries.

IDCG is the DCG of the best possible order of the judged items; NDCG divides
DCG by it, so 1 means the best order. Both are computed from the DCG steps of
:mod:`.dcg`, and each sits beside its ``explain_*`` twin. Lesson 03 teaches
the ideal ranking and NDCG.
"""

import warnings
from collections import defaultdict, deque
from types import MappingProxyType


from ..deprecation import renamed
from ..formulas import at, number
from ...i18n import _, mark
from ..mean import mean
from ..registry import Metric, Param, register_metric
from ..trace import NOT_RETRIEVED, Column, Row, Trace
from ..validation import check_items, check_zero_idcg
from .dcg import (DCG_COLUMNS, DCG_PARAMS, dcg_trace, built_in, checked, dcg_steps, ideal_steps, normalise)

__all__ = ["idcg", "ndcg", "explain_idcg", "explain_ndcg", "mean_ndcg"]

IDEAL_ITEM = Column("ideal_item", mark("ideal item"), "text", mark("the item the ideal ranking puts here"))
IDEAL_GRADE = Column("ideal_grade", mark("ideal grade"), "grade", mark("the grade the ideal ranking puts here"))
IDEAL_GAIN = Column("ideal_gain", mark("ideal gain"), "number", mark("the gain of the ideal ranking's item"))
IDEAL_CONTRIBUTION = Column("ideal_contribution", mark("ideal contribution"), "number",
                            mark("what the ideal ranking's item adds to IDCG"))
IDEAL_RUNNING = Column("ideal_running", mark("running IDCG"), "number", mark("IDCG so far"))
IDEAL_COLUMNS = (IDEAL_ITEM, IDEAL_GRADE, IDEAL_GAIN, IDEAL_CONTRIBUTION, IDEAL_RUNNING)
NDCG_COLUMNS = DCG_COLUMNS + IDEAL_COLUMNS
ZERO_IDCG_PARAM = Param((float, str), (), 0.0, "NDCG when IDCG is 0 (nothing relevant to find): 0.0 (scikit-learn, "
                                              "trec_eval), 1.0 (LightGBM), 'nan' (recommenders) or 'raise'")

# ---- IDCG -------------------------------------------------------------------------------------

def idcg(relevances, k=None, *, gain="linear", discount="log2", log_base=2, pool=None, negative="raise"):
    """Ideal DCG: the DCG of the best possible order of the judged items.

    The ideal order puts the largest gains first (for the linear and
    exponential gains that is the highest grades first). Two choices are in
    use for which items it is built from:

    * ``pool=None`` (default): the ranked list itself, as scikit-learn and
      torchmetrics do. A list that misses a highly relevant item can then
      still reach NDCG = 1.
    * ``pool=[...]``: the grades of every judged item of the query, retrieved
      or not, as trec_eval, ranx and recommenders do. This is the stricter and
      usually the right choice: missing a relevant item costs NDCG. The ideal
      list then runs to ``k`` even when the ranked list is shorter.

    Parameters
    ----------
    relevances, k, gain, discount, log_base, negative
        As in :func:`dcg`.
    pool : sequence of float or None, default None
        Grades of all judged items of the query. It must contain every
        positive grade of ``relevances``.

    Returns
    -------
    float

    See Also
    --------
    explain_idcg. Lesson 03 teaches the ideal ranking.

    Examples
    --------
    >>> round(idcg([5, 2, 3]), 4)  # ideal order [5, 3, 2]: 5 + 3/log2(3) + 2/log2(4)
    7.8928
    >>> round(idcg([5, 2, 3], k=3, pool=[5, 4, 3, 2]), 4)  # a grade-4 item was judged, not retrieved
    9.0237
    >>> idcg([], pool=[2, 1])  # nothing retrieved: the ideal still comes from the judged items
    2.6309297535714578
    """
    grades, k, pool = checked(relevances, k, negative, pool)
    return ideal_steps(grades, k, gain, discount, log_base, pool).total


def _ideal_labels(grades, labels, ideal):
    """Label each ideal grade with a listed item of that grade, or "(not retrieved)"."""
    waiting = defaultdict(deque)
    for grade, label in zip(grades, labels):
        waiting[float(grade)].append(label)
    named = []
    for grade in ideal:
        queue = waiting[float(grade)]
        named.append(queue.popleft() if queue else NOT_RETRIEVED)
    return tuple(named)


def _idcg_trace(grades, labels, k, gain, discount, log_base, pool):
    steps = ideal_steps(grades, k, gain, discount, log_base, pool)
    ideal_labels = _ideal_labels(grades, labels, steps.grades)
    source = _("every judged grade of the query (pool)") if pool is not None else _("the ranked list itself")
    n_source = (grades if pool is None else pool).size
    return dcg_trace(
        at("IDCG", k or steps.grades.size or None), steps, ideal_labels, gain, discount, log_base, k, n_source,
        (_("ideal order built from {source}").format(source=source),), ideal_labels,
    )


@renamed(items="ranking")
def explain_idcg(relevances, k=None, *, gain="linear", discount="log2", log_base=2, pool=None, negative="raise",
                 ranking=None):
    """IDCG with every step: the DCG of the ideal order.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); an ideal
    item that the list does not hold shows as "(not retrieved)". Other
    parameters as in :func:`idcg`.

    Examples
    --------
    >>> trace = explain_idcg([5, 2, 3], ranking=["A", "B", "C"])
    >>> trace.ideal_items
    ('A', 'C', 'B')
    >>> print(trace.formula)
    IDCG@3 = 5/log2(2) + 3/log2(3) + 2/log2(4) = 5.0000 + 1.8928 + 1.0000 = 7.8928
    """
    grades, k, pool = checked(relevances, k, negative, pool)
    labels = check_items(ranking, grades.size)
    return _idcg_trace(grades, labels, k, gain, discount, log_base, pool)


# ---- NDCG -------------------------------------------------------------------------------------

def ndcg(relevances, k=None, *, gain="linear", discount="log2", log_base=2, pool=None, zero_idcg=0.0,
         negative="raise"):
    """Normalised DCG: ``DCG@k / IDCG@k``, between 0 and 1.

    Parameters
    ----------
    relevances, k, gain, discount, log_base, negative
        As in :func:`dcg`. An empty list scores 0 (or ``zero_idcg`` when
        nothing judged is relevant).
    pool : sequence of float or None, default None
        Grades of all judged items of the query; see :func:`idcg`.
    zero_idcg : float from 0 to 1, "nan" or "raise", default 0.0
        The value when IDCG is 0 (nothing relevant to find): 0.0 as in
        scikit-learn and trec_eval, 1.0 as in LightGBM and allRank, "nan"
        as in recommenders, or "raise" to refuse.

    Returns
    -------
    float

    See Also
    --------
    explain_ndcg : DCG and IDCG side by side. Lesson 03 teaches NDCG.

    Examples
    --------
    >>> round(ndcg([5, 2, 3]), 4)  # 7.7619 / 7.8928
    0.9834
    >>> round(ndcg([4, 5, 2, 3, 1], gain="exponential"), 4)
    0.8645
    >>> ndcg([0, 0, 0])  # nothing relevant: scikit-learn's and trec_eval's 0.0
    0.0
    >>> round(ndcg([1, 2], gain={1: 4, 2: 2}), 4)  # grade 1 is worth more, so [1, 2] is the ideal order
    1.0
    """
    grades, k, pool = checked(relevances, k, negative, pool)
    zero_idcg = check_zero_idcg(zero_idcg)
    dcg_value = dcg_steps(grades, k, gain, discount, log_base).total
    return normalise(dcg_value, ideal_steps(grades, k, gain, discount, log_base, pool).total, zero_idcg)


@renamed(items="ranking")
def explain_ndcg(relevances, k=None, *, gain="linear", discount="log2", log_base=2, pool=None, zero_idcg=0.0,
                 negative="raise", ranking=None):
    """NDCG with DCG and IDCG side by side, and the ideal order.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`ndcg`.

    Examples
    --------
    >>> trace = explain_ndcg([5, 2, 3], ranking=["A", "B", "C"])
    >>> print(trace.formula.splitlines()[-1])
    NDCG@3 = DCG@3 / IDCG@3 = 7.7619 / 7.8928 = 0.9834
    >>> trace.value == ndcg([5, 2, 3])
    True
    """
    grades, k, pool = checked(relevances, k, negative, pool)
    zero_idcg = check_zero_idcg(zero_idcg)
    labels = check_items(ranking, grades.size)
    dcg_part = dcg_trace(at("DCG", k or grades.size or None), dcg_steps(grades, k, gain, discount, log_base), labels,
                          gain, discount, log_base, k, grades.size)
    idcg_part = _idcg_trace(grades, labels, k, gain, discount, log_base, pool)
    value = normalise(dcg_part.value, idcg_part.value, zero_idcg)
    cut = k or grades.size or None
    name, dcg_name, idcg_name = at("NDCG", cut), at("DCG", cut), at("IDCG", cut)
    if idcg_part.value > 0:
        last = f"{name} = {dcg_name} / {idcg_name} = {number(dcg_part.value)} / {number(idcg_part.value)} = {number(value)}"
        last_tex = rf"\mathrm{{{name}}} = \frac{{{number(dcg_part.value)}}}{{{number(idcg_part.value)}}} = {number(value)}"
    else:
        last = _("{name}: {idcg_name} = 0 (nothing relevant to find), so NDCG takes zero_idcg = {value!r}").format(
            name=name, idcg_name=idcg_name, value=value)
        last_tex = rf"\mathrm{{{name}}} = {value!r} \quad (\mathrm{{IDCG}} = 0)"
    rows = []
    for index in range(max(len(dcg_part.rows), len(idcg_part.rows))):
        mine = dcg_part.rows[index].as_dict() if index < len(dcg_part.rows) else {}
        ideal = idcg_part.rows[index].as_dict() if index < len(idcg_part.rows) else {}
        values = {"position": index + 1, **{column.key: mine.get(column.key) for column in DCG_COLUMNS[1:]}}
        values.update({column.key: ideal.get(column.key.removeprefix("ideal_")) for column in IDEAL_COLUMNS})
        rows.append(Row(**values))
    formula = "\n".join([dcg_part.formula, idcg_part.formula, last])
    latex = r" \\ ".join([dcg_part.latex, idcg_part.latex, last_tex])
    return Trace(name, value, tuple(rows), formula, latex, NDCG_COLUMNS, idcg_part.notes,
                 MappingProxyType({"dcg": dcg_part, "idcg": idcg_part}), idcg_part.ideal_items)


# ---- Mean over queries -----------------------------------------------------------------------

def mean_ndcg(queries, k=None, *, per_query=None, **keywords):
    """Mean NDCG over queries: ``mean("ndcg", ...)``; keywords as in :func:`ndcg`.

    Parameters
    ----------
    queries : list of sequences of float
        One relevance list per query, in ranked order.
    k : int or None
        Cut-off for every query.
    per_query : dict, optional
        Keywords whose value differs per query, each with one value per
        query, e.g. ``{"pool": [pool_1, pool_2]}`` (trec_eval builds each
        query's ideal from its own judged items).
    **keywords
        Passed to :func:`ndcg` for every query (gain, discount, ...).

    Examples
    --------
    >>> round(mean_ndcg([[5, 2, 3], [0, 1]]), 4)  # (0.9834 + 0.6309) / 2
    0.8072
    >>> round(mean_ndcg([[3], [1]], per_query={"pool": [[3, 3], [1]]}), 4)  # the first query missed a grade-3 item
    0.8066
    """
    pools = keywords.pop("pools", None)
    if pools is not None:
        per_query = _pools_renamed(pools, per_query)
    return mean("ndcg", queries, k, per_query=per_query, **keywords)


def _pools_renamed(pools, per_query):
    warnings.warn("mean_ndcg(pools=...) is now spelled per_query={'pool': ...}; pools= will stop working in the next "
                  "release.", DeprecationWarning, stacklevel=3)
    return {**(per_query or {}), "pool": pools}


# ---- Many queries at once ---------------------------------------------------------------------

def idcg_batch(grades, lengths, k=None, *, gain="linear", discount="log2", log_base=2, pool=None):
    """IDCG of each row; ``pool`` holds each query's judged grades, one zero-padded row per query. Lesson 09."""
    return ideal_steps(grades, k, built_in(gain), discount, log_base, pool).totals


def ndcg_batch(grades, lengths, k=None, *, gain="linear", discount="log2", log_base=2, pool=None, zero_idcg=0.0):
    """NDCG of each row of ``grades``: ``normalise(DCG, IDCG)`` of the same steps as :func:`ndcg`. Lesson 09.

    Examples
    --------
    >>> import numpy as np
    >>> grades = np.array([[5.0, 2.0, 3.0], [0.0, 1.0, 0.0]])
    >>> ndcg_batch(grades, np.array([3, 2])).round(4)  # the second list holds 2 items, padded with 0
    array([0.9834, 0.6309])
    """
    dcg_totals = dcg_steps(grades, k, built_in(gain), discount, log_base).totals
    return normalise(dcg_totals, ideal_steps(grades, k, gain, discount, log_base, pool).totals, check_zero_idcg(zero_idcg))


register_metric(Metric(
    "ndcg", "NDCG@{k}", "graded", ndcg, explain_ndcg, mark("DCG / IDCG: 1 means the best possible order"),
    "03-ideal-ranking-ndcg", order=10, batch=ndcg_batch, names={"ndcg_cut.{k}": {}, "ndcg": {}, "nDCG@{k}": {}, "nDCG": {}},
    needs=("pool",), params={**DCG_PARAMS, "zero_idcg": ZERO_IDCG_PARAM}, columns=NDCG_COLUMNS))
register_metric(Metric(
    "idcg", "IDCG@{k}", "graded", idcg, explain_idcg, mark("DCG of the ideal order"), "03-ideal-ranking-ndcg", order=30,
    batch=idcg_batch, names={"ideal_dcg": {}}, needs=("pool",), params=DCG_PARAMS,
    columns=DCG_COLUMNS))
