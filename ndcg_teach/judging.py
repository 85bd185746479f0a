"""Pair a run with its judgements: each query's items ranked by score and given their grades, all queries at once.

:func:`judge` is the first half of :func:`~ndcg_teach.evaluate`: it reads
the inputs, joins run rows to qrels rows by (query, item), applies
trec_eval's rules (ties, duplicates, missing queries, ``-M``, ``-l``; see
:mod:`ndcg_teach.evaluation`) and returns one padded row of grades per query.
"""

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .context import Query
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

    @cached_property
    def query(self):
        """The evaluated queries as one :class:`~ndcg_teach.context.Query` batch: what every metric reads."""
        return Query(self.grades, self.lengths, judged=self.judged, pool=self.pool,
                     pool_lengths=(self.pool > 0).sum(axis=1), n_relevant=self.n_relevant,
                     n_nonrelevant=self.n_nonrelevant, threshold=self.relevance_level)


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
