"""trec_eval's counts: num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret, and unj (the share nobody judged).

trec_eval prints, before any score, how many items the run returned for a
query (``num_ret``), how many relevant items the query has (``num_rel``, R),
how many of those the run returned (``num_rel_ret``) and how many of the
returned items were judged not relevant (``num_nonrel_judged_ret``); its
``all`` line sums them over the queries. trec_eval 10.0's ``unj.k`` is the
share of the top k that nobody judged. Each follows trec_eval's ``m_*.c``
file of the same name; :mod:`~ndcg_teach.core.metrics.retrieved_set` builds the set
measures on them. Lesson 09.
"""

import numpy as np

from ..binary import batch_denominators, checked_binary, divided, hit_arrays, relevant_flags
from ..formulas import at, number, threshold_note
from ...i18n import _, mark
from ..registry import Metric, register_metric
from ..trace import GRADE, HITS, ITEM, JUDGED, POSITION, RELEVANT, Column, Trace, rows_of
from ..validation import (check_items, check_judged_relevances, check_k, check_n_relevant,
                          check_threshold)

__all__ = ["num_ret", "explain_num_ret", "num_rel", "explain_num_rel", "num_rel_ret", "explain_num_rel_ret",
           "num_nonrel_judged_ret", "explain_num_nonrel_judged_ret", "unjudged_share", "explain_unjudged_share"]

NONRELEVANT_JUDGED = Column("nonrelevant_judged", mark("judged non-relevant"), "count",
                            mark("judged items below the threshold up to this position"))
COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, HITS)
JUDGED_COLUMNS = (POSITION, ITEM, GRADE, JUDGED, RELEVANT, NONRELEVANT_JUDGED)
UNJUDGED_SO_FAR = Column("unjudged", mark("unjudged"), "count", mark("unjudged items up to this position"))
UNJUDGED_COLUMNS = (POSITION, ITEM, GRADE, JUDGED, UNJUDGED_SO_FAR)


def _listed(relevances, k, threshold, negative):
    """``(grades, k, threshold, relevant, hits)`` of the top ``k`` of a checked list."""
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    relevant, hits = hit_arrays(grades, k, threshold)[:2]
    return grades, k, threshold, relevant, hits


def _rows(grades, labels, relevant, hits):
    shown = hits.size
    return rows_of(COLUMNS, range(1, shown + 1), labels[:shown], grades[:shown].tolist(), relevant.tolist(),
                   hits.tolist())


def _trace(name, value, formula, grades, labels, relevant, hits, notes):
    latex = rf"\mathrm{{{name}}} = {number(value) if value % 1 else int(value)}"
    return Trace(name, value, _rows(grades, labels, relevant, hits), formula, latex, COLUMNS, tuple(notes))


def _found(hits):
    return int(hits[-1]) if hits.size else 0


def _total_note(n_relevant):
    return (_("R = n_relevant (the query's relevant items, retrieved or not)") if n_relevant is not None
            else _("R counted in the list (pass n_relevant for the query's true total)"))


def _cut(lengths, k):
    return lengths if k is None else np.minimum(lengths, k)


# num_ret

def num_ret(relevances, k=None, *, negative="raise"):
    """How many items the run returned for the query (trec_eval ``num_ret``); with ``k``, at most ``k``.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
    k : int or None, default None
        Count only the top ``k``.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float
        A whole number; trec_eval's ``all`` line sums it over the queries.

    Examples
    --------
    >>> num_ret([1, 0, 2]), num_ret([1, 0, 2], k=2)
    (3.0, 2.0)
    """
    grades, k, _threshold = checked_binary(relevances, k, 1, negative)
    return float(grades[:k].size)


def explain_num_ret(relevances, k=None, *, negative="raise", ranking=None):
    """num_ret with every step: the positions counted. Other parameters as in :func:`num_ret`.

    Examples
    --------
    >>> print(explain_num_ret([1, 0, 2]).formula)
    num_ret = 3 (items returned)
    """
    grades, k, threshold, relevant, hits = _listed(relevances, k, 1, negative)
    labels = check_items(ranking, grades.size)
    name = at("num_ret", k)
    value = float(hits.size)
    return _trace(name, value, _("{name} = {n} (items returned)").format(name=name, n=hits.size), grades, labels,
                  relevant, hits, ())


def num_ret_batch(grades, lengths, k=None):
    """num_ret of each row of ``grades``: the list's length (at most ``k``)."""
    return _cut(lengths, k).astype(np.float64)


# num_rel

def num_rel(relevances, k=None, *, n_relevant=None, threshold=1, negative="raise"):
    """R, the query's relevant items, returned or not (trec_eval ``num_rel``); ``k`` does not change it.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
    k : int or None, default None
        Taken as every metric takes it; R does not depend on it.
    n_relevant : int or None, default None
        The query's relevant items in total; None counts them in ``relevances``.
    threshold : float, default 1
        Smallest grade that counts as relevant (trec_eval ``-l``).
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> num_rel([1, 0, 2]), num_rel([1, 0, 2], n_relevant=5), num_rel([1, 0, 2], threshold=2)
    (2.0, 5.0, 1.0)
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    return float(check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum())))


def explain_num_rel(relevances, k=None, *, n_relevant=None, threshold=1, negative="raise", ranking=None):
    """num_rel with every step: the relevant items in the list, and R. Other parameters as in :func:`num_rel`.

    Examples
    --------
    >>> print(explain_num_rel([1, 0, 2], n_relevant=5).formula)
    num_rel = R = 5 (2 of them in the list)
    """
    grades, _k, threshold, relevant, hits = _listed(relevances, None, threshold, negative)
    labels = check_items(ranking, grades.size)
    value = num_rel(grades, k, n_relevant=n_relevant, threshold=threshold)
    name = at("num_rel", k)
    formula = _("{name} = R = {total} ({found} of them in the list)").format(name=name, total=int(value),
                                                                            found=_found(hits))
    return _trace(name, value, formula, grades, labels, relevant, hits, (threshold_note(threshold),
                                                                        _total_note(n_relevant)))


def num_rel_batch(grades, lengths, k=None, *, n_relevant=None, threshold=1):
    """num_rel of each row of ``grades``."""
    return batch_denominators(n_relevant, relevant_flags(grades, threshold).sum(axis=-1)).astype(np.float64)


# num_rel_ret

def num_rel_ret(relevances, k=None, *, threshold=1, negative="raise"):
    """How many relevant items the run returned (trec_eval ``num_rel_ret``); with ``k``, in the top ``k``.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
    k : int or None, default None
        Count only the top ``k``.
    threshold : float, default 1
        Smallest grade that counts as relevant (trec_eval ``-l``).
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> num_rel_ret([1, 0, 2]), num_rel_ret([1, 0, 2], k=2), num_rel_ret([1, 0, 2], threshold=2)
    (2.0, 1.0, 1.0)
    """
    return float(_found(_listed(relevances, k, threshold, negative)[4]))


def explain_num_rel_ret(relevances, k=None, *, threshold=1, negative="raise", ranking=None):
    """num_rel_ret with every step: the hits, position by position. Other parameters as in :func:`num_rel_ret`.

    Examples
    --------
    >>> print(explain_num_rel_ret([1, 0, 2]).formula)
    num_rel_ret = 2 (relevant items returned)
    """
    grades, k, threshold, relevant, hits = _listed(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    name = at("num_rel_ret", k)
    value = float(_found(hits))
    formula = _("{name} = {n} (relevant items returned)").format(name=name, n=_found(hits))
    return _trace(name, value, formula, grades, labels, relevant, hits, (threshold_note(threshold),))


def num_rel_ret_batch(grades, lengths, k=None, *, threshold=1):
    """num_rel_ret of each row of ``grades`` (padding is grade 0, never relevant)."""
    return relevant_flags(grades[:, :k], threshold).sum(axis=-1).astype(np.float64)


# num_nonrel_judged_ret

def _judged_nonrelevant(relevances, k, threshold, negative):
    grades, judged = check_judged_relevances(relevances, negative)
    k, threshold = check_k(k), check_threshold(threshold)
    relevant = relevant_flags(grades[:k], threshold)
    return grades, judged[:k], relevant, judged[:k] & ~relevant, threshold


def num_nonrel_judged_ret(relevances, k=None, *, threshold=1, negative="raise"):
    """How many returned items were judged and found not relevant (trec_eval ``num_nonrel_judged_ret``).

    trec_eval computes it as ``num_ret`` minus the items nobody judged (not in
    the qrels, or in them with a negative grade) minus ``num_rel_ret``.

    Parameters
    ----------
    relevances : sequence of float or None
        Grades of the ranked items, position 1 first; None marks an item
        nobody judged.
    k : int or None, default None
        Count only the top ``k``.
    threshold : float, default 1
        Smallest grade that counts as relevant (trec_eval ``-l``).
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> num_nonrel_judged_ret([1, 0, None, 0, 2])  # two judged 0, one unjudged
    2.0
    """
    return float(_judged_nonrelevant(relevances, k, threshold, negative)[3].sum())


def explain_num_nonrel_judged_ret(relevances, k=None, *, threshold=1, negative="raise", ranking=None):
    """num_nonrel_judged_ret with every step: which items were judged, which of them are not relevant.

    Other parameters as in :func:`num_nonrel_judged_ret`.

    Examples
    --------
    >>> print(explain_num_nonrel_judged_ret([1, 0, None, 0, 2]).formula)
    num_nonrel_judged_ret = num_ret - unjudged - num_rel_ret = 5 - 1 - 2 = 2
    """
    grades, judged, relevant, counted, threshold = _judged_nonrelevant(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    running = np.cumsum(counted, dtype=np.int64)
    value = float(counted.sum())
    name = at("num_nonrel_judged_ret", k)
    found = int((judged & relevant).sum())
    formula = _("{name} = num_ret - unjudged - num_rel_ret = {n} - {unjudged} - {found} = {value}").format(
        name=name, n=judged.size, unjudged=int((~judged).sum()), found=found, value=int(value))
    rows = rows_of(JUDGED_COLUMNS, range(1, judged.size + 1), labels[:judged.size], grades[:judged.size].tolist(),
                   judged.tolist(), relevant.tolist(), running.tolist())
    return Trace(name, value, rows, formula, rf"\mathrm{{{name}}} = {int(value)}", JUDGED_COLUMNS,
                 (threshold_note(threshold), _("an unjudged item is neither relevant nor judged non-relevant")))


def num_nonrel_judged_ret_batch(grades, lengths, k=None, *, judged, threshold=1):
    """num_nonrel_judged_ret of each row of ``grades``; ``judged`` marks the judged items (padding is not counted)."""
    listed = np.arange(grades.shape[1])[:k] < _cut(lengths, k)[:, np.newaxis]
    return (listed & judged[:, :k] & ~relevant_flags(grades[:, :k], threshold)).sum(axis=-1).astype(np.float64)


# unj

def _unjudged(relevances, k, negative):
    grades, judged = check_judged_relevances(relevances, negative)
    k = check_k(k)
    unjudged = ~judged[:k]
    depth = grades.size if k is None else k
    return grades, unjudged, depth, (float(unjudged.sum()) / depth if depth else 0.0)


def unjudged_share(relevances, k=None, *, negative="raise"):
    """The share of the top ``k`` that nobody judged (trec_eval 10.0's ``unj.k``); a list shorter than ``k`` counts
    its missing positions as judged.

    A "red flag" for a test collection: a run with many unjudged items near
    the top is poorly covered by the judgements, and its scores are
    uncertain. trec_eval counts an item as unjudged when it is not in the
    qrels or is in them with a negative grade.

    Parameters
    ----------
    relevances : sequence of float or None
        Grades of the ranked items, position 1 first; None marks an item nobody judged.
    k : int or None, default None
        Cut-off; None uses the whole list.
    negative : {"raise", "zero"}, default "raise"
        "zero" reads negative grades as 0, as trec_eval does.

    Returns
    -------
    float

    Examples
    --------
    >>> unjudged_share([1, None, 0, None], k=5)  # 2 unjudged in the top 5 (the fifth is missing)
    0.4
    """
    return _unjudged(relevances, k, negative)[3]


def explain_unjudged_share(relevances, k=None, *, negative="raise", ranking=None):
    """The unjudged share with every step: which of the top ``k`` were judged.

    ``ranking`` names the ranked items; other parameters as in :func:`unjudged_share`.

    Examples
    --------
    >>> print(explain_unjudged_share([1, None, 0, None], k=5).formula)
    unj@5 = unjudged / 5 = 2 / 5 = 0.4000
    """
    grades, unjudged, depth, value = _unjudged(relevances, k, negative)
    labels = check_items(ranking, grades.size)
    running = np.cumsum(unjudged, dtype=np.int64)
    name = at("unj", k)
    formula = (_("{name} = unjudged / {depth} = {n} / {depth} = {value}").format(
        name=name, depth=depth, n=int(unjudged.sum()), value=number(value)) if depth
        else _("{name} = 0 (no positions)").format(name=name))
    rows = rows_of(UNJUDGED_COLUMNS, range(1, unjudged.size + 1), labels[:unjudged.size],
                   grades[:unjudged.size].tolist(), (~unjudged).tolist(), running.tolist())
    return Trace(name, value, rows, formula, rf"\mathrm{{{name}}} = {number(value)}", UNJUDGED_COLUMNS,
                 (_("unjudged: not in the qrels, or in them with a negative grade"),))


def unjudged_share_batch(grades, lengths, k=None, *, judged):
    """The unjudged share of each row of ``grades`` (padding is not counted)."""
    width = grades.shape[1] if k is None else k
    listed = np.arange(grades.shape[1])[:width] < _cut(lengths, k)[:, np.newaxis]
    counts = (listed & ~judged[:, :width]).sum(axis=-1)
    return divided(counts[:, np.newaxis], lengths if k is None else np.full(lengths.shape, k))[:, 0]


register_metric(Metric(
    "unj", "unj@{k}", "binary", unjudged_share, explain_unjudged_share,
    mark("the share of the top k that nobody judged"), "12-incomplete-judgements", order=207,
    batch=unjudged_share_batch, names={"unj.{k}": {}}, needs=("judged",), params={}, columns=UNJUDGED_COLUMNS))


_LESSON = "09-evaluating-a-model"
register_metric(Metric(
    "num_ret", "num_ret@{k}", "binary", num_ret, explain_num_ret, mark("how many items the run returned"), _LESSON,
    order=200, batch=num_ret_batch, names={"num_ret": {}}, needs=(), params={}, columns=COLUMNS))
register_metric(Metric(
    "num_rel", "num_rel@{k}", "binary", num_rel, explain_num_rel,
    mark("R: the query's relevant items, returned or not"), _LESSON, order=201, batch=num_rel_batch,
    names={"num_rel": {}}, needs=("threshold", "n_relevant"), params={}, columns=COLUMNS))
register_metric(Metric(
    "num_rel_ret", "num_rel_ret@{k}", "binary", num_rel_ret, explain_num_rel_ret,
    mark("how many relevant items the run returned"), _LESSON, order=202, batch=num_rel_ret_batch,
    names={"num_rel_ret": {}}, needs=("threshold",), params={}, columns=COLUMNS))
register_metric(Metric(
    "num_nonrel_judged_ret", "num_nonrel_judged_ret@{k}", "binary", num_nonrel_judged_ret,
    explain_num_nonrel_judged_ret, mark("how many returned items were judged not relevant"), _LESSON, order=203,
    batch=num_nonrel_judged_ret_batch, names={"num_nonrel_judged_ret": {}}, needs=("judged", "threshold"), params={},
    columns=JUDGED_COLUMNS))
