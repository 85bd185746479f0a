"""Lesson 21's numbers, recomputed from the collection's raw data in plain Python, without the library's scorers.

The collection (ndcg_teach.answers.collection) is the lesson's data; everything the lesson prints from it is
derived here again by another route: the nugget scores from their definitions in exact fractions, ALCE's
citation measures and faithfulness by set arithmetic, nugget recall@5 by counting, nDCG@5 by its formula,
and the simulated judges by drawing with NumPy as the judge's confusion matrix says.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

import ndcg_teach as nt

COLLECTION = nt.answer_collection()
SYSTEMS, QUERIES = COLLECTION.systems, COLLECTION.queries
CREDIT = {False: {"support": Fraction(1), "partial_support": Fraction(1, 2), "not_support": Fraction(0)},
          True: {"support": Fraction(1), "partial_support": Fraction(0), "not_support": Fraction(0)}}


def score(labels, importance, kind, strict):
    credit = CREDIT[strict]
    weight = {"all": {"vital": 1, "okay": 1}, "vital": {"vital": 1, "okay": 0},
              "weighted": {"vital": Fraction(1), "okay": Fraction(1, 2)}}[kind]
    total = sum(weight[importance[n]] for n in importance)
    return sum(weight[importance[n]] * credit[labels[n]] for n in importance) / total


def mean_score(assignments, system, kind, strict):
    return sum(score(assignments[system][q], COLLECTION.nuggets[q], kind, strict) for q in QUERIES) / len(QUERIES)


def top(system, query, k):
    run = COLLECTION.runs[system][query]
    return sorted(run, key=run.get, reverse=True)[:k]


def test_section_2s_table_of_means():
    printed = {"A": (0.6171, 0.5809, 0.5986, 0.5292, 0.6150, 0.5698), "B": (0.4844, 0.3016, 0.5417, 0.3417, 0.5086, 0.3210),
               "C": (0.3188, 0.3059, 0.3556, 0.3556, 0.3384, 0.3291), "D": (0.4770, 0.4168, 0.5806, 0.5097, 0.5076, 0.4447)}
    for system, values in printed.items():
        found = [mean_score(COLLECTION.assignments, system, kind, strict)
                 for kind in ("all", "vital", "weighted") for strict in (False, True)]
        assert [round(float(v), 4) for v in found] == list(values)


def test_section_3s_citations_and_section_4s_faithfulness():
    printed = {"A": (1.0, 0.8736, 1.0), "B": (1.0, 1.0, 1.0), "C": (1.0, 0.9514, 1.0), "D": (0.2945, 0.2858, 0.4386)}
    for system, (recall, precision, faithfulness) in printed.items():
        recalls, precisions, faithful = [], [], []
        for q in QUERIES:
            passages = COLLECTION.passages[q]
            context = set().union(*(set(passages[p]) for p in top(system, q, 5)))
            answer = COLLECTION.answers[system][q]
            ok = [bool(s.cites) and set(s.facts) <= set().union(*(set(passages[p]) for p in s.cites)) for s in answer]
            precise = sum(set(s.facts) <= set(passages[p]) or
                          not set(s.facts) <= set().union(*(set(passages[r]) for r in s.cites if r != p))
                          for s, good in zip(answer, ok) if good for p in s.cites)
            cited = sum(len(s.cites) for s in answer)
            recalls.append(Fraction(sum(ok), len(answer)))
            precisions.append(Fraction(precise, cited) if cited else Fraction(0))
            faithful.append(Fraction(sum(set(s.facts) <= context for s in answer), len(answer)))
        assert [round(float(sum(v) / len(v)), 4) for v in (recalls, precisions, faithful)] == [recall, precision,
                                                                                              faithfulness]


def test_section_4s_statements_of_d():
    kinds = [0, 0, 0]
    for q in QUERIES:
        context = set().union(*(set(COLLECTION.passages[q][p]) for p in top("D", q, 5)))
        for statement in COLLECTION.answers["D"][q]:
            nugget = all(f in COLLECTION.nuggets[q] for f in statement.facts)
            kinds[0 if nugget and set(statement.facts) <= context else 1 if nugget else 2] += 1
    assert kinds == [28, 17, 18]


def test_section_6s_retrieval_table():
    printed = {"A": (0.9667, 0.7415, 0.7227, 0), "B": (1.0, 0.7935, 0.7204, 0), "C": (1.0, 0.8111, 0.4208, 0),
               "D": (0.85, 0.7018, 0.5111, 6)}
    for system, (p5, ndcg5, recall5, above) in printed.items():
        precision, ndcg, recall, over = [], [], [], 0
        for q in QUERIES:
            grades = [COLLECTION.qrels[q][p] for p in top(system, q, 5)]
            ideal = sorted(COLLECTION.qrels[q].values(), reverse=True)[:5]
            dcg = sum(g / math.log2(i + 2) for i, g in enumerate(grades))
            precision.append(sum(g > 0 for g in grades) / 5)
            ndcg.append(dcg / sum(g / math.log2(i + 2) for i, g in enumerate(ideal)))
            covered = {n for p in top(system, q, 5) for n in COLLECTION.passages[q][p]}
            ceiling = Fraction(len(covered), len(COLLECTION.nuggets[q]))
            recall.append(ceiling)
            over += score(COLLECTION.assignments[system][q], COLLECTION.nuggets[q], "all", False) > ceiling
        assert [round(float(np.mean(v)), 4) for v in (precision, ndcg)] == [p5, ndcg5]
        assert round(float(sum(recall) / len(recall)), 4) == recall5 and over == above


def judged(confusion, seed):
    """The judge's labels, drawn as the library documents it: one seed per system, one uniform draw per label."""
    grade = {"not_support": 0, "partial_support": 1, "support": 2}
    label = {v: k for k, v in grade.items()}
    seeds = np.random.default_rng(seed).integers(0, 2**31, len(SYSTEMS))
    out = {}
    for system, system_seed in zip(SYSTEMS, seeds):
        rows = [(q, n, grade[lab]) for q, labels in COLLECTION.assignments[system].items() for n, lab in labels.items()]
        draws = np.random.default_rng(int(system_seed)).random(len(rows))
        cumulative = np.cumsum(np.array(confusion), axis=1)
        for (q, n, g), draw in zip(rows, draws):
            out.setdefault(system, {}).setdefault(q, {})[n] = label[min(int((draw >= cumulative[g]).sum()), 2)]
    return out


@pytest.mark.parametrize(("confusion", "bias", "first"), [
    ([[1, 0, 0], [0, 0.4, 0.6], [0, 0, 1]], (0.0847, 0.2258, 0.0, 0.0832), 13),
    ([[0.7, 0.3, 0], [0, 0.7, 0.3], [0, 0, 1]], (0.0361, 0.1183, 0.0, 0.0494), 10),
])
def test_section_5s_judges_by_the_strict_vital_score(confusion, bias, first):
    people = [mean_score(COLLECTION.assignments, s, "vital", True) for s in SYSTEMS]
    moved, firsts = [Fraction(0)] * 4, 0
    for trial in range(20):
        labels = judged(confusion, trial)
        means = [mean_score(labels, s, "vital", True) for s in SYSTEMS]
        moved = [m + (x - p) for m, x, p in zip(moved, means, people)]
        firsts += max(range(4), key=lambda i: (means[i], -i)) == 0
    assert [round(float(m / 20), 4) for m in moved] == list(bias) and firsts == first


# The numbers lesson 21's questions to think about quote, recomputed the same way.

def question_text(key):
    """The English stem, options and explanations of question ``key``, as one line."""
    from ndcg_teach.exercises import EXERCISES

    asked = EXERCISES[key].question
    return " ".join(" ".join(part.split("\n")) for part in
                    [asked.stem, *(part for option in asked.options for part in (option.text, option.why))])


MOON = {"passages": {"p1": {"n1"}, "p2": {"n2", "n3"}, "p3": {"n4", "n6"}, "p4": {"n5"}},
        "claims": [{"n1"}, {"n2", "n4"}, {"n3"}, {"x1"}, {"n6"}],
        "citations": [["p1"], ["p2", "p3"], ["p2", "p1"], ["p4"], []]}  # lesson 21, section 3


def alce(claims, citations, passages):
    """(citation recall, precise citations, citations) by ALCE's two conditions, with sets."""
    def states(cited, facts):
        return facts <= set().union(*(passages[p] for p in cited))

    ok = [bool(cited) and states(cited, facts) for facts, cited in zip(claims, citations)]
    precise = sum(states([p], facts) or not states([q for q in cited if q != p], facts)
                  for facts, cited, good in zip(claims, citations, ok) if good for p in cited)
    return Fraction(sum(ok), len(claims)), precise, sum(map(len, citations))


def test_removing_the_wrong_sentence_keeps_the_moon_answers_all_score():
    importance = {"n1": "vital", "n2": "vital", "n3": "vital", "n4": "okay", "n5": "okay", "n6": "okay"}
    labels = {"n1": "support", "n2": "support", "n3": "partial_support", "n4": "support", "n5": "not_support",
              "n6": "partial_support"}
    # sentence 4 states the opposite of n5: with it or without it, n5 is not supported and no other label moves
    assert score(labels, importance, "all", False) == Fraction(2, 3)
    assert "all score is 2/3" in question_text("21-a-wrong-sentence") and "2/3 as well." in question_text("21-a-wrong-sentence")


def test_an_unneeded_citation_keeps_citation_recall_and_lowers_precision():
    before = alce(**MOON)
    after = alce(MOON["claims"], [["p1", "p2"], *MOON["citations"][1:]], MOON["passages"])
    stated = question_text("21-one-more-citation")
    assert f"citation recall ({float(before[0]):.4f}) and citation precision ({before[1] / before[2]:.4f})" in stated
    assert after[0] == before[0] and (after[1], after[2]) == (before[1], before[2] + 1)
    assert f"Recall stays {float(after[0]):.4f}; precision falls to {after[1]}/{after[2]} = {after[1] / after[2]:.4f}." in stated


def test_d_states_as_many_true_nuggets_from_memory_as_the_question_says():
    from_memory = 0
    for q in QUERIES:
        context = set().union(*(set(COLLECTION.passages[q][p]) for p in top("D", q, 5)))
        from_memory += sum(all(f in COLLECTION.nuggets[q] for f in s.facts) and not set(s.facts) <= context
                           for s in COLLECTION.answers["D"][q])
    assert question_text("21-true-but-unfaithful").startswith(f"{from_memory} of system D's statements")


def test_the_agreement_and_the_rankings_the_judges_question_quotes():
    from scipy.stats import kendalltau
    from sklearn.metrics import cohen_kappa_score

    grade = {"not_support": 0, "partial_support": 1, "support": 2}
    rows = [(s, q, n) for s in SYSTEMS for q in QUERIES for n in COLLECTION.assignments[s][q]]
    people = [grade[COLLECTION.assignments[s][q][n]] for s, q, n in rows]
    exact = [mean_score(COLLECTION.assignments, s, "vital", True) for s in SYSTEMS]
    found = {}
    for name, confusion in {"partial as full": [[1, 0, 0], [0, 0.4, 0.6], [0, 0, 1]],
                            "lenient": [[0.7, 0.3, 0], [0, 0.7, 0.3], [0, 0, 1]]}.items():
        kappas, weighted, taus, moved = [], [], [], [Fraction(0)] * len(SYSTEMS)
        for trial in range(20):
            labels = judged(confusion, trial)
            given = [grade[labels[s][q][n]] for s, q, n in rows]
            kappas.append(cohen_kappa_score(people, given, labels=[0, 1, 2]))
            weighted.append(cohen_kappa_score(people, given, labels=[0, 1, 2], weights="quadratic"))
            means = [mean_score(labels, s, "vital", True) for s in SYSTEMS]
            taus.append(kendalltau([float(m) for m in exact], [float(m) for m in means]).statistic)
            moved = [m + (x - e) for m, x, e in zip(moved, means, exact)]
        found[name] = (np.mean(kappas), np.mean(weighted), np.mean(taus), float(moved[1] / 20), moved[2])
    full, lenient = found["partial as full"], found["lenient"]
    stated = question_text("21-agreement-is-not-enough")
    assert f"(κ {full[0]:.2f} against {lenient[0]:.2f})" in stated and full[0] > lenient[0]
    assert f"(mean τ {full[2]:.3f} against {lenient[2]:.3f})" in stated and full[2] < lenient[2]
    assert f"raises B by {full[3]:.4f} and C by nothing" in stated and full[4] == 0
    assert f"quadratic-weighted κ is {full[1]:.2f}, higher still" in stated and full[1] > full[0]
