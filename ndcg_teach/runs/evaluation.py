"""Evaluate a whole run: every query at once, trec_eval's numbers, and the steps behind any one of them.

:func:`evaluate` reads the judgements and the run (files, dicts or
DataFrames; see :mod:`ndcg_teach.runs.trec`), ranks each query's items, looks up
their grades, and computes each measure for all queries in one pass over a
2-D array (one row per query) with the metric's ``batch`` function, the same
steps its plain function and its ``explain_*`` twin use. Lesson 09.

The rules, trec_eval's by default (each one a keyword of :func:`evaluate`):

* **reading**: grades as whole numbers and each column's leading number, as
  trec_eval reads them (``grades="float"`` keeps fractions; see
  :mod:`ndcg_teach.runs.trec`).
* **ranking**: by score, highest first, the scores as 32-bit floats (C
  ``float``, trec_eval 9's storage: scores equal in 32 bits tie;
  ``scores="float64"``, trec_eval 10's rule, compares them in full); tied
  scores by item id, descending (byte order), as trec_eval does
  (``ties="docno"``). The run file's rank column is not used.
  ``ties="stable"`` keeps the input order (ranx); ``"optimistic"`` /
  ``"pessimistic"`` put the more / less relevant item first.
* **duplicate items** in one query (in the run or the qrels): an error, as in
  trec_eval (``duplicates="raise"``); or keep the ``"first"``, ``"last"`` or
  ``"max"`` entry. Queries that are not evaluated are not looked at.
* **queries on one side only**: a query of the run without judgements is
  left out. A judged query the run does not answer is left out too, unless
  ``complete=True`` (trec_eval ``-c``): it then counts in every mean, with
  the value 0 for every measure (trec_eval 9.0.8; its line is not printed),
  or (``trec_eval="10.0"``) as a ranking of one unjudged placeholder document
  whose lines are printed (:func:`~ndcg_teach.runs.trec_output.with_placeholders`).
* **negative grades**: judged but not relevant, gain 0, not counted among
  the relevant items (trec_eval; ``negative="zero"``); ``"raise"`` refuses them.
* **unjudged items**: not relevant, gain 0. A metric that needs the query's
  ``judged`` mask (bpref, RBP) gets None for each unjudged item, so it can
  tell the two apart.
* ``max_docs`` (trec_eval ``-M``): only each query's first ``max_docs`` items
  count; ``judged_only`` (``-J``) then drops the unjudged ones.
* ``relevance_level`` (trec_eval ``-l``): the smallest grade the binary
  measures (P, recall, map, recip_rank) count as relevant; NDCG uses the grades.
* **the all line**: the mean over queries for most measures, the sum for
  counts (``num_ret``), the geometric mean for ``gm_map``; see
  :mod:`ndcg_teach.runs.trec_output`, which also gives ``-Z``'s z-scores.
"""

from dataclasses import replace

import numpy as np

from .comparison import Comparison, compare  # noqa: F401  (two evaluations paired by query, lesson 09)
from ..i18n import _, gettext, mark
from .judging import judge
from .measures import VERSIONS, Measure, MeasureError, parse_measures
from .rbp_leftover import rbp_values
from ..core.registry import call, explain
from ..core.table import Table, styled
from .trec import MAX_BYTES, read_qrels, read_run
from .trec_output import (empty_lists, line, read_zscores, relstrings, stored, summary, with_placeholders,
                          zero_unanswered, zscored)
from ..core.validation import check_choice, shown


def needs_subtopics(parsed):
    """Whether any of the parsed measures is a diversity metric: the qrels are then read with their subtopics."""
    return any(measure.spec is not None and "subtopics" in measure.spec.needs for measure in parsed)


def values_of(judged, measure):
    """One measure for every query of a judged run (:func:`~ndcg_teach.core.registry.call` on the run's query batch)."""
    return call(measure.spec, judged.query, measure.k, **measure.keywords)


def evaluate(qrels, run, measures=("ndcg_cut.10", "map"), *, complete=False, max_docs=None, relevance_level=1,
             ties="docno", duplicates="raise", negative="zero", scores=None, grades="integer", judged_only=False,
             trec_eval="9.0.8", zscores=None, max_bytes=MAX_BYTES, collection_size=0):
    """Evaluate a run against judgements, every query at once, with trec_eval's rules by default.

    Parameters
    ----------
    qrels : file name, path, ``{qid: {docno: grade}}`` dict, DataFrame or Qrels
        The judgements; see :func:`~ndcg_teach.read_qrels` (use it directly
        to name a DataFrame's columns). A diversity measure (``alpha-nDCG@10``,
        ``ERR-IA@10``, ...) reads them as diversity qrels, ``topic subtopic
        docno grade`` lines or a ``{qid: {subtopic: {docno: grade}}}`` dict
        (``read_qrels(..., subtopics=True)``); the other measures then read each
        item's largest grade over its subtopics.
    run : file name, path, ``{qid: {docno: score}}`` dict, DataFrame or Run
        What the system returned; see :func:`~ndcg_teach.read_run`.
    measures : str or list of str, default ("ndcg_cut.10", "map")
        trec_eval names (``ndcg_cut.10``, ``ndcg``, ``P.5``, ``recall.5``,
        ``map``, ``map_cut.10``, ``recip_rank``, ``gm_map``, ``num_q``,
        ``runid``; ``P.5,10`` for several cut-offs, ``P`` for trec_eval's;
        the sets ``official`` and ``all_trec``) or ir_measures names
        (``nDCG@10``, ``P@5``, ``R@5``, ``AP``, ``AP@10``, ``RR``), ndeval's
        (``alpha-nDCG@20``, ``ERR-IA@20``, ``nERR-IA@20``) or theirs in
        ir_measures (``alpha_nDCG@20``, ``ERR_IA@20``); see
        :func:`~ndcg_teach.runs.measures.parse_measures`.
    complete : bool, default False
        trec_eval ``-c``: count judged queries that the run does not answer.
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
    scores : {"float32", "float64"} or None, default None
        How scores are compared: as 32-bit floats (trec_eval 9) or in full
        (trec_eval 10); None follows ``trec_eval``.
    grades : {"integer", "float"}, default "integer"
        How a qrels file's grades are read: as trec_eval reads them (whole
        numbers) or in full; see :func:`~ndcg_teach.read_qrels`.
    judged_only : bool, default False
        trec_eval ``-J``: drop unjudged items from each ranking (after ``max_docs``).
    trec_eval : {"9.0.8", "10.0"}, default "9.0.8"
        Whose rules: trec_eval's release 9.0.8 (pytrec_eval's) or its unreleased
        10.0 (scores in full, ``-c`` evaluates and prints unanswered queries,
        rbp and unj in all_trec).
    zscores : file name, path, dict or None
        trec_eval ``-Z``: a file of ``qid measure mean stddev`` lines (or
        :func:`~ndcg_teach.runs.trec_output.read_zscores`'s table, or a
        ``{(qid, measure): (mean, stddev)}`` dict); the values
        become z-scores (:mod:`ndcg_teach.runs.trec_output`).
    max_bytes : int
        The most text a file may hold once decompressed (see :func:`~ndcg_teach.read_run`).
    collection_size : int, default 0
        trec_eval ``-N``: documents in the collection, which only ``utility``
        reads (its non-relevant items not retrieved).

    Returns
    -------
    Evaluation

    Examples
    --------
    >>> qrels = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"x": 1}}
    >>> run = {"q1": {"a": 0.2, "b": 0.9, "c": 0.5}, "q2": {"x": 0.3, "y": 0.8}}
    >>> result = evaluate(qrels, run, ["P.2", "recip_rank"])
    >>> print(result)  # trec_eval's order: recip_rank before P
    recip_rank            \tq1\t0.5000
    P_2                   \tq1\t0.5000
    recip_rank            \tq2\t0.5000
    P_2                   \tq2\t0.5000
    recip_rank            \tall\t0.5000
    P_2                   \tall\t0.5000
    >>> print(result.explain("q1", "recip_rank").formula)  # ranked b (0), c (1), a (2)
    RR = 1 / 2 = 0.5000  (first relevant item at position 2)

    See Also
    --------
    compare : two runs query by query. Lesson 09.
    """
    check_choice("trec_eval", trec_eval, VERSIONS)
    parsed = [replace(measure, keywords={**measure.keywords, "collection_size": collection_size})
              if measure.spec is not None and "collection_size" in measure.spec.params else measure
              for measure in _parsed(measures, trec_eval)]
    qrels = read_qrels(qrels, grades=grades, max_bytes=max_bytes, subtopics=needs_subtopics(parsed))
    run, added = read_run(run, max_bytes=max_bytes), ()
    if complete and trec_eval == "10.0":
        run, added = with_placeholders(qrels, run)
    table = zscores if zscores is None or hasattr(zscores, "get") else read_zscores(zscores)
    judged = judge(qrels, run, complete=complete, max_docs=max_docs, relevance_level=relevance_level, ties=ties,
                   duplicates=duplicates, negative=negative, judged_only=judged_only,
                   scores=scores or ("float32" if trec_eval == "9.0.8" else "float64"))
    if trec_eval == "9.0.8" and not judged.retrieved.any():
        raise ValueError(gettext("qrels and run must share at least one query, even with complete=True under "
                                 "trec_eval 9.0.8 (trec_eval: 'No queries with both results and relevance info'; "
                                 "10.0 prints its lines). Got queries {queries} in the qrels and {queries2} in "
                                 "the run instead.").format(queries=shown(qrels.queries), queries2=shown(run.queries)))
    values = {}
    parts = _parts(judged)  # made once, so each part builds its Query once for every measure
    for measure in parsed:
        if measure.spec is not None:
            values[measure.name] = np.concatenate([values_of(part, measure) for part in parts])
        elif measure.family == "num_q":
            values[measure.name] = np.ones(len(judged.queries))
        elif measure.family == "relstring":
            values[measure.name] = relstrings(judged, measure.parameter[0])
    for measure in parsed:  # trec_eval 10.0-rc3's rbp reads what the measures before it left on its stack
        if measure.spec is not None and measure.spec.key == "trec_rbp" and trec_eval == "10.0":
            values[measure.name] = rbp_values(judged.query, measure, parsed, values)
    empty_lists(values, parsed, judged)
    if complete:
        zero_unanswered(values, parsed, np.array([qid in added for qid in judged.queries]) if added else ~judged.retrieved,
                        trec_eval)
    n_judged = len(qrels.qids.names) if complete else len(judged.queries)
    return Evaluation(judged, tuple(parsed), values, complete=complete, trec_eval=trec_eval, zscores=table,
                      n_judged_queries=n_judged)


PART_CELLS = 1 << 18  # a metric sees about this many ranked positions at a time (its arrays stay a few MB)


def _parts(judged):
    """``judged`` in parts of whole queries, each about PART_CELLS positions wide x long."""
    n, width = len(judged.queries), max(judged.grades.shape[1], 1)
    step = max(1, PART_CELLS // width)
    return [judged.rows(start, min(start + step, n)) for start in range(0, n, step)] or [judged]


def _parsed(measures, trec_eval):
    """Measures from names or from :func:`parse_measures` (the command parses with trec_eval's own rules)."""
    if isinstance(measures, (list, tuple)) and measures and all(isinstance(m, Measure) for m in measures):
        parsed = list(measures)
    else:
        parsed = parse_measures(list(measures) if isinstance(measures, tuple) else measures, trec_eval=trec_eval)
    missing = list(dict.fromkeys(m.family if m.parameter in (None, (), {}) or m.trec is None or m.trec.params in
                                 ("cutoffs", "levels") else m.name
                                 for m in parsed if m.spec is None and m.family not in _COMPUTED_HERE))
    if missing:
        raise MeasureError(gettext("measures must be ones ndcg_teach computes; {names} {value} trec_eval's, "
                                   "which ndcg_teach does not compute yet (with these parameters). Got {got} "
                                   "instead.").format(names=', '.join(missing),
                                                      value='is' if len(missing) == 1 else 'are', got=shown(missing)))
    return parsed


# What trec_eval prints that is not a metric: the run's name, the query count, each item's grade as text.
_COMPUTED_HERE = ("runid", "num_q", "relstring")


class Evaluation:
    """The values of each measure for each query, their summaries, and the steps of any one of them (from :func:`evaluate`). Lesson 09.

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
        What trec_eval's ``all`` line says: the mean over the queries (with
        ``complete=True``, over every judged query), or the sum for counts
        (``num_ret``), the geometric mean for ``gm_map`` (z-scores with ``zscores``).
    run_id : str
        The run's name (trec_eval's ``runid``: the tag of the run file's last line).
    """

    def __init__(self, judged, measures, values, *, complete=False, trec_eval="9.0.8", zscores=None,
                 n_judged_queries=None):
        self._judged = judged
        self._measures = {measure.name: measure for measure in measures}
        self._complete, self._version, self._zscored = complete, trec_eval, zscores is not None
        self.queries = judged.queries
        self.measures = tuple(name for name in self._measures if name in values)
        self.per_query = values
        self.run_id, self._zscores = judged.tag, zscores
        self._counts = (len(self.queries) if trec_eval == "10.0" else int(judged.retrieved.sum()),
                        len(self.queries) if n_judged_queries is None else n_judged_queries, complete,
                        int((judged.pool > 0).sum()))
        self._printed, self.means = {}, {}
        for name, array in values.items():
            if _kind(self._measures[name]) == "string":  # printed as it is (trec_eval: no z-score), no all line
                self._printed[name] = array
                continue
            self._printed[name] = array if zscores is None else zscored(array, self.queries, name, zscores)
            self.means[name] = self.mean_of(name, array)

    def mean_of(self, measure, values):
        """What the ``all`` line of ``measure`` would say were its per-query values ``values`` (one per query of
        :attr:`queries`, in that order): :attr:`means` is this of :attr:`per_query`. Lesson 20 asks it what a run's
        mean becomes when one query is ranked or judged differently.

        Examples
        --------
        >>> result = evaluate({"q1": {"a": 1}, "q2": {"b": 1}}, {"q1": {"a": 0.9}, "q2": {"c": 0.9, "b": 0.1}}, "P.1")
        >>> result.mean_of("P.1", [1.0, 1.0])  # were b ranked first for q2
        1.0
        """
        measure, (n, total, complete, positive) = self._measure(measure), self._counts
        array = stored(measure, np.asarray(values, dtype=np.float64))
        array = array if self._zscores is None else zscored(array, self.queries, measure.name, self._zscores)
        return summary(measure, array if self._version == "10.0" or not complete else array[self._judged.retrieved],
                       n, total, complete, positive)

    def explore(self, qid, measure=None, *, language=None):
        """Open query ``qid`` in the ranking explorer, ranked and judged as trec_eval ranked and judged it. Lesson 20.

        Its cards show this evaluation's value of every measure for the query
        and what the run's mean of each would become; a drag or a judgement
        there shows both at once. ``measure`` (None: the first evaluated)
        sets the step table's cut-off and gains; see
        :class:`~ndcg_teach.widgets.QueryExplorer`, which needs the
        ``widgets`` extra.
        """
        from ..widgets.run_query import QueryExplorer  # the widgets extra, imported only when a query is explored

        return QueryExplorer(self, qid, measure, language=language)

    def __getitem__(self, measure):
        """``result["map"]``: the mean of a measure."""
        return self.means[self._measure(measure).name]

    def _measure(self, name):
        if name in self._measures:
            return self._measures[name]
        measure = parse_measures(name, trec_eval=self._version)[0]
        if measure.name not in self._measures:
            raise KeyError(gettext("measure must be one of those evaluated ({names}). Got {name!r} instead.")
                                  .format(names=', '.join(self.measures), name=name))
        return self._measures[measure.name]

    def _row(self, qid):
        if str(qid) not in self.queries:
            raise KeyError(gettext("qid must be an evaluated query, e.g. {example!r}. Got {qid!r} instead.")
                                  .format(example=self.queries[0], qid=qid))
        return self.queries.index(str(qid))

    def value(self, qid, measure):
        """The value of ``measure`` for query ``qid`` (text for ``relstring``)."""
        value = self.per_query[self._measure(measure).name][self._row(qid)]
        return value if isinstance(value, str) else float(value)

    def ranking(self, qid):
        """The items of query ``qid`` in ranked order (after ``max_docs``), as item ids."""
        return self._judged.ranking(self._row(qid))

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
        if spec is None:
            if measure.family == "relstring":
                raise ValueError(gettext("measure {name} prints the grades of the first items as text, one "
                                         "character each: its characters are its steps, and result.ranking(qid) "
                                         "names the items. Got {name!r} instead.").format(name=measure.name))
            what = mark("the run's name") if measure.family == "runid" else mark("the number of queries")
            raise ValueError(gettext("measure {name} has no steps for one query: trec_eval prints it on the all "
                                     "line only ({what}). Got {name!r} instead.")
                                    .format(name=measure.name, what=gettext(what)))
        if spec.explain is None:
            raise ValueError(gettext("measure {name} has no explain twin. Got {name!r} instead.")
                                    .format(name=measure.name))
        return explain(spec, judged.query.row(row).named(self.ranking(qid)), measure.k, **measure.keywords)

    def lines(self, per_query=True, summary=True):
        """trec_eval's output lines: ``measure<TAB>query<TAB>value``, per query (``-q``) then ``all`` (``-n``: none).

        As trec_eval 9 prints them: a judged query the run does not answer
        (``complete=True``) has no line of its own but counts in ``all``
        (trec_eval 10 prints its line); ``gm_map`` and ``num_q`` have only
        the ``all`` line.
        """
        ordered = sorted(self._measures.values(), key=lambda measure: measure.sort_key)
        zscored = self._zscored
        out = []
        if per_query:
            shown = [m for m in ordered if m.name in self.per_query and (m.trec is None or m.trec.per_query)]
            for row, qid in enumerate(self.queries):
                if self._version == "10.0" or self._judged.retrieved[row]:
                    out += [line(m.name, qid, _printed(m, self._printed[m.name][row]), _kind(m), zscored)
                            for m in shown]
        if summary:
            for m in ordered:
                if m.family == "runid":
                    out.append(line("runid", "all", self.run_id, "string"))
                elif m.name in self.means:
                    out.append(line(m.name, "all", self.means[m.name], _kind(m), zscored))
        return out

    def __str__(self):
        return "\n".join(self.lines())

    def __repr__(self):
        means = ", ".join(f"{name}={value:.4f}" for name, value in self.means.items())
        return _("<Evaluation of {n} queries: {means}>").format(n=len(self.queries), means=means)

    def table(self):
        """The per-query values and the mean as a :class:`~ndcg_teach.core.table.Table`."""
        rows = [(qid, *(self.value(qid, m) for m in self.measures)) for qid in self.queries]
        rows.append((_("mean"), *(self.means.get(m, "") for m in self.measures)))
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


def _kind(measure):
    return "float" if measure.trec is None else measure.trec.value


def _printed(measure, value):
    """A query's value as trec_eval prints it: relstring in quotes (``'0110-'``), the rest as they are."""
    return f"'{value}'" if measure.family == "relstring" else value
