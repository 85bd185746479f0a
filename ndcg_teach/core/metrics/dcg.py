"""Cumulative gain and its discounted form: CG and DCG, and the steps every DCG-family metric is computed from.

Each metric sits beside its ``explain_*`` twin, and both are thin layers over
:func:`dcg_steps`, which keeps each position's grade, gain, discount,
contribution and running total: the value is the last running total of the
same steps the table shows, so a number and its explanation never disagree.
The ideal ranking and NDCG build on these steps in :mod:`.ndcg`. Lessons 01
and 02 teach CG and DCG.
"""

from collections.abc import Callable, Mapping

import numpy as np

from ..deprecation import renamed
from ..discounts import DISCOUNT_CHOICES, discount_name, discount_symbol, discount_values
from ..formulas import at, beyond_note, number, sum_line
from ..gains import GAIN_CHOICES, gain_name, gain_symbol, gain_values, ideal_grades
from ...i18n import _, gettext, mark
from ..registry import Metric, Param, register_metric
from ..steps import Steps
from ..trace import CONTRIBUTION, DISCOUNT, GAIN, GRADE, ITEM, POSITION, RUNNING, Trace, rows_of
from ..validation import check_items, check_k, check_pool, check_relevances, shown

__all__ = ["cg", "dcg", "explain_cg", "explain_dcg"]

DCG_COLUMNS = (POSITION, ITEM, GRADE, GAIN, DISCOUNT, CONTRIBUTION, RUNNING)
CG_COLUMNS = (POSITION, ITEM, GRADE, RUNNING)

# The conventions of every DCG-family metric (DCG, IDCG, NDCG).
GAIN_PARAM = Param((str, Mapping, Callable), GAIN_CHOICES, "linear",
                   "what a grade is worth: rel (linear), 2**rel - 1 (exponential), a {grade: gain} mapping or a function")
DISCOUNT_PARAM = Param(str, DISCOUNT_CHOICES, "log2",
                       "how a position is discounted: 1/log_b(i+1), or Järvelin and Kekäläinen's 1/log_b(i) from position b")
LOG_BASE_PARAM = Param(float, (), 2, "the logarithm's base b; it scales DCG but never changes NDCG under log2")
DCG_PARAMS = {"gain": GAIN_PARAM, "discount": DISCOUNT_PARAM, "log_base": LOG_BASE_PARAM}


# ---- Steps --------------------------------------------------------------------------------------

def dcg_steps(grades, k=None, gain="linear", discount="log2", log_base=2):
    """Steps of the DCG of already-checked ``grades`` (float64 array, or 2-D: one query per row) cut at ``k``."""
    grades = grades[..., :k]
    gains = gain_values(grades, gain)
    discounts = discount_values(grades.shape[-1], discount, log_base)
    contributions = gains * discounts
    return Steps(grades, contributions, np.cumsum(contributions, axis=-1), gains=gains, discounts=discounts)


def cg_steps(grades, k=None):
    """Steps of the CG of already-checked ``grades``: every position counts in full."""
    grades = grades[..., :k]
    return Steps(grades, grades, np.cumsum(grades, axis=-1), gains=grades, discounts=np.ones(grades.shape[-1]))


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
        raise ValueError(_(
            "IDCG is 0 (no judged item has a positive gain), so NDCG = DCG / IDCG is undefined. "
            "Pass zero_idcg=0.0 (scikit-learn, trec_eval) or zero_idcg=1.0 (LightGBM) to choose a value. Got zero_idcg='raise' instead."
        ))
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
    rows = rows_of(CG_COLUMNS, range(1, steps.grades.size + 1), labels, steps.grades.tolist(), steps.running.tolist())
    terms = [f"{g:g}" for g in steps.grades]
    formula = f"{name} = {' + '.join(terms) or _('0 (no positions)')} = {number(steps.total)}{beyond_note(k, grades.size)}"
    latex = rf"\mathrm{{{name}}} = {' + '.join(terms) or '0'} = {steps.total:g}"
    notes = (_("CG ignores order: any shuffle of the same top-k grades gives the same CG"),)
    return Trace(name, steps.total, rows, formula, latex, CG_COLUMNS, notes)


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


def dcg_trace(name, steps, labels, gain, discount, log_base, k, n_listed, notes=(), ideal_items=()):
    rows = rows_of(DCG_COLUMNS, range(1, steps.grades.size + 1), labels, steps.grades.tolist(), steps.gains.tolist(),
                   steps.discounts.tolist(), steps.contributions.tolist(), steps.running.tolist())
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
    return dcg_trace(at("DCG", k or grades.size or None), steps, labels, gain, discount, log_base, k, grades.size)


# ---- Many queries at once ---------------------------------------------------------------------
# Each takes a 2-D array of grades (one query per row, padded with 0 after each list) and returns one
# value per query from the same steps as the functions above; evaluate() and mean() use them.

def built_in(gain):
    """``gain`` when it is a named gain: the padding grade 0 must have gain 0, which a mapping need not give."""
    if not isinstance(gain, str):
        raise TypeError(gettext("gain must be 'linear' or 'exponential' when many queries are computed at once "
                                "(padding grade 0 must have gain 0). Got {got} instead.").format(got=shown(gain)))
    return gain


def cg_batch(grades, lengths, k=None):
    """CG of each row of ``grades``. Lesson 09."""
    return cg_steps(grades, k).totals


def dcg_batch(grades, lengths, k=None, *, gain="linear", discount="log2", log_base=2):
    """DCG of each row of ``grades``. Lesson 09."""
    return dcg_steps(grades, k, built_in(gain), discount, log_base).totals


register_metric(Metric(
    "dcg", "DCG@{k}", "graded", dcg, explain_dcg, mark("gains of the top k, each times its position's discount"),
    "02-dcg-discounting", order=20, batch=dcg_batch, names={"dcg": {}}, needs=(), params=DCG_PARAMS,
    columns=DCG_COLUMNS))
register_metric(Metric(
    "cg", "CG@{k}", "graded", cg, explain_cg, mark("sum of the top k grades, order ignored"), "01-relevance-and-cg",
    order=40, batch=cg_batch, needs=(), params={}, columns=CG_COLUMNS))
