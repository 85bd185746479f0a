"""Explore an evaluated run: one query as the explorer opens it, and a run's per-query scores with what-if edits.

:func:`~ndcg_teach.evaluate` keeps, for each query, what trec_eval looked at:
the run's items in trec_eval's order (32-bit scores, ties by item id
descending; see :mod:`ndcg_teach.runs.judging`), their grades, which of them were
judged, and every judged grade of the query, retrieved or not. This module
reads that back, computing nothing anew:

- :func:`run_query` gives one query as the ranking explorer takes it: the
  ranked ids, each one's grade (0 for an unjudged item, which is shown as an
  unjudged row, as in lesson 12), the pool the ideal is built from (every
  judged grade, as trec_eval builds it), the relevance level, and the
  evaluated measures the explorer can show (:func:`explorable`);
- :class:`RunScores` holds one measure's per-query values of one run, or of two
  runs paired by query, with the changes a learner made to some queries: the
  means (each run's ``all`` line, through :meth:`~ndcg_teach.Evaluation.mean_of`)
  and the paired tests of :mod:`ndcg_teach.statistics.significance` follow.

:meth:`Evaluation.explore <ndcg_teach.Evaluation.explore>` and
:class:`~ndcg_teach.widgets.RunExplorer` are built on it. Lesson 20.

>>> import ndcg_teach as nt
>>> result = nt.evaluate({"q1": {"a": 2, "b": 0, "z": 1}}, {"q1": {"a": 0.2, "b": 0.9, "c": 0.5}}, ["P.2", "map"])
>>> query = run_query(result, "q1")
>>> query.ranking, query.relevance, query.unjudged, query.pool
(('b', 'c', 'a'), {'b': 0, 'c': 0, 'a': 2}, ('c',), (2, 1, 0))
>>> [measure.name for measure in query.measures]
['P_2', 'map']
"""

from dataclasses import dataclass

import numpy as np

from ..i18n import gettext, mark
from ..core.trec_gains import TrecGains, level_counts
from ..core.validation import shown

# What a query explorer can compute from its list: a measure that needs more (subtopics, or which unjudged items
# were in the pool) is not shown.
_EXPLORER_FACTS = frozenset({"judged", "pool", "n_relevant", "n_nonrelevant", "threshold"})


def explorable(result):
    """The measures of ``result`` the explorer can show for one query: a number per query, from what a ranked list,
    its judged items and the query's judged grades say (not subtopics, runid, num_q or relstring)."""
    measures = [result._measure(name) for name in result.measures]
    return tuple(measure for measure in measures if measure.spec is not None and measure.spec.group != "diversity"
                 and set(measure.spec.needs) - _pooled_unused(measure) <= _EXPLORER_FACTS)


def _pooled_unused(measure):
    """``{"pooled"}`` for trec_eval's ndcg with a gain map that gives no negative level a gain: which unjudged items
    were in the pool then changes nothing (both levels -1 and -2 gain 0), so the explorer can show it."""
    gains = measure.keywords.get("gains")
    if gains is None or any(level < 0 for level, _ in gains.named()):
        return set()
    return {"pooled"}


@dataclass(frozen=True)
class RunQuery:
    """One query of an evaluated run as the explorer opens it (from :func:`run_query`).

    Attributes
    ----------
    qid : str
    row : int
        The query's place in ``result.queries``.
    ranking : tuple of str
        The run's items for the query, in trec_eval's order (after ``max_docs``).
    relevance : dict of str to int
        Each ranked item's grade; 0 for an unjudged one.
    unjudged : tuple of str
        The ranked items the qrels do not judge (a negative grade: in the pool, not judged), in ranked order.
    pool : tuple of int
        Every judged grade of the query, retrieved or not, best first: what trec_eval builds the ideal from, and
        where it counts R and N.
    threshold : int
        The evaluation's relevance level (trec_eval ``-l``).
    measure : Measure
        The measure asked for: its cut-off and gains set the step table's.
    measures : tuple of Measure
        Every measure the explorer shows, the one asked for first.
    """

    qid: str
    row: int
    ranking: tuple
    relevance: dict
    unjudged: tuple
    pool: tuple
    threshold: int
    measure: object
    measures: tuple

    @property
    def k(self):
        """The step table's cut-off: the measure's, at most the list's length (None: the whole list)."""
        return None if self.measure.k is None else min(self.measure.k, len(self.ranking))

    @property
    def gain(self):
        """The measure's gains by grade when its name gives them (``ndcg.1=3,2=9``: ``{0: 0.0, 1: 3.0, 2: 9.0}``, as
        trec_eval's gain table gives them), else None (linear, trec_eval's)."""
        gains = self.measure.keywords.get("gains")
        if gains is None:
            return self.measure.keywords.get("gain")
        table = gains.table(level_counts(self.pool))
        top = max([*self.pool, *self.relevance.values(), 0])
        return {level: TrecGains.gain_of(table, level) for level in range(top + 1)}

    def ideal_gains(self):
        """The ideal ranking's gains as trec_eval builds them from the pool, or None without a gain map."""
        gains = self.measure.keywords.get("gains")
        return None if gains is None else gains.ideal(gains.table(level_counts(self.pool)))


def _whole(values, what, qid):
    """``values`` as ints, refused with the query and the first fraction when one is not a whole number."""
    values = np.asarray(values, dtype=np.float64)
    fractions = values[values != np.round(values)]
    if fractions.size:
        raise ValueError(gettext("qrels grades must be whole numbers to explore a query (evaluate's grades="
                                 "'integer', trec_eval's reading): the explorer's grades are whole numbers. Got "
                                 "{what} {got} for query {qid!r} instead.")
                         .format(what=gettext(what), got=shown(float(fractions[0])), qid=qid))
    return [int(value) for value in values.tolist()]


def run_query(result, qid, measure=None):
    """Query ``qid`` of ``result`` (an :class:`~ndcg_teach.Evaluation`) as the explorer opens it, for ``measure``.

    Parameters
    ----------
    result : Evaluation
    qid : str
        An evaluated query that the run answered.
    measure : str or None, default None
        One of the evaluated measures (its trec_eval or printed name); None takes the first one the explorer can show.

    Returns
    -------
    RunQuery
    """
    from .evaluation import Evaluation

    if not isinstance(result, Evaluation):
        raise TypeError(gettext("result must be an Evaluation returned by evaluate(). Got {got} instead.")
                        .format(got=shown(result)))
    asked = chosen_measure(result, measure)
    row = result._row(qid)
    judged = result._judged
    qid = result.queries[row]
    if not judged.retrieved[row]:
        raise ValueError(gettext("qid must be a query the run answered: the run has no items for {qid!r}, so there "
                                 "is nothing to reorder (it counts as 0 with complete=True). Got {got} instead.")
                         .format(qid=qid, got=shown(qid)))
    length = int(judged.lengths[row])
    ranking = tuple(judged.ranking(row))
    grades = _whole(judged.grades[row, :length], mark("the grade"), qid)
    seen = judged.judged[row, :length].tolist()
    level = result._judged.relevance_level
    positive = judged.pool[row][judged.pool[row] > 0]
    # Judged grades from 0 to below the level are counted (N); those above 0 are in the pool already.
    zeros = int(judged.n_nonrelevant[row]) - int((positive < level).sum())
    pool = tuple(_whole(positive, mark("the judged grade"), qid)) + (0,) * zeros
    threshold = _whole([level], mark("the relevance level"), qid)[0]
    query = RunQuery(qid, row, ranking, dict(zip(ranking, grades)),
                     tuple(item for item, known in zip(ranking, seen) if not known), pool, threshold, asked,
                     (asked, *(m for m in explorable(result) if m is not asked)))
    _check_ideal(query)
    return query


def _check_ideal(query):
    """Refuses a gain map whose ideal trec_eval orders otherwise than by gain (gains less than 1 apart, a gain for
    grade 0 above another level's, negative gains): the explorer's step table builds its ideal by gain, best first,
    and would show another IDCG than the card."""
    trec = query.ideal_gains()
    if trec is None:
        return
    by_gain = sorted((query.gain[grade] for grade in query.pool), reverse=True)
    while by_gain and by_gain[-1] == 0:
        by_gain.pop()
    if trec != by_gain:
        raise ValueError(gettext("measure must have gains the explorer's step table can order as trec_eval does "
                                 "for query {qid!r}: trec_eval's ideal gains are {trec}, ordered by gain they are "
                                 "{by_gain} (gains less than 1 apart, or 0 and negative gains, sort otherwise in "
                                 "trec_eval). Got {got} instead.")
                         .format(qid=query.qid, trec=shown(trec), by_gain=shown(by_gain), got=shown(query.measure.name)))


class RunScores:
    """Per-query values of a run, or of two runs paired by query, with a learner's changes to some queries.

    Every measure the explorer can show is kept (the changed query's other
    measures change with it); one of them, :attr:`measure`, is paired.

    Parameters
    ----------
    result : Evaluation
        The run (A, the baseline, when there are two).
    other : Evaluation or None, default None
        A second run on the same judgements (B). None: the pairs are the run
        as evaluated (A) and the run with the learner's changes (B).
    measure : str or None, default None
        The paired measure; None takes the first the explorer can show.

    Attributes
    ----------
    measure : str
        The paired measure's printed name (``ndcg_cut_10``).
    runs : tuple of Evaluation
        ``(result,)`` or ``(result, other)``.
    queries : tuple of str
        The paired queries: every query of ``result``, or those both runs evaluated.

    Examples
    --------
    >>> import ndcg_teach as nt
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> scores = RunScores(nt.evaluate(qrels, {"q1": {"a": 0.9}, "q2": {"x": 0.9, "b": 0.1}}, ["recip_rank"]))
    >>> scores.means(), scores.worst_first()
    ((0.75, 0.75), ['q2', 'q1'])
    >>> scores.set(0, "q2", {"recip_rank": 1.0})  # b moved to the top of q2
    >>> scores.means(), scores.differences().tolist()
    ((0.75, 1.0), [0.0, 0.5])
    """

    def __init__(self, result, other=None, measure=None):
        from .evaluation import Evaluation

        for name, run in (("result", result), ("other", other)):
            if run is not None and not isinstance(run, Evaluation):
                raise TypeError(gettext("{name} must be an Evaluation returned by evaluate(). Got {got} instead.")
                                .format(name=name, got=shown(run)))
        self.runs = (result,) if other is None else (result, other)
        self.measure = chosen_measure(result, measure).name
        for run in self.runs[1:]:
            chosen_measure(run, self.measure)
        shared = set.intersection(*(set(run.queries) for run in self.runs))
        self.queries = tuple(qid for qid in result.queries if qid in shared)
        if not self.queries:
            raise ValueError(gettext("result and other must share queries to be paired. Got {queries} and {got} "
                                     "instead.").format(queries=shown(result.queries), got=shown(other.queries)))
        self._rows = [np.array([run.queries.index(qid) for qid in self.queries]) for run in self.runs]
        self._start = [{m.name: np.array(run.per_query[m.name], dtype=np.float64) for m in explorable(run)}
                       for run in self.runs]
        self.reset()

    def value(self, run, qid, measure=None):
        """Query ``qid``'s current value in run ``run`` (0 for A, 1 for B)."""
        return float(self._values[run][measure or self.measure][self.runs[run]._row(qid)])

    def start(self, run, qid, measure=None):
        """Query ``qid``'s value as evaluated, in run ``run``."""
        return float(self._start[run][measure or self.measure][self.runs[run]._row(qid)])

    def set(self, run, qid, values):
        """Give query ``qid`` of run ``run`` new values (``{measure: value}``, what a drag or a judgement made)."""
        row = self.runs[run]._row(qid)
        for name, value in values.items():
            if name in self._values[run]:
                self._values[run][name][row] = float(value)

    def reset(self):
        """Every query back to its values as evaluated."""
        self._values = [{name: array.copy() for name, array in start.items()} for start in self._start]

    def changed(self):
        """The queries whose paired value differs from the evaluated one in some run, in :attr:`queries`' order."""
        moved = np.zeros(len(self.queries), dtype=bool)
        for rows, start, now in zip(self._rows, self._start, self._values):
            moved |= start[self.measure][rows] != now[self.measure][rows]
        return [qid for qid, flag in zip(self.queries, moved.tolist()) if flag]

    def means_if(self, run, qid, measure, values):
        """Run ``run``'s mean of ``measure`` were query ``qid`` worth each of ``values`` (other queries as they are now)."""
        values = np.asarray(values, dtype=np.float64)
        array, row = self._values[run][measure].copy(), self.runs[run]._row(qid)
        unique, back = np.unique(values, return_inverse=True)
        means = []
        for value in unique.tolist():  # a drag's destinations share few values: each mean is computed once
            array[row] = value
            means.append(self.runs[run].mean_of(measure, array))
        return np.asarray(means, dtype=np.float64)[back.reshape(values.shape)]

    def means(self):
        """The pair's two means of :attr:`measure`, each its run's ``all`` line: ``(A, B)``; for one run, as
        evaluated and as changed."""
        if len(self.runs) == 1:
            run = self.runs[0]
            return run.means[self.measure], run.mean_of(self.measure, self._values[0][self.measure])
        return tuple(run.mean_of(self.measure, values[self.measure]) for run, values in zip(self.runs, self._values))

    def pair(self, evaluated=False):
        """``(a, b)``: the paired per-query values of :attr:`measure`, one per query of :attr:`queries` (``evaluated``:
        both runs as evaluated)."""
        if len(self.runs) == 1:
            rows = self._rows[0]
            return self._start[0][self.measure][rows], (self._start if evaluated else self._values)[0][self.measure][rows]
        values = self._start if evaluated else self._values
        return tuple(run[self.measure][rows] for run, rows in zip(values, self._rows))

    def differences(self):
        """``b - a`` per query of :attr:`queries`."""
        a, b = self.pair()
        return b - a

    def worst_first(self):
        """The queries as the explorer lists them: lowest value first (lowest B - A for two runs) as evaluated,
        ties in :attr:`queries`' order."""
        a, b = self.pair(evaluated=True)
        key = a if len(self.runs) == 1 else b - a
        return [self.queries[i] for i in np.argsort(key, kind="stable").tolist()]


def chosen_measure(result, measure):
    """The measure ``measure`` names in ``result`` (None: the first the explorer can show), checked as
    :func:`run_query` checks it."""
    shown_measures = explorable(result)
    if not shown_measures:
        raise ValueError(gettext("result must have a measure the explorer can show for one query (ndcg_cut.10, "
                                 "map, P.10, recip_rank, ...). Got {got} instead.")
                         .format(got=shown(list(result.measures))))
    asked = shown_measures[0] if measure is None else result._measure(measure)
    if asked not in shown_measures:
        raise ValueError(gettext("measure must be one the explorer can show for one query: {names}. Got {got} "
                                 "instead.").format(names=", ".join(m.name for m in shown_measures), got=shown(measure)))
    return asked
