"""trec_eval's output: how each query's values become the ``all`` line, its ``-Z`` scores, and its line format.

trec_eval sums a measure up over the queries in one of a few ways
(:class:`~ndcg_teach.runs.measures.TrecMeasure`'s ``summary``): the mean (over every
judged query with ``-c``), the sum (``num_ret``, ``num_rel``, ``num_rel_ret``),
the geometric mean (``gm_map``, ``gm_bpref``: values below 1e-5 count as
1e-5), the number of queries (``num_q``). With ``-Z`` each query's value is
first replaced by its z-score, ``(value - mean) / stddev``, from a file of
``qid measure mean stddev`` lines (-1000000 where the file has no line for it),
and the ``all`` line sums up the z-scores. The quirks this keeps, because
trec_eval prints them: with ``-c``, ``num_rel`` on the ``all`` line counts every
judgement with a grade above 0 in the whole qrels file, whatever ``-l`` says;
``gm_map`` and ``gm_bpref`` are z-scored as the logarithms trec_eval keeps. ``relstring`` (each ranked item's grade
as a character, :func:`relstring`) has no ``all`` line and no z-score.

>>> line("P_5", "301", 0.4, "float"), line("num_ret", "all", 1500.0, "long"), line("map", "all", -0.61, "float", True)
('P_5                   \\t301\\t0.4000', 'num_ret               \\tall\\t1500', 'Zmap                   \\tall\\t-0.6100')
"""

import math

import numpy as np

from .ids import Ids, Labels
from ..core.mean import running_sum
from ..core.c_numbers import c_number
from .trec_files import TrecFormatError, blocks
from .trec_reading import NDCG_TEACH
from ..i18n import gettext

MIN_GEO_MEAN = 1e-5
MISSING_ZSCORE = -1000000.0


def line(name, qid, value, kind, zscored=False):
    """One output line as trec_eval prints it: ``%-22s\\t%s\\t%6.4f`` (``%ld`` for counts, text as it is)."""
    if kind == "string":
        return f"{name:<22}\t{qid}\t{value}"
    if zscored:
        return f"Z{name:<22}\t{qid}\t{_c_float(value)}"
    if kind == "long":
        return f"{name:<22}\t{qid}\t{int(value)}"
    return f"{name:<22}\t{qid}\t{_c_float(value)}"


def _c_float(value):
    """``%6.4f`` as C's printf writes it (``nan``, ``inf`` right-aligned in 6 characters)."""
    if math.isnan(value):
        return f"{'-nan' if math.copysign(1, value) < 0 else 'nan':>6}"
    if math.isinf(value):
        return f"{'inf' if value > 0 else '-inf':>6}"
    return f"{value:6.4f}"


PLACEHOLDER = b"ceci_nest_pas_un_docno"  # trec_eval 10.0's one document for a query the run lacks (-c)
ZEROED_IN_10 = ("num_ret", "utility", "relstring", "rbp_resid")  # and every name starting "unj"


def with_placeholders(qrels, run):
    """``(run, added)``: trec_eval 10.0's ``-c`` answers each judged query the run lacks with one document,
    ``ceci_nest_pas_un_docno`` scored 1 (unjudged, unless the qrels judge it); ``added`` lists those queries."""
    from .trec import Run

    answered = set(run.qids.names)
    added = sorted(name for name in set(qrels.qids.names) if name not in answered)
    if not added:
        return run, ()
    known = len(run.qids.names)
    qids = Labels(np.r_[run.qids.codes, np.arange(known, known + len(added), dtype=run.qids.codes.dtype)],
                  [*run.qids.names, *added])
    lines = None if run.lines is None else np.r_[run.lines, np.zeros(len(added), dtype=run.lines.dtype)]
    joined = Run(qids, Ids.concatenate([run.docnos, Ids.from_list([PLACEHOLDER] * len(added))]),
                 np.r_[run.scores, np.ones(len(added))], run.source, run.tag, lines)
    return joined, tuple(name.decode("utf-8", "surrogateescape") for name in added)


def zero_unanswered(values, measures, rows, version):
    """What trec_eval does with the values of the judged queries the run lacks (``rows``, under ``-c``): 9.0.8 counts
    0 for every measure; 10.0 evaluates its placeholder document and then zeroes the values printed as
    :data:`ZEROED_IN_10` or as ``unj...`` (``relstring`` becomes empty)."""
    for measure in measures:
        if measure.name not in values:
            continue
        if version == "10.0" and (measure.name in ZEROED_IN_10 or measure.name.startswith("unj")):
            values[measure.name][rows] = "" if measure.family == "relstring" else 0.0
        elif version == "9.0.8" and (measure.trec is None or measure.trec.value != "string"):
            values[measure.name][rows] = 0.0


def empty_lists(values, measures, judged):
    """A list that ``-J`` left empty: trec_eval's interpolated precision there may be 0 / 0, C's ``-nan``."""
    from ..core.metrics.interpolated import nan_when_empty
    from ..core.metrics.pr_curve import RECALL_LEVELS

    for measure in measures:
        if measure.family in ("iprec_at_recall", "11pt_avg") and measure.name in values:
            keywords = measure.keywords
            levels = (keywords["recall_level"],) if "recall_level" in keywords else keywords.get("levels", RECALL_LEVELS)
            for row in np.flatnonzero(judged.retrieved & (judged.lengths == 0)):
                if nan_when_empty(judged.n_relevant[row], levels, keywords.get("convention", "trec_eval")):
                    values[measure.name][row] = -np.nan


def stored(measure, values):
    """The per-query values trec_eval keeps for ``measure``: for a geometric mean, the logarithms (C's ``log``, one
    value at a time: NumPy's vectorised ``log`` may differ from it in the last place)."""
    if measure.trec is not None and measure.trec.summary == "geometric":
        return np.array([math.log(max(value, MIN_GEO_MEAN)) for value in np.asarray(values, dtype=np.float64).tolist()])
    return values


def summary(measure, kept, n_queries, n_judged_queries, complete, positive_judgements):
    """The ``all`` value of ``measure`` from the values trec_eval keeps (``kept``, one per evaluated query).

    ``n_queries`` is how many queries were evaluated, ``n_judged_queries`` how many the qrels hold;
    ``positive_judgements`` the number of judgements above 0 (num_rel under ``-c``). ``kept`` is added up one query
    at a time in its order (trec_eval's, the qids' byte order), as trec_eval adds them (:func:`~ndcg_teach.core.mean.running_sum`).

    >>> from ndcg_teach.runs.measures import parse_measures
    >>> set_p = parse_measures("set_P")[0]
    >>> f"{summary(set_p, np.array([1, 1 / 5, 1, 3 / 4, 1 / 2, 1 / 2, 0, 3 / 5]), 8, 8, False, 0):.4f}"
    '0.5687'
    """
    kind = "mean" if measure.trec is None else measure.trec.summary
    total = n_judged_queries if complete else n_queries
    if kind == "count":
        return float(total)
    if kind == "sum":
        if measure.family == "num_rel" and complete:
            return float(positive_judgements)
        return running_sum(kept)
    if kind == "geometric":
        missing = (total - kept.size) * math.log(MIN_GEO_MEAN)
        return math.exp((running_sum(kept) + missing) / total) if total else 0.0
    return running_sum(kept) / total if total else 0.0


def read_zscores(source, reading=None):
    """trec_eval's ``-Z`` table (:class:`ZScores`) from a file of ``qid measure mean stddev`` lines.

    ``reading`` (a :class:`~ndcg_teach.runs.trec_reading.Reading`) says how blank lines, ``#`` lines and columns without a
    number are read: None skips the first two and refuses the third; ``trec_reading("zscores")`` reads them as
    trec_eval does (a blank line is malformed, a ``#`` line data, ``atof`` of a word 0).

    >>> import io
    >>> table = read_zscores(io.BytesIO(b"q1 map 0.5 0.1\\n"))
    >>> table.get(("q1", "map")), table.get(("q2", "map"))
    ((0.5, 0.1), None)
    """
    reading = reading or NDCG_TEACH
    entries, line_number, name = [], 0, str(getattr(source, "name", source))
    for name, raw in blocks(source):
        for text in raw.split(b"\n")[:-1]:
            line_number += 1
            parts = text.split()  # C's isspace: bytes.split() splits on the same six characters
            shown_line = text.decode("utf-8", "replace").strip()
            if not parts and reading.blank == "skip" or parts and parts[0][:1] == b"#" and reading.comments == "skip":
                continue
            if parts and parts[0][:1] == b"#" and reading.comments == "refuse":
                raise TrecFormatError(gettext("{name}, line {line_number}: starts with '#', which trec_eval reads as "
                                              "data (--strict refuses it). Got {line_text!r} instead.")
                                      .format(name=name, line_number=line_number, line_text=shown_line),
                                      source=name, line=line_number)
            numbers = [c_number(part) for part in parts[2:4]]
            if len(parts) != 4 or (None in numbers and reading.numbers == "refuse"):
                raise TrecFormatError(gettext("{name}, line {line_number}: must hold 4 columns (qid measure mean "
                                              "stddev), the last two numbers. Got {line_text!r} instead.")
                                      .format(name=name, line_number=line_number, line_text=shown_line),
                                      source=name, line=line_number)
            for part, number in zip(parts[2:4], numbers):
                if number is None:
                    reading.note(gettext("{name}, line {line_number}: {token!r} holds no number; trec_eval reads it "
                                         "as 0 (--strict refuses it)").format(
                        name=name, line_number=line_number, token=part.decode("utf-8", "replace")))
            entries.append((parts[0], parts[1], numbers[0] or 0.0, numbers[1] or 0.0))
    if not entries:
        raise TrecFormatError(gettext("{name}: holds no lines; expected lines of qid measure mean stddev. Got an "
                                      "empty file instead.").format(name=name), source=str(source))
    return ZScores(entries)


class ZScores:
    """trec_eval's ``-Z`` table: its lines sorted by query, then measure (byte order; equal pairs keep their order),
    and looked up as trec_eval looks them up, by a binary search that may read one entry past a query's own (the next
    query's first line, when it names the same measure).

    ``get((qid, measure))`` gives ``(mean, stddev)`` or None, as a dict would.
    """

    def __init__(self, entries):
        ordered = sorted(entries, key=lambda entry: (entry[0], entry[1]))
        self.qids, self.starts, self.measures, self.values = [], [], [], []
        for qid, measure, mean, stddev in ordered:
            if not self.qids or self.qids[-1] != qid:
                self.qids.append(qid)
                self.starts.append(len(self.measures))
            self.measures.append(measure)
            self.values.append((float(mean), float(stddev)))
        self.starts.append(len(self.measures))

    @staticmethod
    def _search(names, start, count, target):
        """trec_eval's ``find_qid`` / ``find_meas``: a binary search over ``names[start:start + count]`` whose upper
        bound starts at ``count``, one past the last; an index past ``names`` matches nothing."""
        low, high = 0, count
        while low <= high:
            current = (low + high) // 2
            if start + current >= len(names):
                return None
            found = names[start + current]
            if target < found:
                high = current - 1
            elif target > found:
                low = current + 1
            else:
                return start + current
        return None

    def get(self, key, default=None):
        qid, measure = (part.encode("utf-8", "surrogateescape") for part in key)
        row = self._search(self.qids, 0, len(self.qids), qid)
        if row is None:
            return default
        found = self._search(self.measures, self.starts[row], self.starts[row + 1] - self.starts[row], measure)
        return default if found is None else self.values[found]


def zscored(values, queries, name, table):
    """Each query's z-score of ``values`` for measure ``name`` (printed name), as trec_eval's ``-Z`` computes it."""
    out = np.full(values.shape, MISSING_ZSCORE)
    for row, qid in enumerate(queries):
        found = table.get((qid, name))
        if found is None:
            continue
        mean, stddev = found
        if stddev:
            out[row] = (values[row] - mean) / stddev
        elif values[row] == mean:
            out[row] = 0.0
    return out


def relstring(grades, judged, pooled, depth):
    """trec_eval's ``relstring`` of one ranked list: a character per item of the first ``depth``, its grade ``0``
    to ``9`` (``>`` above 9), ``-`` for an item not in the qrels, ``.`` for one in them unjudged (a negative grade).

    >>> relstring([1.0, 0.0, 0.0, 12.0, 0.0], [True, True, False, True, False], [True, True, True, True, False], 10)
    '10.>-'
    """
    length = max(0, min(int(depth), len(grades)))
    return "".join((">" if grade > 9 else str(int(grade))) if seen else ("." if inside else "-")
                   for grade, seen, inside in zip(list(grades)[:length], list(judged)[:length], list(pooled)[:length]))


def relstrings(judged, depth):
    """Each query's :func:`relstring` of a judged run (:class:`~ndcg_teach.runs.judging.Judged`), as an object array."""
    out = np.empty(len(judged.queries), dtype=object)
    for row, length in enumerate(judged.lengths.tolist()):
        shown = min(length, max(0, int(depth)))
        out[row] = relstring(judged.grades[row, :shown].tolist(), judged.judged[row, :shown].tolist(),
                             judged.pooled[row, :shown].tolist(), shown)
    return out
