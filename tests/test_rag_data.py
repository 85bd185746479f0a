"""The lesson 17 collections: drawn the same every time, shaped as documented, and macro vs micro means."""

import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.course.rag_data import COLLECTIONS, RECIPES, macro_micro, rag_collection, rag_collections

DIGESTS = {"claims": "216dda44768f7aa0", "nutrition": "58f35c828efef759", "pandemic": "0c6b2377f16c7ef8",
           "finance": "a4b96c6a0505569d"}
README = Path(nt.__file__).parent / "runs" / "data" / "README.md"


@pytest.mark.parametrize("name", COLLECTIONS)
def test_every_judgement_and_score_is_drawn_as_before(name):
    collection = rag_collection(name)
    blob = json.dumps([collection.qrels, collection.complete_qrels, collection.runs], sort_keys=True).encode()
    assert hashlib.sha256(blob).hexdigest()[:16] == DIGESTS[name]


@pytest.mark.parametrize("name", COLLECTIONS)
def test_runs_and_judgements_have_the_documented_shape(name):
    collection, recipe = rag_collection(name), RECIPES[name]
    assert len(collection.queries) == recipe.queries
    for qid in collection.queries:
        retrieved, reranked = collection.runs["retriever"][qid], collection.runs["reranker"][qid]
        assert len(retrieved) == 100 and set(retrieved) == set(reranked)  # the reranker only reorders
        truth = collection.complete_qrels[qid]
        assert len(truth) == recipe.candidates
        assert all(truth[d] == g for d, g in collection.qrels[qid].items())
        relevant = {d for d, g in truth.items() if g > 0}
        assert recipe.relevant[0] <= len(relevant) <= recipe.relevant[1]
        judged = set(collection.qrels[qid])
        if recipe.judging == "relevant only":
            assert judged == relevant
        elif recipe.judging == "relevant and top 10":
            top = sorted(retrieved, key=retrieved.get, reverse=True)[:10]
            assert judged == relevant | set(top)
        else:
            assert len(judged) <= 45
    grades = {g for docs in collection.complete_qrels.values() for g in docs.values()}
    assert grades == set(range(len(recipe.grades) + 1))


def test_the_reranker_never_changes_recall_at_100():
    for collection in rag_collections().values():
        before = nt.evaluate(collection.complete_qrels, collection.runs["retriever"], ["recall.100"])
        after = nt.evaluate(collection.complete_qrels, collection.runs["reranker"], ["recall.100"])
        assert np.array_equal(before.per_query["recall_100"], after.per_query["recall_100"])
        assert before["recall.100"] < 1  # lexical retrieval lost some relevant passages for good


def test_pooled_judgements_make_the_better_reranker_look_worse():
    pandemic = rag_collection("pandemic")
    judged = {system: nt.evaluate(pandemic.qrels, run, ["ndcg_cut.10"])["ndcg_cut.10"]
              for system, run in pandemic.runs.items()}
    truth = {system: nt.evaluate(pandemic.complete_qrels, run, ["ndcg_cut.10"])["ndcg_cut.10"]
             for system, run in pandemic.runs.items()}
    assert judged["reranker"] < judged["retriever"] and truth["reranker"] > truth["retriever"] + 0.05
    assert round(judged["retriever"], 2) == 0.86 and round(judged["reranker"], 2) == 0.83  # as data/README.md says
    assert round(truth["retriever"], 2) == 0.86 and round(truth["reranker"], 2) == 0.97


def test_the_readme_documents_every_collection_with_its_seed_and_size():
    text = README.read_text(encoding="utf-8")
    for name, recipe in RECIPES.items():
        row = re.search(rf"^\| `{name}` \| (\d+) \| (\d+) \| (\d+) \|", text, flags=re.M)
        assert row and tuple(map(int, row.groups())) == (recipe.seed, recipe.queries, recipe.candidates), name
    prose = re.sub(r"\s+", " ", text)
    for name in ("claims", "nutrition", "finance"):
        collection = rag_collection(name)
        values = [nt.evaluate(collection.qrels, collection.runs[s], ["ndcg_cut.10"])["ndcg_cut.10"]
                  for s in ("retriever", "reranker")]
        assert f"`{name}` {values[0]:.2f} → {values[1]:.2f}" in prose, name


def test_each_call_gives_fresh_dicts():
    first = rag_collection("claims")
    first.qrels["claims-01"].clear()
    assert rag_collection("claims").qrels["claims-01"]


def test_macro_and_micro_means_by_hand_and_from_evaluations():
    result = macro_micro({"small": [1.0, 1.0], "large": [0.2] * 6})
    assert result.macro == pytest.approx(0.6, abs=1e-12) and result.micro == pytest.approx(0.4, abs=1e-12)
    evaluations = {name: nt.evaluate(c.qrels, c.runs["reranker"], ["ndcg_cut.10", "recall.100"])
                   for name, c in rag_collections().items()}
    both = macro_micro(evaluations, measure="ndcg_cut.10")
    means = [e["ndcg_cut.10"] for e in evaluations.values()]
    every = np.concatenate([e.per_query["ndcg_cut_10"] for e in evaluations.values()])
    assert both.macro == pytest.approx(np.mean(means), abs=1e-12) and both.micro == pytest.approx(every.mean(), abs=1e-12)
    assert both.queries == (30, 40, 12, 25)
    text = str(both)
    assert "macro = (" in text and "micro = (30·" in text and "/ 107 =" in text
    assert macro_micro({"a": {"q1": 1.0, "q2": 0.0}}).micro == 0.5


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: rag_collection("scifact"), ValueError, r"name must be one of 'claims', 'nutrition', 'pandemic', 'finance'"),
    (lambda: macro_micro([0.5, 0.6]), TypeError, r"per_collection must map each collection's name to its per-query values"),
    (lambda: macro_micro({}), TypeError, r"per_collection must map"),
    (lambda: macro_micro({"a": []}), ValueError, r"per_collection\['a'\] must hold at least one query's value"),
    (lambda: macro_micro({"a": ["x"]}), TypeError, r"per_collection\['a'\] must be a flat list of numbers"),
])
def test_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()
