"""The query context: everything a metric may read about one query, or about many queries at once.

Every caller that scores rankings builds one :class:`Query` and hands it to
:func:`~ndcg_teach.core.registry.call`: the run judger (:func:`~ndcg_teach.evaluate`
through :mod:`ndcg_teach.runs.judging`), :func:`~ndcg_teach.core.mean` (its per-query
facts), the explorers (their settings) and the peer conventions of
:mod:`ndcg_teach.core.conventions`. A metric declares in its
:class:`~ndcg_teach.Metric` which of the facts below it ``needs``, and
:func:`~ndcg_teach.core.registry.call` passes it exactly those; nobody reads a
function's parameter names to decide what to pass.

A query's facts (:data:`FACTS`): the grades of the ranked items (always),
which of them were judged, the pool of judged grades the ideal ranking is
built from, R and N (relevant and judged non-relevant items of the query),
the relevance threshold, and, for diversity metrics, each ranked item's grade
per subtopic with the pool their ideal is built from. Lesson 09 builds
queries from a run; lesson 03's explorer from its settings.

>>> query = Query.of([3, 0, 2], pool=[3, 2, 3, 0], n_relevant=3, ranking=["a", "b", "c"])
>>> query.grades, query.n_relevant, query.ranking
(array([3., 0., 2.]), 3, ('a', 'b', 'c'))
>>> many = Query.from_lists([[3, 0, 2], [1]], n_relevant=[3, 1])
>>> many.grades  # one query per row, padded with 0 after each list
array([[3., 0., 2.],
       [1., 0., 0.]])
>>> many.row(1).grades, many.row(1).n_relevant
(array([1.]), 1)
"""

from dataclasses import dataclass, fields, replace

import numpy as np

from .subtopics import checked_tables
from .validation import (check_items, check_judged_relevances, check_n_nonrelevant, check_n_relevant, check_pool,
                         check_pooled, check_relevances, check_threshold, shown)
from ..i18n import gettext


@dataclass(frozen=True)
class Fact:
    """One thing a metric may need to know about a query besides its grades in ranked order.

    ``keyword`` is how the plain metric functions take it (``pool=``,
    ``n_relevant=``, ...), or None when it changes what they are given
    instead: an unjudged item is passed as None in ``relevances`` to a metric
    that needs ``"judged"``, and a metric that needs ``"subtopics"`` takes
    the per-subtopic grades as its first argument. ``default`` is the value
    that means "not known: count it in the list".
    """

    keyword: object
    default: object
    meaning: str


FACTS = {
    "judged": Fact(None, None, "which ranked items were judged; an unjudged one counts as not relevant, and a metric "
                               "that needs this fact is given None for it so that it can tell the two apart"),
    "pool": Fact("pool", None, "the grades of every judged item of the query, retrieved or not: what the ideal "
                               "ranking is built from (None: from the ranked list itself)"),
    "n_relevant": Fact("n_relevant", None, "R, the relevant items of the query, retrieved or not (None: counted in "
                                           "the list)"),
    "n_nonrelevant": Fact("n_nonrelevant", None, "N, the judged non-relevant items of the query (None: counted in "
                                                 "the list)"),
    "threshold": Fact("threshold", 1, "the smallest grade that counts as relevant"),
    "subtopics": Fact(None, None, "each ranked item's grade for each subtopic of the query (diversity metrics)"),
    "subtopic_pool": Fact("subtopic_pool", None, "each judged item's grades per subtopic: what a diversity metric's "
                                                 "ideal ranking is built from (None: from the ranked items)"),
    "pooled": Fact("pooled", None, "which ranked items were in the judgement pool, judged or not (trec_eval: in the "
                                   "qrels, a negative grade meaning pooled but not judged); what infAP and relstring "
                                   "tell apart (None: exactly the judged items)"),
}
"""The facts a :class:`~ndcg_teach.Metric` may list in its ``needs``, in that order."""


def _frozen(array):
    """A read-only view of ``array``: nothing writes through the query, and nothing is copied."""
    view = array.view()
    view.setflags(write=False)
    return view


def _stacked_tables(rows, shape):
    """The rows' subtopic tables and pools as ``(q, w, s)`` and ``(q, m, s)`` arrays padded with 0 (columns too: a
    subtopic no item is relevant to adds nothing), or nothing when no row has subtopics."""
    tables = {}
    for name in ("subtopics", "subtopic_pool"):
        given = [getattr(row, name) for row in rows]
        if all(table is None for table in given):
            continue
        if any(table is None for table in given):
            raise ValueError(gettext("{name} must be given for every query or for none. Got a mix instead.")
                                    .format(name=name))
        width = max(table.shape[1] for table in given)
        stacked = np.zeros((*shape[:1], shape[1] if name == "subtopics" else max(t.shape[0] for t in given), width))
        for index, table in enumerate(given):
            stacked[index, :table.shape[0], :table.shape[1]] = table
        tables[name] = stacked
    return tables


@dataclass(frozen=True, eq=False)
class Query:
    """What the metrics may read about one query (1-D ``grades``) or a batch of queries (2-D, one row each).

    Build one with :meth:`of` (one ranked list), :meth:`from_lists` (a list
    of lists, as :func:`~ndcg_teach.core.mean` takes them) or, from arrays that are
    already checked, the constructor itself (as :mod:`ndcg_teach.runs.judging` and
    the explorers do). Arrays are read-only.

    Attributes
    ----------
    grades : numpy.ndarray
        float64 grades in ranked order: ``(n,)`` for one query, ``(q, w)`` for
        a batch, each row padded with 0 after its ``lengths[q]`` items.
        Unjudged items have grade 0.
    lengths : numpy.ndarray or None
        A batch's list lengths, ``(q,)``; None for one query.
    judged : numpy.ndarray or None
        bool, like ``grades``: whether each ranked item was judged; None when
        every item was.
    pool : numpy.ndarray or None
        The judged grades the ideal ranking is built from: ``(m,)``, or
        ``(q, m)`` padded with 0 (row q holds ``pool_lengths[q]`` grades);
        None builds the ideal from the ranked list itself.
    pool_lengths : numpy.ndarray or None
        A batch's pool sizes, ``(q,)``; None otherwise.
    n_relevant, n_nonrelevant : int, numpy.ndarray or None
        R and N: one int, or one per query (``(q,)`` int64); None counts them
        in the list.
    subtopics : numpy.ndarray or None
        Grades per subtopic of the ranked items: ``(n, s)``, or ``(q, w, s)``
        padded with 0 like ``grades``. For the diversity metrics (part 2 of
        issue 20); None when the query has no subtopic judgements.
    subtopic_pool : numpy.ndarray or None
        Every judged item's grades per subtopic, ``(m, s)`` or ``(q, m, s)``
        padded with rows of 0 (an item without any subtopic adds nothing to an
        ideal): what a diversity metric builds its ideal from; None builds it
        from the ranked items.
    threshold : float
        The smallest grade that counts as relevant.
    ranking : tuple or None
        The ranked items' ids, best first (one query only), for explanations.

    Examples
    --------
    >>> from ndcg_teach import call
    >>> query = Query.of([3, 0, 2], pool=[3, 3, 2, 0], n_relevant=3)  # a grade-3 item was judged, not retrieved
    >>> round(call("ndcg", query, 3), 4), round(call("recall", query, 3), 4)
    (0.6788, 0.6667)
    """

    grades: np.ndarray
    lengths: np.ndarray = None
    judged: np.ndarray = None
    pool: np.ndarray = None
    pool_lengths: np.ndarray = None
    n_relevant: object = None
    n_nonrelevant: object = None
    subtopics: np.ndarray = None
    subtopic_pool: np.ndarray = None
    threshold: float = 1.0
    ranking: tuple = None
    pooled: np.ndarray = None

    def __post_init__(self):
        grades = np.asarray(self.grades, dtype=np.float64)
        if grades.ndim not in (1, 2):
            raise ValueError(gettext("Query.grades must be 1-D (one query) or 2-D (one row per query). Got shape "
                                     "{shape} instead.").format(shape=grades.shape))
        if (grades.ndim == 2) != (self.lengths is not None):
            raise ValueError(gettext("Query.lengths must be given exactly when grades is 2-D (a batch). Got "
                                     "grades of shape {shape} and lengths={got} instead.")
                                    .format(shape=grades.shape, got=shown(self.lengths)))
        values = {"grades": grades, "threshold": check_threshold(self.threshold), **self._arrays(grades),
                  **self._counts(grades)}
        if self.ranking is not None:
            if grades.ndim == 2:
                raise ValueError(gettext("Query.ranking names the items of one query; a batch has none. Got a "
                                         "ranking instead."))
            values["ranking"] = check_items(self.ranking, grades.size)
        for name, value in values.items():
            object.__setattr__(self, name, _frozen(value) if isinstance(value, np.ndarray) else value)

    def _arrays(self, grades):
        """The arrays laid out like ``grades``: the judged mask, the pool and the subtopic grades, shapes checked."""
        arrays = {}
        for name in ("judged", "pooled"):
            if getattr(self, name) is not None:
                arrays[name] = np.asarray(getattr(self, name), dtype=bool)
                if arrays[name].shape != grades.shape:
                    raise ValueError(gettext("Query.{name} must have the shape of grades {shape}. Got {shape2} "
                                             "instead.").format(name=name, shape=grades.shape,
                                                                shape2=arrays[name].shape))
        if self.pool is not None:
            arrays["pool"] = np.asarray(self.pool, dtype=np.float64)
            if arrays["pool"].ndim != grades.ndim or arrays["pool"].shape[:-1] != grades.shape[:-1]:
                raise ValueError(gettext("Query.pool must hold one row per query, like grades {shape}. Got shape "
                                         "{shape2} instead.").format(shape=grades.shape, shape2=arrays['pool'].shape))
        for name in ("subtopics", "subtopic_pool"):
            if getattr(self, name) is not None:
                arrays[name] = np.asarray(getattr(self, name), dtype=np.float64)
                if arrays[name].ndim != grades.ndim + 1:
                    raise ValueError(gettext("Query.{name} must have one more axis than grades (one column per "
                                             "subtopic). Got shape {shape} instead.")
                                            .format(name=name, shape=arrays[name].shape))
        if self.subtopics is not None and arrays["subtopics"].shape[:-1] != grades.shape:
            raise ValueError(gettext("Query.subtopics must hold one row per ranked item, like grades {shape}. "
                                     "Got shape {shape2} instead.").format(shape=grades.shape,
                                                                           shape2=arrays['subtopics'].shape))
        return arrays

    def _counts(self, grades):
        """The whole numbers: a batch's list and pool lengths, and R and N (one each, or one per query)."""
        batch, counts = grades.ndim == 2, {}
        if batch:
            counts["lengths"] = self._per_query("lengths", self.lengths, grades.shape[0])
            if (counts["lengths"] > grades.shape[1]).any():
                raise ValueError(gettext("Query.lengths must not exceed the width of grades ({width}). Got {got} "
                                         "instead.").format(width=grades.shape[1], got=shown(self.lengths)))
        if batch and self.pool is not None:
            sizes = np.full(grades.shape[0], np.shape(self.pool)[1]) if self.pool_lengths is None else self.pool_lengths
            counts["pool_lengths"] = self._per_query("pool_lengths", sizes, grades.shape[0])
        elif self.pool_lengths is not None:
            raise ValueError(gettext("Query.pool_lengths must be None unless a batch has a pool. Got {got} "
                                     "instead.").format(got=shown(self.pool_lengths)))
        for name in ("n_relevant", "n_nonrelevant"):
            value = getattr(self, name)
            if value is not None and batch:
                counts[name] = self._per_query(name, value, grades.shape[0])
            elif value is not None:
                if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
                    raise TypeError(gettext("Query.{name} must be a non-negative whole number or None. Got {got} "
                                            "instead.").format(name=name, got=shown(value)))
                counts[name] = int(value)
        return counts

    @staticmethod
    def _per_query(name, values, n):
        array = np.asarray(values)
        if array.shape != (n,) or array.dtype.kind not in "iu" or (array < 0).any():
            raise ValueError(gettext("Query.{name} must hold one non-negative whole number per query ({n}). Got "
                                     "{got} instead.").format(name=name, n=n, got=shown(values)))
        return array.astype(np.int64)

    @classmethod
    def of(cls, relevances, *, pool=None, n_relevant=None, n_nonrelevant=None, threshold=1, ranking=None,
           negative="raise", unjudged=False, pooled=None):
        """One query from its ranked list, checked as every metric checks it.

        Parameters
        ----------
        relevances : sequence of float
            Grades of the ranked items, position 1 first.
        pool, n_relevant, n_nonrelevant, threshold
            The query's facts (see :data:`FACTS`); None where not known.
        ranking : sequence of str or None
            The ranked items' ids, best first.
        negative : {"raise", "zero"}, default "raise"
            "zero" reads negative grades as 0 (judged non-relevant), as trec_eval does.
        unjudged : bool, default False
            Whether None may mark an unjudged item in ``relevances`` (only
            metrics that need ``"judged"`` tell it from a grade-0 item).
        pooled : sequence of bool or None, default None
            Which ranked items were in the judgement pool (see :data:`FACTS`).

        Examples
        --------
        >>> Query.of([2, None, 1], unjudged=True).judged
        array([ True, False,  True])
        >>> Query.of([2, -1], negative="zero").grades
        array([2., 0.])
        """
        if unjudged:
            grades, judged = check_judged_relevances(relevances, negative)
            judged = None if judged.all() else judged
        else:
            grades, judged = check_relevances(relevances, negative), None
        return cls(
            grades, judged=judged, pooled=None if pooled is None else check_pooled(pooled, grades.size),
            pool=None if pool is None else check_pool(pool, grades, negative),
            n_relevant=None if n_relevant is None else check_n_relevant(n_relevant, 0),
            n_nonrelevant=None if n_nonrelevant is None else check_n_nonrelevant(n_nonrelevant, 0),
            threshold=check_threshold(threshold), ranking=ranking,
        )

    @classmethod
    def of_subtopics(cls, judgements, *, subtopic_pool=None, ranking=None, negative="raise"):
        """One query from its table of grades per subtopic (a row per ranked item), checked as the diversity metrics
        check it. ``grades`` holds each item's largest grade over its subtopics (what the other metrics read).

        Examples
        --------
        >>> query = Query.of_subtopics([[1, 0], [0, 2]], subtopic_pool=[[1, 0], [0, 2], [1, 1]])
        >>> query.grades, query.subtopic_pool.shape
        (array([1., 2.]), (3, 2))
        """
        table, pool = checked_tables(judgements, subtopic_pool, negative)
        return cls(table.max(axis=1, initial=0.0), subtopics=table, subtopic_pool=pool, ranking=ranking)

    @classmethod
    def from_lists(cls, queries, *, pool=None, n_relevant=None, n_nonrelevant=None, threshold=1, negative="raise",
                   unjudged=False, pooled=None):
        """A batch from one ranked list per query; ``pool``, ``n_relevant`` and ``n_nonrelevant`` hold one value per query.

        Each list is checked as :meth:`of` checks it; an error names the query ("query 2: ...").

        Examples
        --------
        >>> batch = Query.from_lists([[2, 1], [], [3]], pool=[[2, 1, 1], [1], [3]])
        >>> batch.lengths, batch.pool_lengths
        (array([2, 0, 1]), array([3, 1, 1]))
        >>> Query.from_lists([[1], [2, 1.5]], n_relevant=[1, True])
        Traceback (most recent call last):
        ...
        TypeError: query 2: n_relevant must be a non-negative integer: how many relevant items the query has in total. Got True instead.
        """
        queries = list(queries)
        threshold = check_threshold(threshold)
        given = {"pool": pool, "n_relevant": n_relevant, "n_nonrelevant": n_nonrelevant, "pooled": pooled}
        for name, values in given.items():
            if values is not None and len(values) != len(queries):
                raise ValueError(gettext("{name} must hold one value per query ({n_queries}). Got {n_values} "
                                         "values instead.").format(name=name, n_queries=len(queries),
                                                                   n_values=len(values)))
        rows = []
        for index, relevances in enumerate(queries):
            if np.isscalar(relevances):
                raise TypeError(gettext("queries must be a list of relevance lists, one per query; query {value} "
                                        "is a single number. Got {got} instead.")
                                       .format(value=index + 1, got=shown(queries)))
            own = {name: None if values is None else values[index] for name, values in given.items()}
            try:
                rows.append(cls.of(relevances, **own, threshold=threshold, negative=negative, unjudged=unjudged))
            except (TypeError, ValueError) as error:
                raise type(error)(gettext("query {value}: {error}").format(value=index + 1, error=error)) from None
        return cls.stacked(rows, threshold=threshold)

    @classmethod
    def stacked(cls, rows, threshold=1):
        """The batch of single-query ``rows`` (all with the same threshold), each padded with 0."""
        lengths = np.array([row.grades.size for row in rows], dtype=np.int64)
        grades = np.zeros((len(rows), int(lengths.max(initial=0))))
        inside = np.arange(grades.shape[1]) < lengths[:, np.newaxis]
        grades[inside] = np.concatenate([row.grades for row in rows]) if rows else []
        judged = None
        if any(row.judged is not None for row in rows):
            judged = np.zeros(grades.shape, dtype=bool)
            judged[inside] = np.concatenate([np.ones(row.grades.size, bool) if row.judged is None else row.judged
                                             for row in rows])
        pooled = None
        if any(row.pooled is not None for row in rows):
            pooled = np.zeros(grades.shape, dtype=bool)
            pooled[inside] = np.concatenate([(row.judged if row.judged is not None else np.ones(row.grades.size, bool))
                                             if row.pooled is None else row.pooled for row in rows])
        pool = pool_lengths = None
        if any(row.pool is not None for row in rows):
            if not all(row.pool is not None for row in rows):
                raise ValueError(gettext("pool must be given for every query or for none (None builds a query's "
                                         "ideal from its own list). Got a mix instead."))
            pool_lengths = np.array([row.pool.size for row in rows], dtype=np.int64)
            pool = np.zeros((len(rows), int(pool_lengths.max(initial=0))))
            pool[np.arange(pool.shape[1]) < pool_lengths[:, np.newaxis]] = np.concatenate([row.pool for row in rows])
        counts = {}
        for name in ("n_relevant", "n_nonrelevant"):
            values = [getattr(row, name) for row in rows]
            if any(value is not None for value in values):
                if any(value is None for value in values):
                    raise ValueError(gettext("{name} must be given for every query or for none. Got {got} "
                                             "instead.").format(name=name, got=shown(values)))
                counts[name] = np.array(values, dtype=np.int64)
        return cls(grades, lengths, judged, pool, pool_lengths, **counts, **_stacked_tables(rows, grades.shape),
                   threshold=threshold, pooled=pooled)

    @property
    def batch(self):
        """True for a batch of queries (2-D grades)."""
        return self.grades.ndim == 2

    def __len__(self):
        """The number of queries (1 for one query)."""
        return self.grades.shape[0] if self.batch else 1

    def row(self, index):
        """Query ``index`` of a batch, as one query: its list, pool and counts without the padding."""
        if not self.batch:
            raise ValueError(gettext("Query.row needs a batch; this is one query. Got row({index!r}) instead.")
                                    .format(index=index))
        length = int(self.lengths[index])

        def count(value):
            return None if value is None else int(value[index])

        return Query(
            self.grades[index, :length],
            judged=None if self.judged is None else self.judged[index, :length],
            pooled=None if self.pooled is None else self.pooled[index, :length],
            pool=None if self.pool is None else self.pool[index, :int(self.pool_lengths[index])],
            n_relevant=count(self.n_relevant), n_nonrelevant=count(self.n_nonrelevant),
            subtopics=None if self.subtopics is None else self.subtopics[index, :length],
            subtopic_pool=None if self.subtopic_pool is None else self.subtopic_pool[index],
            threshold=self.threshold,
        )

    def named(self, ranking):
        """This query with its ranked items' ids (for an explanation)."""
        return replace(self, ranking=ranking)

    def reordered(self, indices):
        """A batch of this one query's list in other orders: row r holds the items ``indices[r]`` (positions 0..n-1).

        The explorers score every place an item could be dropped at once this way.

        Examples
        --------
        >>> Query.of([3, 1, 2]).reordered([[0, 1, 2], [2, 0, 1]]).grades
        array([[3., 1., 2.],
               [2., 3., 1.]])
        """
        if self.batch:
            raise ValueError(gettext("Query.reordered needs one query; this is a batch. Got a batch instead."))
        indices = np.asarray(indices, dtype=np.int64).reshape(-1, self.grades.size)
        rows = indices.shape[0]

        def tiled(value):
            return None if value is None else np.full(rows, value, dtype=np.int64)

        return Query(
            self.grades[indices], np.full(rows, self.grades.size, dtype=np.int64),
            judged=None if self.judged is None else self.judged[indices],
            pooled=None if self.pooled is None else self.pooled[indices],
            pool=None if self.pool is None else np.tile(self.pool, (rows, 1)),
            pool_lengths=None if self.pool is None else np.full(rows, self.pool.size, dtype=np.int64),
            n_relevant=tiled(self.n_relevant), n_nonrelevant=tiled(self.n_nonrelevant),
            subtopics=None if self.subtopics is None else self.subtopics[indices],
            subtopic_pool=None if self.subtopic_pool is None else np.tile(self.subtopic_pool, (rows, 1, 1)),
            threshold=self.threshold,
        )

    def condensed(self):
        """This query with its unjudged items removed and the rest closed up in order: Sakai's (2007) condensed list,
        which AP′ and nDCG′ read (trec_eval's ``-J``). The pool and the counts stay; a batch condenses every query.

        Examples
        --------
        >>> Query.of([None, 1, 0, None, 1], unjudged=True).condensed().grades
        array([1., 0., 1.])
        >>> Query.of([2, 1]).reordered([[0, 1], [1, 0]]).condensed().lengths  # all judged: unchanged
        array([2, 2])
        """
        if self.judged is None:
            return self
        if not self.batch:
            keep = self.judged

            def kept(value):
                return None if value is None else value[keep]

            ranking = None if self.ranking is None else tuple(item for item, seen in zip(self.ranking, keep) if seen)
            return replace(self, grades=self.grades[keep], judged=None, pooled=kept(self.pooled),
                           subtopics=kept(self.subtopics), ranking=ranking)
        # Judged items first, in their order (a stable sort); the padding (never judged) stays at the end.
        order = np.argsort(~self.judged, axis=1, kind="stable")
        lengths = self.judged.sum(axis=1).astype(np.int64)
        inside = np.arange(self.grades.shape[1]) < lengths[:, None]

        def moved(value):
            if value is None:
                return None
            taken = np.take_along_axis(value, order if value.ndim == 2 else order[..., None], axis=1)
            return taken * (inside if value.ndim == 2 else inside[..., None])

        return replace(self, grades=moved(self.grades), lengths=lengths, judged=None, pooled=moved(self.pooled),
                       subtopics=moved(self.subtopics))

    def __repr__(self):
        known = [f.name for f in fields(self) if f.name not in ("grades", "lengths") and getattr(self, f.name) is not None
                 and not (f.name == "threshold" and self.threshold == 1)]
        shape = f"{len(self)} queries" if self.batch else f"{self.grades.size} ranked items"
        return f"<Query of {shape}{'; knows ' + ', '.join(known) if known else ''}>"
