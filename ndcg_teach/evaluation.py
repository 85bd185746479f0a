"""Evaluate a whole run: every query at once, trec_eval's numbers, and the steps behind any one of them.

:func:`evaluate` reads the judgements and the run (files, dicts or
DataFrames; see :mod:`ndcg_teach.trec`), ranks each query's items, looks up
their grades, and computes each measure for all queries in one pass over a
2-D array (one row per query) with the metric's ``batch`` function, the same
steps its plain function and its ``explain_*`` twin use. Lesson 09.

The rules, trec_eval's by default (each one a keyword of :func:`evaluate`):

* **ranking**: by score, highest first; tied scores by item id, descending
  (byte order), as trec_eval does (``ties="docno"``). The run file's rank
  column is not used. ``ties="stable"`` keeps the input order (ranx);
  ``"optimistic"`` / ``"pessimistic"`` put the more / less relevant item first.
* **duplicate items** in one query (in the run or the qrels): an error, as in
  trec_eval (``duplicates="raise"``); or keep the ``"first"``, ``"last"`` or
  ``"max"`` entry.
* **queries on one side only**: a query of the run without judgements is
  left out. A judged query the run does not answer is left out too, unless
  ``complete=True`` (trec_eval ``-c``): it then counts, with an empty
  ranking, in every mean.
* **negative grades**: judged but not relevant, gain 0, not counted among
  the relevant items (trec_eval; ``negative="zero"``); ``"raise"`` refuses them.
* **unjudged items**: not relevant, gain 0. A metric whose function takes
  ``n_nonrelevant`` (judged non-relevant items of the query, as bpref does)
  gets None for each unjudged item, so it can tell the two apart.
* ``max_docs`` (trec_eval ``-M``): only each query's first ``max_docs`` items count.
* ``relevance_level`` (trec_eval ``-l``): the smallest grade the binary
  measures (P, recall, map, recip_rank) count as relevant; NDCG uses the grades.
"""

import inspect
from dataclasses import dataclass

import numpy as np

from .i18n import _
from .judging import judge
from .measures import parse_measures
from .table import Table, styled
from .validation import check_choice, shown


def _keywords(function, judged, measure, row=None):
    """What ``function`` takes of the query facts (pool, n_relevant, n_nonrelevant, threshold) and the name's keywords."""
    names = inspect.signature(function).parameters
    facts = {"pool": judged.pool, "n_relevant": judged.n_relevant, "n_nonrelevant": judged.n_nonrelevant,
             "threshold": judged.relevance_level, "negative": "zero", **measure.keywords}
    if row is not None:
        facts["pool"] = judged.pool[row][judged.pool[row] > 0]
        facts["n_relevant"] = int(judged.n_relevant[row])
        facts["n_nonrelevant"] = int(judged.n_nonrelevant[row])
    return {name: value for name, value in facts.items() if name in names}


def _relevances(function, judged, row):
    """One query's grades in ranked order; with None for unjudged items when ``function`` counts judged
    non-relevant items (``n_nonrelevant``, as bpref does), since it must tell the two apart."""
    grades = judged.grades[row, :judged.lengths[row]]
    if "n_nonrelevant" not in inspect.signature(function).parameters:
        return grades
    return [float(grade) if seen else None for grade, seen in zip(grades, judged.judged[row, :judged.lengths[row]])]


def values_of(judged, measure):
    """One measure for every query: the metric's batch function, or its plain function query by query."""
    spec = measure.spec
    if spec.batch is not None:
        return np.asarray(spec.batch(judged.grades, judged.lengths, measure.k, **_keywords(spec.batch, judged, measure)),
                          dtype=np.float64)
    return np.array([spec.function(_relevances(spec.function, judged, row), measure.k,
                                   **_keywords(spec.function, judged, measure, row))
                     for row in range(judged.lengths.size)], dtype=np.float64)


def evaluate(qrels, run, measures=("ndcg_cut.10", "map"), *, complete=False, max_docs=None, relevance_level=1,
             ties="docno", duplicates="raise", negative="zero"):
    """Evaluate a run against judgements, every query at once, with trec_eval's rules by default.

    Parameters
    ----------
    qrels : file name, path, ``{qid: {docno: grade}}`` dict, DataFrame or Qrels
        The judgements; see :func:`~ndcg_teach.read_qrels` (use it directly
        to name a DataFrame's columns).
    run : file name, path, ``{qid: {docno: score}}`` dict, DataFrame or Run
        What the system returned; see :func:`~ndcg_teach.read_run`.
    measures : str or list of str, default ("ndcg_cut.10", "map")
        trec_eval names (``ndcg_cut.10``, ``ndcg``, ``P.5``, ``recall.5``,
        ``map``, ``map_cut.10``, ``recip_rank``; ``P.5,10`` for several
        cut-offs) or ir_measures names (``nDCG@10``, ``P@5``, ``R@5``,
        ``AP``, ``AP@10``, ``RR``), read from each metric's ``names``.
    complete : bool, default False
        trec_eval ``-c``: count judged queries that the run does not answer,
        each with an empty ranking.
    max_docs : int or None, default None
        trec_eval ``-M``: use only the first ``max_docs`` items of each query.
    relevance_level : int, default 1
        trec_eval ``-l``: the smallest grade that counts as relevant.
    ties : {"docno", "stable", "optimistic", "pessimistic"}, default "docno"
        How tied scores are ordered; "docno" is trec_eval's (item id descending).
    duplicates : {"raise", "first", "last", "max"}, default "raise"
        What to do with an item listed twice for one query.
    negative : {"zero", "raise"}, default "zero"
        Negative grades: judged non-relevant (trec_eval) or an error.

    Returns
    -------
    Evaluation

    Examples
    --------
    >>> qrels = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"x": 1}}
    >>> run = {"q1": {"a": 0.2, "b": 0.9, "c": 0.5}, "q2": {"x": 0.3, "y": 0.8}}
    >>> result = evaluate(qrels, run, ["P.2", "recip_rank"])
    >>> print(result)  # trec_eval's order: recip_rank before P
    recip_rank            	q1	0.5000
    P_2                   	q1	0.5000
    recip_rank            	q2	0.5000
    P_2                   	q2	0.5000
    recip_rank            	all	0.5000
    P_2                   	all	0.5000
    >>> print(result.explain("q1", "recip_rank").formula)  # ranked b (0), c (1), a (2)
    RR = 1 / 2 = 0.5000  (first relevant item at position 2)

    See Also
    --------
    compare : two runs query by query. Lesson 09.
    """
    parsed = parse_measures(list(measures) if isinstance(measures, tuple) else measures)
    judged = judge(qrels, run, complete=complete, max_docs=max_docs, relevance_level=relevance_level, ties=ties,
                   duplicates=duplicates, negative=negative)
    values = {measure.name: values_of(judged, measure) for measure in parsed}
    return Evaluation(judged, tuple(parsed), values)


class Evaluation:
    """The values of each measure for each query, their means, and the steps of any one of them (from :func:`evaluate`). Lesson 09.

    Examples
    --------
    >>> result = evaluate({"q1": {"a": 1}, "q2": {"b": 1}}, {"q1": {"a": 0.9}, "q2": {"c": 0.9, "b": 0.1}}, "P.1")
    >>> result.queries, result.per_query["P_1"], result["P.1"]
    (('q1', 'q2'), array([1., 0.]), 0.5)

    Attributes
    ----------
    queries : tuple of str
        The evaluated queries, in trec_eval's order.
    measures : tuple of str
        The measure names as printed (``ndcg_cut_10``).
    per_query : dict of str to numpy.ndarray
        One value per query for each measure.
    means : dict of str to float
        The mean over the queries (with ``complete=True``, over every judged query).
    """

    def __init__(self, judged, measures, values):
        self._judged = judged
        self._measures = {measure.name: measure for measure in measures}
        self.queries = judged.queries
        self.measures = tuple(self._measures)
        self.per_query = values
        self.means = {name: float(np.mean(array)) for name, array in values.items()}

    def __getitem__(self, measure):
        """``result["map"]``: the mean of a measure."""
        return self.means[self._measure(measure).name]

    def _measure(self, name):
        if name in self._measures:
            return self._measures[name]
        measure = parse_measures(name)[0]
        if measure.name not in self._measures:
            raise KeyError(f"measure must be one of those evaluated ({', '.join(self.measures)}). Got {name!r} instead.")
        return self._measures[measure.name]

    def _row(self, qid):
        if str(qid) not in self.queries:
            raise KeyError(f"qid must be an evaluated query, e.g. {self.queries[0]!r}. Got {qid!r} instead.")
        return self.queries.index(str(qid))

    def value(self, qid, measure):
        """The value of ``measure`` for query ``qid``."""
        return float(self.per_query[self._measure(measure).name][self._row(qid)])

    def ranking(self, qid):
        """The items of query ``qid`` in ranked order (after ``max_docs``), as item ids."""
        row, judged = self._row(qid), self._judged
        return [item.decode("utf-8", "replace") for item in judged.docnos[judged.offsets[row]:judged.offsets[row + 1]]]

    def explain(self, qid, measure):
        """The :class:`~ndcg_teach.Trace` of one query's value: every step, with the item ids.

        Examples
        --------
        >>> result = evaluate({"q1": {"a": 2, "c": 1}}, {"q1": {"a": 0.2, "b": 0.9}}, ["ndcg_cut.3"])
        >>> print(result.explain("q1", "ndcg_cut.3").formula.splitlines()[-1])
        NDCG@3 = DCG@3 / IDCG@3 = 1.2619 / 2.6309 = 0.4797
        """
        measure, row, judged = self._measure(measure), self._row(qid), self._judged
        spec = measure.spec
        if spec.explain is None:
            raise ValueError(f"measure {measure.name} has no explain twin. Got {measure.name!r} instead.")
        return spec.explain(_relevances(spec.explain, judged, row), measure.k, ranking=self.ranking(qid),
                            **_keywords(spec.explain, judged, measure, row))

    def lines(self, per_query=True):
        """trec_eval's output lines: ``measure<TAB>query<TAB>value``, per query (``-q``) then ``all``.

        As trec_eval 9 prints them: a judged query the run does not answer
        (``complete=True``) has no line of its own but counts in ``all``.
        """
        ordered = sorted(self._measures.values(), key=lambda measure: measure.sort_key)
        out = []
        if per_query:
            for row, qid in enumerate(self.queries):
                if self._judged.retrieved[row]:
                    out += [f"{m.name:<22}\t{qid}\t{self.per_query[m.name][row]:6.4f}" for m in ordered]
        out += [f"{m.name:<22}\tall\t{self.means[m.name]:6.4f}" for m in ordered]
        return out

    def __str__(self):
        return "\n".join(self.lines())

    def __repr__(self):
        means = ", ".join(f"{name}={value:.4f}" for name, value in self.means.items())
        return f"<Evaluation of {len(self.queries)} queries: {means}>"

    def table(self):
        """The per-query values and the mean as a :class:`~ndcg_teach.table.Table`."""
        rows = [(qid, *(float(self.per_query[m][row]) for m in self.measures)) for row, qid in enumerate(self.queries)]
        rows.append(("mean", *(self.means[m] for m in self.measures)))
        return Table(_("{n} queries").format(n=len(self.queries)), ("query", *self.measures), tuple(rows),
                     align="l" + "r" * len(self.measures), row_classes=("",) * len(self.queries) + ("ndcg-total",),
                     shown_headers=(_("query"), *self.measures))

    def _repr_html_(self):
        return styled(self.table().html())

    def to_pandas(self):
        """The per-query values as a pandas DataFrame, one row per query, one column per measure."""
        import pandas as pd

        return pd.DataFrame({name: self.per_query[name] for name in self.measures},
                            index=pd.Index(self.queries, name="query"))


def compare(result_a, result_b, measure=None):
    """Two evaluations of the same queries paired query by query, ready for a significance test.

    Parameters
    ----------
    result_a, result_b : Evaluation
        Two runs evaluated on the same judgements.
    measure : str or None
        The measure to pair; None takes the first measure of ``result_a``.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> a = evaluate(qrels, {"q1": {"a": 1.0, "x": 0.5}, "q2": {"x": 1.0, "b": 0.5}}, ["recip_rank"])
    >>> b = evaluate(qrels, {"q1": {"a": 1.0}, "q2": {"b": 1.0}}, ["recip_rank"])
    >>> pair = compare(a, b)
    >>> pair.differences  # b - a per query: q2 rises from 1/2 to 1
    array([0. , 0.5])
    """
    for name, result in (("result_a", result_a), ("result_b", result_b)):
        if not isinstance(result, Evaluation):
            raise TypeError(f"{name} must be an Evaluation returned by evaluate(). Got {shown(result)} instead.")
    name = result_a.measures[0] if measure is None else result_a._measure(measure).name
    result_b._measure(name)
    shared = [qid for qid in result_a.queries if qid in set(result_b.queries)]
    if not shared:
        raise ValueError(f"result_a and result_b must share queries to be paired. Got {shown(result_a.queries)} and "
                         f"{shown(result_b.queries)} instead.")
    a = np.array([result_a.value(qid, name) for qid in shared])
    b = np.array([result_b.value(qid, name) for qid in shared])
    return Comparison(name, tuple(shared), a, b)


@dataclass(frozen=True, eq=False)
class Comparison:
    """Per-query values of one measure for two runs, paired by query (returned by :func:`compare`). Lesson 09.

    ``a`` and ``b`` are aligned arrays; :meth:`test` hands them to
    :mod:`ndcg_teach.significance`.

    Examples
    --------
    >>> pair = Comparison("P_1", ("q1", "q2", "q3"), np.array([1.0, 0.0, 1.0]), np.array([1.0, 1.0, 0.0]))
    >>> pair.differences, pair.wins  # (B better, A better, tied)
    (array([ 0.,  1., -1.]), (1, 1, 1))
    """

    measure: str
    queries: tuple
    a: np.ndarray
    b: np.ndarray

    @property
    def differences(self):
        """``b - a`` per query."""
        return self.b - self.a

    @property
    def wins(self):
        """``(b better, a better, tied)`` query counts."""
        d = self.differences
        return int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum())

    def test(self, method="randomisation", **keywords):
        """A paired significance test from :mod:`ndcg_teach.significance` of B against A.

        ``method`` is "t" (``paired_t_test``), "wilcoxon" (``wilcoxon_test``),
        "randomisation" (``randomisation_test``) or "bootstrap"
        (``bootstrap_interval``); keywords go to that function. It is given
        ``(b, a)`` and ``labels=("B", "A")`` (unless ``labels`` is passed), so
        its mean difference, printed as "B - A", has the sign of
        :attr:`differences` and :meth:`table`.

        Examples
        --------
        >>> pair = Comparison("P_1", ("q1", "q2", "q3"), np.array([0.0, 0.0, 1.0]), np.array([1.0, 1.0, 1.0]))
        >>> result = pair.test("randomisation")
        >>> round(result.mean_difference, 4), round(float(pair.differences.mean()), 4)  # B gains on two of three queries
        (0.6667, 0.6667)
        """
        functions = {"t": "paired_t_test", "wilcoxon": "wilcoxon_test", "randomisation": "randomisation_test",
                     "bootstrap": "bootstrap_interval"}
        check_choice("method", method, tuple(functions))
        from . import significance  # imported on first use: it may need SciPy

        return getattr(significance, functions[method])(self.b, self.a, **{"labels": ("B", "A"), **keywords})

    def table(self):
        """Each query's two values and their difference as a :class:`~ndcg_teach.table.Table`."""
        rows = tuple((qid, float(a), float(b), float(b - a)) for qid, a, b in zip(self.queries, self.a, self.b))
        rows += (("mean", float(self.a.mean()), float(self.b.mean()), float(self.differences.mean())),)
        caption = _("{measure}: B better on {b}, A better on {a}, tied on {tied}").format(
            measure=self.measure, b=self.wins[0], a=self.wins[1], tied=self.wins[2])
        return Table(caption, ("query", "A", "B", "B - A"), rows, align="lrrr", shown_headers=(_("query"), "A", "B", "B - A"))

    def __str__(self):
        return str(self.table())

    def _repr_html_(self):
        return styled(self.table().html())

    def to_pandas(self):
        """The paired values as a DataFrame: columns a, b, difference; one row per query."""
        import pandas as pd

        return pd.DataFrame({"a": self.a, "b": self.b, "difference": self.differences},
                            index=pd.Index(self.queries, name="query"))
