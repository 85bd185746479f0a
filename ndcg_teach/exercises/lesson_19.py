"""Lesson 19: counterfactual evaluation: IPS, SNIPS and position-based IPS from logged data."""

import numpy as np

import ndcg_teach as nt

from ..i18n import mark
from .framework import Exercise, Inputs, _number_judge
from .questions import question, right, wrong

LESSON = "19-counterfactual-evaluation"

RECORDS = {"rewards": [1, 0, 1, 0, 1], "propensities": [0.2, 0.5, 0.5, 0.8, 0.25], "new_policy": [1.0, 1.0, 0.0, 0.5, 1.0]}
"""Five logged records: exercises 1 (IPS) and 2 (SNIPS) ask about the same log."""


def _log(inp: Inputs) -> "nt.Log":
    """The records as a library Log: one context per record, the logged action first of two."""
    n = len(inp["rewards"])
    return nt.Log(tuple(f"x{i}" for i in range(n)), ("logged", "other"), np.arange(n), np.zeros(n, dtype=int),
                  np.asarray(inp["rewards"], dtype=np.float64), np.asarray(inp["propensities"], dtype=np.float64))


def _policy(inp: Inputs) -> list:
    """The new policy as a matrix: its chance of each record's logged action, the rest on the other."""
    return [[chance, 1.0 - chance] for chance in inp["new_policy"]]


def _ips(inp: Inputs) -> float:
    return nt.ips(_log(inp), _policy(inp)).value


def _snips(inp: Inputs) -> float:
    return nt.snips(_log(inp), _policy(inp)).value


def _click_rate(inp: Inputs) -> float:
    return sum(inp["rewards"]) / len(inp["rewards"])


def _times_propensity(inp: Inputs) -> float:
    """The slip of multiplying by the logging chance instead of dividing by it."""
    terms = [p_new * p_old * r for p_new, p_old, r in zip(inp["new_policy"], inp["propensities"], inp["rewards"])]
    return sum(terms) / len(terms)


def _clipped_terms(inp: Inputs) -> tuple:
    """Each record's weight capped at ``clip``, and the capped weight times the reward."""
    weights = [min(w, inp["clip"]) for w in nt.ips(_log(inp), _policy(inp)).weights]
    return weights, [w * r for w, r in zip(weights, inp["rewards"])]


def _position_estimate(inp: Inputs) -> "nt.RankingEstimate":
    model = nt.PositionBasedModel(examination=inp["examination"])
    return nt.position_based_ips(inp["logged"], inp["clicks"], inp["target"], model)


def _attraction_sum(inp: Inputs) -> float:
    """The slip of adding the estimated attractiveness without the new positions' examination chances."""
    return sum(_position_estimate(inp).weights) / len(inp["clicks"])


LESSON_EXERCISES = (
    Exercise(
        "19-ips",
        LESSON,
        "IPS estimate of a new policy's value from five logged records",
        "number",
        inputs=RECORDS,
        judge=_number_judge(
            _ips,
            mark("Weight each reward by w_i = (new policy's chance) / (logging policy's chance) of the logged "
                 "action, add the weighted rewards and divide by the number of records."),
            [
                (_click_rate, mark("That is the log's own click rate: it measures the logging policy. Weight each "
                                   "reward by the new policy's chance over the logging policy's.")),
                (_snips, mark("You divided by the sum of the weights: that is SNIPS. IPS divides by the number of "
                              "records.")),
                (_times_propensity, mark("You multiplied by the logging policy's chance; IPS divides by it, so "
                                         "that rarely logged actions count more.")),
            ],
        ),
        right=mark("IPS is above 1, more than any policy can earn with rewards of 0 or 1: unbiased on average, "
                   "far off on a small log."),
    ),
    Exercise(
        "19-snips",
        LESSON,
        "SNIPS estimate of a new policy's value from five logged records",
        "number",
        inputs=RECORDS,
        judge=_number_judge(
            _snips,
            mark("SNIPS = Σ w_i·r_i / Σ w_i: the same weighted rewards as IPS, divided by the sum of the weights."),
            [
                (_ips, mark("That is IPS, which divides by the number of records; SNIPS divides by the sum of the "
                            "weights.")),
                (_click_rate, mark("That is the log's own click rate; weight each reward by w_i first.")),
            ],
        ),
        right=mark("A weighted mean of the rewards: SNIPS stays between 0 and 1, where IPS did not."),
    ),
    Exercise(
        "19-clipped-ips",
        LESSON,
        "IPS with every weight clipped at 3, on the same five records",
        "number",
        inputs={**RECORDS, "clip": 3.0},
        judge=_number_judge(
            lambda inp: sum(_clipped_terms(inp)[1]) / len(inp["rewards"]),
            mark("Replace each weight w_i by min(w_i, M), then compute IPS as before: the clipped weights times the "
                 "rewards, divided by the number of records."),
            [
                (_ips, mark("That is IPS without clipping: replace each weight above M by M first.")),
                (lambda inp: sum(_clipped_terms(inp)[1]) / sum(_clipped_terms(inp)[0]),
                 mark("You divided by the sum of the clipped weights (clipped SNIPS); clipped IPS divides by the "
                      "number of records.")),
            ],
        ),
        right=mark("Clipping cut 1.8 to 1.2: less variance, and a downward bias that this one number cannot show."),
    ),
    Exercise(
        "19-position-ips",
        LESSON,
        "position-based IPS estimate of a new ranking's expected clicks per session",
        "number",
        inputs={"logged": ["d1", "d2", "d3"], "clicks": [[1, 0, 0], [1, 1, 0], [0, 0, 1], [0, 0, 0]],
                "target": ["d3", "d1", "d2"], "examination": [1.0, 0.5, 0.25]},
        judge=_number_judge(
            lambda inp: _position_estimate(inp).value,
            mark("For each item, α̂ = (its clicks / θ of the position it was logged at) / sessions; then add "
                 "θ of each new position times the α̂ of the item placed there."),
            [
                (lambda inp: _position_estimate(inp).naive,
                 mark("That is the naive estimate: it takes every click as if the item had surely been examined. "
                      "Divide each click by θ of the position it was logged at.")),
                (_attraction_sum, mark("That adds the estimated attractiveness α̂ of every item; weigh each by θ "
                                       "of its position in the new ranking.")),
            ],
        ),
        right=mark("d3 was clicked once in four sessions at a position examined a quarter of the time: its "
                   "estimated attractiveness is 1, and the new ranking puts it first."),
    ),
)

# Questions to think about (ndcg_teach.exercises.questions): they ask why, not how much.
LESSON_EXERCISES += (
    question(
        "19-the-logs-click-rate",
        LESSON,
        "what the click rate of a log estimates",
        mark("A team logs 10,000 sessions of its current policy and finds a click rate of 0.23.\n"
             "A new policy would often show other items.\n"
             "What does 0.23 estimate?"),
        wrong(mark("The new policy's click rate, since the log is large."),
              mark("No size of log helps: its records are what the old policy chose, so their mean measures the old policy.")),
        wrong(mark("A lower bound on the new policy's value."),
              mark("Nothing ties the two: a new policy can be worse or better than the logging one (in the lesson it is worth twice as much).")),
        wrong(mark("The mean of the two policies' values."),
              mark("The new policy played no part in what the log holds; the plain mean of the log does not reflect it at all.")),
        right(mark("The value of the policy that made the log."),
              mark("A log's click rate estimates its logging policy; weighting each record by π(a | x) / π0(a | x), as IPS does, makes the log speak for the new policy.")),
    ),
    question(
        "19-ips-above-one",
        LESSON,
        "what an IPS estimate above 1 means",
        mark("On a small log, IPS estimates the new policy's click rate as 1.4, although no policy can earn more than 1.\n"
             "What does this show?"),
        wrong(mark("IPS is biased upwards."),
              mark("IPS is unbiased: averaged over every log the logging policy could produce, it equals the truth exactly, as section 3 computes.")),
        right(mark("IPS has a large variance: on one small log it can land far from the truth, in either direction."),
              mark("Two rare records weighted 5 each were clicked and count five times; over all logs such luck evens out, but one log carries it in full.")),
        wrong(mark("The propensities in the log must be wrong."),
              mark("The propensities are right here; large weights on rare records are how IPS works, and they make a single estimate noisy.")),
        wrong(mark("The new policy is better than any possible policy."),
              mark("Every reward is 0 or 1, so no policy's value exceeds 1: an estimate above 1 says something about the estimator, not about the policy.")),
    ),
    question(
        "19-no-overlap",
        LESSON,
        "what IPS can say where the logging policy never acted",
        mark("The logging policy never showed item b to users of kind u, and the new policy always shows b to u.\n"
             "What can IPS on this log tell you about the new policy?"),
        wrong(mark("Its value on average, because IPS is unbiased."),
              mark("IPS is unbiased only with overlap, π0(a | x) > 0 wherever the new policy acts; here it is off by exactly what the new policy earns where the log is silent.")),
        wrong(mark("Its value, once the weights are clipped."),
              mark("Clipping trades variance for bias on records that exist; with no record of b shown to u there is nothing to clip.")),
        right(mark("Nothing about what u does with b: no weighting can recover it, and the log cannot warn you."),
              mark("Where the log is silent only a reward model speaks, and it is exactly as right as it is there; check that the logging policy explored every action the new policy takes.")),
        wrong(mark("Its value with SNIPS instead of IPS."),
              mark("SNIPS weights the same records; with none of b shown to u it cannot know how u reacts to b either.")),
    ),
)
