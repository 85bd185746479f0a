"""Ranking rules of judge(): 32-bit scores, trec_eval's tie rule, -J, batches, and the exact path after a hash
collision give the same answer as a plain Python ranking of each query."""

import numpy as np
import pytest

from ndcg_teach.runs import judging
from ndcg_teach.runs.ids import Ids
from ndcg_teach.runs.judging import judge


def random_case(seed):
    rng = np.random.default_rng(seed)
    qrels = {f"q{q}": {f"d{d}": int(rng.integers(-1, 4)) for d in rng.choice(30, 10, replace=False)} for q in range(12)}
    values = [0.5, 0.25, 0.812345674, 0.812345671, 1.0]  # ties, and two scores equal only in 32 bits
    run = {f"q{q}": {f"d{d}": float(rng.choice(values)) for d in rng.choice(30, int(rng.integers(1, 20)), replace=False)}
           for q in range(0, 14, 1)}
    return qrels, run


def ranked_in_python(qrels, run, scores, judged_only, max_docs):
    """Each evaluated query's grades in trec_eval's order, one query at a time."""
    rows = {}
    for qid in sorted(set(qrels) & set(run)):
        key = (lambda s: float(np.float32(s))) if scores == "float32" else float
        order = sorted(run[qid], key=lambda d: (key(run[qid][d]), d.encode()), reverse=True)[:max_docs]
        if judged_only:
            order = [d for d in order if qrels[qid].get(d, -1) >= 0]
        rows[qid] = [max(qrels[qid].get(d, 0), 0) for d in order], order
    return rows


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("scores", ["float32", "float64"])
def test_judge_ranks_as_trec_eval_in_batches_and_after_collisions(monkeypatch, seed, scores):
    qrels, run = random_case(seed)
    judged_only, max_docs = bool(seed % 2), [None, 3, 8][seed % 3]
    expected = ranked_in_python(qrels, run, scores, judged_only, max_docs)
    results = [judge(qrels, run, scores=scores, judged_only=judged_only, max_docs=max_docs)]
    monkeypatch.setattr(judging, "BATCH_ROWS", 7)  # many small batches
    results.append(judge(qrels, run, scores=scores, judged_only=judged_only, max_docs=max_docs))
    monkeypatch.setattr(Ids, "hashes", lambda self: np.zeros(self.size, dtype=np.uint64))  # every id collides
    results.append(judge(qrels, run, scores=scores, judged_only=judged_only, max_docs=max_docs))
    for result in results:
        assert result.queries == tuple(expected)
        for row, qid in enumerate(result.queries):
            grades, order = expected[qid]
            assert result.grades[row, :result.lengths[row]].tolist() == grades
            assert result.ranking(row) == order
            part = result.rows(row, row + 1)
            assert part.ranking(0) == order and part.grades[0, :part.lengths[0]].tolist() == grades


def test_interleaved_and_grouped_files_judge_the_same(tmp_path):
    rng = np.random.default_rng(5)
    lines = [f"q{q} Q0 d{d} {d} {rng.random():.3f} run\n" for q in range(30) for d in range(int(rng.integers(1, 40)))]
    qrels = "".join(f"q{q} 0 d{d} {int(rng.integers(0, 3))}\n" for q in range(30) for d in range(0, 40, 3))
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "grouped").write_text("".join(lines))
    (tmp_path / "mixed").write_text("".join(rng.permutation(lines)))
    grouped, mixed = judge(tmp_path / "q", tmp_path / "grouped"), judge(tmp_path / "q", tmp_path / "mixed")
    assert grouped.queries == mixed.queries and (grouped.grades == mixed.grades).all()
    assert [grouped.ranking(row) for row in range(30)] == [mixed.ranking(row) for row in range(30)]
