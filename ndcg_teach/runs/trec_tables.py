"""Judgements and runs from Python: the ``{qid: {docno: number}}`` dicts of pytrec_eval and ranx, and DataFrames.

Ids must be what a TREC file can hold, so that a dict and the file written from
it give the same numbers: text (``str``, or ``bytes`` read as they are) or whole
numbers (``7`` and ``7.0`` are the id "7"), without white space, control
characters or NUL. A NaN id (a missing value), ``True``, ``1.5`` or a tab in an
id stops with an error naming the query, item or row. Grades may be ``True``
and ``False`` (1 and 0); scores must be numbers other than NaN.

>>> qids, docnos, numbers = from_dict({"q1": {b"d1": True, 7: 0}}, "qrels", "grade")
>>> qids.tolist(), docnos.tolist(), numbers.tolist()
([b'q1', b'q1'], [b'd1', b'7'], [1.0, 0.0])
"""

import math
from numbers import Integral, Real

import numpy as np

from .ids import Ids, Labels
from .trec_files import TrecFormatError
from ..i18n import gettext, mark
from ..core.validation import shown

_BAD_BYTES = np.zeros(256, dtype=bool)
_BAD_BYTES[:33] = _BAD_BYTES[127] = True  # ASCII white space, control characters and NUL


def _id_error(what, where, value, reason):
    return TrecFormatError(gettext("{what}: {where} must be {reason}. Got {got} instead.")
                           .format(what=what, where=where, reason=reason, got=shown(value)), source=what)


def _id_bytes(value, what, where):
    """One id as bytes, or an error saying what an id may be."""
    if isinstance(value, str):
        try:
            raw = value.encode("utf-8")
        except UnicodeEncodeError:
            raise _id_error(what, where, value, gettext("text that UTF-8 can write (it holds a lone surrogate)")) from None
    elif isinstance(value, (bytes, bytearray, np.bytes_)):
        raw = bytes(value)
    elif isinstance(value, (bool, np.bool_)):
        raise _id_error(what, where, value, gettext("text or a whole number, not True or False"))
    elif isinstance(value, Integral):
        raw = str(int(value)).encode()
    elif isinstance(value, Real):
        if math.isnan(value):
            raise _id_error(what, where, value, gettext("text or a whole number, not NaN (a missing value?)"))
        if not math.isfinite(value) or value != int(value):
            raise _id_error(what, where, value, gettext("text or a whole number (7.0 is read as '7')"))
        raw = str(int(value)).encode()
    else:
        raise _id_error(what, where, value, gettext("text (str or bytes) or a whole number"))
    if not raw or _BAD_BYTES[np.frombuffer(raw, dtype=np.uint8)].any() or (
            not raw.isascii() and not _printable(raw)):
        raise _id_error(what, where, value, gettext("non-empty text without white space, control characters or "
                                                    "NUL, as in a TREC file (where white space separates the "
                                                    "columns)"))
    return raw


def _ids(values, what, where):
    """Many ids as bytes: plain ASCII text checked in one NumPy pass, anything else one by one (``where(i)``
    describes the i-th id for an error)."""
    try:
        raws = [value.encode() if type(value) is str else None for value in values]
    except UnicodeEncodeError:
        raws = [None] * len(values)
    for index, raw in enumerate(raws):
        if raw is None:
            raws[index] = _id_bytes(values[index], what, where(index))
    buffer = b"".join(raws)
    if not buffer.isascii() or _BAD_BYTES[np.frombuffer(buffer, dtype=np.uint8)].any() or not all(raws):
        for index, value in enumerate(values):
            _id_bytes(value, what, where(index))
    return raws


def _printable(raw):
    try:
        return raw.decode("utf-8").isprintable()
    except UnicodeDecodeError:
        return True  # not UTF-8: bytes >= 0x80 are not white space to trec_eval either


def _number(value, what, where, value_name):
    if isinstance(value, (bool, np.bool_)):
        if value_name == "grade":
            return float(value)
        raise TrecFormatError(gettext("{what}: the score {where} must be a number, not True or False. Got "
                                      "{value!r} instead.").format(what=what, where=where, value=value), source=what)
    if isinstance(value, Real):
        try:
            number = float(value)
        except OverflowError:  # an int beyond float64: refused, not read as infinite
            raise TrecFormatError(gettext("{what}: the {value_name} {where} must be a number float64 can hold (up "
                                          "to about 1.8e308). Got {got} instead.")
                                  .format(what=what, value_name=gettext(value_name), where=where, got=shown(value)),
                                  source=what) from None
        if not math.isnan(number) and (value_name == "score" or math.isfinite(number)):
            return number
    kind = mark("a number other than NaN") if value_name == "score" else mark("a finite number")
    raise TrecFormatError(gettext("{what}: the {value_name} {where} must be {kind}. Got {got} instead.")
                                 .format(what=what, value_name=gettext(value_name), where=where, kind=gettext(kind),
                                         got=shown(value)), source=what)


def from_dict(source, what, value_name):
    """``(qids, docnos, numbers)`` from a ``{qid: {docno: number}}`` dict."""
    qids, items, owners, numbers = [], [], [], []
    for qid, entries in source.items():
        if not hasattr(entries, "items"):
            raise TrecFormatError(gettext("{what} must map each query id to a {{item id: {value_name}}} dict, as "
                                          "pytrec_eval and ranx do; query {qid!r} maps to {entries}. Got {got} "
                                          "instead.").format(what=what, value_name=gettext(value_name), qid=qid,
                                                             entries=shown(entries), got=shown(source)),
                                  source=what)
        raw_qid = _id_bytes(qid, what, gettext("query id {qid!r}").format(qid=qid))
        for docno, number in entries.items():
            if hasattr(number, "items") and what == "qrels":
                raise TrecFormatError(gettext("qrels must map each query id to an {{item id: grade}} dict; query "
                                              "{qid!r} maps {docno!r} to a dict, as diversity qrels map a "
                                              "subtopic: read those with read_qrels(..., subtopics=True). Got "
                                              "{got} instead.").format(qid=qid, docno=docno, got=shown(number)), source=what)
            numbers.append(_number(number, what, gettext("of query {qid!r}, item {docno!r}").format(qid=qid, docno=docno),
                                  value_name))
            items.append(docno)
            owners.append(qid)
            qids.append(raw_qid)
    if not qids:
        raise TrecFormatError(gettext("{what} must hold at least one entry. Got {got} instead.")
                                     .format(what=what, got=shown(source)), source=what)
    docnos = _ids(items, what, lambda index: gettext("the item id {item!r} of query {qid!r}")
                  .format(item=items[index], qid=owners[index]))
    return Labels.from_list(qids), Ids.from_list(docnos), np.array(numbers, dtype=np.float64)


def from_subtopic_dict(source):
    """``(qids, subtopics, docnos, grades)`` from a ``{qid: {subtopic: {docno: grade}}}`` dict (diversity qrels)."""
    qids, subtopics, items, owners, numbers = [], [], [], [], []
    for qid, by_subtopic in source.items():
        if not hasattr(by_subtopic, "items"):
            raise TrecFormatError(gettext("qrels with subtopics must map each query id to a {{subtopic: {{item "
                                          "id: grade}}}} dict; query {qid!r} maps to {by_subtopic}. Got {got} "
                                          "instead.").format(qid=qid, by_subtopic=shown(by_subtopic),
                                                             got=shown(source)),
                                  source="qrels")
        raw_qid = _id_bytes(qid, "qrels", gettext("query id {qid!r}").format(qid=qid))
        for subtopic, entries in by_subtopic.items():
            raw_subtopic = _id_bytes(subtopic, "qrels", gettext("subtopic id {subtopic!r} of query {qid!r}")
                                     .format(subtopic=subtopic, qid=qid))
            if not hasattr(entries, "items"):
                raise TrecFormatError(gettext("qrels with subtopics must map each subtopic to an {{item id: "
                                              "grade}} dict; query {qid!r}, subtopic {subtopic!r} maps to "
                                              "{entries}. Got {got} instead.")
                                             .format(qid=qid, subtopic=subtopic, entries=shown(entries),
                                                     got=shown(source)), source="qrels")
            for docno, number in entries.items():
                where = gettext("of query {qid!r}, subtopic {subtopic!r}, item {docno!r}")
                numbers.append(_number(number, "qrels", where.format(qid=qid, subtopic=subtopic, docno=docno), "grade"))
                items.append(docno)
                owners.append((qid, subtopic))
                qids.append(raw_qid)
                subtopics.append(raw_subtopic)
    if not qids:
        raise TrecFormatError(gettext("qrels must hold at least one entry. Got {got} instead.")
                                     .format(got=shown(source)), source="qrels")
    docnos = _ids(items, "qrels", lambda index: gettext("the item id {item!r} of query {qid!r}, subtopic {subtopic!r}")
                  .format(item=items[index], qid=owners[index][0], subtopic=owners[index][1]))
    return (Labels.from_list(qids), Labels.from_list(subtopics), Ids.from_list(docnos),
            np.array(numbers, dtype=np.float64))


def _column(frame, name, what):
    matches = int((frame.columns == name).sum())
    if matches > 1:
        raise TrecFormatError(gettext("{what} DataFrame: column {name!r} must appear once; it appears {matches} "
                                      "times. Got columns {columns} instead.")
                                     .format(what=what, name=name, matches=matches, columns=list(frame.columns)),
                              source="DataFrame")
    return frame[name]


def _frame_numbers(column, what, name):
    """The number column as float64: numeric dtypes in one pass, anything else value by value."""
    value_name = mark("score") if what == "run" else mark("grade")
    if column.dtype.kind in "iuf" or (column.dtype.kind == "b" and value_name == "grade"):
        numbers = column.to_numpy(dtype=np.float64)
        bad = np.isnan(numbers) | (np.isinf(numbers) if value_name == "grade" else False)
        if not bad.any():
            return numbers
    values = column.tolist()
    return np.array([_number(value, f"{what} DataFrame", gettext("in row {row} (column {name!r})").format(row=row, name=name),
                             value_name)
                     for row, value in enumerate(values)], dtype=np.float64)


def from_frame(frame, what, columns):
    """``(qids, docnos, numbers)`` from a DataFrame with the given (query, item, number) columns."""
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        keywords = ", ".join(f"{key}=" for key in ("query", "item", columns[-1] == "score" and "score" or "relevance"))
        raise TrecFormatError(gettext("{what} DataFrame must have the columns {required} (name yours with "
                                      "{keywords}); {missing!r} is missing. Got columns {columns} instead.")
                                     .format(what=what, required=list(columns), keywords=keywords, missing=missing[0],
                                             columns=list(frame.columns)),
                              source="DataFrame")
    if len(frame) == 0:
        raise TrecFormatError(gettext("{what} DataFrame must hold at least one row. Got an empty DataFrame "
                                      "instead.").format(what=what),
                              source="DataFrame")
    query, item, number = (_column(frame, name, what) for name in columns)
    numbers = _frame_numbers(number, what, columns[2])
    found = []
    for column, name, label in ((query, columns[0], mark("the query id in row {row} (column {name!r})")),
                                (item, columns[1], mark("the item id in row {row} (column {name!r})"))):
        values = column.tolist()
        found.append(_ids(values, f"{what} DataFrame",
                          lambda row, label=label, name=name: gettext(label).format(row=row, name=name)))
    return Labels.from_list(found[0]), Ids.from_list(found[1]), numbers
