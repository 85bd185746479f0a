"""Columns of ids for qrels and runs: item ids packed by their own lengths, query ids as codes.

A run of 2,000,000 lines may hold one very long item id; a fixed-width NumPy
array (``S2000``) would make every id that wide. :class:`Ids` packs each id into
whole 8-byte words instead, so memory grows with the total length of the ids,
and hashing, comparing and ordering them are NumPy passes over those words.
:class:`Labels` holds a column with few distinct values (query ids) as one
small code per entry and the list of distinct names.

Ids never hold a NUL byte (:mod:`ndcg_teach.runs.trec` refuses them), so zero
padding cannot make two different ids equal, and comparing padded big-endian
words orders ids as C's ``strcmp`` (and trec_eval) does.

>>> ids = Ids.from_list([b"doc-1", b"a-much-longer-document-id", b"doc-1"])
>>> ids.tolist()[1], len(ids), ids.words.size  # 1 + 4 + 1 words of 8 bytes
(b'a-much-longer-document-id', 3, 6)
>>> bool(ids.equal([0], ids, [2])[0]), ids.byte_order([0, 1]).tolist()
(True, [1, 0])
"""

import sys

import numpy as np

_BASIS, _PRIME = np.uint64(14695981039346656037), np.uint64(1099511628211)
_CHUNK = 1 << 18  # ids hashed at a time
_FEW_WORDS = 4  # up to this many words per id, a mask per word is cheaper than sorting ids by length


def _words_of(lengths):
    return (lengths.astype(np.int64) + 7) >> 3


def _active(n_words):
    """``(word index, ids that have it)`` for each word index; past a few words the ids are sorted by word count
    (most first), so each set is a prefix and the passes cost the total number of words, not ids x longest."""
    longest = int(n_words.max(initial=0))
    if longest <= _FEW_WORDS:
        for j in range(longest):
            yield j, (slice(None) if j == 0 else np.flatnonzero(n_words > j))
        return
    order = np.argsort(-n_words, kind="stable")
    having = n_words.size - np.cumsum(np.bincount(n_words, minlength=longest + 1))  # ids with more than j words
    for j in range(longest):
        yield j, order[: having[j]]


class Ids:
    """Byte strings of any lengths, each stored in whole 8-byte words (zero-padded).

    Attributes
    ----------
    words : numpy.ndarray of uint64
        Every id's words, one id after the other, in order.
    lengths : numpy.ndarray of int32
        Each id's length in bytes.
    """

    __slots__ = ("words", "lengths", "_starts")

    def __init__(self, words, lengths):
        self.words, self.lengths, self._starts = words, lengths, None

    @property
    def starts(self):
        """The first word of each id, computed when first needed (4 bytes per id while fewer than 2**32 words)."""
        if self._starts is None:
            n_words = _words_of(self.lengths)
            starts = np.cumsum(n_words) - n_words
            self._starts = starts.astype(np.uint32) if self.words.size < 2 ** 32 else starts
        return self._starts

    @classmethod
    def from_list(cls, items):
        """From a list of ``bytes``."""
        lengths = np.fromiter((len(item) for item in items), dtype=np.int32, count=len(items))
        n_words = _words_of(lengths)
        buffer = b"".join(item.ljust(8 * words, b"\0") for item, words in zip(items, n_words.tolist()))
        return cls(np.frombuffer(buffer, dtype=np.uint64).copy(), lengths)

    @classmethod
    def from_tokens(cls, data, starts, lengths):
        """From the bytes ``data[starts[i]:starts[i] + lengths[i]]`` of a NumPy uint8 buffer.

        ``data`` must extend at least ``max(lengths)`` bytes past every start (callers pad it).
        """
        n_words = _words_of(lengths)
        longest = int(n_words.max(initial=0))
        reach = int((starts + 8 * longest).max(initial=0))
        if reach > data.size:
            data = np.concatenate([data, np.zeros(reach - data.size, dtype=np.uint8)])
        if longest <= _FEW_WORDS:  # one table as wide as the longest id, then its words that belong to an id
            table = np.lib.stride_tricks.sliding_window_view(data, 8 * longest)[starts]
            table[np.arange(8 * longest) >= lengths[:, np.newaxis]] = 0
            table = table.view(np.uint64)
            words = table[np.arange(longest) < n_words[:, np.newaxis]] if longest > 1 else table.ravel()
            return cls(words, lengths.astype(np.int32))
        words = np.empty(int(n_words.sum()), dtype=np.uint64)
        first = np.cumsum(n_words) - n_words
        widths = np.unique(n_words)
        for width in widths.tolist():  # one gather per word count: never a table as wide as the longest id
            rows = np.flatnonzero(n_words == width)
            block = np.lib.stride_tricks.sliding_window_view(data, 8 * width)[starts[rows]]
            block[np.arange(8 * width) >= lengths[rows, np.newaxis]] = 0
            words[first[rows, np.newaxis] + np.arange(width)] = block.view(np.uint64).reshape(-1, width)
        return cls(words, lengths.astype(np.int32))

    @classmethod
    def concatenate(cls, parts):
        """One column from several, in order."""
        parts = list(parts)
        if not parts:
            return cls(np.zeros(0, np.uint64), np.zeros(0, np.int32))
        if len(parts) == 1:
            return parts[0]
        return cls(np.concatenate([part.words for part in parts]), np.concatenate([part.lengths for part in parts]))

    def __len__(self):
        return self.lengths.size

    @property
    def size(self):
        return self.lengths.size

    def nbytes_per_id(self):
        """Memory per id, in bytes (its words and its length)."""
        return (self.words.nbytes + self.lengths.nbytes) / max(self.size, 1)

    def __getitem__(self, index):
        length = int(self.lengths[index])
        start = int(_words_of(self.lengths[:index]).sum()) if index >= 0 else int(self.starts[index])
        return self.words[start: start + ((length + 7) >> 3)].tobytes()[:length]

    def tolist(self):
        """Every id as ``bytes``."""
        raw = self.words.tobytes()
        return [raw[8 * start: 8 * start + length] for start, length in zip(self.starts.tolist(), self.lengths.tolist())]

    def take(self, rows):
        """The ids at ``rows``, as a new column."""
        rows = np.asarray(rows, dtype=np.int64)
        lengths = self.lengths[rows]
        n_words = _words_of(lengths)
        first = np.cumsum(n_words) - n_words
        total = int(n_words.sum())
        source = np.repeat(self.starts[rows] - first, n_words) + np.arange(total)
        return Ids(self.words[source], lengths)

    def hashes(self):
        """A 64-bit hash of each id (equal ids, equal hashes), computed a chunk of ids at a time."""
        hashes = np.empty(self.size, dtype=np.uint64)
        word = 0
        for start in range(0, self.size, _CHUNK):
            lengths = self.lengths[start: start + _CHUNK]
            n_words = _words_of(lengths)
            starts = word + np.cumsum(n_words) - n_words
            word += int(n_words.sum())
            chunk = np.full(lengths.size, _BASIS, dtype=np.uint64)
            for j, rows in _active(n_words):
                chunk[rows] = (chunk[rows] ^ self.words[starts[rows] + j]) * _PRIME
            chunk ^= lengths.astype(np.uint64)
            chunk ^= chunk >> np.uint64(29)
            hashes[start: start + _CHUNK] = chunk * _PRIME
        return hashes

    def equal(self, rows, other, other_rows):
        """Whether ``self[rows[i]] == other[other_rows[i]]``, for each ``i``."""
        rows, other_rows = np.asarray(rows, dtype=np.int64), np.asarray(other_rows, dtype=np.int64)
        lengths = self.lengths[rows]
        same = lengths == other.lengths[other_rows]
        starts, other_starts = self.starts[rows], other.starts[other_rows]
        for j, active in _active(np.where(same, _words_of(lengths), 0)):
            same[active] &= self.words[starts[active] + j] == other.words[other_starts[active] + j]
        return same

    def byte_order(self, rows):
        """Ranks of ``self[rows]`` in byte order (``strcmp``), 0 for the smallest; equal ids share a rank."""
        rows = np.asarray(rows, dtype=np.int64)
        n_words = _words_of(self.lengths[rows])
        longest = int(n_words.max(initial=0))
        if longest > 8:  # long ids: Python sorts them (rare, and exact)
            items = self.take(rows).tolist()
            ranks = {item: rank for rank, item in enumerate(sorted(set(items)))}
            return np.array([ranks[item] for item in items], dtype=np.int64)
        table = np.zeros((rows.size, longest), dtype=np.uint64)
        starts = self.starts[rows]
        for j, active in _active(n_words):
            table[active, j] = self.words[starts[active] + j]
        if sys.byteorder == "little":
            table = table.byteswap()
        order = np.lexsort(table.T[::-1]) if longest else np.arange(rows.size)
        ordered = table[order]
        new = np.r_[True, (ordered[1:] != ordered[:-1]).any(axis=1)] if rows.size else np.zeros(0, bool)
        ranks = np.empty(rows.size, dtype=np.int64)
        ranks[order] = np.cumsum(new) - 1
        return ranks


class Labels:
    """A column with few distinct values: one code per entry and the distinct names (``bytes``), first seen first.

    >>> labels = Labels.from_list([b"q2", b"q1", b"q2"])
    >>> labels.codes.tolist(), labels.names, labels.tolist()
    ([0, 1, 0], [b'q2', b'q1'], [b'q2', b'q1', b'q2'])
    """

    __slots__ = ("codes", "names")

    def __init__(self, codes, names):
        self.codes, self.names = codes, names

    @classmethod
    def from_list(cls, items):
        index = {}
        codes = np.fromiter((index.setdefault(item, len(index)) for item in items), dtype=np.int32, count=len(items))
        return cls(codes, list(index))

    @classmethod
    def concatenate(cls, parts):
        """Parts that share one growing ``names`` list (as the file reader builds them)."""
        parts = list(parts)
        names = parts[-1].names if parts else []
        return cls(np.concatenate([part.codes for part in parts]) if parts else np.zeros(0, np.int32), names)

    def __len__(self):
        return self.codes.size

    @property
    def size(self):
        return self.codes.size

    def __getitem__(self, index):
        return self.names[int(self.codes[index])]

    def tolist(self):
        names = self.names
        return [names[code] for code in self.codes.tolist()]

    def byte_order(self):
        """The rank of each name in byte order, indexed by code."""
        ranks = np.empty(len(self.names), dtype=np.int64)
        ranks[sorted(range(len(self.names)), key=self.names.__getitem__)] = np.arange(len(self.names))
        return ranks
