"""The precision-recall curve: precision and recall at every rank, interpolated precision, and the 11-point curve.

Reading down a ranking, recall rises each time a relevant item appears and
precision zigzags. Interpolated precision at recall r is the best precision
at any recall >= r, which turns the zigzag into a staircase that never rises;
the 11-point curve reads that staircase at recall 0.0, 0.1, ..., 1.0, so
that queries with different numbers of relevant items can be averaged
(trec_eval's ``iprec_at_recall_*``). Lesson 10 draws it
(:func:`ndcg_teach.plots.precision_recall_plot`).
"""

import math
from dataclasses import dataclass

import numpy as np

from ..binary import checked_binary, hit_arrays, relevant_flags
from ..formulas import number, threshold_note
from ...i18n import _, mark
from ..table import Table, formula_block, styled
from ..trace import GRADE, HITS, ITEM, POSITION, PRECISION, RECALL, RELEVANT, Column, Trace, rows_of
from ..validation import check_choice, check_items, check_n_relevant

__all__ = ["precision_recall_curve", "explain_precision_recall_curve", "PrecisionRecallCurve"]

RECALL_LEVELS = tuple(i / 10 for i in range(11))  # 0.0, 0.1, ..., 1.0: the same doubles as trec_eval's literals
CURVE_CONVENTIONS = ("trec_eval", "textbook", "trec_eval_10")
INTERPOLATED = Column("interpolated", mark("interpolated P"), "number",
                      mark("the best precision at any rank whose recall is at least this rank's"))
CURVE_COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, HITS, PRECISION, RECALL, INTERPOLATED)


def level_counts(n_relevant, convention, levels=RECALL_LEVELS):
    """How many relevant items must be found to reach each recall level of ``levels`` (:data:`RECALL_LEVELS`).

    "trec_eval" (release 9.0.8, the one pytrec_eval runs) computes
    ``(long) (level * R + 0.9)`` in floating point; "textbook" (Manning et
    al. 8.4: recall >= level) is ``ceil(level * R)`` in exact arithmetic. They
    differ only where rounding error meets the 0.9: for R = 3, trec_eval
    counts recall 0.7 as reached at 2 relevant items (0.7 * 3 is stored as
    2.0999..., and 2.0999... + 0.9 < 3), though 2/3 < 0.7; the textbook needs 3.
    "trec_eval_10" (its unreleased 10.0) rounds to the nearest, ``lround(level * R)``.

    Examples
    --------
    >>> level_counts(3, "trec_eval")[7], level_counts(3, "textbook")[7], level_counts(3, "trec_eval_10")[7]
    (2, 3, 2)
    """
    if convention == "trec_eval":
        return tuple(int(level * n_relevant + 0.9) for level in levels)
    if convention == "trec_eval_10":  # C's lround: halves away from zero
        return tuple(int(math.copysign(math.floor(abs(level * n_relevant) + 0.5), level)) for level in levels)
    if levels is not RECALL_LEVELS:
        return tuple(math.ceil(level * n_relevant) for level in levels)
    return tuple(-(-i * n_relevant // 10) for i in range(11))


@dataclass(frozen=True, eq=False)
class PrecisionRecallCurve:
    """Precision and recall at every rank, interpolated precision, and the 11-point curve of one ranking (lesson 10).

    Attributes
    ----------
    precision, recall : numpy.ndarray
        P@i and R@i at every rank i of the list.
    interpolated : numpy.ndarray
        Interpolated precision at each rank: the best precision at any rank
        whose recall is at least this rank's recall. It never rises.
    levels : tuple of float
        The recall levels the curve is read at (0.0, 0.1, ..., 1.0 unless others are asked for).
    at_levels : numpy.ndarray
        Interpolated precision at each level: the best precision at any rank
        that reached the level (0 when no rank did).
    counts : tuple of int
        Relevant items needed to reach each level under ``convention``.
    n_relevant : int
        R, the relevant items of the query.
    convention : {"trec_eval", "textbook", "trec_eval_10"}
        How a level counts as reached (see :func:`level_counts`).

    Examples
    --------
    >>> from ndcg_teach import precision_recall_curve
    >>> curve = precision_recall_curve([1, 0, 1], n_relevant=2)
    >>> curve.interpolated.round(4).tolist(), round(curve.eleven_point_average, 4)
    ([1.0, 1.0, 0.6667], 0.8485)
    """

    precision: np.ndarray
    recall: np.ndarray
    interpolated: np.ndarray
    levels: tuple
    at_levels: np.ndarray
    counts: tuple
    n_relevant: int
    convention: str

    @property
    def eleven_point_average(self):
        """The mean of the 11 interpolated precisions (trec_eval ``11pt_avg``)."""
        return float(np.mean(self.at_levels))

    def table(self):
        """The 11-point curve as a :class:`~ndcg_teach.core.table.Table`."""
        rows = tuple((f"{level:.1f}", count, float(value))
                     for level, count, value in zip(self.levels, self.counts, self.at_levels))
        return Table(_("11-point interpolated precision (R = {n_relevant}, {convention})").format(
                         n_relevant=self.n_relevant, convention=self.convention),
                     (_("recall"), _("relevant needed"), _("interpolated precision")), rows, align="rrr")

    def __str__(self):
        return _("{table}\n11-point average = {value}").format(table=self.table(), value=f"{self.eleven_point_average:.4f}")

    __repr__ = __str__

    def _repr_html_(self):
        return styled(self.table().html(), formula_block(f"11-point average = {self.eleven_point_average:.4f}"))


def curve_steps(grades, threshold, n_relevant, convention, levels=RECALL_LEVELS):
    """The :class:`PrecisionRecallCurve` of a checked list read at ``levels``, and its relevant flags and hits."""
    check_choice("convention", convention, CURVE_CONVENTIONS)
    total = check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum()))
    relevant, hits, precision = hit_arrays(grades, None, threshold)
    recall = hits / total if total else np.zeros(hits.size)
    # Best precision at any rank at or below each rank; a rank's recall is first reached at its last relevant item.
    best_below = np.maximum.accumulate(precision[::-1])[::-1] if hits.size else np.zeros(0)
    first_of_recall = np.searchsorted(hits, hits, side="left")
    interpolated = best_below[first_of_recall] if hits.size else np.zeros(0)
    counts = level_counts(total, convention, levels)
    at_levels = np.zeros(len(levels))
    if total and hits.size:
        for index, count in enumerate(counts):
            if count <= hits[-1]:
                at_levels[index] = best_below[np.searchsorted(hits, count, side="left")]
    for array in (precision, recall, interpolated, at_levels):
        array.setflags(write=False)
    return PrecisionRecallCurve(precision, recall, interpolated, tuple(levels), at_levels, counts, total,
                                convention), relevant, hits


def precision_recall_curve(relevances, *, n_relevant=None, threshold=1, convention="trec_eval", negative="raise"):
    """Precision, recall and interpolated precision at every rank, and the 11-point interpolated curve.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list gives
        empty arrays and eleven zeros.
    n_relevant : int or None, default None
        R, relevant items of the query in total (trec_eval's ``num_rel``).
        None counts the relevant items in ``relevances``. Levels above the
        recall the list reaches get precision 0.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    convention : {"trec_eval", "textbook", "trec_eval_10"}, default "trec_eval"
        When the list reaches a recall level: trec_eval 9.0.8's rounding (the
        numbers ``iprec_at_recall_*`` prints), exactly recall >= level as
        Manning et al. define it, or trec_eval 10.0's rounding to the nearest.
        See :func:`level_counts`; they rarely differ.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    PrecisionRecallCurve

    See Also
    --------
    explain_precision_recall_curve, ndcg_teach.plots.precision_recall_plot.
    Lesson 10 teaches the curve.

    Examples
    --------
    >>> curve = precision_recall_curve([1, 0, 1, 0, 0, 1], n_relevant=4)
    >>> curve.precision.round(4).tolist()  # P@i
    [1.0, 0.5, 0.6667, 0.5, 0.4, 0.5]
    >>> curve.recall.tolist()  # R@i
    [0.25, 0.25, 0.5, 0.5, 0.5, 0.75]
    >>> curve.interpolated.round(4).tolist()  # best precision at recall >= R@i
    [1.0, 1.0, 0.6667, 0.6667, 0.6667, 0.5]
    >>> curve.at_levels.round(4).tolist()  # recall 0.8 and above is never reached: 0
    [1.0, 1.0, 1.0, 0.6667, 0.6667, 0.6667, 0.5, 0.5, 0.0, 0.0, 0.0]
    """
    grades, threshold = checked_binary(relevances, None, threshold, negative)[::2]
    return curve_steps(grades, threshold, n_relevant, convention)[0]


def explain_precision_recall_curve(relevances, *, n_relevant=None, threshold=1, convention="trec_eval",
                                   negative="raise", ranking=None):
    """The curve with every step; the trace's value is the 11-point average (trec_eval ``11pt_avg``).

    Rows hold P@i, R@i and interpolated precision at each rank; the formula
    lists the 11 interpolated precisions. ``ranking`` names the ranked items
    (default ``#1, #2, ...``); other parameters as in
    :func:`precision_recall_curve`.

    Examples
    --------
    >>> print(explain_precision_recall_curve([1, 0, 1], n_relevant=2).formula)
    11-point average = (1.0000 + 1.0000 + 1.0000 + 1.0000 + 1.0000 + 1.0000 + 0.6667 + 0.6667 + 0.6667 + 0.6667 + 0.6667) / 11 = 0.8485
    """
    grades, threshold = checked_binary(relevances, None, threshold, negative)[::2]
    labels = check_items(ranking, grades.size)
    curve, relevant, hits = curve_steps(grades, threshold, n_relevant, convention)
    rows = rows_of(CURVE_COLUMNS, range(1, grades.size + 1), labels, grades.tolist(), relevant.tolist(), hits.tolist(),
                   curve.precision.tolist(), curve.recall.tolist(), curve.interpolated.tolist())
    value = curve.eleven_point_average
    formula = _("11-point average = ({terms}) / 11 = {value}").format(
        terms=" + ".join(number(v) for v in curve.at_levels), value=number(value))
    latex = rf"\frac{{1}}{{11}} \sum_{{r \in \{{0, 0.1, \dots, 1\}}}} p_\mathrm{{interp}}(r) = {number(value)}"
    reached = ", ".join(_("{level:.1f} at {count}").format(level=level, count=count)
                        for level, count in zip(curve.levels, curve.counts))
    notes = (threshold_note(threshold),
             _("R = {n_relevant}; recall level reached at this many relevant items ({convention}): {reached}").format(
                 n_relevant=curve.n_relevant, convention=convention, reached=reached),
             _("interpolated precision at recall r = the best precision at any rank with recall >= r"))
    return Trace(_("11-point average"), value, rows, formula, latex, CURVE_COLUMNS, notes)
