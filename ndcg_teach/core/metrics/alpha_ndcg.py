"""α-nDCG: NDCG that rewards novelty across a query's subtopics (Clarke et al., SIGIR 2008).

NDCG gives a second copy of the same answer the same gain as the first. α-nDCG
judges each item per subtopic and lowers what a subtopic is worth by
``1 - alpha`` each time an item relevant to it has already been shown, so a
list that covers every subtopic early beats one that repeats the first. The
ideal ranking is built greedily, as ndeval (the TREC Web track's tool) does.
"""

from collections import defaultdict, deque

import numpy as np

from ..formulas import at, number, sum_line, threshold_note
from ...i18n import _, mark
from ..registry import Metric, Param, register_metric
from ..steps import Steps
from ..subtopics import (batched, cascade, check_flag, check_unit, checked_tables, greedy_order, ideal_rows, per_subtopic,
                         relevance, relevant_subtopics)
from ..trace import CONTRIBUTION, DISCOUNT, GAIN, ITEM, NOT_RETRIEVED, POSITION, RUNNING, Column, Row, Trace
from ..validation import check_items, check_k, check_threshold

__all__ = ["alpha_ndcg", "explain_alpha_ndcg"]

ALPHA_MEANING = mark("how much a subtopic already covered loses: each earlier item relevant to it multiplies its worth by 1 - alpha")
GRADED_MEANING = mark("False: an item counts 1 for each subtopic it is relevant to; True: it counts its grade there")
SUBTOPICS = Column("subtopics", mark("subtopics"), "text", mark("the subtopics this item is relevant to"))
NOVELTY = Column("novelty", mark("novelty"), "text",
                 mark("(1 - alpha)^r for each of its subtopics, r = earlier items relevant to that subtopic"))
IDEAL_ITEM = Column("ideal_item", mark("ideal item"), "text", mark("the item the greedy ideal ranking puts here"))
IDEAL_SUBTOPICS = Column("ideal_subtopics", mark("ideal subtopics"), "text",
                         mark("the subtopics the ideal ranking's item is relevant to"))
IDEAL_GAIN = Column("ideal_gain", mark("ideal gain"), "number", mark("the novelty gain of the ideal ranking's item"))
IDEAL_RUNNING = Column("ideal_running", mark("running ideal α-DCG"), "number", mark("the ideal ranking's α-DCG so far"))
COLUMNS = (POSITION, ITEM, SUBTOPICS, NOVELTY, GAIN, DISCOUNT, CONTRIBUTION, RUNNING, IDEAL_ITEM, IDEAL_SUBTOPICS,
           IDEAL_GAIN, IDEAL_RUNNING)
PARAMS = {"alpha": Param(float, (), 0.5, ALPHA_MEANING), "graded": Param(bool, (False, True), False, GRADED_MEANING)}


def alpha_steps(judgements, subtopic_pool, k, alpha, graded, threshold):
    """``(steps, novelty, ideal, order)`` of a batch ``(q, n, s)``: the list's steps and each cell's ``(1-alpha)^r``,
    the greedy ideal's steps and the rows it took from the pool (or the list); the steps' ``grades`` hold ``J``."""
    shown = relevance(judgements[:, :k], graded, threshold)
    ones = np.ones((judgements.shape[0], judgements.shape[2]))
    gains, novelty = cascade(shown, alpha * (shown > 0), ones)
    source = relevance(judgements if subtopic_pool is None else subtopic_pool, graded, threshold)
    order = greedy_order(source, alpha * (source > 0), ones, source.shape[1] if k is None else k)
    best = ideal_rows(source, order)
    ideal_gains = cascade(best, alpha * (best > 0), ones)[0]
    return _discounted(shown, gains), novelty, _discounted(best, ideal_gains), order


def _discounted(rows, gains):
    discounts = 1.0 / np.log2(np.arange(2, gains.shape[1] + 2, dtype=np.float64))
    contributions = gains * discounts
    return Steps(rows, contributions, np.cumsum(contributions, axis=1), gains=gains, discounts=discounts)


def total(steps):
    """The value of a batch of one's steps."""
    return float(steps.totals[0])


def _ratio(steps, ideal):
    dcg, best = steps.totals, ideal.totals
    return np.where(best > 0, dcg / np.where(best > 0, best, 1.0), 0.0)


def _checked(judgements, k, alpha, graded, subtopic_pool, threshold, negative):
    grades, pool = checked_tables(judgements, subtopic_pool, negative)
    return (grades, check_k(k), check_unit("alpha", alpha, ALPHA_MEANING), check_flag("graded", graded, GRADED_MEANING),
            pool, check_threshold(threshold))


def alpha_ndcg(judgements, k=None, *, alpha=0.5, graded=False, subtopic_pool=None, threshold=1, negative="raise"):
    """α-nDCG: DCG of novelty gains over the DCG of the greedy ideal ranking (Clarke et al. 2008).

    The item at position r gains ``sum over subtopics i of J(r, i) * (1 - alpha)^c_i``,
    where ``c_i`` counts the items above it relevant to subtopic i, and the
    gain is discounted by ``1 / log2(r + 1)``. The ideal ranking is built
    greedily from the same rows (or from ``subtopic_pool``): at each position
    the item with the largest gain comes next, the first such row on a tie.
    ndeval breaks a tie differently, by docno: the item whose docno sorts last
    wins. :func:`~ndcg_teach.evaluate` lists the pool by docno, descending, so
    that its first row on a tie is ndeval's pick.

    Parameters
    ----------
    judgements : 2-D array-like of float
        One row per ranked item (position 1 first), one column per subtopic,
        a grade in each cell. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list (and the whole pool for the ideal).
    alpha : float, default 0.5
        From 0 to 1: how much a subtopic already covered loses. 0 is NDCG of
        the subtopic counts (no penalty for repeating); ndeval's default is 0.5.
    graded : bool, default False
        False (Clarke et al., ndeval, which reads any grade above 1 as 1):
        ``J(r, i)`` is 1 for a relevant grade, else 0. True: ``J(r, i)`` is the
        grade itself (the novelty factor still counts items, not grades).
    subtopic_pool : 2-D array-like of float or None, default None
        Every judged item's row, retrieved or not: what the ideal ranking is
        built from (ndeval's choice, from its qrels). None builds it from the
        ranked rows themselves. It must hold each ranked row with a positive grade.
    threshold : float, default 1
        The smallest grade that counts as relevant to a subtopic (trec_eval's
        ``-l``; ndeval reads any positive grade, the same for whole grades).
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0.

    Returns
    -------
    float
        0 when no subtopic has a relevant item (ndeval's value); 1 for the
        greedy ideal order. Finding the best order is NP-hard, so a list can
        beat the greedy ideal and score above 1 (rarely; ndeval too).

    See Also
    --------
    explain_alpha_ndcg, err_ia, ndcg.

    Examples
    --------
    Two subtopics; item A covers both, B only the first, C only the second.

    >>> alpha_ndcg([[1, 1], [1, 0], [0, 1]])  # gains 2, 0.5, 0.5: already the greedy ideal
    1.0
    >>> round(alpha_ndcg([[1, 0], [1, 0], [0, 1]]), 4)  # (1 + 0.5/log2(3) + 1/2) / (1 + 1/log2(3) + 0.5/2)
    0.9652
    >>> round(alpha_ndcg([[1, 0], [1, 0]], subtopic_pool=[[1, 0], [1, 0], [0, 1]]), 4)  # the pool holds subtopic 2
    0.6994
    """
    grades, k, alpha, graded, pool, threshold = _checked(judgements, k, alpha, graded, subtopic_pool, threshold, negative)
    steps, _, ideal, _ = alpha_steps(*batched(grades, pool), k, alpha, graded, threshold)
    return float(_ratio(steps, ideal)[0])


def _pool_labels(grades, labels, best):
    """Each ideal row of the pool named by a listed item with the same row, else "(not retrieved)"."""
    waiting = defaultdict(deque)
    for row, label in zip(map(tuple, grades.tolist()), labels):
        waiting[row].append(label)
    return tuple(waiting[row].popleft() if waiting[row] else NOT_RETRIEVED for row in map(tuple, best.tolist()))


def explain_alpha_ndcg(judgements, k=None, *, alpha=0.5, graded=False, subtopic_pool=None, threshold=1,
                       negative="raise", ranking=None):
    """α-nDCG with every step: each item's subtopics, their novelty ``(1 - alpha)^r``, its gain and discount,
    beside the greedy ideal ranking.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`alpha_ndcg`.

    Examples
    --------
    >>> trace = explain_alpha_ndcg([[1, 0], [1, 0], [0, 1]], ranking=["a", "b", "c"])
    >>> [(row.subtopics, row.novelty, row.gain) for row in trace.rows]
    [('1', '1: 1', 1.0), ('1', '1: 0.5', 0.5), ('2', '2: 1', 1.0)]
    >>> trace.ideal_items
    ('a', 'c', 'b')
    >>> print(trace.formula.splitlines()[-1])
    α-nDCG@3 = α-DCG@3 / ideal α-DCG@3 = 1.8155 / 1.8809 = 0.9652
    """
    grades, k, alpha, graded, pool, threshold = _checked(judgements, k, alpha, graded, subtopic_pool, threshold, negative)
    labels = check_items(ranking, grades.shape[0])
    steps, novelty, ideal, order = alpha_steps(*batched(grades, pool), k, alpha, graded, threshold)
    value = float(_ratio(steps, ideal)[0])
    best = ideal.grades[0]
    ideal_labels = (tuple(labels[i] for i in order[0].tolist()) if pool is None
                    else _pool_labels(relevance(grades, graded, threshold), labels, best))
    shown = steps.grades[0]
    rows = []
    for index in range(max(shown.shape[0], best.shape[0])):
        mine = index < shown.shape[0]
        theirs = index < best.shape[0]
        rows.append(Row(
            position=index + 1, item=labels[index] if mine else None,
            subtopics=relevant_subtopics(shown[index]) if mine else None,
            novelty=per_subtopic(shown[index], novelty[0, index]) if mine else None,
            gain=float(steps.gains[0, index]) if mine else None, discount=float(steps.discounts[index]) if mine else None,
            contribution=float(steps.contributions[0, index]) if mine else None,
            running=float(steps.running[0, index]) if mine else None,
            ideal_item=ideal_labels[index] if theirs else None,
            ideal_subtopics=relevant_subtopics(best[index]) if theirs else None,
            ideal_gain=float(ideal.gains[0, index]) if theirs else None,
            ideal_running=float(ideal.running[0, index]) if theirs else None,
        ))
    cut = k or shown.shape[0] or None
    name, dcg_name, ideal_name = at("α-nDCG", cut), at("α-DCG", cut), _("ideal {name}").format(name=at("α-DCG", cut))
    dcg_line = sum_line(dcg_name, [f"{number(g)}/log2({i + 1})" for i, g in enumerate(steps.gains[0].tolist(), 1)],
                        steps.contributions[0], total(steps))
    ideal_line = sum_line(ideal_name, [f"{number(g)}/log2({i + 1})" for i, g in enumerate(ideal.gains[0].tolist(), 1)],
                          ideal.contributions[0], total(ideal))
    if total(ideal) > 0:
        last = (f"{name} = {dcg_name} / {ideal_name} = {number(total(steps))} / {number(total(ideal))} = "
                f"{number(value)}")
        latex = rf"\alpha\text{{-nDCG}} = \frac{{{number(total(steps))}}}{{{number(total(ideal))}}} = {number(value)}"
    else:
        last = _("{name} = 0: no subtopic has a relevant item, so the ideal is 0 (as ndeval)").format(name=name)
        latex = r"\alpha\text{-nDCG} = 0"
    source_text = _("every judged item of the query (subtopic pool)") if pool is not None else _("the ranked list itself")
    notes = (
        _("alpha = {alpha:g}: each earlier item relevant to a subtopic multiplies its worth by {keep:g}").format(
            alpha=alpha, keep=1 - alpha),
        _("J = the grade") if graded else _("J = 1 for a relevant grade (binary, as Clarke et al. and ndeval)"),
        threshold_note(threshold),
        _("ideal order built greedily from {source}").format(source=source_text),
    )
    return Trace(name, value, tuple(rows), "\n".join([dcg_line, ideal_line, last]), latex, COLUMNS, notes,
                 ideal_items=tuple(ideal_labels))


def alpha_ndcg_batch(judgements, lengths, k=None, *, alpha=0.5, graded=False, subtopic_pool=None, threshold=1):
    """α-nDCG of each query of a batch: ``judgements`` ``(q, w, s)`` padded with rows of 0 after ``lengths[q]``."""
    alpha, graded = check_unit("alpha", alpha, ALPHA_MEANING), check_flag("graded", graded, GRADED_MEANING)
    steps, _, ideal, _ = alpha_steps(judgements, subtopic_pool, k, alpha, graded, threshold)
    return _ratio(steps, ideal)


register_metric(Metric(
    "alpha_ndcg", "α-nDCG@{k}", "diversity", alpha_ndcg, explain_alpha_ndcg,
    mark("NDCG that rewards covering new subtopics over repeating covered ones"), "16-diversity-and-intent", order=110,
    batch=alpha_ndcg_batch, names={"alpha-nDCG@{k}": {}, "alpha_nDCG@{k}": {}}, needs=("subtopics", "subtopic_pool", "threshold"),
    params=PARAMS, columns=COLUMNS))
