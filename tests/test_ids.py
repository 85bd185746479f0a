"""Ids packed by their own lengths: every operation agrees with Python's bytes (equality, hashing, strcmp order)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_teach.runs.ids import Ids, Labels

# Non-empty ids without NUL (trec_files and trec_tables refuse NUL), short and long, sharing prefixes.
ID = st.one_of(st.binary(min_size=1, max_size=12), st.binary(min_size=30, max_size=90),
               st.sampled_from([b"doc", b"doc1", b"doc10", b"doc1_", b"d" * 40, b"d" * 41])).filter(lambda b: b"\0" not in b)


@settings(max_examples=200, deadline=None)
@given(st.lists(ID, min_size=1, max_size=40), st.data())
def test_ids_agree_with_bytes(items, data):
    ids = Ids.from_list(items)
    assert ids.tolist() == items and [ids[i] for i in range(len(items))] == items
    joined = b" ".join(items) + b" "
    starts = np.cumsum([0] + [len(item) + 1 for item in items[:-1]])
    tokens = Ids.from_tokens(np.frombuffer(joined, dtype=np.uint8), starts, np.array([len(i) for i in items]))
    assert tokens.tolist() == items and (tokens.hashes() == ids.hashes()).all()
    rows = data.draw(st.lists(st.integers(0, len(items) - 1), min_size=1, max_size=30))
    other = data.draw(st.lists(st.integers(0, len(items) - 1), min_size=len(rows), max_size=len(rows)))
    assert ids.equal(rows, tokens, other).tolist() == [items[a] == items[b] for a, b in zip(rows, other)]
    hashes = ids.hashes()
    assert all(hashes[a] == hashes[b] for a, b in zip(rows, other) if items[a] == items[b])
    ranks = ids.byte_order(rows).tolist()
    chosen = [items[row] for row in rows]
    assert all((ranks[i] < ranks[j]) == (chosen[i] < chosen[j]) for i in range(len(rows)) for j in range(len(rows)))
    assert ids.take(rows).tolist() == chosen
    assert Ids.concatenate([ids, tokens]).tolist() == items + items


def test_labels_keep_first_seen_codes_and_byte_order():
    labels = Labels.from_list([b"q10", b"q2", b"q10", b"q1"])
    assert labels.codes.tolist() == [0, 1, 0, 2] and labels.tolist() == [b"q10", b"q2", b"q10", b"q1"]
    assert labels.byte_order().tolist() == [1, 2, 0]  # q1 < q10 < q2, as strcmp orders them
