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

from .measures import parse_measures
from .table import Table, styled
from .trec import TrecFormatError, read_qrels, read_run
from .validation import check_choice, check_k, check_threshold, shown

TIES = ("docno", "stable", "optimistic", "pessimistic")
DUPLICATES = ("raise", "first", "last", "max")


class _Collision(Exception):
    """Two different item ids share a 64-bit hash: start again with exact codes."""


def _query_codes(qrels_qids, run_qids):
    """Codes of the query ids, in byte order, read once per run of equal ids (files group a query's lines)."""
    heads, sizes = [], []
    for qids in (qrels_qids, run_qids):
        change = np.flatnonzero(np.r_[True, qids[1:] != qids[:-1]]) if qids.size else np.zeros(0, dtype=np.int64)
        heads.append(qids[change])
        sizes.append(np.diff(np.r_[change, qids.size]))
    names, codes = np.unique(np.concatenate(heads), return_inverse=True)
    split = heads[0].size
    return names, np.repeat(codes[:split], sizes[0]), np.repeat(codes[split:], sizes[1])


def _hashes(strings, width):
    """A 64-bit FNV-style hash of each byte string (zero-padded to ``width`` bytes, a multiple of 8)."""
    words = strings.astype(f"S{width}").view(np.uint64).reshape(strings.size, width // 8)
    hashes = np.full(strings.size, 14695981039346656037, dtype=np.uint64)
    for column in words.T:
        hashes = (hashes ^ column) * np.uint64(1099511628211)
    return hashes


def _pair_keys(qrels, run, qrels_codes, run_codes, exact):
    """One integer per (query, item) pair, equal for equal pairs: hashed, or exact ranks after a collision."""
    if exact:
        _, items = np.unique(np.concatenate([qrels.docnos, run.docnos]), return_inverse=True)
        n_items = int(items.max(initial=0)) + 1
        keys = np.concatenate([qrels_codes, run_codes]).astype(np.int64) * n_items + items
    else:
        width = -(-max(qrels.docnos.dtype.itemsize, run.docnos.dtype.itemsize, 1) // 8) * 8
        items = np.concatenate([_hashes(qrels.docnos, width), _hashes(run.docnos, width)])
        keys = items ^ (np.concatenate([qrels_codes, run_codes]).astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))
    return keys[: len(qrels)], keys[len(qrels):]


def _same(table, rows, other_table, other_rows):
    return (table.qids[rows] == other_table.qids[other_rows]) & (table.docnos[rows] == other_table.docnos[other_rows])


def _grouped(keys, values, duplicates, what, table):
    """Rows sorted by key with duplicate (query, item) pairs resolved; returns ``(rows, keys, values)``."""
    order = np.argsort(keys)
    sorted_keys = keys[order]
    if not (sorted_keys[1:] == sorted_keys[:-1]).any():
        return order, sorted_keys, values[order]
    order = np.argsort(keys, kind="stable")  # with duplicates, "first" and "last" mean input order
    keys = keys[order]
    repeated = np.flatnonzero(keys[1:] == keys[:-1])
    if not _same(table, order[repeated], table, order[repeated + 1]).all():
        raise _Collision
    if duplicates == "raise":
        first, second = order[repeated[0]], order[repeated[0] + 1]
        where = "" if table.lines is None else f" (lines {table.lines[first]} and {table.lines[second]})"
        raise TrecFormatError(
            f"{table.source}: {what} lists item {table.docnos[first].decode()!r} twice for query "
            f"{table.qids[first].decode()!r}{where}; trec_eval refuses that. Pass duplicates='first', 'last' or 'max' "
            "to keep one. Got a duplicate instead.")
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], keys.size] - 1
    values = values[order]
    if duplicates == "max":
        best = np.maximum.reduceat(values, starts)
        # the first row of each group that holds its maximum
        is_best = values == np.repeat(best, np.diff(np.r_[starts, keys.size]))
        candidates = np.flatnonzero(is_best)
        keep = candidates[np.searchsorted(candidates, starts)]
    else:
        keep = starts if duplicates == "first" else ends
    return order[keep], keys[keep], values[keep]


def _joined(qrels, run, qrels_codes, run_codes, duplicates, exact):
    """Each run row (duplicates resolved) with its judged grade (NaN when unjudged), and the qrels rows."""
    qrels_keys, run_keys = _pair_keys(qrels, run, qrels_codes, run_codes, exact)
    judged_rows, qrels_keys, qrels_grades = _grouped(qrels_keys, qrels.grades, duplicates, "the qrels", qrels)
    rows, run_keys, scores = _grouped(run_keys, run.scores, duplicates, "the run", run)
    grades = np.full(rows.size, np.nan)
    if qrels_keys.size:
        at = np.minimum(np.searchsorted(qrels_keys, run_keys), qrels_keys.size - 1)
        found = np.flatnonzero(qrels_keys[at] == run_keys)
        if not _same(run, rows[found], qrels, judged_rows[at[found]]).all():
            raise _Collision
        grades[found] = qrels_grades[at[found]]
    return judged_rows, qrels_grades, rows, scores, grades


def _input_order(rows, n, *columns):
    """``rows`` (distinct row numbers below ``n``) sorted, with ``columns`` carried along, without a sort."""
    place = np.full(n, -1)
    place[rows] = np.arange(rows.size)
    kept = place[place >= 0]
    return (rows[kept], *(column[kept] for column in columns))


def _by_score(run_queries, scores):
    """Positions sorted by query, then score descending, ties in input order (one row per query, sorted along rows)."""
    by_query = np.argsort(run_queries, kind="stable") if (np.diff(run_queries) < 0).any() else np.arange(scores.size)
    queries = run_queries[by_query]
    counts = np.bincount(queries)
    width = int(counts.max(initial=0))
    if counts.size * width > 4 * scores.size + 1024:  # lists of very different lengths: padding would cost too much
        return np.lexsort((-scores, run_queries))
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    positions = np.arange(scores.size) - np.repeat(starts, counts)
    padded = np.full((counts.size, width), np.inf)
    padded[queries, positions] = -scores[by_query]
    within = np.argsort(padded, axis=1, kind="stable")
    return by_query[(within + starts[:, np.newaxis])[np.arange(width) < counts[:, np.newaxis]]]


def _ranked(run, rows, run_queries, scores, grades, ties):
    """Positions of ``rows`` (in input order) sorted by query, score descending, then the tie rule."""
    if ties in ("optimistic", "pessimistic"):
        return np.lexsort((rows, -grades if ties == "optimistic" else grades, -scores, run_queries))
    order = _by_score(run_queries, scores)
    if ties == "stable":
        return order
    same = (run_queries[order][1:] == run_queries[order][:-1]) & (scores[order][1:] == scores[order][:-1])
    if same.any():
        # trec_eval: tied scores by item id, descending (byte order); sort only the tied groups by id.
        tied = np.flatnonzero(np.r_[same, False] | np.r_[False, same])
        group = np.cumsum(~np.r_[False, same])[tied]
        _, ids = np.unique(run.docnos[rows[order[tied]]], return_inverse=True)
        order[tied] = order[tied][np.lexsort((-ids, group))]
    return order


@dataclass(frozen=True, eq=False)
class Judged:
    """A run ranked and judged: every evaluated query's grades in ranked order, ready for the batch functions."""

    queries: tuple
    grades: np.ndarray          # (n_queries, width), 0 after each list
    lengths: np.ndarray
    pool: np.ndarray            # (n_queries, max relevant), each query's positive judged grades, best first
    n_relevant: np.ndarray      # judged grades >= relevance_level, per query
    n_nonrelevant: np.ndarray   # judged grades from 0 to below relevance_level, per query
    judged: np.ndarray          # like grades: whether each ranked item was judged (a grade >= 0 in the qrels)
    retrieved: np.ndarray       # bool: the run answers the query (False only with complete=True)
    docnos: np.ndarray          # ranked item ids, all queries one after the other
    offsets: np.ndarray         # query q's items are docnos[offsets[q]:offsets[q + 1]]
    relevance_level: float


def judge(qrels, run, *, complete=False, max_docs=None, relevance_level=1, ties="docno", duplicates="raise",
          negative="zero"):
    """Rank each query of ``run``, look up the grades in ``qrels``, and lay them out one query per row."""
    qrels, run = read_qrels(qrels), read_run(run)
    check_choice("ties", ties, TIES)
    check_choice("duplicates", duplicates, DUPLICATES)
    check_choice("negative", negative, ("zero", "raise"))
    max_docs = check_k(max_docs, name="max_docs")
    level = check_threshold(relevance_level)
    if negative == "raise" and (qrels.grades < 0).any():
        row = int(np.argmax(qrels.grades < 0))
        where = "" if qrels.lines is None else f", line {qrels.lines[row]}"
        raise TrecFormatError(f"{qrels.source}{where}: grades must be non-negative with negative='raise'; trec_eval reads "
                              f"a negative grade as judged non-relevant (negative='zero'). Got {qrels.grades[row]:g} instead.")
    names, qrels_codes, run_codes = _query_codes(qrels.qids, run.qids)
    try:
        judged_rows, qrels_grades, rows, scores, grades = _joined(qrels, run, qrels_codes, run_codes, duplicates, False)
    except _Collision:
        judged_rows, qrels_grades, rows, scores, grades = _joined(qrels, run, qrels_codes, run_codes, duplicates, True)
    rows, scores, grades = _input_order(rows, len(run), scores, grades)
    run_queries, qrels_queries = run_codes[rows], qrels_codes[judged_rows]
    judged = grades >= 0  # trec_eval: a negative grade means "in the pool, not judged" (NaN: not in the qrels)
    grades = np.where(judged, grades, 0.0)  # unjudged: gain 0, not relevant
    # Which queries are evaluated, in trec_eval's order (query ids in byte order).
    has_judgements = np.bincount(qrels_queries, minlength=names.size) > 0
    has_answers = np.bincount(run_queries, minlength=names.size) > 0
    evaluated = np.flatnonzero(has_judgements if complete else has_judgements & has_answers)
    if evaluated.size == 0:
        raise ValueError(f"qrels and run must share at least one query (trec_eval: 'No queries with both results and "
                         f"relevance info'). Got queries {shown(qrels.queries)} in the qrels and {shown(run.queries)} "
                         "in the run instead.")
    row_of = np.full(names.size, -1)
    row_of[evaluated] = np.arange(evaluated.size)
    order = _ranked(run, rows, run_queries, scores, grades, ties)
    order = order[row_of[run_queries[order]] >= 0]
    ranked_rows = row_of[run_queries[order]]
    counts = np.bincount(ranked_rows, minlength=evaluated.size)
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    positions = np.arange(order.size) - np.repeat(starts, counts)
    if max_docs is not None:
        kept = positions < max_docs
        order, ranked_rows, positions = order[kept], ranked_rows[kept], positions[kept]
        counts = np.minimum(counts, max_docs)
    matrix = np.zeros((evaluated.size, int(counts.max(initial=0))))
    matrix[ranked_rows, positions] = grades[order]
    judged_matrix = np.zeros(matrix.shape, dtype=bool)
    judged_matrix[ranked_rows, positions] = judged[order]
    # Each query's positive judged grades, best first: the ideal ranking of NDCG.
    in_evaluated = row_of[qrels_queries]
    positive = (in_evaluated >= 0) & (qrels_grades > 0)
    pool_rows, pool_grades = in_evaluated[positive], qrels_grades[positive]
    pool_order = np.lexsort((-pool_grades, pool_rows))
    pool_counts = np.bincount(pool_rows, minlength=evaluated.size)
    pool_positions = np.arange(pool_rows.size) - np.repeat(np.r_[0, np.cumsum(pool_counts)[:-1]], pool_counts)
    pool = np.zeros((evaluated.size, int(pool_counts.max(initial=0))))
    pool[pool_rows[pool_order], pool_positions] = pool_grades[pool_order]
    relevant = (in_evaluated >= 0) & (qrels_grades >= level)
    n_relevant = np.bincount(in_evaluated[relevant], minlength=evaluated.size)
    nonrelevant = (in_evaluated >= 0) & (qrels_grades >= 0) & (qrels_grades < level)
    n_nonrelevant = np.bincount(in_evaluated[nonrelevant], minlength=evaluated.size)
    return Judged(
        queries=tuple(name.decode("utf-8", "replace") for name in names[evaluated]), grades=matrix, lengths=counts,
        pool=pool, n_relevant=n_relevant, n_nonrelevant=n_nonrelevant, judged=judged_matrix, retrieved=has_answers[evaluated], docnos=run.docnos[rows[order]],
        offsets=np.r_[0, np.cumsum(counts)], relevance_level=level,
    )


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
        return Table(f"{len(self.queries)} queries", ("query", *self.measures), tuple(rows),
                     align="l" + "r" * len(self.measures), row_classes=("",) * len(self.queries) + ("ndcg-total",))

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
        """A paired significance test from :mod:`ndcg_teach.significance` on ``(a, b)``.

        ``method`` is "t" (``paired_t_test``), "wilcoxon" (``wilcoxon_test``),
        "randomisation" (``randomisation_test``) or "bootstrap"
        (``bootstrap_interval``); keywords go to that function.
        """
        functions = {"t": "paired_t_test", "wilcoxon": "wilcoxon_test", "randomisation": "randomisation_test",
                     "bootstrap": "bootstrap_interval"}
        check_choice("method", method, tuple(functions))
        from . import significance  # imported on first use: it may need SciPy

        return getattr(significance, functions[method])(self.a, self.b, **keywords)

    def table(self):
        """Each query's two values and their difference as a :class:`~ndcg_teach.table.Table`."""
        rows = tuple((qid, float(a), float(b), float(b - a)) for qid, a, b in zip(self.queries, self.a, self.b))
        rows += (("mean", float(self.a.mean()), float(self.b.mean()), float(self.differences.mean())),)
        return Table(f"{self.measure}: B better on {self.wins[0]}, A better on {self.wins[1]}, tied on {self.wins[2]}",
                     ("query", "A", "B", "B - A"), rows, align="lrrr")

    def __str__(self):
        return str(self.table())

    def _repr_html_(self):
        return styled(self.table().html())

    def to_pandas(self):
        """The paired values as a DataFrame: columns a, b, difference; one row per query."""
        import pandas as pd

        return pd.DataFrame({"a": self.a, "b": self.b, "difference": self.differences},
                            index=pd.Index(self.queries, name="query"))
