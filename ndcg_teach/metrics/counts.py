"""trec_eval's counts and the measures of the retrieved set: num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret,
relative_P (set_relative_P), set_map and utility.

trec_eval prints, before any score, how many items the run returned for a
query (``num_ret``), how many relevant items the query has (``num_rel``, R),
how many of those the run returned (``num_rel_ret``) and how many of the
returned items were judged not relevant (``num_nonrel_judged_ret``); its
``all`` line sums them over the queries. The set measures score the
returned list as a set: ``set_P`` and ``set_recall`` are P and R of the
whole list (:func:`~ndcg_teach.precision_at_k` and
:func:`~ndcg_teach.recall_at_k` without a cut-off), ``set_relative_P``
divides the relevant items returned by the most the list could hold,
``min(num_ret, R)`` (``relative_P.k``: the same in the top k, by
``min(k, R)``), ``set_map`` is ``set_P * set_recall``, and ``utility`` weighs
the four cells of the retrieved set's contingency table. Each follows
trec_eval 9.0.8's ``m_*.c`` file of the same name. Lesson 09.
"""

import numpy as np

from ..binary import batch_denominators, checked_binary, divided, hit_arrays, relevant_flags
from ..formulas import at, number, threshold_note
from ..i18n import _, mark
from ..registry import Metric, Param, register_metric
from ..trace import GRADE, HITS, ITEM, JUDGED, POSITION, RELEVANT, Column, Trace, rows_of
from ..validation import (check_items, check_judged_relevances, check_k, check_n_relevant,
                          check_threshold, shown)

__all__ = ["num_ret", "explain_num_ret", "num_rel", "explain_num_rel", "num_rel_ret", "explain_num_rel_ret",
           "num_nonrel_judged_ret", "explain_num_nonrel_judged_ret", "relative_precision", "explain_relative_precision",
           "set_map", "explain_set_map", "utility", "explain_utility"]

NONRELEVANT_JUDGED = Column("nonrelevant_judged", mark("judged non-relevant"), "count",
                            mark("judged items below the threshold up to this position"))
COLUMNS = (POSITION, ITEM, GRADE, RELEVANT, HITS)
JUDGED_COLUMNS = (POSITION, ITEM, GRADE, JUDGED, RELEVANT, NONRELEVANT_JUDGED)


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


# relative_P and set_relative_P

def _relative(grades, k, threshold, n_relevant):
    """``(value, R, most, relevant, hits)``: relevant items in the top ``k`` over the most it could hold."""
    total = check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum()))
    relevant, hits = hit_arrays(grades, k, threshold)[:2]
    most = min(grades.size if k is None else k, total)
    return (_found(hits) / most if most else 0.0), total, most, relevant, hits


def relative_precision(relevances, k=None, *, n_relevant=None, threshold=1, negative="raise"):
    """Relative precision: relevant items in the top ``k`` over the most that could be there, ``min(k, R)``.

    trec_eval's ``relative_P.k`` (``m_rel_P.c``); with ``k=None`` it divides by
    ``min(num_ret, R)``, trec_eval's ``set_relative_P``. A query without
    relevant items scores 0.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut-off; None uses the whole list. A list shorter than ``k`` still
        divides by ``min(k, R)``, as trec_eval does.
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
    >>> relative_precision([1, 0, 1, 0], k=1, n_relevant=5)  # 1 found of the 1 that fits
    1.0
    >>> relative_precision([1, 0, 1, 0], k=4, n_relevant=3)  # 2 / min(4, 3)
    0.6666666666666666
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    return _relative(grades, k, threshold, n_relevant)[0]


def explain_relative_precision(relevances, k=None, *, n_relevant=None, threshold=1, negative="raise", ranking=None):
    """Relative precision with every step: the hits, and the most the top ``k`` could hold.

    Other parameters as in :func:`relative_precision`.

    Examples
    --------
    >>> print(explain_relative_precision([1, 0, 1, 0], k=4, n_relevant=3).formula)
    relative_P@4 = hits / min(k, R) = 2 / min(4, 3) = 0.6667
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    value, total, most, relevant, hits = _relative(grades, k, threshold, n_relevant)
    name = at("relative_P", k)
    depth, symbol = (grades.size, "num_ret") if k is None else (k, "k")
    if most:
        formula = _("{name} = hits / min({symbol}, R) = {hits} / min({depth}, {total}) = {value}").format(
            name=name, symbol=symbol, hits=_found(hits), depth=depth, total=total, value=number(value))
    else:
        formula = _("{name} = 0 (min({symbol}, R) = 0: nothing could be found)").format(name=name, symbol=symbol)
    return _trace(name, value, formula, grades, labels, relevant, hits, (threshold_note(threshold),
                                                                        _total_note(n_relevant)))


def relative_precision_batch(grades, lengths, k=None, *, n_relevant=None, threshold=1):
    """Relative precision of each row of ``grades``, as :func:`relative_precision` computes it."""
    found = relevant_flags(grades[:, :k], threshold).sum(axis=-1)
    totals = batch_denominators(n_relevant, relevant_flags(grades, threshold).sum(axis=-1))
    most = np.minimum(lengths if k is None else k, totals)
    return divided(found[:, np.newaxis], most)[:, 0]


# set_map

def _set_map(grades, k, threshold, n_relevant):
    """``(value, R, found, relevant, hits)`` of the top ``k``; R counted in the whole list when not given."""
    total = check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum()))
    grades = grades[:k]
    relevant, hits = hit_arrays(grades, None, threshold)[:2]
    found = _found(hits)
    value = found * found / (grades.size * total) if grades.size and total else 0.0
    return value, total, found, relevant, hits


def set_map(relevances, k=None, *, n_relevant=None, threshold=1, negative="raise"):
    """trec_eval's ``set_map``: ``num_rel_ret^2 / (num_ret R)``, set precision times set recall.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first. An empty list scores 0.
    k : int or None, default None
        Cut the list to its top ``k`` first (trec_eval has no cut-off for it).
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
    >>> set_map([1, 0, 1, 0], n_relevant=4)  # 2 * 2 / (4 * 4)
    0.25
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    return _set_map(grades, k, threshold, n_relevant)[0]


def explain_set_map(relevances, k=None, *, n_relevant=None, threshold=1, negative="raise", ranking=None):
    """set_map with every step: the hits, then set precision times set recall. Other parameters as in :func:`set_map`.

    Examples
    --------
    >>> print(explain_set_map([1, 0, 1, 0], n_relevant=4).formula)
    set_map = num_rel_ret^2 / (num_ret * R) = 2^2 / (4 * 4) = 0.2500
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    value, total, found, relevant, hits = _set_map(grades, k, threshold, n_relevant)
    name = at("set_map", k)
    if value or found:
        formula = _("{name} = num_rel_ret^2 / (num_ret * R) = {found}^2 / ({n} * {total}) = {value}").format(
            name=name, found=found, n=hits.size, total=total, value=number(value))
    else:
        formula = _("{name} = 0 (no relevant item returned)").format(name=name)
    return _trace(name, value, formula, grades, labels, relevant, hits, (threshold_note(threshold),
                                                                        _total_note(n_relevant)))


def set_map_batch(grades, lengths, k=None, *, n_relevant=None, threshold=1):
    """set_map of each row of ``grades``, as :func:`set_map` computes it."""
    found = relevant_flags(grades[:, :k], threshold).sum(axis=-1).astype(np.float64)
    totals = batch_denominators(n_relevant, relevant_flags(grades, threshold).sum(axis=-1))
    return divided((found * found)[:, np.newaxis], _cut(lengths, k) * totals)[:, 0]


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
register_metric(Metric(
    "relative_precision", "relative_P@{k}", "binary", relative_precision, explain_relative_precision,
    mark("relevant items in the top k over the most that fit there, min(k, R)"), _LESSON, order=204,
    batch=relative_precision_batch, names={"relative_P.{k}": {}, "set_relative_P": {}},
    needs=("threshold", "n_relevant"), params={}, columns=COLUMNS))
register_metric(Metric(
    "set_map", "set_map@{k}", "binary", set_map, explain_set_map,
    mark("set precision times set recall: num_rel_ret^2 / (num_ret R)"), _LESSON, order=205, batch=set_map_batch,
    names={"set_map": {}}, needs=("threshold", "n_relevant"), params={}, columns=COLUMNS))


# utility

def _utility(grades, k, threshold, n_relevant, weights, collection_size):
    """``(value, a, b, c, d)``: the weighted contingency table of the retrieved set, trec_eval's order of sums."""
    values = _weights(weights)
    if isinstance(collection_size, (bool, np.bool_)) or not isinstance(collection_size, (int, np.integer)):
        raise TypeError(f"collection_size must be a whole number: the documents in the collection (trec_eval -N). "
                        f"Got {shown(collection_size)} instead.")
    size = int(collection_size)
    total = check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum()))
    retrieved = grades[:k].size
    found = _found(hit_arrays(grades, k, threshold)[1])
    cells = (found, retrieved - found, total - found, size + found - retrieved - total)
    p1, p2, p3, p4 = values
    return p1 * cells[0] + p2 * cells[1] + p3 * cells[2] + p4 * cells[3], cells


def _weights(weights):
    requirement = "four numbers p1,p2,p3,p4 (retrieved relevant, retrieved non-relevant, missed relevant, missed " \
                  "non-relevant), e.g. (1.0, -1.0, 0.0, 0.0)"
    if isinstance(weights, (str, bytes)) or not hasattr(weights, "__len__") or len(weights) != 4 or not all(
            isinstance(w, (int, float, np.integer, np.floating)) and not isinstance(w, bool) and np.isfinite(w)
            for w in weights):
        raise ValueError(f"weights must be {requirement}. Got {shown(weights)} instead.")
    return tuple(float(w) for w in weights)


def utility(relevances, k=None, *, weights=(1.0, -1.0, 0.0, 0.0), collection_size=0, n_relevant=None, threshold=1,
            negative="raise"):
    """trec_eval's set utility: ``p1 a + p2 b + p3 c + p4 d`` over the retrieved set's contingency table.

    ``a`` relevant items retrieved, ``b`` non-relevant retrieved, ``c``
    relevant missed, ``d`` non-relevant missed (the collection's size minus
    the rest). trec_eval's ``utility.1,-1,0,0`` is the default: each relevant
    item found is worth 1, each other item retrieved costs 1.

    Parameters
    ----------
    relevances : sequence of float
        Grades of the ranked items, position 1 first.
    k : int or None, default None
        Only the top ``k`` count as retrieved; None: the whole list.
    weights : tuple of float, default (1.0, -1.0, 0.0, 0.0)
        p1, p2, p3, p4 (trec_eval ``-m utility.p1,p2,p3,p4``).
    collection_size : int, default 0
        Documents in the collection (trec_eval ``-N``), for ``d``.
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
    >>> utility([1, 0, 0, 1], n_relevant=3)  # 2 found - 2 other retrieved
    0.0
    >>> utility([1, 0, 0, 1], n_relevant=3, weights=(2, -1, 0, 0))
    2.0
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    return float(_utility(grades, k, threshold, n_relevant, weights, collection_size)[0])


def explain_utility(relevances, k=None, *, weights=(1.0, -1.0, 0.0, 0.0), collection_size=0, n_relevant=None,
                    threshold=1, negative="raise", ranking=None):
    """Utility with every step: the hits, the contingency table, and the weighted sum.

    ``ranking`` names the ranked items; other parameters as in :func:`utility`.

    Examples
    --------
    >>> print(explain_utility([1, 0, 0, 1], n_relevant=3).formula)
    utility = 1 * 2 + -1 * 2 + 0 * 1 + 0 * -5 = 0.0000
    """
    grades, k, threshold = checked_binary(relevances, k, threshold, negative)
    labels = check_items(ranking, grades.size)
    value, cells = _utility(grades, k, threshold, n_relevant, weights, collection_size)
    relevant, hits = hit_arrays(grades, k, threshold)[:2]
    name = at("utility", k)
    terms = " + ".join(f"{w:g} * {cell}" for w, cell in zip(_weights(weights), cells))
    formula = f"{name} = {terms} = {number(value)}"
    notes = (threshold_note(threshold), _total_note(n_relevant),
             _("a = relevant retrieved {a}, b = non-relevant retrieved {b}, c = relevant missed {c}, d = non-relevant "
               "missed {d} (collection size {size} - the rest)").format(
                 a=cells[0], b=cells[1], c=cells[2], d=cells[3], size=collection_size))
    return _trace(name, float(value), formula, grades, labels, relevant, hits, notes)


register_metric(Metric(
    "utility", "utility@{k}", "binary", utility, explain_utility,
    mark("weighted count of relevant and non-relevant items retrieved and missed"), _LESSON, order=206,
    names={"utility": {}, "utility.{weights}": {}}, needs=("threshold", "n_relevant"),
    params={"weights": Param(tuple, (), (1.0, -1.0, 0.0, 0.0), "p1,p2,p3,p4: the worth of a relevant retrieved, a "
                             "non-relevant retrieved, a relevant missed and a non-relevant missed item"),
            "collection_size": Param(int, (), 0, "documents in the collection (trec_eval -N)")}, columns=COLUMNS))
