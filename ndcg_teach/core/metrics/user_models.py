"""User models: ERR's cascade (Chapelle et al. 2009) and RBP's patient reader (Moffat & Zobel 2008).

NDCG discounts position i by ``1/log2(i + 1)`` because later items are seen
less; these two metrics say why, each with a model of the reader. ERR's reader
scans down the list and stops at item i with probability
``R_i = (2^grade - 1) / 2^max_grade``: ERR is the expected ``1/rank`` of the
item where they stop. RBP's reader goes on from one item to the next with
probability ``p``: RBP is the expected share of relevant items among those
read, and its residual says how much the score could still rise if the
unjudged items (``None``) and everything below the evaluated depth were
relevant. Lesson 11 drags items and watches NDCG, ERR and RBP disagree.
"""

from types import MappingProxyType

import numpy as np

from ..binary import relevant_flags
from ..formulas import at, number, sum_line, threshold_note
from ...i18n import _, mark
from ..registry import Metric, Param, register_metric
from ..steps import Steps
from ..trace import CONTRIBUTION, DISCOUNT, GRADE, ITEM, JUDGED, POSITION, RELEVANT, RUNNING, Column, Row, Trace, rows_of
from ..validation import (check_grade_ceiling, check_items, check_judged_relevances, check_k, check_open_unit,
                          check_relevances, check_threshold)

__all__ = [
    "expected_reciprocal_rank", "explain_expected_reciprocal_rank", "rank_biased_precision",
    "explain_rank_biased_precision", "rbp_residual",
]

P_MEANING = mark("the chance the reader goes on from one item to the next")

STOP = Column("stop", mark("stop probability"), "number", mark("the chance that the reader stops at this item"))
REACH = Column("reach", mark("P(reach i)"), "number", mark("the chance that the reader reads this far"))
WEIGHT = Column("weight", "p^(i-1)", "number", mark("the chance that a reader of persistence p reads this position"))
RESIDUAL = Column("residual", mark("residual"), "number", mark("what this position could still add if it were relevant"))
ERR_COLUMNS = (POSITION, ITEM, GRADE, STOP, REACH, DISCOUNT, CONTRIBUTION, RUNNING)
RBP_COLUMNS = (POSITION, ITEM, GRADE, JUDGED, RELEVANT, WEIGHT, CONTRIBUTION, RUNNING, RESIDUAL)
RESIDUAL_COLUMNS = (POSITION, ITEM, GRADE, JUDGED, WEIGHT, RESIDUAL)
MAX_GRADE_PARAM = Param(float, (), None, "the top of the grading scale (an item of that grade stops the reader with "
                                         "probability 1 - 2^-max_grade); None: the largest grade given")
P_PARAM = Param(float, (), 0.8, "persistence, between 0 and 1: " + P_MEANING)


# ERR


def err_steps(grades, k, max_grade):
    """``(steps, stop, reach)`` of ERR: its steps (``discounts`` 1/i), each item's stop probability and P(reach i)."""
    shown = grades[:k]
    # (2^g - 1) / 2^m written as 2^(g - m) - 2^(-m): the same number, and no overflow for a large max_grade.
    stop = np.exp2(shown - max_grade) - np.exp2(-max_grade)
    reach = np.concatenate(([1.0], np.cumprod(1.0 - stop)[:-1])) if shown.size else np.zeros(0)
    discounts = 1.0 / np.arange(1, shown.size + 1, dtype=np.float64)
    contributions = stop * reach * discounts
    return Steps(shown, contributions, np.cumsum(contributions), discounts=discounts), stop, reach


def _checked_err(relevances, k, max_grade, negative):
    grades = check_relevances(relevances, negative)
    return grades, check_k(k), check_grade_ceiling(max_grade, grades)


def expected_reciprocal_rank(relevances, k=None, *, max_grade=None, negative="raise"):
    """Expected reciprocal rank: the expected ``1/rank`` of the item where a cascading reader stops.

    ``ERR = sum_i (1/i) * R_i * prod_{j<i} (1 - R_j)`` with stop probability
    ``R_i = (2^grade_i - 1) / 2^max_grade`` (Chapelle, Metzler, Zhang &
    Grinspan 2009). A perfect item early on leaves little chance of reading
    further, so a second good item adds less than NDCG would give it.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list.
    max_grade : float or None, default None
        The top of the grading scale: an item of that grade stops the reader
        with probability ``1 - 2^-max_grade``. None uses the largest grade in
        ``relevances`` (the whole list, not only the top ``k``). gdeval (TREC
        Web track, ir_measures' ``ERR@k``) fixes it at 4.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval and gdeval do.

    Returns
    -------
    float
        In [0, 1).

    See Also
    --------
    explain_expected_reciprocal_rank, reciprocal_rank. Lesson 11 teaches ERR.

    Examples
    --------
    Grades 0-2: the stop probabilities are 0, 1/4 and 3/4.

    >>> expected_reciprocal_rank([2, 0, 1])  # 3/4 * 1/1 + 0 + (1/4 * 1/4) * 1/3 = 3/4 + 1/48
    0.7708333333333334
    >>> expected_reciprocal_rank([1, 0, 2])  # 1/4 + (3/4 * 3/4) * 1/3 = 1/4 + 3/16
    0.4375
    >>> expected_reciprocal_rank([2, 0, 1], max_grade=4)  # gdeval's 0-4 scale: 3/16 + (13/16 * 1/16) * 1/3
    0.20442708333333334
    """
    grades, k, max_grade = _checked_err(relevances, k, max_grade, negative)
    return err_steps(grades, k, max_grade)[0].total


def explain_expected_reciprocal_rank(relevances, k=None, *, max_grade=None, negative="raise", ranking=None):
    """ERR with every step: each item's stop probability, the chance of reaching it, and what it adds.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`expected_reciprocal_rank`.

    Examples
    --------
    >>> trace = explain_expected_reciprocal_rank([2, 0, 1])
    >>> print(trace.formula)
    ERR = 0.7500*1.0000/1 + 0.0000*0.2500/2 + 0.2500*0.2500/3 = 0.7500 + 0.0000 + 0.0208 = 0.7708
    >>> [(row.stop, row.reach) for row in trace.rows]
    [(0.75, 1.0), (0.0, 0.25), (0.25, 0.25)]
    """
    grades, k, top = _checked_err(relevances, k, max_grade, negative)
    labels = check_items(ranking, grades.size)
    steps, stop, reach = err_steps(grades, k, top)
    name = at("ERR", k)
    rows = rows_of(ERR_COLUMNS, range(1, steps.grades.size + 1), labels, steps.grades.tolist(), stop.tolist(),
                   reach.tolist(), steps.discounts.tolist(), steps.contributions.tolist(), steps.running.tolist())
    symbols = [f"{number(s)}*{number(p)}/{i}" for i, (s, p) in enumerate(zip(stop, reach), start=1)]
    formula = sum_line(name, symbols, steps.contributions, steps.total)
    terms = " + ".join(rf"\frac{{{number(s)} \cdot {number(p)}}}{{{i}}}"
                       for i, (s, p) in enumerate(zip(stop, reach), start=1)) or "0"
    latex = rf"\mathrm{{{name}}} = {terms} = {number(steps.total)}"
    stop = (_("stop probability R_i = (2^grade - 1) / 2^{top:g} (max_grade: the largest grade given)")
            if max_grade is None else _("stop probability R_i = (2^grade - 1) / 2^{top:g} (max_grade)"))
    notes = (stop.format(top=top), _("P(reach i) = product of (1 - R_j) over the items j above i"))
    return Trace(name, steps.total, rows, formula, latex, ERR_COLUMNS, notes)


# RBP


def rbp_steps(grades, judged, k, p, threshold):
    """``(steps, weights, unjudged_weights, tail)``: RBP's steps, p^(i-1), what unjudged items could add, and p^depth."""
    shown, seen = grades[:k], judged[:k]
    relevant = seen & relevant_flags(shown, threshold)
    weights = p ** np.arange(shown.size, dtype=np.float64)
    contributions = (1 - p) * weights * relevant
    unjudged = (1 - p) * weights * ~seen
    depth = grades.size if k is None else k
    steps = Steps(shown, contributions, np.cumsum(contributions), gains=relevant.astype(np.float64), discounts=weights,
                  relevant=relevant)
    return steps, weights, unjudged, p ** depth


def _residual(unjudged, tail):
    # The weights of all positions sum to 1; rounding must not push the residual of an all-unjudged list above it.
    return min(float(unjudged.sum() + tail), 1.0)


def _checked_rbp(relevances, k, p, threshold, negative):
    grades, judged = check_judged_relevances(relevances, negative)
    return grades, judged, check_k(k), check_open_unit("p", p, P_MEANING), check_threshold(threshold)


def rank_biased_precision(relevances, k=None, *, p=0.8, threshold=1, negative="raise"):
    """Rank-biased precision: the expected share of relevant items among those a patient reader looks at.

    The reader always reads item 1 and goes on from item i to i + 1 with
    probability ``p``, so they read ``1 / (1 - p)`` items on average and item
    i with probability ``p^(i-1)``: ``RBP = (1 - p) * sum_i rel_i * p^(i-1)``
    with ``rel_i`` 1 for a relevant item, else 0 (Moffat & Zobel 2008). No
    ideal ranking is needed, and the value never depends on items that were
    not judged or not reached; :func:`rbp_residual` says how much they could add.

    Parameters
    ----------
    relevances : sequence of float or None
        Grades of the ranked items, position 1 first; ``None`` marks an
        unjudged item, which counts as not relevant here and adds to the
        residual. An empty list scores 0.
    k : int or None, default None
        Evaluation depth; None uses the whole list. Positions past the end of
        a shorter list count as not relevant, as for P@k.
    p : float, default 0.8
        Persistence, strictly between 0 and 1: 0.5 for an impatient reader
        (about 2 items), 0.8 (about 5), 0.95 (about 20).
    threshold : float, default 1
        Smallest grade that counts as relevant. ranx's ``rbp`` multiplies by
        the grade itself instead, which can exceed 1 with graded judgements;
        no ndcg_teach keyword does that.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float
        In [0, 1 - p^depth].

    See Also
    --------
    rbp_residual, explain_rank_biased_precision. Lesson 11 teaches RBP.

    Examples
    --------
    >>> round(rank_biased_precision([1, 0, 1]), 4)  # 0.2 * (0.8^0 + 0.8^2) = 0.2 * 1.64
    0.328
    >>> rank_biased_precision([1, 1, 0, 0], p=0.5)  # 0.5 * (1 + 0.5)
    0.75
    """
    grades, judged, k, p, threshold = _checked_rbp(relevances, k, p, threshold, negative)
    return rbp_steps(grades, judged, k, p, threshold)[0].total


def rbp_residual(relevances, k=None, *, p=0.8, threshold=1, negative="raise"):
    """RBP's residual: how much RBP could still rise if every unjudged or unread item were relevant.

    ``residual = (1 - p) * sum over unjudged i <= depth of p^(i-1) + p^depth``,
    where the depth is ``k`` (or the list length when ``k`` is None): the
    weight of the unjudged items in the list plus the weight of every
    position below the depth. The true RBP of the ranking, once everything is
    judged and read, lies between RBP and RBP + residual (Moffat & Zobel 2008).

    Parameters are those of :func:`rank_biased_precision`.

    Returns
    -------
    float

    See Also
    --------
    rank_biased_precision, explain_rank_biased_precision. Lesson 12 uses it.

    Examples
    --------
    >>> rbp_residual([1, None, 0], p=0.5)  # unjudged position 2: 0.5 * 0.5; below position 3: 0.5^3
    0.375
    >>> rank_biased_precision([1, None, 0], p=0.5)  # so the true RBP lies in [0.5, 0.875]
    0.5
    """
    grades, judged, k, p, threshold = _checked_rbp(relevances, k, p, threshold, negative)
    unjudged, tail = rbp_steps(grades, judged, k, p, threshold)[2:]
    return _residual(unjudged, tail)


def explain_rank_biased_precision(relevances, k=None, *, p=0.8, threshold=1, negative="raise", ranking=None):
    """RBP with every step: each position's weight ``p^(i-1)``, what it adds, and the residual.

    ``trace.parts["residual"]`` is the residual's own trace (its value is
    :func:`rbp_residual`). ``ranking`` names the ranked items (default
    ``#1, #2, ...``); other parameters as in :func:`rank_biased_precision`.

    Examples
    --------
    >>> trace = explain_rank_biased_precision([1, None, 0], p=0.5)
    >>> print(trace.formula)
    RBP = (1 - 0.5) * (0.5^0) = 0.5 * 1.0000 = 0.5000
    residual = (1 - 0.5) * (0.5^1) + 0.5^3 = 0.2500 + 0.1250 = 0.3750  (unjudged items, then every position below 3)
    >>> trace.parts["residual"].value
    0.375
    """
    grades, judged, k, p, threshold = _checked_rbp(relevances, k, p, threshold, negative)
    labels = check_items(ranking, grades.size)
    steps, weights, unjudged, tail = rbp_steps(grades, judged, k, p, threshold)
    depth = grades.size if k is None else k
    name = at("RBP", k)
    seen = judged[: steps.grades.size].tolist()
    rows = rows_of(RBP_COLUMNS, range(1, steps.grades.size + 1), labels,
                   [g if j else None for g, j in zip(steps.grades.tolist(), seen)], seen, steps.relevant.tolist(),
                   weights.tolist(), steps.contributions.tolist(), steps.running.tolist(), unjudged.tolist())
    picked = [i for i, rel in enumerate(steps.relevant) if rel]
    powers = " + ".join(f"{p:g}^{i}" for i in picked) or "0"
    sum_relevant = float(weights[picked].sum()) if picked else 0.0
    formula = f"RBP = (1 - {p:g}) * ({powers}) = {1 - p:g} * {number(sum_relevant)} = {number(steps.total)}"
    if k is not None:
        formula = formula.replace("RBP", name, 1)
    open_positions = [i for i, j in enumerate(judged[: steps.grades.size]) if not j]
    residual = _residual(unjudged, tail)
    parts_text = (f"(1 - {p:g}) * ({' + '.join(f'{p:g}^{i}' for i in open_positions)}) + " if open_positions else "")
    if not depth:
        why = _("nothing was read: every position is open")
    elif open_positions:
        why = _("unjudged items, then every position below {depth}").format(depth=depth)
    else:
        why = _("every position below {depth}").format(depth=depth)
    sums = f"{parts_text}{p:g}^{depth}" + (f" = {number(float(unjudged.sum()))} + {number(tail)}" if open_positions else "")
    residual_line = _("residual = {sums} = {value}  ({why})").format(sums=sums, value=number(residual), why=why)
    latex = rf"\mathrm{{{name}}} = (1 - {p:g}) \cdot ({powers}) = {number(steps.total)}"
    notes = (threshold_note(threshold), _("the reader goes on to the next item with probability p = {p:g}").format(p=p),
             _("unjudged items (None) count as not relevant; the residual says how much they could add"))
    residual_rows = tuple(Row(**{column.key: getattr(row, column.key) for column in RESIDUAL_COLUMNS}) for row in rows)
    residual_trace = Trace(_("residual of {name}").format(name=name), residual, residual_rows, residual_line,
                           rf"\mathrm{{residual}} = {number(residual)}", RESIDUAL_COLUMNS, notes)
    return Trace(name, steps.total, rows, f"{formula}\n{residual_line}", latex, RBP_COLUMNS, notes,
                 parts=MappingProxyType({"residual": residual_trace}))


register_metric(Metric(
    "err", "ERR@{k}", "graded", expected_reciprocal_rank, explain_expected_reciprocal_rank,
    mark("expected 1 / rank where a cascading reader stops (graded)"), "11-user-models", order=45,
    names={"ERR@{k}": {"max_grade": 4}}, needs=(), params={"max_grade": MAX_GRADE_PARAM}, columns=ERR_COLUMNS))
register_metric(Metric(
    "rbp", "RBP@{k}", "binary", rank_biased_precision, explain_rank_biased_precision,
    mark("share of relevant items a reader of persistence p sees"), "11-user-models", order=90,
    needs=("judged", "threshold"), params={"p": P_PARAM}, columns=RBP_COLUMNS))
