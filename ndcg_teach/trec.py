"""Judgements and runs in: TREC qrels and run files, the dicts of pytrec_eval and ranx, pandas DataFrames.

A *qrels* holds the judgements, one line per judged item: ``qid iter docno
rel`` (``iter`` is ignored). A *run* holds what a system returned, one line per
retrieved item: ``qid Q0 docno rank score tag`` (``Q0`` and ``rank`` are
ignored: trec_eval ranks by score; so is any text after the tag, as in
trec_eval). Columns are separated by white space;
blank lines and lines starting with ``#`` are skipped; a file may be gzipped.

:func:`read_qrels` and :func:`read_run` return a :class:`Qrels` or :class:`Run`
holding one NumPy column per field. They refuse a malformed file as a whole
(nothing is half read) with a :class:`TrecFormatError` that names the file,
the line number and what was expected. :func:`~ndcg_teach.evaluate` calls them
on whatever it is given. Lesson 09 reads a real collection with them.

>>> qrels = read_qrels({"q1": {"d1": 2, "d2": 0}})
>>> qrels.queries, qrels.grades
(('q1',), array([2., 0.]))
"""

import io
import os
from dataclasses import dataclass

import numpy as np

from .validation import shown

CHUNK_BYTES = 1 << 22  # files are read in blocks of about 4 MB, each by one NumPy call when it can be
QRELS_COLUMNS = ("qid", "iter", "docno", "rel")
RUN_COLUMNS = ("qid", "Q0", "docno", "rank", "score", "tag")


class TrecFormatError(ValueError):
    """A qrels or run file (or dict, or DataFrame) that cannot be read; the message says where and why. Lesson 09.

    Examples
    --------
    >>> try:
    ...     read_qrels({"q1": {"d1": "high"}})
    ... except TrecFormatError as error:
    ...     print(error)
    qrels: the grade of query 'q1', item 'd1' must be a finite number. Got 'high' instead.
    """


class _Entries:
    """What judgements and runs share: one entry per (query, item), with the queries they cover."""

    @property
    def queries(self):
        """The query ids, sorted as trec_eval sorts them (byte order)."""
        return tuple(q.decode() for q in np.unique(self.qids))

    def __len__(self):
        return self.qids.size


@dataclass(frozen=True, eq=False)
class Qrels(_Entries):
    """Judgements: one entry per judged item, as NumPy columns.

    Attributes
    ----------
    qids, docnos : numpy.ndarray of bytes
        Query and item ids (UTF-8), one per judgement.
    grades : numpy.ndarray of float64
        The judged grades (negative ones mean "judged, but not relevant" to trec_eval).
    source : str
        Where they came from: a file name, "dict" or "DataFrame".
    lines : numpy.ndarray of int or None
        The line of each judgement in its file (for error messages).
    """

    qids: np.ndarray
    docnos: np.ndarray
    grades: np.ndarray
    source: str
    lines: np.ndarray = None


@dataclass(frozen=True, eq=False)
class Run(_Entries):
    """A system's output: one entry per retrieved item, as NumPy columns.

    Attributes
    ----------
    qids, docnos : numpy.ndarray of bytes
    scores : numpy.ndarray of float64
        Higher is ranked higher.
    source : str
    tag : str
        The run's name (the last column of a run file; the source otherwise).
    lines : numpy.ndarray of int or None
    """

    qids: np.ndarray
    docnos: np.ndarray
    scores: np.ndarray
    source: str
    tag: str = ""
    lines: np.ndarray = None


# ---- Files ----------------------------------------------------------------------------------------

def _file_bytes(path):
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise FileNotFoundError(f"{name}: cannot be read ({error.strerror}).") from None
    if data[:2] == b"\x1f\x8b":
        import gzip  # only for gzipped files

        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise TrecFormatError(f"{name}: starts like a gzip file but cannot be decompressed ({error}).") from None
    if b"\x00" in data:
        raise TrecFormatError(f"{name}: is a binary file (it holds NUL bytes), not a text file of TREC lines.")
    return name, data


def _expected(columns):
    return f"{len(columns)} columns ({' '.join(columns)})"


def _slow_rows(name, chunk, first_line, columns, numeric, trailing):
    """Parse ``chunk`` line by line: skips blanks and comments, and says which line is wrong and why."""
    rows, numbers = [], []
    for offset, raw in enumerate(chunk.split(b"\n")):
        line = first_line + offset
        parts = raw.split()
        if not parts or parts[0].startswith(b"#"):
            continue
        text = raw.decode("utf-8", "replace").strip()
        if len(parts) < len(columns) or (len(parts) > len(columns) and not trailing):
            kind = "is truncated" if len(parts) < len(columns) else "has too many columns"
            raise TrecFormatError(f"{name}, line {line}: {kind}; expected {_expected(columns)}. "
                                  f"Got {len(parts)} column(s) {text!r} instead.")
        values = []
        for index in numeric:
            try:
                value = float(parts[index])
            except ValueError:
                value = None
            if value is None or not np.isfinite(value):
                raise TrecFormatError(f"{name}, line {line}: the {columns[index]} column must be a finite number. "
                                      f"Got {parts[index].decode('utf-8', 'replace')!r} in {text!r} instead.")
            values.append(value)
        rows.append((parts, line))
        numbers.append(values)
    return rows, numbers


WIDE = 64  # widest id the fast reader takes; a longer one sends its block to the line-by-line reader


def _fast_columns(chunk, n_lines, columns, keep, numeric):
    """The columns of a block of lines read by NumPy's loadtxt (in C), or None when the block needs the
    line-by-line reader: non-ASCII text, comments, blank lines, a malformed line or a very long id."""
    if not chunk.isascii() or chunk.startswith(b"#") or b"\n#" in chunk or not chunk.strip():
        return None
    fields = [(f"c{index}", "f8" if index in numeric else f"S{WIDE}" if index in keep else "S1")
              for index in range(len(columns))]
    try:
        table = np.loadtxt(io.BytesIO(chunk), dtype=fields, comments=None, ndmin=1)
    except ValueError:
        return None
    if table.size != n_lines or not all(np.isfinite(table[f"c{index}"]).all() for index in numeric):
        return None
    found = {}
    for index in keep:
        width = int(np.char.str_len(table[f"c{index}"]).max())
        if width >= WIDE:
            return None
        found[index] = table[f"c{index}"].astype(f"S{max(width, 1)}")
    return {**found, **{index: table[f"c{index}"].copy() for index in numeric}}


def _parse(name, data, columns, keep, numeric, trailing=False):
    """Columns ``keep`` (as bytes arrays) and ``numeric`` (as float64) of every line, with line numbers.

    ``trailing``: text after the last column is ignored (trec_eval allows it in run files, not in qrels).
    """
    parts = {index: [] for index in (*keep, *numeric)}
    lines = []
    start, line = 0, 1
    while start < len(data):
        end = data.find(b"\n", min(start + CHUNK_BYTES, len(data)))
        end = len(data) if end < 0 else end + 1
        chunk = data[start:end]
        n_lines = chunk.count(b"\n") + (not chunk.endswith(b"\n"))
        found = _fast_columns(chunk, n_lines, columns, keep, numeric)
        if found is not None:
            lines.append(np.arange(line, line + n_lines, dtype=np.int64))
        else:
            rows, parsed = _slow_rows(name, chunk, line, columns, numeric, trailing)
            found = {index: np.array([row[index] for row, _ in rows], dtype=bytes) for index in keep}
            found.update({index: np.array([values[position] for values in parsed], dtype=np.float64)
                          for position, index in enumerate(numeric)})
            lines.append(np.array([number for _, number in rows], dtype=np.int64))
        for index, column in found.items():
            parts[index].append(column)
        start, line = end, line + n_lines
    total = sum(part.size for part in lines)
    if total == 0:
        raise TrecFormatError(f"{name}: holds no lines; expected one line of {_expected(columns)} per entry. "
                              "Got an empty file instead.")
    return {index: np.concatenate(column) for index, column in parts.items()}, np.concatenate(lines)


# ---- Dicts and DataFrames ---------------------------------------------------------------------------

def _encoded(values):
    return np.array([str(value).encode() for value in values], dtype=bytes)


def _from_dict(source, what, value_name):
    qids, docnos, numbers = [], [], []
    for qid, entries in source.items():
        if not hasattr(entries, "items"):
            raise TrecFormatError(f"{what} must map each query id to a {{item id: {value_name}}} dict, as pytrec_eval "
                                  f"and ranx do; query {qid!r} maps to {shown(entries)}. Got {shown(source)} instead.")
        for docno, number in entries.items():
            if isinstance(number, bool) or not isinstance(number, (int, float, np.integer, np.floating)) \
                    or not np.isfinite(number):
                raise TrecFormatError(f"{what}: the {value_name} of query {qid!r}, item {docno!r} must be a finite "
                                      f"number. Got {shown(number)} instead.")
            qids.append(qid)
            docnos.append(docno)
            numbers.append(float(number))
    if not qids:
        raise TrecFormatError(f"{what} must hold at least one entry. Got {shown(source)} instead.")
    return _encoded(qids), _encoded(docnos), np.array(numbers, dtype=np.float64)


def _from_frame(frame, what, columns):
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        keywords = ", ".join(f"{key}=" for key in ("query", "item", columns[-1] == "score" and "score" or "relevance"))
        raise TrecFormatError(f"{what} DataFrame must have the columns {list(columns)} (name yours with {keywords}); "
                              f"{missing[0]!r} is missing. Got columns {list(frame.columns)} instead.")
    if len(frame) == 0:
        raise TrecFormatError(f"{what} DataFrame must hold at least one row. Got an empty DataFrame instead.")
    query, item, number = columns
    try:
        numbers = frame[number].to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        numbers = None
    if numbers is None or not np.isfinite(numbers).all():
        bad = next(i for i, v in enumerate(frame[number].tolist())
                   if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not np.isfinite(v))
        raise TrecFormatError(f"{what} DataFrame: column {number!r} must hold finite numbers; row {bad} holds "
                              f"{frame[number].iloc[bad]!r}. Got {shown(frame[number].tolist())} instead.")
    return _encoded(frame[query].tolist()), _encoded(frame[item].tolist()), numbers


def _is_frame(source):
    return type(source).__name__ == "DataFrame" and hasattr(source, "columns")


# ---- Public readers ---------------------------------------------------------------------------------

def read_qrels(source, *, query="query", item="item", relevance="relevance"):
    """Judgements from a TREC qrels file, a ``{qid: {docno: grade}}`` dict or a DataFrame.

    Parameters
    ----------
    source : str, path, dict, Qrels or pandas.DataFrame
        A file of ``qid iter docno rel`` lines (plain or gzip); the dict
        shape of pytrec_eval and ranx; or a DataFrame with one row per
        judgement. A :class:`Qrels` is returned as it is.
    query, item, relevance : str
        The DataFrame's column names (ignored for files and dicts).

    Returns
    -------
    Qrels

    Raises
    ------
    TrecFormatError
        A line that is truncated, has too many columns or a grade that is not
        a number (the message names the file and line), an empty or a binary file.

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
        return source
    if _is_frame(source):
        return Qrels(*_from_frame(source, "qrels", (query, item, relevance)), "DataFrame")
    if hasattr(source, "items"):
        return Qrels(*_from_dict(source, "qrels", "grade"), "dict")
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"qrels must be a file name, a {{qid: {{docno: grade}}}} dict or a DataFrame. Got {shown(source)} instead.")
    name, data = _file_bytes(source)
    columns, lines = _parse(name, data, QRELS_COLUMNS, keep=(0, 2), numeric=(3,))
    return Qrels(columns[0], columns[2], columns[3], name, lines)


def read_run(source, *, query="query", item="item", score="score"):
    """A run from a TREC run file, a ``{qid: {docno: score}}`` dict or a DataFrame.

    Parameters
    ----------
    source : str, path, dict, Run or pandas.DataFrame
        A file of ``qid Q0 docno rank score tag`` lines (plain or gzip; the
        ``Q0`` and ``rank`` columns are not used: trec_eval ranks by score);
        the dict shape of pytrec_eval and ranx; or a DataFrame with one row
        per retrieved item. A :class:`Run` is returned as it is.
    query, item, score : str
        The DataFrame's column names (ignored for files and dicts).

    Returns
    -------
    Run

    Raises
    ------
    TrecFormatError
        As in :func:`read_qrels`, for the score column.

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
        return Run(*_from_frame(source, "run", (query, item, score)), "DataFrame", "DataFrame")
    if hasattr(source, "items"):
        return Run(*_from_dict(source, "run", "score"), "dict", "dict")
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"run must be a file name, a {{qid: {{docno: score}}}} dict or a DataFrame. Got {shown(source)} instead.")
    name, data = _file_bytes(source)
    columns, lines = _parse(name, data, RUN_COLUMNS, keep=(0, 2), numeric=(4,), trailing=True)
    tag_line = data[: data.find(b"\n")] if b"\n" in data else data
    tag = tag_line.split()[5].decode("utf-8", "replace") if len(tag_line.split()) >= 6 else os.path.basename(name)
    return Run(columns[0], columns[2], columns[4], name, tag, lines)


def example_files():
    """The real test collection shipped with ndcg_teach: ``(qrels_path, run_path)``.

    31 queries of the TREC 2024 RAG track judged by NIST (grades 0 to 3) and
    one run of 100 passages per query, from trec_eval's test folder (source
    and licence in ``ndcg_teach/data/README.md``). Lesson 09 evaluates it.

    Examples
    --------
    >>> qrels_path, run_path = example_files()
    >>> len(read_qrels(qrels_path).queries), len(read_run(run_path))
    (31, 3100)
    """
    from importlib import resources

    folder = resources.files("ndcg_teach").joinpath("data")
    return str(folder.joinpath("rag24.qrels")), str(folder.joinpath("rag24.run"))
