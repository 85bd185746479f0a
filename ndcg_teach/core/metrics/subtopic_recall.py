"""Subtopic recall (S-recall): the share of a query's subtopics that the top k items cover (Zhai, Cohen & Lafferty 2003).

An item covers a subtopic when its grade for that subtopic reaches the
threshold. S-recall@k counts the subtopics covered by at least one of the top
k items and divides by the number of subtopics the query has: those with a
relevant item among the judged items (``subtopic_pool``), or in the list when
no pool is given, as ndeval counts them for its ``strec@k``. It ignores how
often a subtopic is repeated and where in the top k it first appears: α-nDCG
and ERR-IA weigh both.
"""

import numpy as np

from ..formulas import at, number, threshold_note
from ...i18n import _, mark
from ..registry import Metric, register_metric
from ..subtopics import batched, checked_tables, relevance, relevant_subtopics
from ..trace import ITEM, POSITION, Column, Trace, rows_of
from ..validation import check_items, check_k, check_threshold
from .alpha_ndcg import SUBTOPICS

__all__ = ["subtopic_recall", "explain_subtopic_recall"]

NEW = Column("new_subtopics", mark("new subtopics"), "text", mark("the subtopics no item above this one covers"))
COVERED = Column("covered", mark("subtopics covered"), "count", mark("how many subtopics the items so far cover"))
S_RECALL = Column("s_recall", "S-recall@i", "number", mark("the share of the query's subtopics covered so far"))
COLUMNS = (POSITION, ITEM, SUBTOPICS, NEW, COVERED, S_RECALL)
COVERAGE = Column("coverage", mark("subtopics (+ new)"), "text",
                  mark("the subtopics this item is relevant to; + marks those no item above it covers"))
"""The explorers' step-table column (see :func:`coverage`)."""


def new_subtopics(judgements, threshold=1):
    """``(q, n, s)`` bools of a batch ``(q, n, s)``: True where an item is the first in its list relevant to a subtopic.

    >>> new_subtopics(np.array([[[1, 0], [1, 1], [0, 1]]]))[0].tolist()
    [[True, False], [False, True], [False, False]]
    """
    covers = relevance(judgements, False, threshold) > 0
    seen = np.zeros_like(covers)
    if covers.shape[1] > 1:
        seen[:, 1:] = np.logical_or.accumulate(covers, axis=1)[:, :-1]
    return covers & ~seen


def coverage(judgements, threshold=1):
    """Each item's subtopics as one text, the new ones marked ``+`` (:data:`COVERAGE`): ``(q, n)`` texts of a batch.

    Texts hold no spaces (a previews message sends them space-separated);
    ``"-"`` for an item relevant to no subtopic.

    >>> coverage(np.array([[[1, 0, 1], [1, 1, 0], [0, 0, 0]]])).tolist()
    [['+1,+3', '1,+2', '-']]
    """
    covers = relevance(judgements, False, threshold) > 0
    first = new_subtopics(judgements, threshold)
    bits = 2 ** np.arange(covers.shape[2], dtype=np.int64)
    codes = np.stack([covers @ bits, first @ bits], axis=-1).reshape(-1, 2)
    unique, inverse = np.unique(codes, axis=0, return_inverse=True)
    texts = np.array([",".join(("+" if new >> i & 1 else "") + str(i + 1) for i in range(covers.shape[2]) if cover >> i & 1)
                      or "-" for cover, new in unique.tolist()] or [""], dtype=object)
    return texts[inverse.reshape(-1)].reshape(covers.shape[:2]) if codes.size else np.empty(covers.shape[:2], dtype=object)


def _steps(judgements, subtopic_pool, k, threshold):
    """``(covered, totals)``: how many subtopics the top i items of each query cover, ``(q, min(k, n))``, and how many
    subtopics each query has, ``(q,)`` (those with a relevant item in the pool, or in the list)."""
    shown = judgements[:, :k]
    covered = np.cumsum(new_subtopics(shown, threshold).sum(axis=2), axis=1, dtype=np.float64)
    source = judgements if subtopic_pool is None else subtopic_pool
    totals = (relevance(source, False, threshold) > 0).any(axis=1).sum(axis=1).astype(np.float64)
    return covered, totals


def _values(covered, totals, lengths, k):
    """S-recall of each query: the subtopics covered by its top ``min(k, length)`` items over its subtopics (0 when
    it has none)."""
    if covered.shape[1] == 0:
        return np.zeros(covered.shape[0])
    depth = np.minimum(lengths, covered.shape[1] if k is None else k)
    found = np.where(depth > 0, covered[np.arange(covered.shape[0]), np.maximum(depth - 1, 0)], 0.0)
    return np.where(totals > 0, found / np.where(totals > 0, totals, 1.0), 0.0)


def _checked(judgements, k, subtopic_pool, threshold, negative):
    grades, pool = checked_tables(judgements, subtopic_pool, negative)
    return grades, check_k(k), pool, check_threshold(threshold)


def subtopic_recall(judgements, k=None, *, subtopic_pool=None, threshold=1, negative="raise"):
    """S-recall@k: the share of the query's subtopics covered by at least one of the top k items (Zhai et al. 2003).

    Parameters
    ----------
    judgements : 2-D array-like of float
        One row per ranked item (position 1 first), one column per subtopic,
        a grade in each cell. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list.
    subtopic_pool : 2-D array-like of float or None, default None
        Every judged item's row, retrieved or not: the query's subtopics are
        those with a relevant item here (ndeval counts those of its qrels).
        None counts the subtopics with a relevant item in the list itself.
    threshold : float, default 1
        The smallest grade that counts as relevant to a subtopic.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0.

    Returns
    -------
    float
        From 0 to 1; 0 when the query has no subtopic with a relevant item.

    See Also
    --------
    explain_subtopic_recall, alpha_ndcg, err_ia, recall.

    Examples
    --------
    Three subtopics; the pool holds an item for each, the top two cover two of them.

    >>> subtopic_recall([[1, 0, 0], [1, 1, 0], [0, 1, 0]], k=2, subtopic_pool=[[1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1]])
    0.6666666666666666
    >>> subtopic_recall([[1, 0, 0], [1, 1, 0], [0, 1, 0]])  # the list's own subtopics: it covers both
    1.0
    """
    grades, k, pool, threshold = _checked(judgements, k, subtopic_pool, threshold, negative)
    covered, totals = _steps(*batched(grades, pool), k, threshold)
    return float(_values(covered, totals, np.array([grades.shape[0]]), k)[0])


def explain_subtopic_recall(judgements, k=None, *, subtopic_pool=None, threshold=1, negative="raise", ranking=None):
    """S-recall with every step: each item's subtopics, the ones it is the first to cover, the count so far and the
    share of the query's subtopics.

    ``ranking`` names the ranked items (default ``#1, #2, ...``); other
    parameters as in :func:`subtopic_recall`.

    Examples
    --------
    >>> trace = explain_subtopic_recall([[1, 0], [1, 0], [0, 1]], ranking=["a", "b", "c"])
    >>> [(row.subtopics, row.new_subtopics, row.covered) for row in trace.rows]
    [('1', '1', 1), ('1', '-', 1), ('2', '2', 2)]
    >>> print(trace.formula)
    S-recall@3 = 2 / 2 = 1.0000
    """
    grades, k, pool, threshold = _checked(judgements, k, subtopic_pool, threshold, negative)
    labels = check_items(ranking, grades.shape[0])
    table, source = batched(grades, pool)
    covered, totals = _steps(table, source, k, threshold)
    value = float(_values(covered, totals, np.array([grades.shape[0]]), k)[0])
    shown = relevance(table[0, :k], False, threshold)
    first = new_subtopics(table[:, :k], threshold)[0]
    total = float(totals[0])
    running = (covered[0] / total if total > 0 else np.zeros_like(covered[0])).tolist()
    rows = rows_of(COLUMNS, range(1, shown.shape[0] + 1), labels, [relevant_subtopics(row) for row in shown],
                   [relevant_subtopics(row) for row in first.astype(np.float64)], [int(c) for c in covered[0].tolist()],
                   running)
    cut = k or shown.shape[0] or None
    name = at("S-recall", cut)
    found = int(covered[0, -1]) if covered.shape[1] else 0
    if total > 0:
        formula = f"{name} = {found} / {int(total)} = {number(value)}"
    else:
        formula = _("{name} = 0: no subtopic has a relevant item").format(name=name)
    latex = rf"\text{{{name}}} = {number(value)}"
    subtopics_note = (_("the query's subtopics: those with a relevant item among the judged items of the query (subtopic pool)")
                      if pool is not None else _("the query's subtopics: those with a relevant item in the ranked list itself"))
    notes = (threshold_note(threshold), subtopics_note)
    return Trace(name, value, rows, formula, latex, COLUMNS, notes)


def subtopic_recall_batch(judgements, lengths, k=None, *, subtopic_pool=None, threshold=1):
    """S-recall of each query of a batch: ``judgements`` ``(q, w, s)`` padded with rows of 0 after ``lengths[q]``."""
    covered, totals = _steps(judgements, subtopic_pool, k, threshold)
    return _values(covered, totals, np.asarray(lengths), k)


register_metric(Metric(
    "subtopic_recall", "S-recall@{k}", "diversity", subtopic_recall, explain_subtopic_recall,
    mark("the share of the query's subtopics that the top k items cover"), "16-diversity-and-intent", order=108,
    batch=subtopic_recall_batch, names={"strec@{k}": {}, "S-recall@{k}": {}, "StRecall@{k}": {}},
    needs=("subtopics", "subtopic_pool", "threshold"), params={}, columns=COLUMNS))
