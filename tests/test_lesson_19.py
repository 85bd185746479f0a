"""Lesson 19's numbers recomputed in exact fractions, by code that shares nothing with the library.

Logs are enumerated as count vectors (how often each possible record occurs) with their multinomial
probabilities, in Python's Fraction: no float, no NumPy, no ndcg_teach. Each figure is compared with what
the lesson prints (four decimals), and the library's own exact moments are compared with the fractions: equal
to the last bit, since the library computes in fractions too (several of its variances sit exactly on a rounding
tie, 0.15975 among them, where a float computation printed 0.1597 on one CPU and 0.1598 on another).
"""

from fractions import Fraction as F
from itertools import product
from math import factorial, prod

import pytest

import ndcg_teach as nt

CONTEXTS, ACTIONS = ("u", "v"), ("a", "b")
P = {"u": F(1, 2), "v": F(1, 2)}
PI0 = {"u": {"a": F(8, 10), "b": F(2, 10)}, "v": {"a": F(1, 2), "b": F(1, 2)}}
Q = {"u": {"a": F(1, 10), "b": F(6, 10)}, "v": {"a": F(3, 10), "b": F(2, 10)}}
PI = {"u": {"a": F(0), "b": F(1)}, "v": {"a": F(1), "b": F(0)}}
FLAT = {x: {a: F(3, 10) for a in ACTIONS} for x in CONTEXTS}
TRUTH = sum(P[x] * PI[x][a] * Q[x][a] for x in CONTEXTS for a in ACTIONS)


class printed:
    """An exact value beside a figure the lesson prints with four decimals: equal when the figure is the value
    rounded (either way on an exact tie such as 0.06975: which way the lesson prints it is tested apart)."""

    def __init__(self, value):
        self.value = F(value)

    def __eq__(self, shown):
        return abs(self.value - F(shown)) <= F(1, 20000) + F(1, 10**12)

    def __repr__(self):
        return f"{float(self.value):.6f}"


def logging_b(chance_b):
    return {"u": {"a": 1 - chance_b, "b": chance_b}, "v": PI0["v"]}


def records(logging):
    """Every possible record (x, a, r) with its chance, 0 left out."""
    every = [(x, a, r, P[x] * logging[x][a] * (Q[x][a] if r else 1 - Q[x][a]))
             for x in CONTEXTS for a in ACTIONS for r in (0, 1)]
    return [record for record in every if record[3] > 0]


def compositions(total, parts):
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in compositions(total - first, parts - 1):
            yield (first, *rest)


def moments(n, logging, estimate):
    """Exact E and Var of estimate(counts, records) over every log of n records."""
    recs = records(logging)
    mean = square = F(0)
    for counts in compositions(n, len(recs)):
        chance = F(factorial(n), prod(factorial(c) for c in counts)) * prod(rec[3] ** c for rec, c in zip(recs, counts))
        value = estimate(counts, recs, logging)
        mean, square = mean + chance * value, square + chance * value * value
    return mean, square - mean * mean


def weight(rec, logging):
    return PI[rec[0]][rec[1]] / logging[rec[0]][rec[1]]


def snips(counts, recs, logging):
    total = sum(c * weight(rec, logging) for c, rec in zip(counts, recs))
    return sum(c * weight(rec, logging) * rec[2] for c, rec in zip(counts, recs)) / total if total else F(0)


def one_record(logging, term):
    """E and Var of one record's term: IPS, clipped IPS and DR are means of n independent terms."""
    recs = records(logging)
    first = sum(rec[3] * term(rec) for rec in recs)
    return first, sum(rec[3] * term(rec) ** 2 for rec in recs) - first**2


def world(logging):
    return nt.BanditProblem(CONTEXTS, ACTIONS, [0.5, 0.5], [[float(logging[x][a]) for a in ACTIONS] for x in CONTEXTS],
                            [[float(Q[x][a]) for a in ACTIONS] for x in CONTEXTS])


def matrix(table):
    return [[float(table[x][a]) for a in ACTIONS] for x in CONTEXTS]


def test_section_1_and_2_the_world_and_the_log():
    assert TRUTH == F(9, 20) and sum(P[x] * PI0[x][a] * Q[x][a] for x in CONTEXTS for a in ACTIONS) == F(9, 40)
    log = world(PI0).simulate(10, seed=7)
    rows = [(CONTEXTS[x], ACTIONS[a], int(r)) for x, a, r in zip(log.context, log.action, log.reward)]
    assert rows == [("v", "a", 1), ("v", "a", 1), ("v", "a", 0), ("u", "a", 1), ("u", "a", 1), ("v", "b", 0),
                    ("u", "b", 1), ("v", "b", 0), ("v", "b", 0), ("u", "b", 1)]
    w = [PI[x][a] / PI0[x][a] for x, a, _ in rows]
    terms = [wi * r for wi, (_, _, r) in zip(w, rows)]
    assert sum(terms) / 10 == F(14, 10) and sum(terms) / sum(w) == F(7, 8) and F(sum(r for *_, r in rows), 10) == F(6, 10)
    dm = sum(sum(PI[x][b] * FLAT[x][b] for b in ACTIONS) for x, _, _ in rows) / 10
    dr = dm + sum(wi * (r - FLAT[x][a]) for wi, (x, a, r) in zip(w, rows)) / 10
    assert (dm, dr) == (F(3, 10), F(122, 100))


def test_sections_3_and_4_ips_and_snips_moments():
    ips_mean, ips_var = one_record(PI0, lambda rec: weight(rec, PI0) * rec[2])
    assert ips_mean == TRUTH and printed(ips_var) == 1.5975
    expected = {1: (-0.3150, 0.1168, 0.2160), 2: (-0.2240, 0.1616, 0.2118), 3: (-0.1623, 0.1726, None),
                5: (-0.0909, 0.1572, 0.1654), 10: (-0.0325, 0.0979, 0.0990)}
    for n, (bias, variance, mse) in expected.items():
        mean, var = moments(n, PI0, snips)
        assert (printed(mean - TRUTH), printed(var)) == (bias, variance)
        if mse is not None:
            assert printed(var + (mean - TRUTH) ** 2) == mse
        library = world(PI0).exact(matrix(PI), n)
        assert library.means == (float(TRUTH), float(mean)) and library.variances == (float(ips_var / n), float(var))
        assert f"{library.variances[0]:.5f}" == {1: "1.59750", 2: "0.79875", 3: "0.53250", 5: "0.31950", 10: "0.15975"}[n]
    assert printed(ips_var / 3) == 0.5325 and printed(moments(3, PI0, snips)[0]) == 0.2877


@pytest.mark.parametrize("model, believed, biases, dr_variance", [
    (Q, PI0, (0.0, 0.0, 0.0), 0.1665), (Q, {x: {a: F(1, 2) for a in ACTIONS} for x in CONTEXTS}, (-0.18, 0.0, 0.0), 0.0657),
    (FLAT, PI0, (0.0, -0.15, 0.0), 0.2025),
    (FLAT, {x: {a: F(1, 2) for a in ACTIONS} for x in CONTEXTS}, (-0.18, -0.15, -0.09), 0.0677),
])
def test_section_5_doubly_robust_table(model, believed, biases, dr_variance):
    def dr(rec):
        x, a, r = rec[:3]
        return sum(PI[x][b] * model[x][b] for b in ACTIONS) + PI[x][a] / believed[x][a] * (r - model[x][a])

    ips_mean, _ = one_record(PI0, lambda rec: PI[rec[0]][rec[1]] / believed[rec[0]][rec[1]] * rec[2])
    dm_mean = sum(P[x] * PI[x][a] * model[x][a] for x in CONTEXTS for a in ACTIONS)
    dr_mean, dr_var = one_record(PI0, dr)
    assert tuple(printed(m - TRUTH) for m in (ips_mean, dm_mean, dr_mean)) == biases
    assert printed(dr_var / 5) == dr_variance
    library = world(PI0).exact(matrix(PI), 5, reward_model=matrix(model), propensities=matrix(believed))
    assert (library.means[3], library.variances[3]) == (float(dr_mean), float(dr_var / 5))


def test_section_6_overlap_and_clipping():
    table = {F(1, 2): ("0.06975", -0.0004, 0.0568), F(1, 5): ("0.15975", -0.0325, 0.0979),
             F(1, 20): ("0.60975", -0.1062, 0.1257), F(1, 100): ("3.00975", -0.1518, 0.1117)}
    for chance_b, (ips_variance, snips_bias, snips_variance) in table.items():
        logging = logging_b(chance_b)
        exact_variance = one_record(logging, lambda rec, logging=logging: weight(rec, logging) * rec[2])[1] / 10
        assert (exact_variance * 10**4).denominator == 2 and exact_variance == F(ips_variance)  # on a tie at four decimals
        mean, var = moments(10, logging, snips)
        assert (printed(mean - TRUTH), printed(var)) == (snips_bias, snips_variance)
        # The lesson prints the library's float (the double nearest each exact fraction) with five decimals, all the
        # exact value has: to four, 0.15975 (a hair above as a double) and 3.00975 (a hair below) would round apart.
        library = world(logging).exact(matrix(PI), 10)
        assert library.variances == (float(exact_variance), float(var)) and library.means[1] == float(mean)
        assert f"{library.variances[0]:.5f}" == ips_variance
    blind = logging_b(F(0))
    assert one_record(blind, lambda rec: weight(rec, blind) * rec[2])[0] - TRUTH == F(-3, 10)
    flat_dr = one_record(blind, lambda rec: sum(PI[rec[0]][b] * FLAT[rec[0]][b] for b in ACTIONS)
                         + weight(rec, blind) * (rec[2] - FLAT[rec[0]][rec[1]]))[0]
    assert flat_dr - TRUTH == F(-15, 100)
    sparse = logging_b(F(1, 20))
    clipped = {20: (0.0, 6.0975, 0.6098, 0.0061), 10: (-0.15, 1.71, 0.1935, 0.0242),
               5: (-0.225, 0.6244, 0.1131, 0.0512), 2: (-0.27, 0.3276, 0.1057, 0.0732)}
    for clip, (bias, variance, mse_10, mse_1000) in clipped.items():
        mean, var = one_record(sparse, lambda rec, clip=clip: min(weight(rec, sparse), clip) * rec[2])
        row = (mean - TRUTH, var, var / 10 + (mean - TRUTH) ** 2, var / 1000 + (mean - TRUTH) ** 2)
        assert tuple(map(printed, row)) == (bias, variance, mse_10, mse_1000)


def test_section_7_position_based_ips_by_brute_force_over_click_patterns():
    alpha = {"d1": F(1, 8), "d2": F(0), "d3": F(7, 8), "d4": F(3, 8)}  # (2^g - 1) / 8 for grades 1, 0, 3, 2
    logged, new = ["d1", "d2", "d3", "d4"], ["d3", "d4", "d1", "d2"]
    theta_logged = {d: F(1, k) for k, d in enumerate(logged, 1)}
    theta_new = {d: F(1, k) for k, d in enumerate(new, 1)}
    truth = sum(theta_new[d] * alpha[d] for d in new)
    assert printed(sum(theta_logged[d] * alpha[d] for d in logged)) == 0.5104 and printed(truth) == 1.1042

    def estimates(shown):
        first = square = naive = F(0)
        for pattern in product((0, 1), repeat=len(shown)):
            chance = prod(theta_logged[d] * alpha[d] if c else 1 - theta_logged[d] * alpha[d]
                          for d, c in zip(shown, pattern))
            value = sum(theta_new[d] / theta_logged[d] for d, c in zip(shown, pattern) if c)
            first, square = first + chance * value, square + chance * value**2
            naive += chance * sum(theta_new[d] for d, c in zip(shown, pattern) if c)
        return first, square - first**2, naive

    mean, variance, naive = estimates(logged)
    assert mean == truth and (printed(variance), printed(naive)) == (2.2114, 0.3802)
    library = nt.position_based_exact(logged, {"d1": 1, "d2": 0, "d3": 3, "d4": 2}, new, nt.PositionBasedModel())
    assert (library.ips_mean, library.ips_variance, library.naive_mean) == pytest.approx(
        (float(mean), float(variance), float(naive)), abs=1e-12)
    top_three = estimates(logged[:3])[0]
    assert top_three - truth == -theta_new["d4"] * alpha["d4"] == F(-3, 16) and printed(top_three) == 0.9167


SILENT = sum(rec[3] for rec in records(PI0) if weight(rec, PI0) == 0)  # one record with w = 0: (u, a) or (v, b)


def test_section_4_the_report_0_rule_takes_most_of_snips_bias():
    assert SILENT == F(13, 20)
    mean, _ = moments(3, PI0, snips)
    otherwise = mean / (1 - SILENT**3)  # SNIPS is 0 on the logs where every w = 0, so E = E[rest] (1 - P(silent))
    rule = (mean - TRUTH) - (otherwise - TRUTH)
    assert (printed(SILENT**3), printed(otherwise), printed(otherwise - TRUTH)) == (0.2746, 0.3966, -0.0534)
    assert (printed(rule), printed(mean - TRUTH)) == (-0.1089, -0.1623)


def test_section_4_table_chance_of_a_silent_log_and_the_fall_of_snips_bias():
    assert [printed(SILENT**n) for n in (1, 2, 5, 10)] == [0.65, 0.4225, 0.1160, 0.0135]
    fall = (moments(5, PI0, snips)[0] - TRUTH) / (moments(10, PI0, snips)[0] - TRUTH)
    assert abs(fall - F(28, 10)) <= F(5, 100)  # printed with one decimal: 2.8


def test_section_5_why_dr_has_the_smaller_variance():
    def correction(rec):
        return weight(rec, PI0) * (rec[2] - FLAT[rec[0]][rec[1]])

    recs = records(PI0)
    square_ips = sum(rec[3] * (weight(rec, PI0) * rec[2]) ** 2 for rec in recs)
    square_dr = sum(rec[3] * correction(rec) ** 2 for rec in recs)
    mean_dr = sum(rec[3] * correction(rec) for rec in recs)
    assert (printed(square_ips), printed(square_dr), printed(mean_dr)) == (1.8000, 1.0350, 0.1500)
    assert (printed((square_ips - TRUTH**2) / 5), printed((square_dr - mean_dr**2) / 5)) == (0.3195, 0.2025)
    assert printed(TRUTH) == 0.4500
    # With the flat model DR's first term is 0.3 for every record, so DR's variance is the correction's alone.
    assert one_record(PI0, lambda rec: F(3, 10) + correction(rec))[1] / 5 == (square_dr - mean_dr**2) / 5
    dm_variance = one_record(PI0, lambda rec: sum(PI[rec[0]][b] * Q[rec[0]][b] for b in ACTIONS))[1] / 5
    assert printed(dm_variance) == 0.0045


def test_section_4_snips_bias_is_of_order_one_over_n():
    """Another route than the lesson's: k records with w > 0 ~ Binomial(n, 7/20), of which (u, b) ~ Binomial(k, 2/7)."""
    from math import comb

    seen = 1 - SILENT  # (u, b) with chance 1/10, weight 5; (v, a) with chance 1/4, weight 2
    share_ub = F(1, 10) / seen

    def snips_mean(n):
        mean = F(0)
        for k in range(1, n + 1):
            reach = comb(n, k) * seen**k * SILENT ** (n - k)
            for k_ub in range(k + 1):
                k_va = k - k_ub
                given = (5 * k_ub * Q["u"]["b"] + 2 * k_va * Q["v"]["a"]) / (5 * k_ub + 2 * k_va)
                mean += reach * comb(k, k_ub) * share_ub**k_ub * (1 - share_ub) ** k_va * given
        return mean

    assert snips_mean(5) == moments(5, PI0, snips)[0]  # the count-vector route agrees
    recs = records(PI0)
    var_w = sum(rec[3] * weight(rec, PI0) ** 2 for rec in recs) - 1
    cov = sum(rec[3] * weight(rec, PI0) ** 2 * rec[2] for rec in recs) - TRUTH
    assert (var_w, cov, TRUTH * var_w - cov) == (F(5, 2), F(27, 20), F(-9, 40))
    rows = {n: (snips_mean(n) - TRUTH, n * (snips_mean(n) - TRUTH)) for n in (10, 20, 50, 100)}
    assert {n: (printed(bias), printed(scaled)) for n, (bias, scaled) in rows.items()} == {
        10: (-0.0325, -0.3249), 20: (-0.0129, -0.2588), 50: (-0.0047, -0.2370), 100: (-0.0023, -0.2308)}
    gaps = [abs(scaled - F(-9, 40)) for _, scaled in rows.values()]
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] < F(1, 100)  # n * bias settles towards -0.225
    assert [f"{float(SILENT**n):.2e}" for n in rows] == ["1.35e-02", "1.81e-04", "4.42e-10", "1.96e-19"]


def test_section_4_snips_can_lose_to_ips_when_the_clicks_fall_on_small_weights():
    """The lesson's example: one context, two actions logged half the time each, only b ever clicked, the new policy
    takes b with chance 0.1 (weights 1.8 and 0.2). IPS's MSE is 0.0100/n; SNIPS's tends to E[w^2 (r - V)^2] = 0.0324/n."""
    from math import comb

    w_a, w_b, value = F(9, 5), F(1, 5), F(1, 10)
    assert F(1, 2) * (w_b * 1) ** 2 - value**2 == F(1, 100)  # n * Var[IPS]
    assert F(1, 2) * w_a**2 * value**2 + F(1, 2) * w_b**2 * (1 - value) ** 2 == F(324, 10000)  # the delta method's n * MSE

    def n_mse(n):  # k records of b among n: SNIPS = k w_b / (k w_b + (n - k) w_a)
        first = square = F(0)
        for k in range(n + 1):
            chance = comb(n, k) * F(1, 2) ** n
            estimate = k * w_b / (k * w_b + (n - k) * w_a)
            first, square = first + chance * estimate, square + chance * estimate**2
        return n * (square - first**2 + (first - value) ** 2)

    scaled = [n_mse(n) for n in (10, 50, 200)]
    assert [round(float(x), 4) for x in scaled] == [0.0680, 0.0365, 0.0334]
    assert scaled == sorted(scaled, reverse=True) and all(x > F(324, 10000) > F(1, 100) for x in scaled)
    world = nt.BanditProblem(("x",), ("a", "b"), [1.0], [[0.5, 0.5]], [[0.0, 1.0]])
    library = world.exact([[0.9, 0.1]], 50)
    assert library.variances[0] == 0.01 / 50 and abs(50 * (library.variances[1] + library.bias[1] ** 2) - float(scaled[1])) < 1e-12
