"""The returned list as a set, trec_eval's way: relative_P (set_relative_P), set_map and utility.

``relative_P.k`` divides the relevant items in the top k by the most that
could be there, ``min(k, R)`` (``set_relative_P``: the whole list, by
``min(num_ret, R)``); ``set_map`` is ``set_P * set_recall``, ``num_rel_ret^2 /
(num_ret R)``; ``utility.p1,p2,p3,p4`` weighs the four cells of the returned
set's contingency table (relevant and not, returned and not). ``set_P`` and
``set_recall`` are :func:`~ndcg_teach.precision_at_k` and
:func:`~ndcg_teach.recall_at_k` without a cut-off. Each follows trec_eval
9.0.8's ``m_*.c`` file of the same name. Lesson 09.
"""

import numpy as np

from ..binary import batch_denominators, checked_binary, divided, hit_arrays, relevant_flags
from ..formulas import at, number, threshold_note
from ...i18n import _, gettext, mark
from ..registry import Metric, Param, register_metric
from ..validation import check_items, check_n_relevant, shown
from .counts import COLUMNS, _cut, _found, _total_note, _trace

__all__ = ["relative_precision", "explain_relative_precision", "set_map", "explain_set_map", "utility",
           "explain_utility"]

_LESSON = "09-evaluating-a-model"


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


# utility

def _utility(grades, k, threshold, n_relevant, weights, collection_size):
    """``(value, a, b, c, d)``: the weighted contingency table of the retrieved set, trec_eval's order of sums."""
    values = _weights(weights)
    if isinstance(collection_size, (bool, np.bool_)) or not isinstance(collection_size, (int, np.integer)):
        raise TypeError(gettext("collection_size must be a whole number: the documents in the collection "
                                "(trec_eval -N). Got {got} instead.").format(got=shown(collection_size)))
    size = int(collection_size)
    total = check_n_relevant(n_relevant, int(relevant_flags(grades, threshold).sum()))
    retrieved = grades[:k].size
    found = _found(hit_arrays(grades, k, threshold)[1])
    cells = (found, retrieved - found, total - found, size + found - retrieved - total)
    p1, p2, p3, p4 = values
    return p1 * cells[0] + p2 * cells[1] + p3 * cells[2] + p4 * cells[3], cells


def _weights(weights):
    requirement = mark("four numbers p1,p2,p3,p4 (retrieved relevant, retrieved non-relevant, missed relevant, "
                       "missed non-relevant), e.g. (1.0, -1.0, 0.0, 0.0)")
    if isinstance(weights, (str, bytes)) or not hasattr(weights, "__len__") or len(weights) != 4 or not all(
            isinstance(w, (int, float, np.integer, np.floating)) and not isinstance(w, bool) and np.isfinite(w)
            for w in weights):
        raise ValueError(gettext("weights must be {requirement}. Got {got} instead.")
                                .format(requirement=gettext(requirement), got=shown(weights)))
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


register_metric(Metric(
    "relative_precision", "relative_P@{k}", "binary", relative_precision, explain_relative_precision,
    mark("relevant items in the top k over the most that fit there, min(k, R)"), _LESSON, order=204,
    batch=relative_precision_batch, names={"relative_P.{k}": {}, "set_relative_P": {}},
    needs=("threshold", "n_relevant"), params={}, columns=COLUMNS))
register_metric(Metric(
    "set_map", "set_map@{k}", "binary", set_map, explain_set_map,
    mark("set precision times set recall: num_rel_ret^2 / (num_ret R)"), _LESSON, order=205, batch=set_map_batch,
    names={"set_map": {}}, needs=("threshold", "n_relevant"), params={}, columns=COLUMNS))
