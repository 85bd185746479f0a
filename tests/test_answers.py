"""Citation support, faithfulness, the simulated judge of answers and lesson 21's collection (ndcg_teach.course.answers).

Oracles written from the papers, sharing no code with the library: ALCE's citation recall and precision
follow its eval.py (a sentence is recalled when its citations jointly entail it; a citation of a recalled
sentence is precise unless it fails alone and the rest entail without it; precision over all citations),
with entailment as "the passages together state every fact"; faithfulness as RAGAS counts it; κ by
scikit-learn and τ by SciPy. Every refusal is tested by its message.
"""

import random
from fractions import Fraction

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.course.answers import SUPPORT_GRADES

metrics = pytest.importorskip("sklearn.metrics")
stats = pytest.importorskip("scipy.stats")


def entails(passages, cited, facts):
    return set(facts) <= {fact for p in cited for fact in passages[p]}


def alce(claims, citations, passages):
    """(recall, precision) of one answer, as ALCE's compute_autoais computes them."""
    entail, entail_prec, total = 0, 0, 0
    for facts, cited in zip(claims, citations):
        total += len(cited)
        flag = bool(cited) and entails(passages, cited, facts)
        entail += flag
        if flag and len(cited) > 1:
            for p in cited:
                if entails(passages, [p], facts):
                    entail_prec += 1
                elif not entails(passages, [q for q in cited if q != p], facts):
                    entail_prec += 1
        elif flag:
            entail_prec += 1
    return Fraction(entail, len(claims)), Fraction(entail_prec, total) if total else Fraction(0)


def random_answer(rng):
    facts = [f"f{i}" for i in range(rng.randint(1, 6))]
    passages = {f"p{j}": rng.sample(facts, rng.randint(0, len(facts))) for j in range(rng.randint(1, 5))}
    claims = [rng.sample(facts, rng.randint(1, min(2, len(facts)))) + (["x"] if rng.random() < 0.15 else [])
              for _ in range(rng.randint(1, 5))]
    citations = [rng.sample(list(passages), rng.randint(0, len(passages))) for _ in claims]
    return claims, citations, passages


def test_citation_recall_and_precision_are_alces_on_500_random_answers():
    rng = random.Random(2023)
    for _ in range(500):
        claims, citations, passages = random_answer(rng)
        result = nt.citation_support(claims, citations, passages)
        recall, precision = alce(claims, citations, passages)
        assert (result.recall, result.precision) == (float(recall), float(precision)), (claims, citations, passages)
        assert result.supported == tuple(bool(c) and entails(passages, c, f) for f, c in zip(claims, citations))


def test_the_lessons_moon_answer_cites_as_the_lesson_says():
    passages = {"p1": ["n1"], "p2": ["n2", "n3"], "p3": ["n4", "n6"], "p4": ["n5"]}
    claims = [["n1"], ["n2", "n4"], ["n3"], ["x1"], ["n6"]]
    citations = [["p1"], ["p2", "p3"], ["p2", "p1"], ["p4"], []]
    result = nt.citation_support(claims, citations, passages)
    assert (result.recall, result.precision) == (3 / 5, 4 / 6)
    assert result.verdicts == (("alone",), ("needed", "needed"), ("alone", "irrelevant"), ("unsupported",), ())
    faithful = nt.faithfulness(claims, passages)
    assert faithful.value == 4 / 5 and faithful.supported == (True, True, True, False, True)


def test_faithfulness_is_the_share_of_statements_the_context_states():
    rng = random.Random(24)
    for _ in range(300):
        claims, _, passages = random_answer(rng)
        result = nt.faithfulness(claims, passages)
        grounded = [entails(passages, list(passages), facts) for facts in claims]
        assert result.value == float(Fraction(sum(grounded), len(claims)))
        assert result.sources == tuple(tuple(tuple(p for p in passages if f in passages[p]) for f in c) for c in claims)


def test_regrade_draws_as_judge_does_so_lesson_15s_numbers_stand():
    judge = nt.SimulatedJudge.symmetric((0, 1, 2, 3), 0.6)
    qrels = {"q1": {"a": 0, "b": 3, "c": 1}, "q2": {"a": 2, "d": 0}}
    judged = judge.judge(qrels, seed=7)
    flat = nt.read_qrels(qrels)
    assert judge.regrade(list(flat.grades), seed=7) == [judged[q.decode()][d.decode()]
                                                        for q, d in zip(flat.qids, flat.docnos)]


def test_judge_assignments_keeps_the_shape_and_a_perfect_judge_changes_nothing():
    collection = nt.answer_collection()
    perfect = nt.SimulatedJudge.symmetric((0, 1, 2), 1.0)
    assert nt.judge_assignments(collection.assignments, perfect) == collection.assignments
    lenient = nt.judge_assignments(collection.assignments, nt.SimulatedJudge.lenient((0, 1, 2), 1.0))
    up = {"not_support": "partial_support", "partial_support": "support", "support": "support"}
    assert lenient == {s: {q: {n: up[label] for n, label in labels.items()} for q, labels in by_q.items()}
                       for s, by_q in collection.assignments.items()}


def test_a_judge_per_system_judges_only_its_systems_labels():
    collection = nt.answer_collection()
    always = nt.SimulatedJudge((0, 1, 2), [[0, 0, 1]] * 3)
    perfect = nt.SimulatedJudge.symmetric((0, 1, 2), 1.0)
    judged = nt.judge_assignments(collection.assignments, {"A": perfect, "B": always, "C": perfect, "D": perfect})
    assert judged["A"] == collection.assignments["A"]
    assert {label for labels in judged["B"].values() for label in labels.values()} == {"support"}


def test_the_judge_effect_agrees_with_scikit_learn_and_scipy():
    collection = nt.answer_collection()
    judge = nt.SimulatedJudge.symmetric((0, 1, 2), 0.7)
    effect = nt.nugget_judge_effect(collection.nuggets, collection.assignments, judge, score="all", trials=3, seed=4)
    people = collection.assignments
    flat = [SUPPORT_GRADES[label] for s in people for q in people[s] for label in people[s][q].values()]
    for trial in range(3):
        labels = nt.judge_assignments(people, judge, seed=4 + trial)
        given = [SUPPORT_GRADES[label] for s in labels for q in labels[s] for label in labels[s][q].values()]
        assert abs(effect.kappas[trial] - metrics.cohen_kappa_score(flat, given)) < 1e-12
        assert abs(effect.weighted_kappas[trial] - metrics.cohen_kappa_score(flat, given, weights="quadratic")) < 1e-12
        means = [float(np.mean([nt.nugget_scores(list(collection.nuggets[q].values()),
                                                 [labels[s][q][n] for n in collection.nuggets[q]]).all
                                for q in collection.queries])) for s in collection.systems]
        assert np.allclose(effect.judged[trial], means, rtol=0, atol=1e-12)
        assert abs(effect.taus[trial] - stats.kendalltau(effect.assessors, effect.judged[trial]).statistic) < 1e-12
    bias = [np.mean([effect.judged[t][i] for t in range(3)]) - effect.assessors[i] for i in range(4)]
    assert np.allclose(effect.bias, bias, rtol=0, atol=1e-12)


def test_the_collection_is_what_its_docstring_says():
    collection = nt.answer_collection()
    assert collection is nt.answer_collection() and collection.systems == ("A", "B", "C", "D")
    assert len(collection.queries) == 12
    for q in collection.queries:
        nuggets = collection.nuggets[q]
        assert 6 <= len(nuggets) <= 9 and 2 <= sum(v == "vital" for v in nuggets.values()) <= len(nuggets) - 2
        stated = [n for facts in collection.passages[q].values() for n in facts]
        assert set(stated) == set(nuggets) and len(collection.passages[q]) == 30
        assert all(isinstance(n, str) and type(n) is str for n in stated)
        for p, facts in collection.passages[q].items():
            vital = any(nuggets[n] == "vital" for n in facts)
            assert collection.qrels[q][p] == (2 if vital else 1 if facts else 0)
        for s in collection.systems:
            answer = collection.answers[s][q]
            assert answer and len(collection.runs[s][q]) == 20
            for n in nuggets:
                hedges = [statement.partial for statement in answer if n in statement.facts]
                expected = "not_support" if not hedges else "partial_support" if all(hedges) else "support"
                assert collection.assignments[s][q][n] == expected
            context = collection.context(s, q)
            if s != "D":  # careful and hedging generators state only what their context holds, citing it
                assert nt.faithfulness(collection.claims(s, q), context).value == 1.0
                assert nt.citation_support(collection.claims(s, q), collection.citations(s, q), context).recall == 1.0


def test_the_collection_describes_itself_in_both_languages():
    collection = nt.answer_collection()
    assert "synthetic, seed 2024" in str(collection) and "7.3333" in str(collection)
    with nt.language_set("zh-CN"):
        assert "合成数据" in str(nt.course.answers.AnswerCollection(collection.nuggets, collection.passages, collection.qrels,
                                                            collection.runs, collection.answers, collection.assignments))


def test_every_result_has_a_text_and_an_html_twin():
    collection = nt.answer_collection()
    results = [nt.nugget_scores(["vital"], ["support"]), nt.nugget_evaluation(collection.nuggets, collection.assignments),
               nt.citation_support([["a"]], [["p"]], {"p": ["a"]}), nt.faithfulness([["a"]], {"p": ["a"]}),
               nt.nugget_judge_effect(collection.nuggets, collection.assignments,
                                      nt.SimulatedJudge.symmetric((0, 1, 2), 0.9), trials=2), collection]
    for result in results:
        assert str(result).strip() and result._repr_html_().startswith('<div class="ndcg-table ndcg-explained">')


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: nt.citation_support("n1", [["p"]], {"p": ["n1"]}), TypeError,
     r"claims must be a list with one list of facts per statement, e\.g\. \[\['n1'\], \['n2', 'n3'\]\]\. Got 'n1'"),
    (lambda: nt.citation_support([], [], {}), ValueError, r"claims must hold at least one statement, each stating at "
                                                          r"least one fact.* Got \[\] instead\."),
    (lambda: nt.citation_support([[]], [[]], {}), ValueError, r"claims must hold at least one statement, each stating"),
    (lambda: nt.citation_support(["n1"], [[]], {}), TypeError, r"claims must give facts as lists of fact ids"),
    (lambda: nt.citation_support([[1]], [[]], {}), TypeError, r"claims must give facts as non-empty strings.* Got "
                                                              r"\(1,\) instead\."),
    (lambda: nt.citation_support([["n1"]], [["p"]], [["n1"]]), TypeError,
     r"passages must map each passage id to the facts it states, e\.g\. \{'p1': \['n1', 'n2'\]\}\. Got \[\['n1'\]\]"),
    (lambda: nt.citation_support([["n1"]], "p", {"p": ["n1"]}), TypeError,
     r"citations must be a list with one list of passage ids per sentence\. Got 'p' instead\."),
    (lambda: nt.citation_support([["n1"]], [["p"], []], {"p": ["n1"]}), ValueError,
     r"citations must give one list of passage ids per sentence of claims \(1\)\. Got 2 lists instead\."),
    (lambda: nt.citation_support([["n1"]], ["p"], {"p": ["n1"]}), TypeError,
     r"citations\[0\] must be a list of passage ids \(maybe empty\)\. Got 'p' instead\."),
    (lambda: nt.citation_support([["n1"]], [["q"]], {"p": ["n1"]}), ValueError,
     r"citations\[0\] must name passages of passages, each at most once\. Got \['q'\] instead\."),
    (lambda: nt.citation_support([["n1"]], [["p", "p"]], {"p": ["n1"]}), ValueError,
     r"citations\[0\] must name passages of passages, each at most once\. Got \['p', 'p'\] instead\."),
    (lambda: nt.faithfulness([["n1"]], {}), ValueError,
     r"context must hold at least one passage the generator read\. Got \{\} instead\."),
    (lambda: nt.faithfulness([["n1"]], ["p"]), TypeError, r"context must map each passage id to the facts it states"),
    (lambda: nt.judge_assignments({"S": {"q": {"a": "support"}}}, nt.SimulatedJudge.symmetric((0, 1))), TypeError,
     r"judge must be a SimulatedJudge on the grades \(0, 1, 2\), or one for each system \['S'\]\. Got"),
    (lambda: nt.judge_assignments({"S": {"q": {"a": "support"}}}, {"T": nt.SimulatedJudge.symmetric((0, 1, 2))}),
     TypeError, r"judge must be a SimulatedJudge on the grades \(0, 1, 2\), or one for each system"),
    (lambda: nt.judge_assignments([], nt.SimulatedJudge.symmetric((0, 1, 2))), TypeError,
     r"assignments must map each system to its labels.* Got \[\] instead\."),
    (lambda: nt.judge_assignments({"S": {"q": {"a": "maybe"}}}, nt.SimulatedJudge.symmetric((0, 1, 2))), ValueError,
     r"assignments must label each nugget 'support', 'partial_support' or 'not_support'\. Got 'maybe' for S/q/a"),
    (lambda: nt.nugget_judge_effect({"q": {"a": "vital"}}, {"S": {"q": {"a": "support"}}},
                                    nt.SimulatedJudge.symmetric((0, 1, 2)), score="best"), ValueError,
     r"score must be one of 'all'.* Got 'best' instead\."),
    (lambda: nt.nugget_judge_effect({"q": {"a": "vital"}}, {"S": {"q": {"a": "support"}}},
                                    nt.SimulatedJudge.symmetric((0, 1, 2)), trials=0), ValueError, r"trials must be"),
    (lambda: nt.nugget_judge_effect({"q": {"a": "vital"}}, {"S": {"q": {"a": "support"}}},
                                    nt.SimulatedJudge.symmetric((0, 1, 2)), seed=-1), ValueError, r"seed must be"),
    (lambda: nt.SimulatedJudge.symmetric((0, 1, 2)).regrade("012"), TypeError, r"grades must be a list of labels"),
    (lambda: nt.SimulatedJudge.symmetric((0, 1, 2)).regrade([0, 3]), ValueError,
     r"grades must use only the judge's grades \[0, 1, 2\]; \[3\] are not on its scale\. Got \[0, 3\] instead\."),
    (lambda: nt.answer_collection().context("E", "q01"), ValueError, r"system must be one of 'A', 'B', 'C', 'D'\."),
    (lambda: nt.answer_collection().claims("A", "q99"), ValueError, r"query must be one of 'q01'"),
    (lambda: nt.answer_collection().nugget_judgements("q00"), ValueError, r"query must be one of 'q01'"),
])
def test_every_refusal_names_the_parameter_and_what_it_got(call, error, match):
    with pytest.raises(error, match=match):
        call()
