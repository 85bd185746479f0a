"""Judgements and runs in: TREC qrels and run files, the dicts of pytrec_eval and ranx, pandas DataFrames.

A *qrels* holds the judgements, one line per judged item: ``qid iter docno
rel`` (``iter`` is ignored). A *run* holds what a system returned, one line per
retrieved item: ``qid Q0 docno rank score tag`` (``Q0`` and ``rank`` are
ignored: trec_eval ranks by score; so is any text after the tag, as in
trec_eval). Columns are separated by white space; blank lines and lines
starting with ``#`` are skipped (the command reads them as trec_eval does:
``reading=``); a file may be gzipped, or be a binary stream
(``sys.stdin.buffer``). How files are read (blocks, limits, C's number syntax)
is in :mod:`ndcg_teach.runs.trec_files`; dicts and DataFrames in
:mod:`ndcg_teach.runs.trec_tables`.

trec_eval's reading rules are the default: a grade is read as a whole number
(``atol``: ``1.5`` is 1, ``0.7`` is 0, ``1_0`` is 1; ``grades="float"`` keeps
the fraction), and a score's leading number counts (``atof``). Scores are kept
as read (float64); that trec_eval ranks them as 32-bit floats is a ranking
rule (:func:`~ndcg_teach.evaluate`'s ``scores``).

:func:`read_qrels` and :func:`read_run` return a :class:`Qrels` or :class:`Run`
holding one NumPy column per field. They refuse a malformed file as a whole
(nothing is half read) with a :class:`TrecFormatError` that names the file,
the line number and what was expected. :func:`~ndcg_teach.evaluate` calls them
on whatever it is given. Lesson 09 reads a real collection with them.

>>> qrels = read_qrels({"q1": {"d1": 2, "d2": 0.7}})
>>> qrels.queries, qrels.grades
(('q1',), array([2., 0.]))
"""

import os
from dataclasses import dataclass

import numpy as np

from .ids import Ids, Labels
from .trec_files import MAX_BYTES, read_columns
from .trec_reading import NDCG_TEACH
from .trec_files import TrecFormatError as TrecFormatError  # also ndcg_teach.runs.trec.TrecFormatError
from .trec_tables import from_dict, from_frame, from_subtopic_dict
from ..core.validation import check_choice, shown
from ..i18n import gettext, mark

QRELS_COLUMNS = ("qid", "iter", "docno", "rel")
SUBTOPIC_COLUMNS = ("topic", "subtopic", "docno", "grade")
RUN_COLUMNS = ("qid", "Q0", "docno", "rank", "score", "tag")
GRADES = ("integer", "float")


class _Entries:
    """What judgements and runs share: one entry per (query, item), with the queries they cover."""

    @property
    def queries(self):
        """The query ids, sorted as trec_eval sorts them (byte order); bytes that are not UTF-8 are kept as
        surrogate escapes (``b"q\\xff"`` is ``"q\\udcff"``), so distinct ids stay distinct and print as their bytes."""
        return tuple(name.decode("utf-8", "surrogateescape") for name in sorted(set(self.qids.names)))

    def __len__(self):
        return self.qids.size


@dataclass(frozen=True, eq=False)
class Qrels(_Entries):
    """Judgements: one entry per judged item, as NumPy columns.

    Attributes
    ----------
    qids : Labels
        The query of each judgement: ``qids.codes`` (one small int each) and
        ``qids.names`` (the distinct ids, as bytes); ``qids.tolist()`` gives bytes.
    docnos : Ids
        The item ids, packed by their own lengths; ``docnos.tolist()`` gives bytes.
    grades : numpy.ndarray of float64
        The judged grades (negative ones mean "judged, but not relevant" to trec_eval).
    source : str
        Where they came from: a file name, "dict" or "DataFrame".
    lines : numpy.ndarray of int or None
        The line of each judgement in its file (for error messages).
    subtopics : Labels or None
        Diversity qrels (``read_qrels(..., subtopics=True)``): the subtopic
        each grade is for; None for ordinary qrels.
    """

    qids: Labels
    docnos: Ids
    grades: np.ndarray
    source: str
    lines: np.ndarray = None
    subtopics: Labels = None


@dataclass(frozen=True, eq=False)
class Run(_Entries):
    """A system's output: one entry per retrieved item, as NumPy columns.

    Attributes
    ----------
    qids : Labels
    docnos : Ids
    scores : numpy.ndarray of float64
        Higher is ranked higher (as read; trec_eval 9 ranks them as 32-bit floats, see ``evaluate(scores=)``).
    source : str
    tag : str
        The run's name: the tag of the file's last line (trec_eval's ``runid``), or the source.
    lines : numpy.ndarray of int or None
    """

    qids: Labels
    docnos: Ids
    scores: np.ndarray
    source: str
    tag: str = ""
    lines: np.ndarray = None


def _is_frame(source):
    return type(source).__name__ == "DataFrame" and hasattr(source, "columns")


def _check_max_bytes(max_bytes):
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, (int, np.integer)) or max_bytes < 1:
        raise TypeError(gettext("max_bytes must be a positive whole number of bytes, e.g. {MAX_BYTES}. Got {got} "
                                "instead.").format(MAX_BYTES=MAX_BYTES, got=shown(max_bytes)))
    return int(max_bytes)


def _is_file(source):
    return isinstance(source, (str, os.PathLike)) or hasattr(source, "read")


def read_qrels(source, *, query="query", item="item", relevance="relevance", grades="integer", max_bytes=MAX_BYTES,
               subtopics=False, reading=None):
    """Judgements from a TREC qrels file, a ``{qid: {docno: grade}}`` dict or a DataFrame.

    Parameters
    ----------
    source : str, path, binary stream, dict, Qrels or pandas.DataFrame
        A file of ``qid iter docno rel`` lines (plain or gzip); the dict
        shape of pytrec_eval and ranx; or a DataFrame with one row per
        judgement. A :class:`Qrels` is returned as it is.
    query, item, relevance : str
        The DataFrame's column names (ignored for files and dicts).
    grades : {"integer", "float"}, default "integer"
        "integer" reads each grade as trec_eval does, a whole number (C's
        ``atol`` on files: ``1.5`` is 1, ``0.7`` is 0, ``1_0`` is 1, ``1e3`` is 1;
        numbers from dicts and DataFrames are cut to their whole part, ``int(1.5)``);
        "float" keeps the fraction (full precision).
    max_bytes : int, default trec_files.MAX_BYTES (2 GiB)
        The most text a file may hold once decompressed; more stops with an error.
    subtopics : bool, default False
        True reads diversity qrels, one grade per (query, subtopic, item): a
        file of ``topic subtopic docno grade`` lines (the TREC Web track's
        format, read by ndeval; the second column is the subtopic, not
        trec_eval's ignored ``iter``) or a ``{qid: {subtopic: {docno: grade}}}``
        dict. The diversity metrics (``alpha-nDCG@k``, ``ERR-IA@k``) need them;
        the other metrics read an item's largest grade over the subtopics.
    reading : trec_reading.Reading or None, default None
        How a file's blank lines, ``#`` lines and columns without a number are
        read: None skips the first two and refuses the third (ndcg_teach's
        rules); ``trec_reading.trec_reading("qrels", version)`` reads them as
        trec_eval does (the command's rules, ``docs/trec_eval.md``).

    Returns
    -------
    Qrels

    Raises
    ------
    TrecFormatError
        A line that is truncated, has too many columns or a grade that is not
        a number (the message names the file and line), an empty or a binary
        file, an input past ``max_bytes``, a bad id or grade in a dict or DataFrame.
    OSError
        A file that cannot be opened, with its own class: FileNotFoundError,
        PermissionError, IsADirectoryError, OSError (a loop of symbolic links).

    Examples
    --------
    >>> qrels = read_qrels({"q1": {"d1": 2, "d2": 0}, "q2": {"d3": 1}})
    >>> len(qrels), qrels.queries
    (3, ('q1', 'q2'))

    See Also
    --------
    read_run, ndcg_teach.evaluate. Lesson 09.
    """
    if isinstance(source, Qrels):
        if subtopics and source.subtopics is None:
            raise TypeError(gettext("qrels must be read with read_qrels(..., subtopics=True) for the diversity "
                                    "metrics: these hold one grade per item, not one per subtopic. Got qrels "
                                    "from {source} instead.").format(source=source.source))
        return source
    check_choice("grades", grades, GRADES)
    if not isinstance(subtopics, (bool, np.bool_)):
        raise TypeError(gettext("subtopics must be True (diversity qrels: topic subtopic docno grade) or False. "
                                "Got {got} instead.").format(got=shown(subtopics)))
    integer = grades == "integer"
    if subtopics and not _is_file(source):
        if _is_frame(source) or not hasattr(source, "items"):
            raise TypeError(gettext("qrels with subtopics=True must be a file of 'topic subtopic docno grade' "
                                    "lines or a {{qid: {{subtopic: {{docno: grade}}}}}} dict. Got {got} instead.")
                                   .format(got=shown(source)))
        qids, labels, docnos, numbers = from_subtopic_dict(source)
        return Qrels(qids, docnos, np.trunc(numbers) if integer else numbers, "dict", subtopics=labels)
    if _is_frame(source):
        qids, docnos, numbers = from_frame(source, "qrels", (query, item, relevance))
        return Qrels(qids, docnos, np.trunc(numbers) if integer else numbers, "DataFrame")
    if hasattr(source, "items"):
        qids, docnos, numbers = from_dict(source, "qrels", mark("grade"))
        return Qrels(qids, docnos, np.trunc(numbers) if integer else numbers, "dict")
    if not _is_file(source):
        raise TypeError(gettext("qrels must be a file name, a {{qid: {{docno: grade}}}} dict or a DataFrame. Got "
                                "{got} instead.").format(got=shown(source)))
    columns = SUBTOPIC_COLUMNS if subtopics else QRELS_COLUMNS
    found = read_columns(source, columns, numeric=3, max_bytes=_check_max_bytes(max_bytes), grades=grades,
                         labels=1 if subtopics else None, reading=reading or NDCG_TEACH)
    return Qrels(found["qids"], found["docnos"], found["numbers"], found["name"], found["lines"], found["labels"])


def read_run(source, *, query="query", item="item", score="score", max_bytes=MAX_BYTES, reading=None):
    """A run from a TREC run file, a ``{qid: {docno: score}}`` dict or a DataFrame.

    Parameters
    ----------
    source : str, path, binary stream, dict, Run or pandas.DataFrame
        A file of ``qid Q0 docno rank score tag`` lines (plain or gzip; the
        ``Q0`` and ``rank`` columns are not used: trec_eval ranks by score);
        the dict shape of pytrec_eval and ranx; or a DataFrame with one row
        per retrieved item. A :class:`Run` is returned as it is.
    query, item, score : str
        The DataFrame's column names (ignored for files and dicts).
    max_bytes : int, default trec_files.MAX_BYTES (2 GiB)
        The most text a file may hold once decompressed.
    reading : trec_reading.Reading or None, default None
        As in :func:`read_qrels` (``trec_reading("run", version)`` for trec_eval's rules).

    Returns
    -------
    Run

    Raises
    ------
    TrecFormatError, OSError
        As in :func:`read_qrels`, for the score column (NaN is refused; a
        score with no number at all, which trec_eval reads as 0, too).

    Examples
    --------
    >>> run = read_run({"q1": {"d1": 0.9, "d2": 1.5}})
    >>> run.scores
    array([0.9, 1.5])

    See Also
    --------
    read_qrels, ndcg_teach.evaluate. Lesson 09.
    """
    if isinstance(source, Run):
        return source
    if _is_frame(source):
        return Run(*from_frame(source, "run", (query, item, score)), "DataFrame", "DataFrame")
    if hasattr(source, "items"):
        return Run(*from_dict(source, "run", mark("score")), "dict", "dict")
    if not _is_file(source):
        raise TypeError(gettext("run must be a file name, a {{qid: {{docno: score}}}} dict or a DataFrame. Got "
                                "{got} instead.").format(got=shown(source)))
    found = read_columns(source, RUN_COLUMNS, numeric=4, trailing=True, max_bytes=_check_max_bytes(max_bytes),
                         reading=reading or NDCG_TEACH)
    tag = found["tag"].decode("utf-8", "surrogateescape")
    return Run(found["qids"], found["docnos"], found["numbers"], found["name"], tag, found["lines"])


def example_files():
    """The real test collection shipped with ndcg_teach: ``(qrels_path, run_path)``.

    31 queries of the TREC 2024 RAG track judged by NIST (grades 0 to 3) and
    one run of 100 passages per query, from trec_eval's test folder (source
    and licence in ``ndcg_teach/runs/data/README.md``). Lesson 09 evaluates it.

    Examples
    --------
    >>> qrels_path, run_path = example_files()
    >>> len(read_qrels(qrels_path).queries), len(read_run(run_path))
    (31, 3100)
    """
    from importlib import resources

    folder = resources.files(__package__).joinpath("data")
    return str(folder.joinpath("rag24.qrels")), str(folder.joinpath("rag24.run"))
