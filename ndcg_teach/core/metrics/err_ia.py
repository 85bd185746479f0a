"""ERR-IA: expected reciprocal rank averaged over a query's intents (Chapelle, Metzler, Zhang & Grinspan 2009).

A query with several intents is read by several readers, one per intent,
each in the proportion ``weights`` says. Each reader is ERR's cascading
reader: they stop at an item with a probability set by its grade *for their
intent*. ERR-IA is the weighted mean of their ERRs, so an item that satisfies
one intent lowers what the next item relevant to that intent can add, but not
what an item for another intent adds.
"""

import numpy as np

from ..formulas import at, number, sum_line, threshold_note
from ...i18n import _, gettext, mark
from ..registry import Metric, Param, register_metric
from ..steps import Steps
from ..subtopics import (batched, cascade, check_flag, checked_tables, greedy_order, ideal_rows, per_subtopic, relevance,
                         relevant_subtopics)
from ..trace import CONTRIBUTION, DISCOUNT, GAIN, ITEM, POSITION, RUNNING, Column, Trace, rows_of
from ..validation import check_choice, check_grade_ceiling, check_items, check_k, check_threshold, shown
from .alpha_ndcg import SUBTOPICS

__all__ = ["err_ia", "explain_err_ia"]

NORMALISE = ("none", "max", "ideal")
GRADED_MEANING = mark("True: each intent's stop probability comes from the grade; False: any relevant grade counts as 1")
STOPS = Column("stops", mark("chance of stopping here"), "text",
               mark("for each of its intents, the chance that this intent's reader stops here: R x P(reach)"))
COLUMNS = (POSITION, ITEM, SUBTOPICS, STOPS, GAIN, DISCOUNT, CONTRIBUTION, RUNNING)
PARAMS = {
    "weights": Param(object, (None,), None, "each intent's share of the readers (P(intent | query)); None: equal shares "
                                            "of the intents with a relevant item"),
    "max_grade": Param(float, (), None, "the top of the grading scale (stop probability (2^g - 1) / 2^max_grade); None: "
                                        "the largest grade given"),
    "graded": Param(bool, (False, True), True, GRADED_MEANING),
    "normalise": Param(str, NORMALISE, "none", "'none' (Chapelle et al.), 'max': divided by the most any list can score "
                                               "(ndeval's ERR-IA), 'ideal': by the greedy ideal ranking (nERR-IA)"),
}


def _weights(weights, values, source):
    """``(q, s)`` intent weights: the given ones divided by their sum, or equal shares of the intents that have a
    relevant item in ``source`` (ndeval counts only those)."""
    if weights is None:
        present = (source > 0).any(axis=1).astype(np.float64)
        counts = present.sum(axis=1, keepdims=True)
        return present / np.where(counts > 0, counts, 1.0)
    return np.broadcast_to(weights, (values.shape[0], weights.size))


def check_weights(weights, n_subtopics):
    """``weights`` as a float64 array summing to 1, one per subtopic, or None."""
    if weights is None:
        return None
    requirement = gettext("None or one non-negative number per subtopic ({n_subtopics}), not all 0: each intent's "
                          "share of the readers").format(n_subtopics=n_subtopics)
    try:
        array = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(gettext("weights must be {requirement}. Got {got} instead.")
                               .format(requirement=requirement, got=shown(weights))) from None
    if array.shape != (n_subtopics,) or not np.isfinite(array).all() or (array < 0).any() or not array.sum() > 0:
        raise ValueError(gettext("weights must be {requirement}. Got {got} instead.")
                                .format(requirement=requirement, got=shown(weights)))
    return array / array.sum()


def err_ia_steps(judgements, subtopic_pool, k, weights, max_grade, graded, threshold):
    """``(steps, stop, reach, weights, top, source)`` of a batch ``(q, n, s)``: ERR-IA's steps (``gains`` the chance
    that some reader stops at each item), each cell's stop probability and P(reach), the intent weights, each query's
    max_grade ``(q, 1, 1)`` and the rows the ideal is built from."""
    source = judgements if subtopic_pool is None else subtopic_pool
    grades, pool = relevance(judgements, graded, threshold), relevance(source, graded, threshold)
    if max_grade is None:
        top = np.maximum(grades.max(axis=(1, 2), initial=0.0), pool.max(axis=(1, 2), initial=0.0))[:, None, None]
    else:
        top = np.full((judgements.shape[0], 1, 1), max_grade)
    shown = grades[:, :k]
    stop = np.exp2(shown - top) - np.exp2(-top)  # (2^g - 1) / 2^m without overflow, as ERR writes it
    shares = _weights(weights, judgements, pool)
    gains, reach = cascade(stop, stop, shares)
    discounts = 1.0 / np.arange(1, gains.shape[1] + 1, dtype=np.float64)
    contributions = gains * discounts
    steps = Steps(shown, contributions, np.cumsum(contributions, axis=1), gains=gains, discounts=discounts)
    return steps, stop, reach, shares, top, pool


def _denominators(steps, lengths, k, shares, top, pool, normalise):
    """What ERR-IA is divided by: 1, the most any list of that depth scores, or the greedy ideal's ERR-IA."""
    if normalise == "none":
        return np.ones(steps.totals.shape)
    if normalise == "max":
        best = np.exp2(0.0) - np.exp2(-top[:, 0, 0])  # every item of top grade for every intent
        depth = np.full(best.shape, k) if k is not None else lengths
        ranks = np.arange(1, int(depth.max(initial=0)) + 1, dtype=np.float64)
        terms = best[:, None] * (1.0 - best[:, None]) ** (ranks - 1) / ranks * (ranks <= depth[:, None])
        return terms.sum(axis=1) * shares.sum(axis=1)
    stop = np.exp2(pool - top) - np.exp2(-top)
    order = greedy_order(stop, stop, shares, pool.shape[1] if k is None else k)
    best = ideal_rows(stop, order)
    gains = cascade(best, best, shares)[0]
    return (gains / np.arange(1, gains.shape[1] + 1)).sum(axis=1)


def _values(steps, denominators):
    return np.where(denominators > 0, steps.totals / np.where(denominators > 0, denominators, 1.0), 0.0)


def _checked(judgements, k, weights, max_grade, graded, normalise, subtopic_pool, threshold, negative):
    grades, pool = checked_tables(judgements, subtopic_pool, negative)
    conventions = _conventions(grades, pool, weights, max_grade, graded, normalise, check_threshold(threshold))
    return grades, check_k(k), pool, conventions


def _conventions(grades, pool, weights, max_grade, graded, normalise, threshold):
    """The conventions checked, as ``err_ia_steps`` and ``_denominators`` take them."""
    graded = check_flag("graded", graded, GRADED_MEANING)
    if max_grade is not None:
        known = grades if pool is None else np.concatenate([grades, pool], axis=-2)
        max_grade = check_grade_ceiling(max_grade, relevance(known, graded, threshold))
    return {"weights": check_weights(weights, grades.shape[-1]), "max_grade": max_grade, "graded": graded,
            "threshold": threshold, "normalise": check_choice("normalise", normalise, NORMALISE)}


def err_ia(judgements, k=None, *, weights=None, max_grade=None, graded=True, normalise="none", subtopic_pool=None,
           threshold=1, negative="raise"):
    """Intent-aware ERR: ``sum over intents i of weights[i] * ERR_i``, each ERR with that intent's grades.

    ``ERR_i = sum_r (1/r) * R(r, i) * prod_{j<r} (1 - R(j, i))`` with stop
    probability ``R = (2^grade - 1) / 2^max_grade`` (Chapelle et al. 2009,
    the paper that defines ERR and, with it, ERR-IA; ndeval credits it).

    ndeval (TREC Web track) reads judgements as binary and an item relevant to
    an intent stops its reader with probability 1/2, the same as
    ``graded=False`` here; its ``ERR-IA@k`` divides by the most any list of
    depth k can score (``normalise="max"``), its ``nERR-IA@k`` by the greedy
    ideal ranking's (``normalise="ideal"``). :func:`~ndcg_teach.evaluate`'s
    ``ERR-IA@k`` and ``ERR_IA@k`` (ir_measures computes it with ndeval) take
    both choices. ndeval prints ``ERR-IA@1`` without its normalisation; this
    function normalises every cut-off.

    Parameters
    ----------
    judgements : 2-D array-like of float
        One row per ranked item (position 1 first), one column per intent
        (subtopic), a grade in each cell. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list.
    weights : sequence of float or None, default None
        Each intent's share of the readers, P(intent | query), divided by
        their sum. None: equal shares of the intents that have a relevant
        item in ``subtopic_pool`` (or, without one, in the list), as ndeval
        counts them; an intent nobody judged relevant weighs nothing.
    max_grade : float or None, default None
        The top of the grading scale. None uses the largest grade (after
        ``graded``) in the list and the pool.
    graded : bool, default True
        True: stop probabilities come from the grades. False: any relevant
        grade counts as 1 (so with ``max_grade`` None a relevant item stops its
        reader with probability 1/2, ndeval's reading).
    normalise : {"none", "max", "ideal"}, default "none"
        "none": ERR-IA itself. "max": divided by the ERR-IA of a list whose
        every item has the top grade for every intent (ndeval's ERR-IA).
        "ideal": divided by the ERR-IA of the greedy ideal ranking of the
        judged rows (ndeval's nERR-IA); 0 when that is 0.
    subtopic_pool : 2-D array-like of float or None, default None
        Every judged item's row, retrieved or not: which intents count (for
        equal weights) and what the ideal is built from. None: the list itself.
    threshold : float, default 1
        The smallest grade that counts as relevant to an intent; lower grades
        stop nobody (trec_eval's ``-l``; ndeval reads any positive grade).
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0.

    Returns
    -------
    float
        In [0, 1] with "none" and "max"; with "ideal", 1 for the greedy ideal
        order, which a list can beat (the best order is NP-hard to find).

    See Also
    --------
    explain_err_ia, alpha_ndcg, expected_reciprocal_rank.

    Examples
    --------
    Two intents, binary grades: a relevant item stops its intent's reader with probability 1/2.

    >>> round(err_ia([[1, 0], [1, 0], [0, 1]]), 6)  # 1/2 (1/2 + (1/2 * 1/2) / 2) + 1/2 (1/2 / 3)
    0.395833
    >>> round(err_ia([[1, 0], [0, 1], [1, 0]]), 6)  # the second intent is served earlier: 1/2 (1/2 + 1/12) + 1/2 (1/4)
    0.416667
    """
    grades, k, pool, conventions = _checked(judgements, k, weights, max_grade, graded, normalise, subtopic_pool, threshold,
                                            negative)
    return float(_err_ia(*batched(grades, pool), np.array([grades.shape[0]]), k, **conventions)[0])


def _err_ia(judgements, subtopic_pool, lengths, k, weights, max_grade, graded, threshold, normalise):
    steps, _, _, shares, top, source = err_ia_steps(judgements, subtopic_pool, k, weights, max_grade, graded, threshold)
    return _values(steps, _denominators(steps, lengths, k, shares, top, source, normalise))


def explain_err_ia(judgements, k=None, *, weights=None, max_grade=None, graded=True, normalise="none",
                   subtopic_pool=None, threshold=1, negative="raise", ranking=None):
    """ERR-IA with every step: for each item, each of its intents' stop chance, the chance some reader stops there,
    and what it adds at ``1/i``.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`err_ia`.

    Examples
    --------
    >>> trace = explain_err_ia([[1, 0], [1, 0], [0, 1]], ranking=["a", "b", "c"])
    >>> [(row.subtopics, row.stops, row.gain) for row in trace.rows]
    [('1', '1: 0.5', 0.25), ('1', '1: 0.25', 0.125), ('2', '2: 0.5', 0.25)]
    """
    grades, k, pool, conventions = _checked(judgements, k, weights, max_grade, graded, normalise, subtopic_pool, threshold,
                                            negative)
    normalise, graded, threshold = conventions.pop("normalise"), conventions["graded"], conventions["threshold"]
    labels = check_items(ranking, grades.shape[0])
    steps, stop, reach, shares, top, source = err_ia_steps(*batched(grades, pool), k, **conventions)
    lengths = np.array([grades.shape[0]])
    denominator = float(_denominators(steps, lengths, k, shares, top, source, normalise)[0])
    value = float(_values(steps, np.array([denominator]))[0])
    shown_rows = steps.grades[0]
    rows = rows_of(COLUMNS, range(1, shown_rows.shape[0] + 1), labels, [relevant_subtopics(r) for r in shown_rows],
                   [per_subtopic(r, s * p) for r, s, p in zip(shown_rows, stop[0], reach[0])],
                   steps.gains[0].tolist(), steps.discounts.tolist(), steps.contributions[0].tolist(),
                   steps.running[0].tolist())
    cut = k or shown_rows.shape[0] or None
    name = at("ERR-IA", cut)
    raw = float(steps.totals[0])
    lines = [sum_line(name if normalise == "none" else at("ERR-IA", cut) + " " + _("(before normalising)"),
                      [f"{number(g)}/{i}" for i, g in enumerate(steps.gains[0].tolist(), 1)], steps.contributions[0], raw)]
    if normalise != "none":
        by = _("the most any list can score") if normalise == "max" else _("the greedy ideal ranking's ERR-IA")
        lines.append(_("{name} = {raw} / {denominator} = {value}  (divided by {by})").format(
            name=name, raw=number(raw), denominator=number(denominator), value=number(value), by=by))
    latex = rf"\mathrm{{{name}}} = {number(value)}"
    share_text = _(", ").join(_("{item}: {label}").format(item=i + 1, label=f"{w:.4g}")
                              for i, w in enumerate(shares[0].tolist()) if w > 0) or "-"
    notes = (
        _("stop probability R = (2^grade - 1) / 2^{top:g}, per intent").format(top=float(top[0, 0, 0])),
        _("grades read as binary: any relevant grade is 1 (as ndeval)") if not graded else _("graded stop probabilities"),
        threshold_note(threshold),
        _("intent weights {weights}").format(weights=share_text),
    )
    return Trace(name, value, rows, "\n".join(lines), latex, COLUMNS, notes)


def err_ia_batch(judgements, lengths, k=None, *, weights=None, max_grade=None, graded=True, normalise="none",
                 subtopic_pool=None, threshold=1):
    """ERR-IA of each query of a batch: ``judgements`` ``(q, w, s)`` padded with rows of 0 after ``lengths[q]``."""
    conventions = _conventions(judgements, subtopic_pool, weights, max_grade, graded, normalise, threshold)
    return _err_ia(judgements, subtopic_pool, lengths, k, **conventions)


register_metric(Metric(
    "err_ia", "ERR-IA@{k}", "diversity", err_ia, explain_err_ia,
    mark("ERR averaged over the query's intents: each reader stops on items for their own intent"), "16-diversity-and-intent",
    order=112, batch=err_ia_batch, names={
        "ERR-IA@{k}": {"graded": False, "normalise": "max"}, "ERR_IA@{k}": {"graded": False, "normalise": "max"},
        "nERR-IA@{k}": {"graded": False, "normalise": "ideal"}, "nERR_IA@{k}": {"graded": False, "normalise": "ideal"}},
    needs=("subtopics", "subtopic_pool", "threshold"), params=PARAMS, columns=COLUMNS))
