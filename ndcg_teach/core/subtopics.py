"""Subtopic judgements: what the diversity metrics (α-nDCG, ERR-IA) read, and the steps they share.

A query may have several subtopics (intents): "jaguar" the car, the animal,
the operating system. Its judgements are then a table, one row per ranked
item and one column per subtopic, a grade in each cell. Both diversity
metrics walk down the list keeping, for each subtopic, how much a new
relevant item is still worth (:func:`cascade`): α-nDCG multiplies it by
``1 - alpha`` after each item relevant to the subtopic, ERR-IA by the chance
that the reader did not stop there. Their ideal ranking is built greedily
(:func:`greedy_order`), as ndeval (TREC Web track) builds it: finding the
best order is NP-hard. Lesson 16 (diversity and intent) teaches them.

Every function here takes a batch: arrays of shape ``(q, n, s)``, one query
per leading row; a single query is a batch of one.
"""

from collections import Counter

import numpy as np

from .validation import NEGATIVE_CHOICES, check_choice, check_finite_total, shown
from ..i18n import gettext, mark


RANKED_ITEM = mark("ranked item")


def _table(name, values, what):
    """``values`` as a 2-D float64 array, or the error that says why not."""
    if isinstance(values, (str, bytes)) or values is None or np.isscalar(values):
        raise TypeError(gettext("{name} must be a table of grades, one row per {what} and one column per "
                                "subtopic, e.g. [[1, 0], [0, 1]]. Got {got} instead.")
                               .format(name=name, what=gettext(what), got=shown(values)))
    try:
        array = np.asarray(values)
    except ValueError:
        array = None
    if array is None or array.dtype == object:
        raise ValueError(gettext("{name} must be a table of numbers with the same number of subtopics (columns) "
                                 "in every row. Got {got} instead.").format(name=name, got=shown(values)))
    if array.size == 0 and array.ndim == 1:
        return np.zeros((0, 0))
    if array.ndim != 2:
        raise ValueError(gettext("{name} must be 2-D: one row per {what}, one column per subtopic. Got shape "
                                 "{shape} ({values}) instead.").format(name=name, what=gettext(what), shape=array.shape,
                                                                       values=shown(values)))
    if array.dtype.kind not in "biuf":
        kind = gettext("text") if array.dtype.kind in "US" else str(array.dtype)
        raise TypeError(gettext("{name} must hold numbers (grades), not {kind}. Got {got} instead.")
                               .format(name=name, kind=kind, got=shown(values)))
    return array.astype(np.float64)


def check_judgements(judgements, negative="raise", name="judgements", what=RANKED_ITEM):
    """``judgements`` as a ``(n, s)`` float64 array: finite, non-negative grades (negative ones read as 0 with
    ``negative="zero"``). An empty list is an empty ranking.

    Examples
    --------
    >>> check_judgements([[1, 0], [0, 2]])
    array([[1., 0.],
           [0., 2.]])
    >>> check_judgements([[1, 0], [0]])
    Traceback (most recent call last):
    ...
    ValueError: judgements must be a table of numbers with the same number of subtopics (columns) in every row. Got [[1, 0], [0]] instead.
    """
    check_choice("negative", negative, NEGATIVE_CHOICES)
    array = _table(name, judgements, what)
    bad = ~np.isfinite(array)
    if bad.any():
        row, column = (int(i) + 1 for i in np.argwhere(bad)[0])
        raise ValueError(gettext("{name} must be finite numbers; row {row}, subtopic {column} holds {value!r}. "
                                 "Got {got} instead.").format(name=name, row=row, column=column,
                                                              value=float(array[row - 1, column - 1]),
                                                              got=shown(judgements)))
    if (array < 0).any():
        if negative != "zero":
            row, column = (int(i) + 1 for i in np.argwhere(array < 0)[0])
            raise ValueError(gettext("{name} must be non-negative grades; row {row}, subtopic {column} holds "
                                     "{grade:g}. Pass negative='zero' to read a negative grade as 0 (judged "
                                     "non-relevant). Got {got} instead.")
                                    .format(name=name, row=row, column=column, grade=array[row - 1, column - 1],
                                            got=shown(judgements)))
        array = np.where(array < 0, 0.0, array)
    check_finite_total(name, array.sum(axis=1), judgements)
    return array


def check_subtopic_pool(pool, judgements, negative="raise"):
    """The subtopic pool (every judged item's row of grades), checked against the ranked ``judgements``.

    It must have their number of subtopics and hold every ranked row with a
    positive grade (as many times as the list does): the pool is every judged
    item of the query, retrieved or not. Returns ``(pool, judgements)``, the
    judgements reshaped to the pool's subtopics when the list is empty.
    """
    pool = check_judgements(pool, negative, "subtopic_pool", mark("judged item"))
    if judgements.size == 0:
        judgements = np.zeros((0, pool.shape[1]))
    if pool.shape[1] != judgements.shape[1]:
        raise ValueError(gettext("subtopic_pool must have the judgements' number of subtopics ({expected} "
                                 "columns). Got {n_columns} columns instead.")
                                .format(expected=judgements.shape[1], n_columns=pool.shape[1]))
    have = Counter(map(tuple, pool[pool.any(axis=1)].tolist()))
    for row in judgements[judgements.any(axis=1)].tolist():
        if have[tuple(row)] <= 0:
            raise ValueError(gettext("subtopic_pool must hold every judged item of the query, so it must contain "
                                     "each ranked row with a positive grade; the row {value} is missing. Got "
                                     "subtopic_pool={got} instead.").format(value=[f'{g:g}' for g in row],
                                                                            got=shown(pool)))
        have[tuple(row)] -= 1
    return pool, judgements


def checked_tables(judgements, subtopic_pool, negative):
    """``(judgements, subtopic_pool)`` checked as every diversity metric checks them (the pool None when not given)."""
    table = check_judgements(judgements, negative)
    if subtopic_pool is None:
        return table, None
    pool, table = check_subtopic_pool(subtopic_pool, table, negative)
    return table, pool


def check_unit(name, value, meaning):
    """``value`` as a float from 0 to 1 inclusive (α-nDCG's ``alpha``)."""
    requirement = gettext("a number from 0 to 1: {meaning}").format(meaning=gettext(meaning))
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(gettext("{name} must be {requirement}. Got {got} instead.")
                               .format(name=name, requirement=requirement, got=shown(value)))
    if not 0 <= value <= 1:
        raise ValueError(gettext("{name} must be {requirement}. Got {got} instead.")
                                .format(name=name, requirement=requirement, got=shown(value)))
    return float(value)


def check_flag(name, value, meaning):
    """``value`` when it is True or False."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(gettext("{name} must be True or False: {meaning}. Got {got} instead.")
                               .format(name=name, meaning=gettext(meaning), got=shown(value)))
    return bool(value)


def relevance(grades, graded, threshold):
    """What each cell counts as: 0 below ``threshold`` (not relevant), else the grade itself (``graded``) or 1."""
    return np.where(grades >= threshold, grades if graded else 1.0, 0.0)


def cascade(values, decays, weights):
    """``(gains, reach)`` of items in ranked order.

    ``values``, ``decays``: ``(q, n, s)``; ``weights``: ``(q, s)``. ``reach[q, r, i]`` is the product of
    ``1 - decays`` over the items above position r for subtopic i (1 at the top), and
    ``gains[q, r] = sum_i weights[q, i] * values[q, r, i] * reach[q, r, i]``.
    """
    survive = 1.0 - decays
    reach = np.ones_like(values)
    if values.shape[1] > 1:
        reach[:, 1:] = np.cumprod(survive[:, :-1], axis=1)
    gains = np.einsum("qi,qri->qr", weights, values * reach) if values.size else np.zeros(values.shape[:2])
    return gains, reach


def greedy_order(values, decays, weights, depth):
    """The rows of each query in the greedy ideal order, ``(q, depth)`` indices.

    At each position the row adding the most gain (:func:`cascade`'s) given
    the rows already placed comes next; among equal gains the first row wins
    (ndeval gives a tie to the docno that sorts last: the judging lists pool
    rows by docno, descending, so that both pick the same row). Rows of 0 (padding) add nothing and come last.
    """
    q, m, _ = values.shape
    depth = min(depth, m)
    reach = np.ones((q, values.shape[2]))
    taken = np.zeros((q, m), dtype=bool)
    order = np.zeros((q, depth), dtype=np.int64)
    queries = np.arange(q)
    for position in range(depth):
        scores = np.einsum("qi,qri->qr", weights * reach, values)
        scores[taken] = -np.inf
        pick = np.argmax(scores, axis=1)
        order[:, position] = pick
        taken[queries, pick] = True
        reach = reach * (1.0 - decays[queries, pick])
    return order


def ideal_rows(source, order):
    """``source`` (``(q, m, s)``) reordered by ``order`` (``(q, depth)``)."""
    return np.take_along_axis(source, order[:, :, np.newaxis], axis=1)


def relevant_subtopics(row):
    """The subtopics (1-based) one item is relevant to (``row`` after :func:`relevance`), as a learner reads them:
    ``"1, 3"``."""
    return ", ".join(str(i + 1) for i in np.flatnonzero(row > 0).tolist()) or "-"


def per_subtopic(row, factors):
    """``"1: 1, 3: 0.5"``: a factor for each subtopic the row is relevant to (its novelty or its stop chance)."""
    return ", ".join(f"{i + 1}: {factors[i]:.4g}" for i in np.flatnonzero(row > 0).tolist()) or "-"


def batched(judgements, subtopic_pool):
    """One query's checked arrays as a batch of one: ``(judgements[None], pool[None] or None)``."""
    return judgements[np.newaxis], None if subtopic_pool is None else subtopic_pool[np.newaxis]
