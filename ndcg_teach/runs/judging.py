"""Pair a run with its judgements: each query's items ranked by score and given their grades, all queries at once.

:func:`judge` is the first half of :func:`~ndcg_teach.evaluate`: it reads
the inputs, joins run rows to qrels rows by (query, item), applies
trec_eval's rules (32-bit scores, ties, duplicates, missing queries, ``-M``,
``-J``, ``-l``; see :mod:`ndcg_teach.runs.evaluation`) and returns one padded row
of grades per query. It works through the queries in batches of about
:data:`BATCH_ROWS` run lines, so what it holds besides its inputs and its
result stays small however long the run is.
"""

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from ..core.context import Query
from .ids import Ids, Labels
from .judging_subtopics import collapsed, tables
from .judging_subtopics import entries as subtopic_entries
from .trec import TrecFormatError, read_qrels, read_run
from ..core.validation import check_choice, check_k, check_threshold, shown
from ..i18n import gettext

TIES = ("docno", "stable", "optimistic", "pessimistic")
DUPLICATES = ("raise", "first", "last", "max")
SCORES = ("float32", "float64")
BATCH_ROWS = 1 << 16
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


class _Collision(Exception):
    """Two different item ids share a 64-bit hash: do the batch again with exact codes."""


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
    pooled: np.ndarray          # like grades: whether each ranked item is in the qrels (judged, or a negative grade)
    retrieved: np.ndarray       # bool: the run answers the query (False only with complete=True)
    docnos: Ids                 # the run's item ids (as read)
    ranked: np.ndarray          # rows of docnos in ranked order, all queries one after the other
    offsets: np.ndarray         # query q's items are ranked[offsets[q]:offsets[q + 1]]
    relevance_level: float
    scores: np.ndarray          # the ranked items' scores as ranked (float32 under trec_eval 9's rule)
    tag: str = ""               # the run's name (trec_eval's runid)
    subtopics: np.ndarray = None      # diversity qrels: (n_queries, width, s), each ranked item's grade per subtopic
    subtopic_pool: np.ndarray = None  # (n_queries, judged items, s): every judged item's row, by docno descending

    def rows(self, start, end):
        """The queries ``start`` to ``end - 1`` alone (views, no copies): metrics computed a part at a time."""
        first, last = int(self.offsets[start]), int(self.offsets[end])
        return replace(self, queries=self.queries[start:end], grades=self.grades[start:end],
                       lengths=self.lengths[start:end], pool=self.pool[start:end], n_relevant=self.n_relevant[start:end],
                       n_nonrelevant=self.n_nonrelevant[start:end], judged=self.judged[start:end],
                       pooled=self.pooled[start:end],
                       retrieved=self.retrieved[start:end], ranked=self.ranked[first:last],
                       offsets=self.offsets[start:end + 1] - first, scores=self.scores[first:last],
                       subtopics=None if self.subtopics is None else self.subtopics[start:end],
                       subtopic_pool=None if self.subtopic_pool is None else self.subtopic_pool[start:end])

    def ranking(self, row):
        """Query ``row``'s item ids in ranked order, as text."""
        rows = self.ranked[self.offsets[row]:self.offsets[row + 1]]
        return [item.decode("utf-8", "surrogateescape") for item in self.docnos.take(rows).tolist()]

    @cached_property
    def query(self):
        """The evaluated queries as one :class:`~ndcg_teach.core.context.Query` batch: what every metric reads."""
        return Query(self.grades, self.lengths, judged=self.judged, pool=self.pool,
                     pool_lengths=(self.pool > 0).sum(axis=1), n_relevant=self.n_relevant,
                     n_nonrelevant=self.n_nonrelevant, subtopics=self.subtopics, subtopic_pool=self.subtopic_pool,
                     threshold=self.relevance_level, pooled=self.pooled)


# ---- Queries ---------------------------------------------------------------------------------------------

def _query_rows(qrels, run, complete):
    """The evaluated queries (byte order, as trec_eval) and each line's query row (-1: a query not evaluated)."""
    names = sorted(set(qrels.qids.names) | set(run.qids.names))
    place = {name: code for code, name in enumerate(names)}
    codes = [np.array([place[name] for name in side.qids.names], dtype=np.int32)[side.qids.codes] for side in
             (qrels, run)]
    has_judgements = np.bincount(codes[0], minlength=len(names)) > 0
    has_answers = np.bincount(codes[1], minlength=len(names)) > 0
    evaluated = np.flatnonzero(has_judgements if complete else has_judgements & has_answers)
    if evaluated.size == 0:
        raise ValueError(gettext("qrels and run must share at least one query (trec_eval: 'No queries with both "
                                 "results and relevance info'). Got queries {queries} in the qrels and "
                                 "{queries2} in the run instead.").format(queries=shown(qrels.queries),
                                                                          queries2=shown(run.queries)))
    row_of = np.full(len(names), -1, dtype=np.int32)
    row_of[evaluated] = np.arange(evaluated.size)
    queries = tuple(names[code].decode("utf-8", "surrogateescape") for code in evaluated.tolist())
    return queries, row_of[codes[0]], row_of[codes[1]], has_answers[evaluated]


def _by_query(rows, n_queries):
    """Line numbers grouped by query row (input order within a query; other queries' lines left out), and offsets.

    Files hold each query's lines together, so the lines are sorted as runs of equal rows (a few thousand), not
    one by one; a file whose queries are interleaved is sorted line by line."""
    counts = np.bincount(rows[rows >= 0], minlength=n_queries)
    index = np.int32 if rows.size < 2 ** 31 else np.int64
    heads = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]]) if rows.size else np.zeros(0, dtype=np.int64)
    if heads.size > rows.size // 8:
        order = np.argsort(np.where(rows >= 0, rows, n_queries), kind="stable")[: int(counts.sum())].astype(index)
        return order, np.r_[0, np.cumsum(counts)]
    sizes = np.diff(np.r_[heads, rows.size])
    keep = rows[heads] >= 0
    heads, sizes, owners = heads[keep], sizes[keep], rows[heads][keep]
    runs = np.argsort(owners, kind="stable")  # the runs of lines in query order
    heads, sizes = heads[runs], sizes[runs]
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    order = (np.arange(int(sizes.sum()), dtype=index) + np.repeat((heads - starts).astype(index), sizes))
    return order, np.r_[0, np.cumsum(counts)]


def _batches(run_offsets):
    """Ranges of query rows holding about BATCH_ROWS run lines each (one query at least)."""
    start, n = 0, run_offsets.size - 1
    while start < n:
        end = int(np.searchsorted(run_offsets, run_offsets[start] + BATCH_ROWS, side="right")) - 1
        end = min(max(end, start + 1), n)
        yield start, end
        start = end


# ---- One batch -------------------------------------------------------------------------------------------

def _same(table, lines, other, other_lines):
    return table.docnos.equal(lines, other.docnos, other_lines)


def _grouped(keys, values, duplicates, what, table, lines):
    """Positions sorted by key with duplicate (query, item) pairs resolved; returns ``(positions, keys, values)``."""
    order = np.argsort(keys)
    sorted_keys = keys[order]
    if not (sorted_keys[1:] == sorted_keys[:-1]).any():
        return order, sorted_keys, values[order]
    order = np.argsort(keys, kind="stable")  # with duplicates, "first" and "last" mean input order
    keys = keys[order]
    repeated = np.flatnonzero(keys[1:] == keys[:-1])
    if not _same(table, lines[order[repeated]], table, lines[order[repeated + 1]]).all():
        raise _Collision
    if duplicates == "raise":
        first, second = (int(lines[order[repeated[0] + step]]) for step in (0, 1))
        where = "" if table.lines is None else gettext(" (lines {first} and {second})").format(
            first=table.lines[first], second=table.lines[second])
        docno = table.docnos[first].decode("utf-8", "replace")
        raise TrecFormatError(
            gettext("{source}: {what} lists item {docno!r} twice for query {qid!r}{where}; trec_eval refuses "
                    "that (duplicate docs {docno}). Pass duplicates='first', 'last' or 'max' to keep one. Got a "
                    "duplicate instead.").format(source=table.source, what=what, docno=docno,
                                                 qid=table.qids[first].decode('utf-8', 'replace'), where=where),
            source=table.source, line=None if table.lines is None else int(table.lines[second]),
            trec_eval=f"trec_eval.form_res_rels: duplicate docs {docno}")
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    values = values[order]
    if duplicates == "max":
        best = np.maximum.reduceat(values, starts)
        is_best = values == np.repeat(best, np.diff(np.r_[starts, keys.size]))
        candidates = np.flatnonzero(is_best)
        keep = candidates[np.searchsorted(candidates, starts)]  # the first row of each group that holds its maximum
    else:
        keep = starts if duplicates == "first" else np.r_[starts[1:], keys.size] - 1
    return order[keep], keys[keep], values[keep]


def _joined(qrels, run, qrels_lines, run_lines, qrels_rows, run_rows, hashed, duplicates):
    """The batch's qrels and run lines with duplicates resolved, and each run line's grade (NaN: unjudged).

    ``hashed``: keys from 64-bit hashes of the ids (checked: equal keys must be equal ids), else exact codes."""
    if not hashed:  # exact codes: one dictionary for both sides, so equal ids get equal codes
        both = np.concatenate([_keys_exact_ids(qrels, qrels_lines), _keys_exact_ids(run, run_lines)])
        _, codes = np.unique(both, return_inverse=True)
        qrels_keys = qrels_rows.astype(np.int64) * (1 << 32) + codes[:qrels_lines.size]
        run_keys = run_rows.astype(np.int64) * (1 << 32) + codes[qrels_lines.size:]
    else:
        qrels_keys = qrels.docnos.take(qrels_lines).hashes() ^ (qrels_rows.astype(np.uint64) * _GOLDEN)
        run_keys = run.docnos.take(run_lines).hashes() ^ (run_rows.astype(np.uint64) * _GOLDEN)
    judged_at, qrels_keys, qrels_grades = _grouped(qrels_keys, qrels.grades[qrels_lines], duplicates, "the qrels",
                                                   qrels, qrels_lines)
    kept, run_keys, values = _grouped(run_keys, run.scores[run_lines], duplicates, "the run", run, run_lines)
    grades = np.full(kept.size, np.nan)
    if qrels_keys.size:
        at = np.minimum(np.searchsorted(qrels_keys, run_keys), qrels_keys.size - 1)
        found = np.flatnonzero(qrels_keys[at] == run_keys)
        if hashed and not _same(run, run_lines[kept[found]], qrels, qrels_lines[judged_at[at[found]]]).all():
            raise _Collision
        grades[found] = qrels_grades[at[found]]
    return judged_at, qrels_grades, kept, values, grades


def _keys_exact_ids(table, lines):
    return np.array(table.docnos.take(lines).tolist(), dtype=object)


def _by_score(run_queries, scores):
    """Positions sorted by query, then score descending, ties in input order (one row per query, sorted along rows)."""
    if not scores.size:
        return np.zeros(0, dtype=np.int64)
    by_query = np.argsort(run_queries, kind="stable") if (np.diff(run_queries) < 0).any() else np.arange(scores.size)
    queries = run_queries[by_query]
    counts = np.bincount(queries - queries[0])
    width = int(counts.max(initial=0))
    if counts.size * width > 4 * scores.size + 1024:  # lists of very different lengths: padding would cost too much
        return np.lexsort((-scores, run_queries))
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    positions = np.arange(scores.size) - np.repeat(starts, counts)
    padded = np.full((counts.size, width), np.inf, dtype=scores.dtype)
    padded[queries - queries[0], positions] = -scores[by_query]
    within = np.argsort(padded, axis=1, kind="stable")
    return by_query[(within + starts[:, np.newaxis])[np.arange(width) < counts[:, np.newaxis]]]


def _ranked(run, lines, run_queries, scores, grades, ties):
    """Positions of ``lines`` (in input order) sorted by query, score descending, then the tie rule."""
    if ties in ("optimistic", "pessimistic"):
        return np.lexsort((lines, -grades if ties == "optimistic" else grades, -scores, run_queries))
    order = _by_score(run_queries, scores)
    if ties == "stable":
        return order
    same = (run_queries[order][1:] == run_queries[order][:-1]) & (scores[order][1:] == scores[order][:-1])
    if same.any():
        # trec_eval: tied scores by item id, descending (byte order); sort only the tied groups by id.
        tied = np.flatnonzero(np.r_[same, False] | np.r_[False, same])
        group = np.cumsum(~np.r_[False, same])[tied]
        ids = run.docnos.byte_order(lines[order[tied]])
        order[tied] = order[tied][np.lexsort((-ids, group))]
    return order


# ---- The whole run ---------------------------------------------------------------------------------------

def _within_cut(run, max_docs, scores):
    """The run's lines that trec_eval ranks in each query's first ``max_docs`` (score, then item id descending)."""
    values = run.scores.astype(np.float32 if scores == "float32" else np.float64)
    order = _ranked(run, np.arange(len(run)), run.qids.codes, values, None, "docno")
    keep = np.sort(order[_positions(run.qids.codes[order]) < max_docs])
    if keep.size == len(run):
        return run
    return replace(run, qids=Labels(run.qids.codes[keep], run.qids.names), docnos=run.docnos.take(keep),
                   scores=run.scores[keep], lines=None if run.lines is None else run.lines[keep])


def _check_rules(ties, duplicates, negative, scores, max_docs, relevance_level):
    check_choice("ties", ties, TIES)
    check_choice("duplicates", duplicates, DUPLICATES)
    check_choice("negative", negative, ("zero", "raise"))
    check_choice("scores", scores, SCORES)
    return check_k(max_docs, name="max_docs"), check_threshold(relevance_level)


class _Layout:
    """The result arrays, filled batch by batch."""

    def __init__(self, n_queries, width, pool_width, n_lines, score_type):
        self.grades = np.zeros((n_queries, width))
        self.judged = np.zeros((n_queries, width), dtype=bool)
        self.pooled = np.zeros((n_queries, width), dtype=bool)
        self.lengths = np.zeros(n_queries, dtype=np.int64)
        self.pool = np.zeros((n_queries, pool_width))
        self.n_relevant = np.zeros(n_queries, dtype=np.int64)
        self.n_nonrelevant = np.zeros(n_queries, dtype=np.int64)
        self.ranked = np.zeros(n_lines, dtype=np.int64 if n_lines >= 2 ** 31 else np.int32)
        self.scores = np.zeros(n_lines, dtype=score_type)
        self.filled = 0

    def add_ranking(self, rows, positions, grades, judged, pooled, lines, scores):
        self.grades[rows, positions] = grades
        self.judged[rows, positions] = judged
        self.pooled[rows, positions] = pooled
        self.lengths += np.bincount(rows, minlength=self.lengths.size)
        end = self.filled + lines.size
        self.ranked[self.filled:end], self.scores[self.filled:end] = lines, scores
        self.filled = end

    def add_judgements(self, rows, grades, level):
        positive = grades > 0
        order = np.lexsort((-grades[positive], rows[positive]))
        pool_rows, pool_grades = rows[positive][order], grades[positive][order]
        self.pool[pool_rows, _positions(pool_rows)] = pool_grades
        self.n_relevant += np.bincount(rows[grades >= level], minlength=self.lengths.size)
        self.n_nonrelevant += np.bincount(rows[(grades >= 0) & (grades < level)], minlength=self.lengths.size)


def _positions(rows):
    """Each entry's place in its group, for ``rows`` sorted by group: [3, 3, 5, 5, 5] gives [0, 1, 0, 1, 2]."""
    index = np.arange(rows.size)
    new = np.ones(rows.size, dtype=bool)
    new[1:] = rows[1:] != rows[:-1]
    return index - np.maximum.accumulate(np.where(new, index, 0))


def judge(qrels, run, *, complete=False, max_docs=None, relevance_level=1, ties="docno", duplicates="raise",
          negative="zero", scores="float32", judged_only=False):
    """Rank each query of ``run``, look up the grades in ``qrels``, and lay them out one query per row.

    ``scores="float32"`` ranks the scores as trec_eval 9 stores them (C ``float``: scores equal in 32 bits tie and
    are ordered by item id); ``judged_only`` (trec_eval ``-J``) drops the unjudged items after the ``max_docs`` cut.
    Only the evaluated queries' lines are looked at, as in trec_eval (a duplicate elsewhere is not an error).
    """
    qrels, run = read_qrels(qrels), read_run(run)
    max_docs, level = _check_rules(ties, duplicates, negative, scores, max_docs, relevance_level)
    if negative == "raise" and (qrels.grades < 0).any():
        row = int(np.argmax(qrels.grades < 0))
        where = "" if qrels.lines is None else gettext(", line {line}").format(line=qrels.lines[row])
        raise TrecFormatError(gettext("{source}{where}: grades must be non-negative with negative='raise'; "
                                      "trec_eval reads a negative grade as judged non-relevant "
                                      "(negative='zero'). Got {grade:g} instead.")
                                     .format(source=qrels.source, where=where, grade=qrels.grades[row]),
                              source=qrels.source)
    per_subtopic = None
    if qrels.subtopics is not None:  # diversity qrels: the other metrics read each item's largest grade
        per_subtopic = subtopic_entries(qrels, duplicates)
        qrels = collapsed(qrels, per_subtopic)
    if max_docs is not None and duplicates == "raise":  # trec_eval looks for duplicates within the cut only
        run = _within_cut(run, max_docs, scores)
    queries, qrels_rows, run_rows, retrieved = _query_rows(qrels, run, complete)
    n = len(queries)
    qrels_order, qrels_offsets = _by_query(qrels_rows, n)
    run_order, run_offsets = _by_query(run_rows, n)
    counts = np.diff(run_offsets)
    width = int(counts.max(initial=0)) if max_docs is None else min(int(counts.max(initial=0)), max_docs)
    positive = np.bincount(qrels_rows[(qrels_rows >= 0) & (qrels.grades > 0)], minlength=n)
    layout = _Layout(n, width, int(positive.max(initial=0)), int(run_offsets[-1]), np.float32 if scores == "float32"
                     else np.float64)
    for start, end in _batches(run_offsets):
        qrels_lines = qrels_order[qrels_offsets[start]:qrels_offsets[end]]
        run_lines = run_order[run_offsets[start]:run_offsets[end]]
        try:
            found = _joined(qrels, run, qrels_lines, run_lines, qrels_rows[qrels_lines], run_rows[run_lines], True,
                            duplicates)
        except _Collision:
            found = _joined(qrels, run, qrels_lines, run_lines, qrels_rows[qrels_lines], run_rows[run_lines], False,
                            duplicates)
        judged_at, qrels_grades, kept, values, grades = found
        layout.add_judgements(qrels_rows[qrels_lines[judged_at]], qrels_grades, level)
        back = np.argsort(kept)  # back to input order within each query (the batch is grouped by query)
        lines, grades = run_lines[kept[back]], grades[back]
        values = values[back].astype(layout.scores.dtype)
        judged = grades >= 0  # trec_eval: a negative grade means "in the pool, not judged" (NaN: not in the qrels)
        pooled = ~np.isnan(grades)
        grades = np.where(judged, grades, 0.0)  # unjudged: gain 0, not relevant
        order = _ranked(run, lines, run_rows[lines], values, grades, ties)
        rows = run_rows[lines[order]]
        positions = _positions(rows)
        keep = np.ones(order.size, dtype=bool) if max_docs is None else positions < max_docs
        if judged_only:
            keep &= judged[order]
        if not keep.all():
            order, rows = order[keep], rows[keep]
            positions = _positions(rows)
        layout.add_ranking(rows, positions, grades[order], judged[order], pooled[order], lines[order], values[order])
    width = int(layout.lengths.max(initial=0))
    judged = Judged(
        queries=queries, grades=layout.grades[:, :width], lengths=layout.lengths, pool=layout.pool,
        n_relevant=layout.n_relevant, n_nonrelevant=layout.n_nonrelevant, judged=layout.judged[:, :width],
        pooled=layout.pooled[:, :width],
        retrieved=retrieved, docnos=run.docnos, ranked=layout.ranked[:layout.filled],
        offsets=np.r_[0, np.cumsum(layout.lengths)], relevance_level=level, scores=layout.scores[:layout.filled],
        tag=run.tag)
    if per_subtopic is None:
        return judged
    names = {name.decode("utf-8", "surrogateescape"): name for name in qrels.qids.names}
    return replace(judged, **dict(zip(("subtopics", "subtopic_pool"), tables(judged, per_subtopic, names))))
