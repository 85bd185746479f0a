"""trec_eval's measures read off the precision-recall curve: iprec_at_recall, 11pt_avg and Rprec_mult.

``iprec_at_recall.r`` is interpolated precision at recall level ``r``: the
best precision at any rank from the one where ``r`` of the relevant items
are found, a level counting as reached at ``(long) (r * R + 0.9)`` relevant
items (trec_eval 9.0.8, ``m_iprec_at_recall.c``; see
:func:`~ndcg_teach.core.metrics.pr_curve.level_counts`). ``11pt_avg`` is their mean
over the levels 0.0, 0.1, ..., 1.0 (or the levels given, ``11pt_avg.0.25,0.5``).
``Rprec_mult.m`` is precision at rank ``(long) (m * R + 0.9)``, a multiple of
R (``Rprec_mult.1.0`` is R-precision); positions past the end of the list
count as misses. The curve itself is :mod:`~ndcg_teach.core.metrics.pr_curve`'s;
lesson 10 draws it.
"""

import math
from numbers import Real

import numpy as np

from ..binary import checked_binary, relevant_flags
from ..formulas import at, number, threshold_note
from ...i18n import _, gettext, mark
from ..registry import Metric, Param, register_metric
from ..trace import GRADE, HITS, ITEM, POSITION, PRECISION, RECALL, RELEVANT, Trace, rows_of
from ..validation import check_items, check_n_relevant, shown
from .pr_curve import CURVE_COLUMNS, CURVE_CONVENTIONS, RECALL_LEVELS, curve_steps, level_counts

__all__ = ["iprec_at_recall", "explain_iprec_at_recall", "eleven_point_average", "explain_eleven_point_average",
           "rprec_mult", "explain_rprec_mult"]

CONVENTION_PARAM = Param(str, CURVE_CONVENTIONS, "trec_eval", "when a recall level r counts as reached: trec_eval "
                         "9.0.8's (long) (r R + 0.9) relevant items, recall >= r exactly, or trec_eval 10.0's lround(r R)")
RPREC_COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, HITS, PRECISION, RECALL)


def _level(name, value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real) or not math.isfinite(value):
        raise TypeError(gettext("{name} must be a finite number, e.g. 0.5. Got {got} instead.")
                               .format(name=name, got=shown(value)))
    return float(value)


def _levels(levels):
    """The recall levels of 11pt_avg: finite numbers, rising (trec_eval's loop reads them from the top down)."""
    if isinstance(levels, (str, bytes)) or not hasattr(levels, "__len__") or not len(levels):
        raise TypeError(gettext("levels must be a non-empty tuple of recall levels, e.g. (0.25, 0.5, 0.75). Got "
                                "{got} instead.").format(got=shown(levels)))
    values = tuple(_level("levels", level) for level in levels)
    if any(b <= a for a, b in zip(values, values[1:])):
        raise ValueError(gettext("levels must rise and differ from each other, as trec_eval's 11pt_avg reads "
                                 "them from the highest down. Got {got} instead.").format(got=shown(levels)))
    return values


def _curve(relevances, k, n_relevant, threshold, negative, levels, convention):
    """The curve of the top ``k``; R counted in the whole list when not given (a cut-off does not change R)."""
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    total = check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum()))
    curve, relevant, hits = curve_steps(grades[:k], threshold, total, convention, levels)
    return grades[:k], threshold, curve, relevant, hits


def _curve_rows(grades, labels, curve, relevant, hits):
    return rows_of(CURVE_COLUMNS, range(1, grades.size + 1), labels, grades.tolist(), relevant.tolist(), hits.tolist(),
                   curve.precision.tolist(), curve.recall.tolist(), curve.interpolated.tolist())


def _reached(curve):
    return ", ".join(_("{level:g} at {count}").format(level=level, count=count)
                     for level, count in zip(curve.levels, curve.counts))


RULES = {"trec_eval": "(long) (r * R + 0.9)", "trec_eval_10": "lround(r * R)", "textbook": "ceil(r * R)"}


def _curve_notes(threshold, curve):
    return (threshold_note(threshold),
            _("R = {n_relevant}; a recall level r is reached at {rule} relevant items: {reached}").format(
                n_relevant=curve.n_relevant, rule=RULES[curve.convention], reached=_reached(curve)),
            _("interpolated precision at recall r = the best precision at any rank with recall >= r"))


# iprec_at_recall

def iprec_at_recall(relevances, k=None, *, recall_level=0.0, convention="trec_eval", n_relevant=None, threshold=1,
                    negative="raise"):
    """Interpolated precision at one recall level: the best precision once that share of R is found.

    trec_eval's ``iprec_at_recall.r`` (9.0.8): the level counts as reached at
    ``(long) (r * R + 0.9)`` relevant items; a level the list never reaches
    scores 0.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut the list to its top ``k`` first; None keeps it whole.
    recall_level : float, default 0.0
        The recall level r (0.0 to 1.0).
    convention : {"trec_eval", "trec_eval_10", "textbook"}, default "trec_eval"
        When a level counts as reached: at ``(long) (r R + 0.9)`` relevant
        items (trec_eval 9.0.8), ``lround(r R)`` (trec_eval 10.0) or ``ceil(r R)``
        (recall >= r exactly); see :func:`~ndcg_teach.core.metrics.pr_curve.level_counts`.
    n_relevant : int or None, default None
        R, the query's relevant items in total; None counts them in ``relevances``.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> iprec_at_recall([1, 0, 1, 0, 0, 1], recall_level=0.5, n_relevant=4)  # 2 found at rank 3: P = 2/3
    0.6666666666666666
    >>> iprec_at_recall([1, 0, 1, 0, 0, 1], recall_level=0.8, n_relevant=4)  # 3.2 + 0.9: 4 never found
    0.0
    """
    level = _level("recall_level", recall_level)
    return float(_curve(relevances, k, n_relevant, threshold, negative, (level,), convention)[2].at_levels[0])


def explain_iprec_at_recall(relevances, k=None, *, recall_level=0.0, convention="trec_eval", n_relevant=None, threshold=1,
                    negative="raise",
                            ranking=None):
    """iprec_at_recall with every step: P@i, R@i and interpolated precision at each rank.

    ``ranking`` names the ranked items; other parameters as in :func:`iprec_at_recall`.

    Examples
    --------
    >>> print(explain_iprec_at_recall([1, 0, 1, 0, 0, 1], recall_level=0.5, n_relevant=4).formula)
    iprec_at_recall_0.50 = best P at rank >= 3 (2 relevant found) = 0.6667
    """
    level = _level("recall_level", recall_level)
    grades, threshold, curve, relevant, hits = _curve(relevances, k, n_relevant, threshold, negative, (level,), convention)
    labels = check_items(ranking, grades.size)
    value, count = float(curve.at_levels[0]), curve.counts[0]
    name = at(f"iprec_at_recall_{level:3.2f}", k)
    if value and count > 0:
        rank = int(np.searchsorted(hits, count, side="left")) + 1
        formula = _("{name} = best P at rank >= {rank} ({count} relevant found) = {value}").format(
            name=name, rank=rank, count=count, value=number(value))
    elif value:
        formula = _("{name} = best P at any rank = {value}").format(name=name, value=number(value))
    else:
        formula = _("{name} = 0 (the list never finds {count} of R = {total} relevant items)").format(
            name=name, count=max(count, 1), total=curve.n_relevant)
    return Trace(name, value, _curve_rows(grades, labels, curve, relevant, hits), formula,
                 rf"\mathrm{{iP}}({level:g}) = {number(value)}", CURVE_COLUMNS, _curve_notes(threshold, curve))


# 11pt_avg

def eleven_point_average(relevances, k=None, *, levels=RECALL_LEVELS, convention="trec_eval", n_relevant=None, threshold=1,
                         negative="raise"):
    """The mean of interpolated precision at the recall levels 0.0, 0.1, ..., 1.0 (trec_eval ``11pt_avg``).

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut the list to its top ``k`` first; None keeps it whole.
    levels : tuple of float, default (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
        The recall levels averaged, rising (trec_eval ``11pt_avg.0.25,0.5,0.75``).
    convention : {"trec_eval", "trec_eval_10", "textbook"}, default "trec_eval"
        When a level counts as reached: at ``(long) (r R + 0.9)`` relevant
        items (trec_eval 9.0.8), ``lround(r R)`` (trec_eval 10.0) or ``ceil(r R)``
        (recall >= r exactly); see :func:`~ndcg_teach.core.metrics.pr_curve.level_counts`.
    n_relevant : int or None, default None
        R, the query's relevant items in total; None counts them in ``relevances``.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> round(eleven_point_average([1, 0, 1], n_relevant=2), 4)
    0.8485
    >>> eleven_point_average([1, 0, 1], levels=(0.5, 1.0), n_relevant=2)  # (1 + 2/3) / 2
    0.8333333333333333
    """
    return float(np.mean(_curve(relevances, k, n_relevant, threshold, negative, _levels(levels), convention)[2].at_levels))


def explain_eleven_point_average(relevances, k=None, *, levels=RECALL_LEVELS, convention="trec_eval", n_relevant=None,
                                 threshold=1, negative="raise", ranking=None):
    """11pt_avg with every step: the curve at each rank, then the mean of the interpolated precisions at the levels.

    ``ranking`` names the ranked items; other parameters as in :func:`eleven_point_average`.

    Examples
    --------
    >>> print(explain_eleven_point_average([1, 0, 1], levels=(0.5, 1.0), n_relevant=2).formula)
    11pt_avg = (1.0000 + 0.6667) / 2 = 0.8333
    """
    levels = _levels(levels)
    grades, threshold, curve, relevant, hits = _curve(relevances, k, n_relevant, threshold, negative, levels, convention)
    labels = check_items(ranking, grades.size)
    value = float(np.mean(curve.at_levels))
    name = at("11pt_avg", k)
    formula = f"{name} = ({' + '.join(number(v) for v in curve.at_levels)}) / {len(levels)} = {number(value)}"
    latex = rf"\frac{{1}}{{{len(levels)}}} \sum_r p_\mathrm{{interp}}(r) = {number(value)}"
    return Trace(name, value, _curve_rows(grades, labels, curve, relevant, hits), formula, latex, CURVE_COLUMNS,
                 _curve_notes(threshold, curve))


def nan_when_empty(n_relevant, levels=RECALL_LEVELS, convention="trec_eval"):
    """Whether trec_eval prints -nan for these recall levels of a query with R = ``n_relevant`` whose list is empty
    (``-J`` left nothing): it starts from the list's precision, 0 / 0, and keeps it for the levels reached at 0
    relevant items (level 0, or every level when R = 0).

    >>> nan_when_empty(0, (0.5,)), nan_when_empty(4, (0.5,)), nan_when_empty(4, (0.0, 0.5))
    (True, False, True)
    """
    return any(count <= 0 for count in level_counts(int(n_relevant), convention, tuple(levels)))


# Rprec_mult

def _rprec_mult(grades, k, threshold, n_relevant, multiple):
    """``(value, cutoff, R, relevant, hits, precision)``: precision at rank (long) (multiple * R + 0.9) of the top
    ``k``; R counted in the whole list when not given."""
    total = check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum()))
    grades = grades[:k]
    cutoff = int(multiple * total + 0.9)
    depth = cutoff if cutoff > 0 else grades.size  # no rank to read (R = 0): the rows show the list, value 0
    relevant = np.zeros(depth, dtype=bool)
    found = relevant_flags(grades[:depth], threshold)
    relevant[:found.size] = found
    hits = np.cumsum(relevant, dtype=np.int64)
    precision = hits / np.arange(1, depth + 1, dtype=np.float64)
    value = float(precision[-1]) if cutoff > 0 else 0.0
    return value, cutoff, total, relevant, hits, precision


def rprec_mult(relevances, k=None, *, multiple=1.0, n_relevant=None, threshold=1, negative="raise"):
    """Precision at a multiple of R: P at rank ``(long) (multiple * R + 0.9)`` (trec_eval ``Rprec_mult``).

    ``multiple=1.0`` is R-precision. Positions past the end of the list count
    as misses; a rank of 0 (R = 0) scores 0.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut the list to its top ``k`` first; None keeps it whole.
    multiple : float, default 1.0
        The rank as a multiple of R.
    n_relevant : int or None, default None
        R, the query's relevant items in total; None counts them in ``relevances``.
    threshold : float, default 1
        Smallest grade that counts as relevant.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> rprec_mult([1, 0, 1, 1], multiple=0.5, n_relevant=4)  # rank (long) 2.9 = 2: 1 / 2
    0.5
    >>> rprec_mult([1, 0, 1, 1], multiple=2.0, n_relevant=4)  # rank 8, past the list: 3 / 8
    0.375
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    return _rprec_mult(grades, k, threshold, n_relevant, _level("multiple", multiple))[0]


def explain_rprec_mult(relevances, k=None, *, multiple=1.0, n_relevant=None, threshold=1, negative="raise",
                       ranking=None):
    """Rprec_mult with every step: the rank it reads, and the hits down to it.

    ``ranking`` names the ranked items; other parameters as in :func:`rprec_mult`.

    Examples
    --------
    >>> print(explain_rprec_mult([1, 0, 1, 1], multiple=2.0, n_relevant=4).formula)
    Rprec_mult_2.00 = P@8 = 3 / 8 = 0.3750  (rank (long) (2 * 4 + 0.9) = 8)
    """
    multiple = _level("multiple", multiple)
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)[:grades[:k].size]
    value, cutoff, total, relevant, hits, precision = _rprec_mult(grades, k, threshold, n_relevant, multiple)
    grades = grades[:k]
    name = at(f"Rprec_mult_{multiple:3.2f}", k)
    if cutoff > 0:
        formula = _("{name} = P@{cutoff} = {hits} / {cutoff} = {value}  (rank (long) ({multiple:g} * {total} + 0.9) = "
                    "{cutoff})").format(name=name, cutoff=cutoff, hits=int(hits[-1]), value=number(value),
                                        multiple=multiple, total=total)
    else:
        formula = _("{name} = 0 (rank (long) ({multiple:g} * {total} + 0.9) = {cutoff}: no position to read)").format(
            name=name, multiple=multiple, total=total, cutoff=cutoff)
    recall = hits / total if total else np.zeros(hits.size)
    rows = rows_of(RPREC_COLUMNS, range(1, hits.size + 1), [*labels, *[None] * (hits.size - grades.size)][:hits.size],
                   [*grades.tolist(), *[None] * (hits.size - grades.size)][:hits.size], relevant.tolist(),
                   hits.tolist(), precision.tolist(), recall.tolist())
    notes = [threshold_note(threshold)]
    if cutoff > grades.size:
        notes.append(_("the list has {n} items; positions {first}-{cutoff} count as misses").format(
            n=grades.size, first=grades.size + 1, cutoff=cutoff))
    return Trace(name, value, rows, formula, rf"\mathrm{{P}}@{cutoff} = {number(value)}", RPREC_COLUMNS, tuple(notes))


def rprec_mult_batch(grades, lengths, k=None, *, multiple=1.0, n_relevant=None, threshold=1):
    """Rprec_mult of each row of ``grades``, as :func:`rprec_mult` computes it."""
    relevant = relevant_flags(grades[:, :k], threshold)
    totals = relevant_flags(grades, threshold).sum(axis=-1) if n_relevant is None else np.asarray(n_relevant)
    cutoffs = (_level("multiple", multiple) * totals + 0.9).astype(np.int64)
    hits = np.concatenate([np.zeros((grades.shape[0], 1), dtype=np.int64), np.cumsum(relevant, axis=-1)], axis=-1)
    found = np.take_along_axis(hits, np.clip(cutoffs, 0, hits.shape[1] - 1)[:, np.newaxis], axis=-1)[:, 0]
    return np.where(cutoffs > 0, found / np.maximum(cutoffs, 1), 0.0)


_LESSON = "10-precision-recall-curves"
register_metric(Metric(
    "iprec_at_recall", "iprec_at_recall@{k}", "binary", iprec_at_recall, explain_iprec_at_recall,
    mark("interpolated precision at one recall level"), _LESSON, order=66,
    names={"iprec_at_recall.{recall_level}": {}}, needs=("threshold", "n_relevant"),
    params={"recall_level": Param(float, (), 0.0, "the recall level r, 0 to 1"), "convention": CONVENTION_PARAM}, columns=CURVE_COLUMNS))
register_metric(Metric(
    "eleven_point_average", "11pt_avg@{k}", "binary", eleven_point_average, explain_eleven_point_average,
    mark("mean interpolated precision at recall 0.0, 0.1, ..., 1.0"), _LESSON, order=67,
    names={"11pt_avg.{levels}": {}}, needs=("threshold", "n_relevant"),
    params={"levels": Param(tuple, (), RECALL_LEVELS, "the recall levels averaged, rising"),
            "convention": CONVENTION_PARAM}, columns=CURVE_COLUMNS))
register_metric(Metric(
    "rprec_mult", "Rprec_mult@{k}", "binary", rprec_mult, explain_rprec_mult,
    mark("precision at rank multiple * R"), _LESSON, order=63, batch=rprec_mult_batch,
    names={"Rprec_mult.{multiple}": {}}, needs=("threshold", "n_relevant"),
    params={"multiple": Param(float, (), 1.0, "the rank read, as a multiple of R")}, columns=RPREC_COLUMNS))
