"""Lesson 18: online evaluation: click models, team-draft interleaving and the size of an A/B test."""

import math
from statistics import NormalDist

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, Judge, _as_number, _number_judge

LESSON = "18-online-evaluation"


def _alphas(inp: Inputs) -> list:
    return list(nt.CascadeModel().attractiveness_of(inp["relevances"]))


def _reach(inp: Inputs) -> float:
    return float(nt.CascadeModel().click_probabilities(inp["relevances"]).examination[inp["position"] - 1])


def _a_first_only(inp: Inputs) -> float:
    """P(A wins) in the list where A picks first: x is clicked at once."""
    return float(nt.CascadeModel().attractiveness_of([inp["grades"][inp["ranking_a"][0]]])[0])


def _win(inp: Inputs) -> float:
    return nt.interleaving_outcomes(inp["ranking_a"], inp["ranking_b"], inp["grades"], nt.CascadeModel()).a_wins


def _one_sided(inp: Inputs) -> float:
    """The size with z_{1-α} for z_{1-α/2}: a one-sided test at the same α."""
    return nt.ab_test_size(inp["p_control"], inp["p_treatment"], alpha=0.1).n_treatment


_Z = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)  # z_{1-α/2} + z_{1-β} at α = 0.05, power 0.8


def standard_sizes(inp: Inputs) -> dict:
    """Users per arm, before rounding up, by each standard formula for two rates at α = 0.05 (two-sided), power 0.8.

    - ``"fleiss"``: Fleiss, Levin & Paik (2003) without continuity correction, σ_0 pooled, σ_1 from each rate: the
      lesson's formula and :func:`~ndcg_teach.ab_test_size`'s;
    - ``"unpooled"``: both spreads from each rate, σ_0 = σ_1 (the Wald test's; Chow, Shao & Wang 2008);
    - ``"arcsine"``: ``2(z_{1-α/2} + z_{1-β})² / h²`` with Cohen's (1988) ``h = 2·asin√p_t - 2·asin√p_c``
      (statsmodels' ``NormalIndPower`` with ``proportion_effectsize``);
    - ``"continuity"``: Fleiss's continuity correction, ``n/4·(1 + √(1 + 4/(n·|δ|)))²`` (the corrected χ² test's);
    - ``"rule of 16"``: van Belle's (2008) ``16σ²/δ²`` with ``σ² = p̄(1 - p̄)``, 16 for ``2(1.96 + 0.84)²``.
    """
    p_c, p_t = inp["p_control"], inp["p_treatment"]
    size, delta, mean = nt.ab_test_size(p_c, p_t), p_t - p_c, (p_c + p_t) / 2
    arcsine = 2 * math.asin(math.sqrt(p_t)) - 2 * math.asin(math.sqrt(p_c))
    return {
        "fleiss": size.exact,
        "unpooled": (_Z * size.sd_alternative / delta) ** 2,
        "arcsine": 2 * (_Z / arcsine) ** 2,
        "continuity": size.exact / 4 * (1 + math.sqrt(1 + 4 / (size.exact * abs(delta)))) ** 2,
        "rule of 16": 16 * mean * (1 - mean) / delta**2,
    }


def _users(exact: float) -> int:
    """Whole users: rounded up, an exact whole number staying itself despite rounding in its last digit."""
    return math.ceil(exact - 1e-9)


def _any_standard_size(fallback: Judge) -> Judge:
    """Right when the answer is any standard formula's number of users; otherwise ``fallback`` gives the hint."""

    def judge(answer, inputs):
        value = _as_number(answer)
        if value is not None and any(math.isclose(value, _users(exact), rel_tol=0.0, abs_tol=5e-4 + 1e-12)
                                     for exact in standard_sizes(inputs).values()):
            return True, ""
        return fallback(answer, inputs)

    return judge


def _unrounded(name: str):
    return lambda inp: standard_sizes(inp)[name]


def _pooled_twice(inp: Inputs) -> float:
    """σ_1 pooled like σ_0: the spread of no difference used for the alternative as well."""
    mean = (inp["p_control"] + inp["p_treatment"]) / 2
    return _users(_Z**2 * 2 * mean * (1 - mean) / (inp["p_treatment"] - inp["p_control"]) ** 2)


def _rule_of_16_control(inp: Inputs) -> float:
    """The rule of 16 with the control's variance alone."""
    p_c = inp["p_control"]
    return _users(16 * p_c * (1 - p_c) / (inp["p_treatment"] - inp["p_control"]) ** 2)


_ROUND_UP = mark("Round up: a fraction of a user cannot be recruited, and fewer users fall short of the power.")


LESSON_EXERCISES = (
    Exercise(
        "18-cascade-click",
        LESSON,
        "chance of a click at position 3 under the cascade model",
        "number",
        inputs={"relevances": [1, 2, 3], "position": 3},
        judge=_number_judge(
            lambda inp: nt.CascadeModel().click_probabilities(inp["relevances"]).clicks[inp["position"] - 1],
            mark("The user reaches position i only if no result above it attracted them: P(click at i) = α_i · "
                 "Π_{j<i} (1 - α_j), with α(g) = (2^g - 1)/8."),
            [
                (lambda inp: _alphas(inp)[inp["position"] - 1],
                 mark("That is α at that position alone; the user must first get past the results above it.")),
                (_reach, mark("That is the chance to reach the position; multiply by its α.")),
                (lambda inp: _alphas(inp)[inp["position"] - 1] / inp["position"],
                 mark("That is the position-based model with θ_i = 1/i; the cascade user reaches a position when "
                      "every result above it failed to attract.")),
            ],
        ),
        right=mark("The grade-3 result at the bottom is still clicked in almost half of the sessions: the cascade "
                   "user reads on until something attracts them."),
    ),
    Exercise(
        "18-team-draft-win",
        LESSON,
        "chance that A wins a team-draft impression of two results under the cascade model",
        "number",
        inputs={"ranking_a": ["x", "y"], "ranking_b": ["y", "x"], "grades": {"x": 2, "y": 1}},
        judge=_number_judge(
            _win,
            mark("A coin decides who picks first: the list is x, y (A first) or y, x (B first), each with chance "
                 "1/2. A wins when x is clicked; in the second list the user must pass y first."),
            [
                (_a_first_only, mark("That is A's chance in the list where A picks first; B picks first half of "
                                     "the time, and then the user must pass y first.")),
                (lambda inp: 2 * _win(inp), mark("You added the two lists' chances; each list is shown half of "
                                                 "the time, so take their mean.")),
            ],
        ),
        right=mark("A wins three and a half times as often as B, yet more than half of the impressions have no "
                   "click at all, and a tie says nothing."),
    ),
    Exercise(
        "18-ab-size",
        LESSON,
        "users per arm an A/B test needs to find CTR rising from 20% to 22%",
        "number",
        inputs={"p_control": 0.20, "p_treatment": 0.22},
        judge=_any_standard_size(_number_judge(
            lambda inp: nt.ab_test_size(inp["p_control"], inp["p_treatment"]).n_treatment,
            mark("Any standard formula is right, rounded up to whole users. The lesson's (Fleiss, Levin & Paik, "
                 "without continuity correction): n = (z_{1-α/2}·σ_0 + z_{1-β}·σ_1)² / (p_t - p_c)² with z = 1.96 "
                 "and 0.8416, σ_0 = √(2p̄(1 - p̄)), σ_1 = √(p_t(1 - p_t) + p_c(1 - p_c)). Also accepted: σ_0 = σ_1 "
                 "(unpooled); the arcsine formula 2(z_{1-α/2} + z_{1-β})² / h² with h = 2·asin√p_t - 2·asin√p_c "
                 "(Cohen); Fleiss's continuity correction; van Belle's rule of thumb 16·p̄(1 - p̄) / (p_t - p_c)²."),
            [
                *((_unrounded(name), _ROUND_UP) for name in ("fleiss", "unpooled", "arcsine", "continuity")),
                (lambda inp: nt.ab_test_size(inp["p_control"], inp["p_treatment"]).total,
                 mark("That counts both arms; the question asks for the users in each arm.")),
                (_one_sided, mark("That uses z_{1-α} = 1.645, a one-sided test; the test is two-sided, z_{1-α/2} = "
                                  "1.96.")),
                (_pooled_twice, mark("That pools the spread under the alternative too; if the change is real, each "
                                     "arm keeps its own rate: σ_1 = √(p_t(1 - p_t) + p_c(1 - p_c)).")),
                (_rule_of_16_control, mark("That is the rule of 16 with the control's variance alone; with two rates, "
                                           "take it at their mean: 16·p̄(1 - p̄) / (p_t - p_c)².")),
            ],
            example="1000",
        )),
        right=mark("Two points of CTR on a base of 20% take thousands of users per arm; half the change would take "
                   "about four times as many."),
    ),
)
