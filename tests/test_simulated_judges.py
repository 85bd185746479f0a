"""The simulated judge: its grades follow its confusion matrix, and judge_effect's numbers are those of their parts."""

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import ndcg_teach as nt
from ndcg_teach.course.simulated_judges import SimulatedJudge, judge_effect
from ndcg_teach.statistics.stability import kendall_tau


def collection(seed=0, queries=25, docs=12, systems=5):
    """Graded qrels and runs of systems of increasing quality (less noise on the true grade)."""
    rng = np.random.default_rng(seed)
    qrels = {f"q{q}": {f"d{d}": int(g) for d, g in enumerate(rng.choice(4, size=docs, p=[0.5, 0.25, 0.15, 0.1]))}
             for q in range(queries)}
    runs = {}
    for s in range(systems):
        noise = 3.0 - 0.6 * s
        runs[f"s{s}"] = {q: {d: float(g + rng.normal(0, noise)) for d, g in docs_.items()} for q, docs_ in qrels.items()}
    return qrels, runs


def test_the_judge_gives_each_grade_as_often_as_its_row_says():
    judge = SimulatedJudge((0, 1, 2), [[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.0, 0.25, 0.75]])
    n = 20_000
    qrels = {"q": {f"d{i}": i % 3 for i in range(3 * n)}}
    judged = judge.judge(qrels, seed=7)["q"]
    for true in range(3):
        given = np.array([judged[f"d{i}"] for i in range(true, 3 * n, 3)])
        shares = np.bincount(given, minlength=3) / n
        # Hoeffding: |share - p| <= sqrt(ln(2/δ) / (2n)) with probability 1 - δ; δ = 1e-9 gives 0.0032.
        bound = np.sqrt(np.log(2 / 1e-9) / (2 * n))
        assert np.all(np.abs(shares - np.array(judge.confusion[true])) <= bound), (true, shares)


def test_the_same_seed_gives_the_same_judgements_and_another_seed_others():
    qrels, _ = collection()
    judge = SimulatedJudge.symmetric((0, 1, 2, 3), 0.6)
    assert judge.judge(qrels, seed=1) == judge.judge(qrels, seed=1)
    assert judge.judge(qrels, seed=1) != judge.judge(qrels, seed=2)


def test_the_named_judges_build_the_matrices_they_describe():
    assert SimulatedJudge.symmetric((0, 1, 2, 3), 0.7).confusion[1] == pytest.approx((0.15, 0.7, 0.15, 0.0))
    assert SimulatedJudge.lenient((0, 1, 2), 0.4).confusion == ((0.6, 0.4, 0.0), (0.0, 0.6, 0.4), (0.0, 0.0, 1.0))
    assert SimulatedJudge.strict((0, 1, 2), 0.4).confusion == ((1.0, 0.0, 0.0), (0.4, 0.6, 0.0), (0.0, 0.4, 0.6))
    text = str(SimulatedJudge.lenient((0, 1), 0.25))
    assert "lenient judge: confusion matrix" in text and "0.7500" in text


def test_a_perfect_judge_changes_nothing():
    qrels, runs = collection()
    effect = judge_effect(qrels, runs, SimulatedJudge.symmetric((0, 1, 2, 3), 1.0), trials=3)
    assert effect.taus == (1.0, 1.0, 1.0) and effect.kappas == (1.0, 1.0, 1.0)
    assert effect.kept == (effect.significant,) * 3 and effect.lost == effect.gained == effect.reversed == (0, 0, 0)


def test_judge_effect_numbers_are_those_of_evaluate_kappa_and_tau():
    qrels, runs = collection(seed=3)
    judge = SimulatedJudge.symmetric((0, 1, 2, 3), 0.5)
    effect = judge_effect(qrels, runs, judge, trials=4, seed=10)
    truth = [nt.evaluate(qrels, run, ["ndcg_cut.10"])["ndcg_cut.10"] for run in runs.values()]
    assert effect.truth == pytest.approx(tuple(truth), abs=1e-12)
    for trial in range(4):
        judged = judge.judge(qrels, seed=10 + trial)
        means = [nt.evaluate(judged, run, ["ndcg_cut.10"], complete=True)["ndcg_cut.10"] for run in runs.values()]
        assert effect.judged[trial] == pytest.approx(tuple(means), abs=1e-12)
        assert effect.taus[trial] == pytest.approx(kendall_tau(truth, means).value, abs=1e-12)
        flat_truth = [qrels[q][d] for q in sorted(qrels) for d in sorted(qrels[q])]
        flat = [judged[q][d] for q in sorted(qrels) for d in sorted(qrels[q])]
        assert effect.kappas[trial] == pytest.approx(cohen_kappa_score(flat_truth, flat), abs=1e-12)
        assert effect.kept[trial] + effect.lost[trial] + effect.reversed[trial] == effect.significant
    assert effect.value == pytest.approx(np.mean(effect.taus), abs=1e-12)
    assert 0.0 < np.mean(effect.kappas) < 0.9  # a judge right half the time agrees far from perfectly


def test_a_noisy_judge_barely_moves_a_ranking_of_well_separated_systems():
    # Voorhees (2000): assessors disagree a lot, system rankings hardly change.
    qrels, runs = collection(seed=5, queries=40)
    effect = judge_effect(qrels, runs, SimulatedJudge.symmetric((0, 1, 2, 3), 0.6), trials=5)
    assert np.mean(effect.kappas) < 0.6 and effect.value >= 0.8
    text = str(effect)
    assert "mean Kendall's τ" in text and "reversed" in text


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: SimulatedJudge((0, 1), [[0.9, 0.2], [0.2, 0.8]]), ValueError, r"each row adding up to 1 .* Got row sums \[1\.1, 1\.0\] instead\."),
    (lambda: SimulatedJudge((0, 1), [[1.0]]), ValueError, r"confusion must be 2 x 2: one row and one column per grade"),
    (lambda: SimulatedJudge((0, 0.5), [[1, 0], [0, 1]]), ValueError, r"grades must be distinct whole numbers"),
    (lambda: SimulatedJudge.symmetric((0, 1), 1.2), ValueError, r"accuracy must be a number from 0 to 1"),
    (lambda: SimulatedJudge.lenient((0, 1), "a"), TypeError, r"rate must be a number from 0 to 1"),
    (lambda: SimulatedJudge.symmetric((0, 1), 0.9).judge({"q": {"d": 2}}), ValueError, r"qrels must use only the judge's grades \[0, 1\]; grades \[2\.0\] are not on its scale"),
    (lambda: SimulatedJudge.symmetric((0, 1), 0.9).judge({"q": {"d": 1}}, seed=-1), ValueError, r"seed must be a non-negative integer"),
    (lambda: SimulatedJudge.symmetric((0, 1), 0.9).agreement([0.5, 0.6]), ValueError, r"shares must hold 2 probabilities adding up to 1"),
    (lambda: judge_effect({"q": {"d": 1}}, {"a": {}}, SimulatedJudge.symmetric((0, 1))), TypeError, r"runs must map at least 2 system names"),
    (lambda: judge_effect({"q": {"d": 1}}, {"a": {}, "b": {}}, "judge"), TypeError, r"judge must be a SimulatedJudge\. Got 'judge' instead\."),
    (lambda: judge_effect({"q": {"d": 1}}, {"a": {}, "b": {}}, SimulatedJudge.symmetric((0, 1)), trials=0), ValueError, r"trials must be a positive integer"),
])
def test_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()
