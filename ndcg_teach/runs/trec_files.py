"""Reading TREC qrels and run files as trec_eval reads them: in bounded blocks, with C's number syntax.

A file (plain or gzip, or a binary stream) is read in blocks of about
:data:`BLOCK_BYTES`; each block is split into tokens by NumPy passes over its
bytes (white space as C's ``isspace``: space, tab, newline, CR, VT, FF), so a
2,000,000-line run is read in about a second and memory never holds the
whole text. What a file may expand to is limited (:data:`MAX_BYTES`, or the
``max_bytes`` argument): a gzip bomb or an endless stream stops with an error
naming the limit. Blank lines and lines starting with ``#`` are skipped, or
read as trec_eval reads them (:mod:`ndcg_teach.runs.trec_reading`: 9.0.8 calls a
blank qrels line malformed and reads ``#`` lines as data).

Numbers are read with C's syntax, as trec_eval does (``atof``/``atol``): the
longest leading number of the column counts and the rest is ignored, so a
grade ``1_0`` is 1, ``1.5`` is 1 and ``1e3`` is 1 (``atol``), and a score
``0x1p-1`` is 0.5 (``atof``). Where trec_eval would read a column with no
number at all as 0 (``high``), ndcg_teach stops with an error, or (trec_eval's
reading) reads 0 and notes it; a NaN score is always an error.

>>> c_number(b"1_0"), c_number(b"1.5", integer=True), c_number(b"1e3", integer=True), c_number(b"0x1p-1")
(1.0, 1, 1, 0.5)
"""

import errno
import os
import zlib

import numpy as np

from ..core.c_numbers import c_long, c_number
from .ids import Ids, Labels
from .trec_reading import NDCG_TEACH
from ..i18n import gettext, mark

BLOCK_BYTES = 1 << 21  # read 2 MB at a time
MAX_BYTES = 1 << 31    # the default limit on what one input may expand to (2 GiB)


class TrecFormatError(ValueError):
    """A qrels or run file (or dict, or DataFrame) that cannot be read; the message says where and why. Lesson 09.

    ``source`` is the file name ("dict", "DataFrame" for those) and ``line`` the line number, when known;
    ``trec_eval`` the line trec_eval prints for the same fault, when it has one.

    Examples
    --------
    >>> error = TrecFormatError("run.txt, line 3: is truncated.", source="run.txt", line=3)
    >>> str(error), error.source, error.line
    ('run.txt, line 3: is truncated.', 'run.txt', 3)
    """

    def __init__(self, message, *, source=None, line=None, trec_eval=""):
        super().__init__(message)
        self.source, self.line, self.trec_eval = source, line, trec_eval


# ---- Blocks of lines ---------------------------------------------------------------------------------

def _limit_error(name, max_bytes, packed):
    template = mark("{name}: holds more than max_bytes={max_bytes:,} bytes once decompressed; ndcg_teach stops there so "
                    "that a compressed or endless input cannot fill the memory. Pass a larger max_bytes= (command: "
                    "--max-bytes) to read it. Got more than {max_bytes:,} bytes instead.") if packed else \
        mark("{name}: holds more than max_bytes={max_bytes:,} bytes; ndcg_teach stops there so that a compressed or "
             "endless input cannot fill the memory. Pass a larger max_bytes= (command: --max-bytes) to read it. Got "
             "more than {max_bytes:,} bytes instead.")
    return TrecFormatError(gettext(template).format(name=name, max_bytes=max_bytes), source=name)


def _gunzip(name, chunks):
    """Decompress a stream of gzip members, block by block (never more than BLOCK_BYTES at a time)."""
    inflater = zlib.decompressobj(31)
    for chunk in chunks:
        while chunk:
            try:
                out = inflater.decompress(chunk, BLOCK_BYTES)
            except zlib.error as error:
                raise TrecFormatError(gettext("{name}: starts like a gzip file but cannot be decompressed "
                                              "({error}).").format(name=name, error=error),
                                      source=name) from None
            if out:
                yield out
            chunk = inflater.unconsumed_tail
            if inflater.eof:
                chunk = inflater.unused_data + chunk
                if not chunk.strip(b"\0"):
                    return
                inflater = zlib.decompressobj(31)
    if not inflater.eof:
        raise TrecFormatError(gettext("{name}: starts like a gzip file but cannot be decompressed (it ends in "
                                      "the middle of the compressed data).").format(name=name), source=name)


def _raw_chunks(handle):
    while True:
        chunk = handle.read(BLOCK_BYTES)
        if not chunk:
            return
        yield chunk


def _opened(source):
    """``(name, binary handle, close?)`` for a path or a binary stream; OSError subclasses keep their class."""
    if hasattr(source, "read"):
        return str(getattr(source, "name", "<stream>")), source, False
    name = os.fspath(source)
    try:
        return name, open(name, "rb"), True
    except OSError as error:
        reason = {errno.ENOENT: mark("no such file"), errno.EACCES: mark("permission denied"),
                  errno.EISDIR: mark("it is a folder"), errno.ELOOP: mark("its symbolic links form a loop")}
        reason = gettext(reason[error.errno]) if error.errno in reason else error.strerror
        raise type(error)(error.errno, gettext("{name}: cannot be read ({reason}).").format(name=name, reason=reason)) from None


def blocks(source, max_bytes=MAX_BYTES):
    """The file's text in blocks that end at a line's end (a final line gets its newline), gzip undone.

    Yields ``(name, block)``; stops with :class:`TrecFormatError` past ``max_bytes`` bytes of text.
    """
    name, handle, close = _opened(source)
    try:
        chunks = _raw_chunks(handle)
        first = next(chunks, b"")
        packed = first[:2] == b"\x1f\x8b"
        stream = _gunzip(name, _chain(first, chunks)) if packed else _chain(first, chunks)
        total, pending, line = 0, [], 1
        for chunk in stream:
            if isinstance(chunk, str):
                raise TrecFormatError(gettext("{name}: must be opened in binary mode ('rb'). Got a text stream "
                                              "instead.").format(name=name),
                                      source=name)
            total += len(chunk)
            if total > max_bytes:
                raise _limit_error(name, max_bytes, packed)
            if b"\0" in chunk:  # before a line is whole: /dev/zero has no line ends
                line += sum(piece.count(b"\n") for piece in pending) + chunk.count(b"\n", 0, chunk.index(b"\0"))
                raise TrecFormatError(gettext("{name}, line {line}: is a binary file (it holds NUL bytes), not a "
                                              "text file of TREC lines.").format(name=name, line=line), source=name, line=line)
            end = chunk.rfind(b"\n") + 1
            if not end:  # a long line: keep its pieces (joining them at each chunk would cost n squared)
                pending.append(chunk)
                continue
            block = b"".join([*pending, chunk[:end]]) if pending else chunk[:end]
            pending = [chunk[end:]] if end < len(chunk) else []
            line += block.count(b"\n")
            yield name, block
        if pending:
            yield name, b"".join(pending) + b"\n"
    except OSError as error:
        raise type(error)(error.errno, gettext("{name}: cannot be read ({strerror}).")
                                              .format(name=name, strerror=error.strerror)) from None
    finally:
        if close:
            handle.close()


def _chain(first, chunks):
    if first:
        yield first
    yield from chunks


# ---- Tokens of one block -------------------------------------------------------------------------------

def _expected(columns):
    return gettext("{count} columns ({names})").format(count=len(columns), names=" ".join(columns))


def _line_text(block, newlines, index):
    start = 0 if index == 0 else int(newlines[index - 1]) + 1
    return block[start: int(newlines[index])].decode("utf-8", "replace").strip()


class Block:
    """One block's lines as tokens: ``starts`` and ``lengths`` are (lines, columns) arrays into ``data``."""

    def __init__(self, name, raw, first_line, columns, trailing, reading=NDCG_TEACH):
        self.name, self.raw, self.columns, self.reading = name, raw, columns, reading
        data = np.frombuffer(raw, dtype=np.uint8)
        below = np.flatnonzero(data < 32)  # line ends, tabs, CRs (NUL bytes were refused by blocks())
        kinds = data[below]
        newlines = below[kinds == 10]
        if ((kinds < 9) | (kinds > 13)).any():  # other control bytes are part of a token, as for C's isspace
            space = (data == 32) | ((data - np.uint8(9)) < 5)
        else:
            space = data <= 32
        edges = np.flatnonzero(space[:-1] != space[1:]) + 1
        if space[0]:
            starts, ends = edges[0::2], edges[1::2]
        else:
            starts, ends = np.r_[0, edges[1::2]], edges[0::2]
        self.data, self.newlines, self.first_line = data, newlines, first_line
        width = len(columns)
        if starts.size == width * newlines.size and newlines.size and \
                (ends[width - 1::width] <= newlines).all() and (starts[width::width] > newlines[:-1]).all() \
                and not (data[starts[::width]] == 35).any():
            self.starts, self.lengths = starts.reshape(-1, width), (ends - starts).reshape(-1, width)
            self.lines = np.arange(first_line, first_line + newlines.size, dtype=np.int64)
            self.column_comments = np.zeros(newlines.size, dtype=bool)
            reading.after_comment = False
            return
        after = np.searchsorted(starts, newlines)  # tokens that start before each line's end
        first = np.r_[0, after[:-1]]
        counts = after - first
        kept = counts > 0
        if reading.blank == "malformed" and not kept.all():
            self._refuse(int(np.argmin(kept)), mark("is blank, which trec_eval calls a malformed line"))
        self.column_comments = data[np.r_[0, newlines[:-1] + 1]] == 35  # '#' in the first column
        hashes = np.zeros(kept.size, dtype=bool)
        hashes[kept] = data[starts[first[kept]]] == 35  # the line's first token starts with '#'
        if reading.comments == "refuse" and hashes.any():
            self._refuse(int(np.argmax(hashes)), mark("starts with '#', which trec_eval 9.0.8 reads as data and "
                                                      "10.0 as a comment (--strict refuses it)"))
        if reading.comments == "skip":
            kept &= ~hashes
        elif reading.comments == "first-column":
            kept &= ~self._skipped_comments(reading)
        short = kept & (counts < width)
        bad = short | (kept & (counts > width)) if not trailing else short
        if bad.any():
            index = int(np.argmax(bad))
            kind = mark("is truncated") if short[index] else mark("has too many columns")
            line = first_line + index
            raise TrecFormatError(gettext("{name}, line {line}: {kind}; expected {expected}. Got {count} "
                                          "column(s) {line_text!r} instead.")
                                         .format(name=name, line=line, kind=gettext(kind), expected=_expected(columns),
                                                 count=counts[index], line_text=_line_text(raw, newlines, index)), source=name, line=line)
        tokens = first[kept][:, np.newaxis] + np.arange(width)
        self.starts, self.lengths = starts[tokens], (ends - starts)[tokens]
        self.lines = first_line + np.flatnonzero(kept).astype(np.int64)

    def _skipped_comments(self, reading):
        """trec_eval 10.0's qrels: a line with '#' in its first column is skipped and the line after it is read as
        data whatever it holds, so of '#' lines in a row every second one is data (its line array then overflows,
        harmlessly on this machine). ``reading.after_comment`` carries the state from one block to the next."""
        comments = self.column_comments
        skip = np.zeros(comments.size, dtype=bool)
        skipped, previous = reading.after_comment, -1
        for index in np.flatnonzero(comments).tolist():
            skip[index] = not (skipped and index == previous + 1)
            skipped, previous = bool(skip[index]), index
        reading.after_comment = skipped and previous == comments.size - 1
        return skip

    def _refuse(self, index, kind):
        line = self.first_line + index
        raise TrecFormatError(gettext("{name}, line {line}: {kind}. Got {line_text!r} instead.")
                              .format(name=self.name, line=line, kind=gettext(kind),
                                      line_text=_line_text(self.raw, self.newlines, index)),
                              source=self.name, line=line)

    def ids(self, column):
        return Ids.from_tokens(self.data, self.starts[:, column], self.lengths[:, column])

    def token(self, row, column):
        start = int(self.starts[row, column])
        return self.raw[start: start + int(self.lengths[row, column])]

    def text(self, row):
        return _line_text(self.raw, self.newlines, int(self.lines[row] - self.first_line))

    def table(self, column, rows=slice(None)):
        """The column's tokens (at ``rows``) as a uint8 table, one zero-padded token per row (for short tokens)."""
        starts, lengths = self.starts[rows, column], self.lengths[rows, column]
        width = max(int(lengths.max(initial=1)), 1)
        data = self.data
        if int((starts + width).max(initial=0)) > data.size:
            data = np.concatenate([data, np.zeros(width, dtype=np.uint8)])
        table = np.lib.stride_tricks.sliding_window_view(data, width)[starts]
        table[np.arange(width) >= lengths[:, np.newaxis]] = 0
        return table

    def misread(self, row, column, value):
        """Note that trec_eval reads the token at ``row``, ``column`` as ``value``: it holds no number."""
        token = self.token(row, column).decode("utf-8", "replace")
        self.reading.note(gettext("{name}, line {line}: the {column} column {token!r} holds no number; trec_eval reads "
                                  "it as {value} (--strict refuses it)").format(
            name=self.name, line=int(self.lines[row]), column=self.columns[column], token=token, value=value))

    def bad_number(self, row, column, reason):
        line = int(self.lines[row])
        token = self.token(row, column).decode("utf-8", "replace")
        return TrecFormatError(gettext("{name}, line {line}: the {column} column must be {reason}. Got {token!r} in "
                                       "{text!r} instead.").format(name=self.name, line=line, column=self.columns[column],
                                                                   reason=reason, token=token, text=self.text(row)),
                               source=self.name, line=line)


# ---- Columns ---------------------------------------------------------------------------------------------

WIDE_NUMBER = 40  # longer number tokens are read one by one, in Python


def scores_of(block, column):
    """The column as C's ``atof`` reads it (float64); NaN or no number at all is an error."""
    lengths = block.lengths[:, column]
    values = np.empty(lengths.size)
    slow = lengths > WIDE_NUMBER
    short = np.flatnonzero(~slow)
    if short.size:
        table = block.table(column, short)
        try:
            values[short] = table.view(f"S{table.shape[1]}").ravel().astype(np.float64)
        except ValueError:  # a token Python's float() refuses: read them all as C does
            slow[:] = True
        else:
            slow[short[(table == 95).any(axis=1)]] = True  # '_': Python's float() reads 1_0 as 10, C as 1
    for row in np.flatnonzero(slow).tolist():
        value = c_number(block.token(row, column))
        if value is None:
            if block.reading.numbers == "refuse":
                raise block.bad_number(row, column, gettext("a number (trec_eval would read it as 0)"))
            block.misread(row, column, 0)
            value = 0.0
        values[row] = value
    if np.isnan(values).any():
        raise block.bad_number(int(np.argmax(np.isnan(values))), column, gettext("a number, not NaN"))
    return values


def grades_of(block, column, integer):
    """The column as C's ``atol`` (``integer``) or ``atof`` reads it; few distinct tokens, each read once."""
    lengths = block.lengths[:, column]
    if (lengths > WIDE_NUMBER).any():
        tokens = [block.token(row, column) for row in range(lengths.size)]
        distinct, inverse = np.unique(np.array(tokens, dtype=object), return_inverse=True)
    else:
        table = block.table(column)
        distinct, inverse = np.unique(table.view(f"S{table.shape[1]}").ravel(), return_inverse=True)
    values = np.empty(distinct.size)
    for index, token in enumerate(distinct.tolist()):
        value = c_number(token)
        if block.reading.numbers == "c" and integer:  # C's atol: the leading whole number, else 0
            values[index] = c_long(token)
            if value is None or not np.isfinite(value):
                block.misread(int(np.argmax(inverse == index)), column, int(values[index]))
            continue
        if value is None or not np.isfinite(value):
            row = int(np.argmax(inverse == index))
            unread = value is None or np.isnan(value)
            raise block.bad_number(row, column, gettext("a finite number (trec_eval would read it as 0)") if unread
                                   else gettext("a finite number"))
        values[index] = c_number(token, integer=True) if integer else value
    return values[inverse.ravel()]


def query_codes(block, column, index):
    """Codes of the column's ids in ``index`` (a dict that grows as new ids come): one lookup per run of equal ids."""
    lengths = block.lengths[:, column]
    n = lengths.size
    change = np.ones(n, dtype=bool)
    if n > 1 and int(lengths.max()) <= WIDE_NUMBER:
        table = block.table(column)
        ids = table.view(f"S{table.shape[1]}").ravel()
        change[1:] = ids[1:] != ids[:-1]
    elif n > 1:
        ids = block.ids(column)
        change[1:] = ~ids.equal(np.arange(1, n), ids, np.arange(n - 1))
    heads = np.flatnonzero(change)
    codes = np.fromiter((index.setdefault(block.token(int(head), column), len(index)) for head in heads),
                        dtype=np.int32, count=heads.size)
    return np.repeat(codes, np.diff(np.r_[heads, n]))


class _Column:
    """A column filled block by block into one array sized from an estimate of the whole file (estimated again when it
    falls short), so that no list of blocks and no second copy of the column is held."""

    def __init__(self, dtype):
        self.array, self.size = np.empty(0, dtype=dtype), 0

    def append(self, values, expected):
        end = self.size + values.size
        if end > self.array.size:
            grown = np.empty(max(end, expected), dtype=self.array.dtype)
            grown[: self.size] = self.array[: self.size]
            self.array = grown
        self.array[self.size: end] = values
        self.size = end

    def whole(self):
        return self.array[: self.size] if self.size > 0.9 * self.array.size else self.array[: self.size].copy()


def read_columns(source, columns, *, numeric, trailing=False, max_bytes=MAX_BYTES, grades="integer", labels=None,
                 reading=NDCG_TEACH):
    """Query codes, item ids, the numeric column and line numbers of every line of a qrels or run file.

    ``numeric`` is the index of the number column (3: grades, 4: scores); ``trailing`` allows text after the last
    column (run files); ``labels`` is the index of a column of few distinct ids to keep too (1: the subtopics of a
    diversity qrels). Returns a dict: ``qids`` (Labels), ``docnos`` (Ids), ``numbers``, ``lines``, ``name``,
    ``labels`` (Labels, or None) and, for runs, ``tag`` (the last line's tag, as trec_eval's ``runid``). ``reading``
    says how blank lines, comments and columns without a number are read (:class:`~ndcg_teach.runs.trec_reading.Reading`).
    """
    name = str(getattr(source, "name", source))
    reading.after_comment = False
    try:
        return _read_blocks(source, columns, numeric, trailing, max_bytes, grades, labels, reading)
    except MemoryError:
        raise MemoryError(gettext("{name}: holds more than this machine's memory can read; pass a smaller max_bytes= "
                                  "(command: --max-bytes N) to stop at N bytes of text with an error instead, or free "
                                  "memory. Got an input larger than the memory instead.").format(name=name)) from None


def _read_blocks(source, columns, numeric, trailing, max_bytes, grades, labels, reading):
    index, label_index = {}, {}
    codes, words, lengths = _Column(np.int32), _Column(np.uint64), _Column(np.int32)
    label_codes = _Column(np.int32)
    numbers, lines = _Column(np.float64), _Column(np.int32 if max_bytes < 2 ** 32 else np.int64)  # lines < bytes / 2
    name, line, last, read = str(getattr(source, "name", source)), 1, None, 0
    total = _plain_size(source)
    for name, raw in blocks(source, max_bytes):
        block = Block(name, raw, line, columns, trailing, reading)
        line += block.newlines.size
        read += len(raw)
        if not block.lines.size:
            continue
        ids = block.ids(2)
        scale = 1.1 * total / read if total and total > read else 2  # a plain file's size tells what is to come
        expected = int(scale * (lines.size + block.lines.size)) + 1024
        codes.append(query_codes(block, 0, index), expected)
        if labels is not None:
            label_codes.append(query_codes(block, labels, label_index), expected)
        words.append(ids.words, int(scale * (words.size + ids.words.size)) + 1024)
        lengths.append(ids.lengths, expected)
        numbers.append(scores_of(block, numeric) if numeric == 4 else grades_of(block, numeric, grades == "integer"),
                       expected)
        lines.append(block.lines, expected)
        last = block.token(block.lines.size - 1, len(columns) - 1)
    if reading.after_comment:
        raise TrecFormatError(gettext("{name}, line {line}: is a '#' line at the end of the file, past which trec_eval "
                                      "10.0 reads outside its buffer. Got a last line starting with '#' instead.")
                              .format(name=name, line=line - 1), source=name, line=line - 1)
    if not lines.size:
        raise TrecFormatError(gettext("{name}: holds no lines; expected one line of {expected} per entry. Got an "
                                      "empty file instead.").format(name=name, expected=_expected(columns)), source=name)
    return {"qids": Labels(codes.whole(), list(index)), "docnos": Ids(words.whole(), lengths.whole()),
            "numbers": numbers.whole(), "lines": lines.whole(), "name": name, "tag": last,
            "labels": None if labels is None else Labels(label_codes.whole(), list(label_index))}


def _plain_size(source):
    """The size of a plain (not gzipped) file, or None: how much text is to come."""
    if not isinstance(source, (str, os.PathLike)):
        return None
    try:
        with open(source, "rb") as handle:
            return None if handle.read(2) == b"\x1f\x8b" else os.fstat(handle.fileno()).st_size
    except OSError:
        return None  # blocks() says why it cannot be read
