"""Cumulative gain and its discounted and normalised forms: CG, DCG, IDCG, NDCG.

Each metric sits beside its ``explain_*`` twin, and both are thin layers over
:func:`dcg_steps`, which keeps each position's grade, gain, discount,
contribution and running total: the value is the last running total of the
same steps the table shows, so a number and its explanation never disagree.
Lessons 01 to 03 teach these metrics.
"""

import warnings
from collections import defaultdict, deque
from types import MappingProxyType

import numpy as np

from ..deprecation import renamed
from ..discounts import discount_name, discount_symbol, discount_values
from ..formulas import at, beyond_note, number, sum_line
from ..gains import gain_name, gain_symbol, gain_values, ideal_grades
from ..i18n import _, mark
from ..mean import mean
from ..registry import Metric, register_metric
from ..steps import Steps
from ..trace import NOT_RETRIEVED, Row, Trace
from ..validation import check_items, check_k, check_pool, check_relevances, check_zero_idcg, shown

__all__ = [
    "cg", "dcg", "idcg", "ndcg", "explain_cg", "explain_dcg", "explain_idcg", "explain_ndcg", "mean_ndcg",
]

DCG_COLUMNS = ("position", "item", "grade", "gain", "discount", "contribution", "running")


# ---- Steps --------------------------------------------------------------------------------------

def dcg_steps(grades, k=None, gain="linear", discount="log2", log_base=2):
    """Steps of the DCG of already-checked ``grades`` (float64 array, or 2-D: one query per row) cut at ``k``."""
    grades = grades[..., :k]
    gains = gain_values(grades, gain)
    discounts = discount_values(grades.shape[-1], discount, log_base)
    contributions = gains * discounts
    return Steps(grades, gains, discounts, contributions, np.cumsum(contributions, axis=-1))


def cg_steps(grades, k=None):
    """Steps of the CG of already-checked ``grades``: every position counts in full."""
    grades = grades[..., :k]
    return Steps(grades, grades, np.ones(grades.shape[-1]), grades, np.cumsum(grades, axis=-1))


def ideal_steps(grades, k, gain, discount, log_base, pool):
    """Steps of the IDCG: every judged grade (``pool``, or the list itself) in the order of falling gain."""
    source = grades if pool is None else pool
    return dcg_steps(ideal_grades(source, gain, k), k, gain, discount, log_base)


def checked(relevances, k, negative, pool=None):
    """``(grades, k, pool)`` checked; ``pool`` stays None when none is given."""
    grades = check_relevances(relevances, negative)
    k = check_k(k)
    return grades, k, None if pool is None else check_pool(pool, grades, negative)


def normalise(dcg_value, idcg_value, zero_idcg):
    """``dcg_value / idcg_value``, or ``zero_idcg`` when the ideal is 0 (element-wise for arrays)."""
    if np.ndim(idcg_value):
        positive = idcg_value > 0
        if zero_idcg == "raise" and not positive.all():
            normalise(0.0, 0.0, zero_idcg)
        return np.where(positive, dcg_value / np.where(positive, idcg_value, 1.0), zero_idcg)
    if idcg_value > 0:
        return dcg_value / idcg_value
    if zero_idcg == "raise":
        raise ValueError(
            "IDCG is 0 (no judged item has a positive gain), so NDCG = DCG / IDCG is undefined. "
            "Pass zero_idcg=0.0 (scikit-learn, trec_eval) or zero_idcg=1.0 (LightGBM) to choose a value. Got zero_idcg='raise' instead."
        )
    return zero_idcg


# ---- CG ---------------------------------------------------------------------------------------

def cg(relevances, k=None, *, negative="raise"):
    """Cumulative gain: the sum of the grades in the top ``k`` positions.

    CG ignores order: any shuffle of the same top ``k`` grades has the same CG.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut-off; None sums the whole list.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    See Also
    --------
    explain_cg : the same number with every step shown. Lesson 01 teaches CG.

    Examples
    --------
    >>> cg([5, 2, 3])  # 5 + 2 + 3
    10.0
    >>> cg([2, 3, 5]) == cg([5, 2, 3])  # order does not matter
    True
    >>> cg([5, 2, 3], k=2)  # 5 + 2
    7.0
    """
    grades, k = checked(relevances, k, negative)[:2]
    return cg_steps(grades, k).total


@renamed(items="ranking")
def explain_cg(relevances, k=None, *, negative="raise", ranking=None):
    """CG with every step: the grades of the top ``k`` added up.

    ``ranking`` names the ranked items (ids, best first) in the table; by
    default they are called ``#1, #2, ...``. Other parameters as in :func:`cg`.

    Examples
    --------
    >>> print(explain_cg([5, 2, 3], ranking=["A", "B", "C"]).formula)
    CG@3 = 5 + 2 + 3 = 10.0000
    """
    grades, k = checked(relevances, k, negative)[:2]
    labels = check_items(ranking, grades.size)
    steps = cg_steps(grades, k)
    name = at("CG", k or grades.size or None)
    rows = tuple(
        Row(position, labels[position - 1], float(g), float(g), 1.0, float(g), float(r))
        for position, (g, r) in enumerate(zip(steps.grades, steps.running), start=1)
    )
    terms = [f"{g:g}" for g in steps.grades]
    formula = f"{name} = {' + '.join(terms) or _('0 (no positions)')} = {number(steps.total)}{beyond_note(k, grades.size)}"
    latex = rf"\mathrm{{{name}}} = {' + '.join(terms) or '0'} = {steps.total:g}"
    notes = (_("CG ignores order: any shuffle of the same top-k grades gives the same CG"),)
    return Trace(name, steps.total, rows, formula, latex, ("position", "item", "grade", "running"), notes)


# ---- DCG --------------------------------------------------------------------------------------

def dcg(relevances, k=None, *, gain="linear", discount="log2", log_base=2, negative="raise"):
    """Discounted cumulative gain of the top ``k`` positions.

    ``DCG@k = sum_{i=1..k} gain(rel_i) * discount(i)``; positions beyond the
    end of the list add 0.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list.
    gain : {"linear", "exponential"}, mapping or callable, default "linear"
        "linear" is ``rel`` (trec_eval, scikit-learn); "exponential" is
        ``2**rel - 1`` (Burges et al.); a ``{grade: gain}`` mapping (trec_eval's
        ``-m ndcg.1=3.5,2=9``, ir_measures' ``gains=``) or a callable that maps
        an array of grades to gains.
    discount : {"log2", "jarvelin"}, default "log2"
        "log2" multiplies position ``i`` by ``1/log_b(i+1)``; "jarvelin" is the
        original form: no discount before position ``b``, ``1/log_b(i)`` after.
    log_base : float, default 2
        The base ``b``. It scales DCG but never changes NDCG under "log2".
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    See Also
    --------
    explain_dcg : every step of the sum. Lesson 02 teaches DCG.

    Examples
    --------
    >>> round(dcg([5, 2, 3]), 4)  # 5/log2(2) + 2/log2(3) + 3/log2(4) = 5 + 1.2619 + 1.5
    7.7619
    >>> round(dcg([5, 2, 3], gain="exponential"), 4)  # 31/1 + 3/1.585 + 7/2
    36.3928
    >>> round(dcg([5, 2, 3], discount="jarvelin"), 4)  # 5 + 2/log2(2) + 3/log2(3)
    8.8928
    """
    grades, k = checked(relevances, k, negative)[:2]
    return dcg_steps(grades, k, gain, discount, log_base).total


def _dcg_parts(steps, gain, discount, log_base):
    """Formula pieces of a DCG: symbolic terms and LaTeX terms."""
    symbols, latex = [], []
    for position, grade in enumerate(steps.grades, start=1):
        numerator = gain_symbol(gain, grade)
        divisor = discount_symbol(position, discount, log_base)
        symbols.append(numerator if divisor is None else f"{numerator}/{divisor}")
        tex_num = numerator.replace("(2^", "(2^{").replace("-1)", "}-1)") if gain == "exponential" else numerator
        if divisor is None:
            latex.append(tex_num)
        else:
            arg = divisor[divisor.index("(") + 1 : -1]
            latex.append(rf"\frac{{{tex_num}}}{{\log_{{{log_base:g}}} {arg}}}")
    return symbols, latex


def _dcg_trace(name, steps, labels, gain, discount, log_base, k, n_listed, notes=(), ideal_items=()):
    rows = tuple(
        Row(position, labels[position - 1], float(g), float(gn), float(d), float(c), float(r))
        for position, (g, gn, d, c, r) in enumerate(
            zip(steps.grades, steps.gains, steps.discounts, steps.contributions, steps.running), start=1
        )
    )
    symbols, latex_terms = _dcg_parts(steps, gain, discount, log_base)
    formula = sum_line(name, symbols, steps.contributions, steps.total, beyond_note(k, n_listed))
    latex = rf"\mathrm{{{name}}} = {' + '.join(latex_terms) or '0'} = {number(steps.total)}"
    notes = (gain_name(gain), discount_name(discount, log_base), *notes)
    return Trace(name, steps.total, rows, formula, latex, DCG_COLUMNS, notes, ideal_items=ideal_items)


@renamed(items="ranking")
def explain_dcg(relevances, k=None, *, gain="linear", discount="log2", log_base=2, negative="raise", ranking=None):
    """DCG with every step: gain, discount and contribution of each position.

    ``ranking`` names the ranked items in the table (default ``#1, #2, ...``);
    other parameters as in :func:`dcg`.

    Examples
    --------
    >>> trace = explain_dcg([5, 2, 3], ranking=["A", "B", "C"])
    >>> print(trace.formula)
    DCG@3 = 5/log2(2) + 2/log2(3) + 3/log2(4) = 5.0000 + 1.2619 + 1.5000 = 7.7619
    >>> [round(row.discount, 4) for row in trace.rows]
    [1.0, 0.6309, 0.5]
    """
    grades, k = checked(relevances, k, negative)[:2]
    labels = check_items(ranking, grades.size)
    steps = dcg_steps(grades, k, gain, discount, log_base)
    return _dcg_trace(at("DCG", k or grades.size or None), steps, labels, gain, discount, log_base, k, grades.size)


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
    return _dcg_trace(
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
    dcg_trace = _dcg_trace(at("DCG", k or grades.size or None), dcg_steps(grades, k, gain, discount, log_base), labels,
                           gain, discount, log_base, k, grades.size)
    idcg_trace = _idcg_trace(grades, labels, k, gain, discount, log_base, pool)
    value = normalise(dcg_trace.value, idcg_trace.value, zero_idcg)
    cut = k or grades.size or None
    name, dcg_name, idcg_name = at("NDCG", cut), at("DCG", cut), at("IDCG", cut)
    if idcg_trace.value > 0:
        last = f"{name} = {dcg_name} / {idcg_name} = {number(dcg_trace.value)} / {number(idcg_trace.value)} = {number(value)}"
        last_tex = rf"\mathrm{{{name}}} = \frac{{{number(dcg_trace.value)}}}{{{number(idcg_trace.value)}}} = {number(value)}"
    else:
        last = _("{name}: {idcg_name} = 0 (nothing relevant to find), so NDCG takes zero_idcg = {value!r}").format(
            name=name, idcg_name=idcg_name, value=value)
        last_tex = rf"\mathrm{{{name}}} = {value!r} \quad (\mathrm{{IDCG}} = 0)"
    rows = []
    for index in range(max(len(dcg_trace.rows), len(idcg_trace.rows))):
        mine = dcg_trace.rows[index] if index < len(dcg_trace.rows) else Row(index + 1)
        ideal = idcg_trace.rows[index] if index < len(idcg_trace.rows) else Row(index + 1)
        rows.append(Row(index + 1, mine.item, mine.grade, mine.gain, mine.discount, mine.contribution, mine.running,
                        ideal_item=ideal.item, ideal_grade=ideal.grade, ideal_gain=ideal.gain,
                        ideal_discount=ideal.discount, ideal_contribution=ideal.contribution,
                        ideal_running=ideal.running))
    columns = DCG_COLUMNS + ("ideal_item", "ideal_grade", "ideal_gain", "ideal_contribution", "ideal_running")
    formula = "\n".join([dcg_trace.formula, idcg_trace.formula, last])
    latex = r" \\ ".join([dcg_trace.latex, idcg_trace.latex, last_tex])
    return Trace(name, value, tuple(rows), formula, latex, columns, idcg_trace.notes,
                 MappingProxyType({"dcg": dcg_trace, "idcg": idcg_trace}), idcg_trace.ideal_items)


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
# Each takes a 2-D array of grades (one query per row, padded with 0 after each list) and returns one
# value per query from the same steps as the functions above; evaluate() and mean() use them.

def _built_in(gain):
    if not isinstance(gain, str):
        raise TypeError(f"gain must be 'linear' or 'exponential' when many queries are computed at once (padding "
                        f"grade 0 must have gain 0). Got {shown(gain)} instead.")
    return gain


def cg_batch(grades, lengths, k=None):
    """CG of each row of ``grades``. Lesson 09."""
    return cg_steps(grades, k).totals


def dcg_batch(grades, lengths, k=None, *, gain="linear", discount="log2", log_base=2):
    """DCG of each row of ``grades``. Lesson 09."""
    return dcg_steps(grades, k, _built_in(gain), discount, log_base).totals


def idcg_batch(grades, lengths, k=None, *, gain="linear", discount="log2", log_base=2, pool=None):
    """IDCG of each row; ``pool`` holds each query's judged grades, one zero-padded row per query. Lesson 09."""
    return ideal_steps(grades, k, _built_in(gain), discount, log_base, pool).totals


def ndcg_batch(grades, lengths, k=None, *, gain="linear", discount="log2", log_base=2, pool=None, zero_idcg=0.0):
    """NDCG of each row of ``grades``: ``normalise(DCG, IDCG)`` of the same steps as :func:`ndcg`. Lesson 09.

    Examples
    --------
    >>> grades = np.array([[5.0, 2.0, 3.0], [0.0, 1.0, 0.0]])
    >>> ndcg_batch(grades, np.array([3, 2])).round(4)  # the second list holds 2 items, padded with 0
    array([0.9834, 0.6309])
    """
    dcg_totals = dcg_steps(grades, k, _built_in(gain), discount, log_base).totals
    return normalise(dcg_totals, ideal_steps(grades, k, gain, discount, log_base, pool).totals, check_zero_idcg(zero_idcg))


SPECS = (
    Metric("ndcg", "NDCG@{k}", "graded", ndcg, explain_ndcg, mark("DCG / IDCG: 1 means the best possible order"),
           "03-ideal-ranking-ndcg", order=10, batch=ndcg_batch,
           names={"ndcg_cut.{k}": {}, "ndcg": {}, "nDCG@{k}": {}, "nDCG": {}}),
    Metric("dcg", "DCG@{k}", "graded", dcg, explain_dcg, mark("gains of the top k, each times its position's discount"),
           "02-dcg-discounting", order=20, batch=dcg_batch),
    Metric("idcg", "IDCG@{k}", "graded", idcg, explain_idcg, mark("DCG of the ideal order"), "03-ideal-ranking-ndcg",
           order=30, batch=idcg_batch),
    Metric("cg", "CG@{k}", "graded", cg, explain_cg, mark("sum of the top k grades, order ignored"), "01-relevance-and-cg",
           order=40, batch=cg_batch),
)
for _spec in SPECS:
    register_metric(_spec)
