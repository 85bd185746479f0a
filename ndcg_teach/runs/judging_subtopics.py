"""Diversity qrels in a run's order: each ranked item's grade per subtopic, and each query's subtopic pool.

:func:`~ndcg_teach.runs.judging.judge` calls these when the qrels were read with
``read_qrels(..., subtopics=True)``. The other metrics read each item's
largest grade over its subtopics (:func:`collapsed`, ndeval's rule that an
item relevant to any subtopic is relevant); the diversity metrics read the
tables of :func:`tables`. A query's columns are its subtopics that have at
least one positive grade (ndeval ignores the others), in the order of their
ids (numbers as numbers); its pool lists every judged item by docno,
descending, so that the greedy ideal ranking breaks ties as ndeval does.
"""

import numpy as np

from .ids import Ids, Labels
from .trec_files import TrecFormatError
from ..i18n import gettext


def entries(qrels, duplicates):
    """``{(qid, docno): {subtopic: grade}}`` (bytes keys), each (query, subtopic, item) once by the ``duplicates``
    rule ("raise": a repeated one is an error naming its file and lines)."""
    found, where = {}, {}
    lines = qrels.lines.tolist() if qrels.lines is not None else [None] * len(qrels)
    for qid, subtopic, docno, grade, line in zip(qrels.qids.tolist(), qrels.subtopics.tolist(), qrels.docnos.tolist(),
                                                 qrels.grades.tolist(), lines):
        grades = found.setdefault((qid, docno), {})
        if subtopic in grades:
            if duplicates == "raise":
                at = "" if line is None else gettext(" (lines {first} and {second})").format(
                    first=where[qid, docno, subtopic], second=line)
                raise TrecFormatError(
                    gettext("{source}: the qrels list item {item!r} twice for query {qid!r}, subtopic "
                            "{subtopic!r}{at}. Pass duplicates='first', 'last' or 'max' to keep one. Got a "
                            "duplicate instead.").format(source=qrels.source, item=docno.decode('utf-8', 'replace'),
                                                         qid=qid.decode('utf-8', 'replace'),
                                                         subtopic=subtopic.decode('utf-8', 'replace'), at=at),
                    source=qrels.source, line=line)
            if duplicates == "first" or (duplicates == "max" and grade <= grades[subtopic]):
                continue
        grades[subtopic] = grade
        where[qid, docno, subtopic] = line
    return found


def collapsed(qrels, found):
    """Ordinary qrels from diversity qrels: one line per (query, item), with its largest grade over the subtopics."""
    keys = list(found)
    first = {}
    if qrels.lines is not None:
        for qid, docno, line in zip(qrels.qids.tolist(), qrels.docnos.tolist(), qrels.lines.tolist()):
            first.setdefault((qid, docno), line)
    return type(qrels)(Labels.from_list([qid for qid, _ in keys]), Ids.from_list([docno for _, docno in keys]),
                       np.array([max(found[key].values()) for key in keys], dtype=np.float64), qrels.source,
                       np.array([first[key] for key in keys]) if first else None)


def _order(subtopic):
    return (0, int(subtopic), b"") if subtopic.isdigit() else (1, 0, subtopic)


def tables(judged, found, names):
    """``(subtopics, subtopic_pool)`` of the judged queries: ``(q, w, s)`` and ``(q, m, s)``, padded with 0.

    ``names`` maps each query as ``judged.queries`` writes it to its id as read (bytes)."""
    by_query = {}
    for (qid, docno), grades in found.items():
        by_query.setdefault(qid, {})[docno] = grades
    columns, pools, ranked = [], [], []
    for row, query in enumerate(judged.queries):
        items = by_query.get(names[query], {})
        present = sorted({s for grades in items.values() for s, g in grades.items() if g > 0}, key=_order)
        place = {subtopic: column for column, subtopic in enumerate(present)}

        def table(docnos, items=items, place=place):
            rows = np.zeros((len(docnos), len(place)))
            for index, docno in enumerate(docnos):
                for subtopic, grade in items.get(docno, {}).items():
                    if subtopic in place and grade > 0:
                        rows[index, place[subtopic]] = grade
            return rows

        columns.append(len(place))
        pools.append(table(sorted(items, reverse=True)))
        ranked.append(table(judged.docnos.take(judged.ranked[judged.offsets[row]:judged.offsets[row + 1]]).tolist()))
    width = max(columns, default=0)
    subtopics = np.zeros((*judged.grades.shape, width))
    pool = np.zeros((len(pools), max((p.shape[0] for p in pools), default=0), width))
    for row, (mine, theirs) in enumerate(zip(ranked, pools)):
        subtopics[row, :mine.shape[0], :mine.shape[1]] = mine
        pool[row, :theirs.shape[0], :theirs.shape[1]] = theirs
    return subtopics, pool
