"""Off-policy estimators: exact moments against a brute force over every log, IPS unbiased, SNIPS biased, DR robust."""

from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_teach.online.bandit_problem import BanditProblem
from ndcg_teach.online.counterfactual import Log, direct_method, doubly_robust, ips, snips

TOL = 1e-12
invariant = settings(max_examples=60, deadline=None, derandomize=True)


def world(seed, contexts=2, actions=3):
    rng = np.random.default_rng(seed)
    logging = rng.dirichlet(np.ones(actions), size=contexts) * 0.9 + 0.1 / actions  # every action possible
    return BanditProblem(tuple(f"x{i}" for i in range(contexts)), tuple(f"a{j}" for j in range(actions)),
                         rng.dirichlet(np.ones(contexts)), logging, rng.uniform(0, 1, size=(contexts, actions)))


def brute_moments(problem, policy, n, reward_model=None, propensities=None):
    """Every sequence of n records, one by one (no grouping by counts)."""
    target = problem.policy(policy)
    logged = problem.logging if propensities is None else np.array(propensities)
    records = []
    for x, a, r in product(range(len(problem.contexts)), range(len(problem.actions)), (0, 1)):
        q = problem.rewards[x, a]
        chance = problem.context_probabilities[x] * problem.logging[x, a] * (q if r else 1 - q)
        if chance > 0:
            records.append((x, a, r, chance))
    values = {"IPS": [], "SNIPS": [], "DM": [], "DR": []}
    chances = []
    for sequence in product(records, repeat=n):
        w = np.array([target[x, a] / logged[x, a] for x, a, _, _ in sequence])
        r = np.array([rec[2] for rec in sequence], dtype=float)
        chances.append(np.prod([rec[3] for rec in sequence]))
        values["IPS"].append((w * r).mean())
        values["SNIPS"].append((w * r).sum() / w.sum() if w.sum() else 0.0)
        if reward_model is not None:
            model = np.array(reward_model)
            direct = np.array([target[x] @ model[x] for x, _, _, _ in sequence])
            values["DM"].append(direct.mean())
            values["DR"].append((direct + w * (r - np.array([model[x, a] for x, a, _, _ in sequence]))).mean())
    chances = np.array(chances)
    out = {}
    for name, series in values.items():
        if series:
            series = np.array(series)
            mean = chances @ series
            out[name] = (mean, chances @ (series - mean) ** 2)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_exact_moments_equal_a_brute_force_over_every_log(seed):
    problem = world(seed, contexts=2, actions=2)
    policy = {"x0": "a1", "x1": "a0"}
    model = [[0.3, 0.5], [0.6, 0.1]]
    exact = problem.exact(policy, 3, reward_model=model)
    brute = brute_moments(problem, policy, 3, reward_model=model)
    for name, mean, variance in zip(exact.estimators, exact.means, exact.variances):
        assert (mean, variance) == pytest.approx(brute[name], abs=TOL), name


@invariant
@given(st.integers(0, 10_000), st.integers(1, 5))
def test_ips_is_exactly_unbiased_and_its_variance_is_var_of_w_r_over_n(seed, n):
    problem = world(seed)
    policy = np.random.default_rng(seed + 1).dirichlet(np.ones(3), size=2)
    exact = problem.exact(policy, n)
    truth = problem.value(policy)
    assert exact.means[0] == pytest.approx(truth, abs=1e-12)
    # One record: E[(w r)^2] = Σ_x P(x) Σ_a π0 q (π/π0)^2.
    second = sum(problem.context_probabilities[x] * problem.logging[x, a] * problem.rewards[x, a]
                 * (policy[x, a] / problem.logging[x, a]) ** 2 for x in range(2) for a in range(3))
    assert exact.variances[0] == pytest.approx((second - truth**2) / n, abs=1e-12)


def test_snips_is_biased_on_small_logs_and_the_bias_shrinks_with_n():
    problem = BanditProblem(("u",), ("a", "b"), [1.0], [[0.9, 0.1]], [[0.2, 0.9]])
    biases = [abs(problem.exact({"u": "b"}, n).bias[1]) for n in (1, 2, 4, 8, 16)]
    assert biases[0] > 0.5 and all(later < earlier for earlier, later in zip(biases, biases[1:]))
    # n = 1: SNIPS is r when b was logged (chance 0.1), else 0: E = 0.1·0.9 = 0.09 against a truth of 0.9.
    assert problem.exact({"u": "b"}, 1).means[1] == pytest.approx(0.09, abs=TOL)


def test_doubly_robust_is_unbiased_when_either_model_is_right():
    problem = world(7)
    policy = {"x0": "a2", "x1": "a1"}
    truth = problem.value(policy)
    wrong_model = np.clip(problem.rewards + 0.25, 0, 1)
    wrong_propensities = np.full((2, 3), 1 / 3)
    right_propensities = problem.exact(policy, 3, reward_model=wrong_model)
    right_model = problem.exact(policy, 3, reward_model=problem.rewards, propensities=wrong_propensities)
    both_wrong = problem.exact(policy, 3, reward_model=wrong_model, propensities=wrong_propensities)
    dr = right_propensities.estimators.index("DR")
    assert right_propensities.means[dr] == pytest.approx(truth, abs=TOL)
    assert right_model.means[dr] == pytest.approx(truth, abs=TOL)
    assert abs(both_wrong.means[dr] - truth) > 0.01
    assert abs(right_propensities.bias[right_propensities.estimators.index("DM")]) > 0.1  # DM alone follows the model
    assert abs(right_model.bias[0]) > 0.01  # IPS with wrong propensities is biased


def test_simulated_estimates_approach_the_exact_moments():
    problem = world(11)
    policy = {"x0": "a0", "x1": "a2"}
    model = [[0.4, 0.4, 0.4], [0.5, 0.5, 0.5]]
    exact = problem.exact(policy, 4, reward_model=model)
    simulated = problem.simulate_estimates(policy, 4, trials=20_000, seed=19, reward_model=model)
    for mean, variance, sim_mean in zip(exact.means, exact.variances, simulated.means):
        assert abs(sim_mean - mean) <= np.sqrt(variance / (20_000 * 1e-4))  # Chebyshev at δ = 1e-4
    assert np.allclose(simulated.variances, exact.variances, rtol=0.1)


def test_a_simulated_log_follows_the_logging_policy():
    problem = world(13)
    log = problem.simulate(40_000, seed=2)
    bound = np.sqrt(np.log(2 / 1e-9) / (2 * 40_000))
    for x in range(2):
        for a in range(3):
            share = np.mean((log.context == x) & (log.action == a))
            assert abs(share - problem.context_probabilities[x] * problem.logging[x, a]) <= bound
    assert np.array_equal(log.propensity, problem.logging[log.context, log.action])


def test_estimators_on_one_log_by_hand():
    log = Log(("u", "v"), ("a", "b"), np.array([0, 0, 1, 1]), np.array([0, 1, 1, 0]), np.array([1.0, 0.0, 1.0, 1.0]),
              np.array([0.5, 0.5, 0.25, 0.75]))
    policy = [[0.0, 1.0], [0.5, 0.5]]  # u: always b; v: a or b
    w = np.array([0 / 0.5, 1 / 0.5, 0.5 / 0.25, 0.5 / 0.75])
    r = np.array([1.0, 0.0, 1.0, 1.0])
    assert ips(log, policy).value == pytest.approx((w * r).mean(), abs=TOL)
    assert snips(log, policy).value == pytest.approx((w * r).sum() / w.sum(), abs=TOL)
    model = np.array([[0.2, 0.4], [0.6, 0.8]])
    direct = np.array([0.4, 0.4, 0.7, 0.7])
    assert direct_method(log, policy, model).value == pytest.approx(direct.mean(), abs=TOL)
    q_logged = np.array([0.2, 0.4, 0.8, 0.6])
    assert doubly_robust(log, policy, model).value == pytest.approx((direct + w * (r - q_logged)).mean(), abs=TOL)
    assert ips(log, {"u": "b", "v": "a"}).value == pytest.approx(ips(log, [[0, 1], [1, 0]]).value, abs=TOL)
    text = str(snips(log, policy))
    assert "SNIPS = Σ w_i·r_i / Σ w_i" in text and "w_i" in text


def test_the_world_and_the_moments_explain_themselves():
    problem = BanditProblem(("u",), ("a", "b"), [1.0], [[0.5, 0.5]], [[0.0, 1.0]])
    assert "π0(a|x)" in str(problem) and "q(x, b)" in str(problem)
    text = str(problem.exact({"u": "b"}, 2))
    assert "every possible log of 2 records" in text and "MSE = variance + bias²" in text


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: BanditProblem(("u",), ("a", "b"), [0.5], [[0.5, 0.5]], [[0.1, 0.2]]), ValueError, r"context_probabilities must give each of the 1 contexts a probability, adding up to 1"),
    (lambda: BanditProblem(("u",), ("a", "a"), [1.0], [[0.5, 0.5]], [[0.1, 0.2]]), ValueError, r"actions must name each one once"),
    (lambda: BanditProblem(("u",), ("a", "b"), [1.0], [[0.6, 0.5]], [[0.1, 0.2]]), ValueError, r"logging must hold probabilities, each row adding up to 1"),
    (lambda: BanditProblem(("u",), ("a", "b"), [1.0], [[0.5, 0.5]], [[0.1, 1.2]]), ValueError, r"rewards must be click chances from 0 to 1"),
    (lambda: BanditProblem(("u",), ("a", "b"), [1.0], [[0.5, 0.5]], [[0.1]]), ValueError, r"rewards must be 1 x 2"),
    (lambda: BanditProblem(("u",), ("a", "b"), [1.0], [[0.5, 0.5]], [[0.1, 0.2]]).value({"u": "c"}), ValueError, r"policy must map every context \['u'\] to one of the actions"),
    (lambda: BanditProblem(("u",), ("a", "b"), [1.0], [[0.5, 0.5]], [[0.1, 0.2]]).exact({"u": "a"}, 0), ValueError, r"n must be a positive integer"),
    (lambda: BanditProblem(("u",), ("a", "b"), [1.0], [[0.5, 0.5]], [[0.1, 0.2]]).exact({"u": "a"}, 5000), ValueError, r"n must be small enough to enumerate every log"),
    (lambda: BanditProblem(("u",), ("a", "b"), [1.0], [[0.5, 0.5]], [[0.1, 0.2]]).exact({"u": "a"}, 2, propensities=[[1.0, 0.0]]), ValueError, r"propensities must be positive for every action the logging policy takes"),
    (lambda: ips("log", [[1.0]]), TypeError, r"log must be a Log"),
    (lambda: ips(Log(("u",), ("a",), np.array([], int), np.array([], int), np.array([]), np.array([])), [[1.0]]), ValueError, r"log must hold at least one record"),
])
def test_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()
