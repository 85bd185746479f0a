"""A small logging world with a known truth, and each estimator's exact bias and variance in it. Lesson 19.

:class:`BanditProblem` holds context chances, a logging policy and each
action's click chance. :meth:`~BanditProblem.exact` goes through every
possible log of ``n`` records (grouped by how often each possible record
occurs, with its multinomial probability) and gives the exact expectation,
bias, variance and MSE of IPS, SNIPS, DM and DR
(:mod:`ndcg_teach.online.counterfactual`): IPS's unbiasedness, SNIPS's bias and DR's
double robustness are then facts to read, not claims. It computes in
fractions and integers, never in floating point, so its numbers are the same
on every machine (a variance of exactly 0.15975 cannot print as 0.1598 on one
CPU and 0.1597 on another). :meth:`~BanditProblem.simulate` draws logs with a
seed, and :meth:`~BanditProblem.simulate_estimates` repeats that for logs too
large to enumerate.
"""

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import comb, lcm

import numpy as np

from ..core.checks import check_number_array
from .counterfactual import Log, check_names, direct_method, doubly_robust, ips, policy_matrix, snips, value_matrix
from ..core.explained import Explained, number
from ..i18n import _, gettext, mark
from ..core.table import Table
from ..core.validation import check_count, check_seed, shown

__all__ = ["BanditProblem", "EstimatorMoments"]

MAX_LOG_COUNTS = 2_000_000  # count vectors exact() may go through
SNIPS_BITS = 256  # SNIPS's moments are summed in integers scaled by 2**SNIPS_BITS: far below a float's last digit


@dataclass(frozen=True, repr=False)
class EstimatorMoments(Explained):
    """Each estimator's expectation, bias, variance and MSE over logs of ``n`` records (from
    :meth:`BanditProblem.exact` and :meth:`BanditProblem.simulate_estimates`). Lesson 19.

    Attributes
    ----------
    truth : float
        The new policy's true value.
    n : int
        Records per log.
    estimators : tuple of str
    means, variances : tuple of float
    exact : bool
        True: every possible log enumerated; False: ``trials`` simulated logs.
    logs : int
        Count vectors (the possible logs, up to the order of their records) for exact moments, or logs
        simulated.
    """

    truth: float
    n: int
    estimators: tuple
    means: tuple
    variances: tuple
    exact: bool
    logs: int

    @property
    def bias(self):
        """``E[estimate] - truth`` per estimator."""
        return tuple(m - self.truth for m in self.means)

    def _parts(self):
        language = self.language
        rows = tuple((name, float(m), _clean(m - self.truth), float(v), float(v + (m - self.truth) ** 2))
                     for name, m, v in zip(self.estimators, self.means, self.variances))
        table = Table(None, ("estimator", "E", "bias", "variance", "MSE"), rows, align="lrrrr",
                      shown_headers=(_("estimator", language), _("expectation", language), _("bias", language),
                                     _("variance", language), "MSE"))
        how = (_("exact: every possible log of {n} records, grouped into {logs} count vectors, weighted by its "
                 "multinomial probability", language) if self.exact else
               _("simulated: {logs} logs of {n} records each; their mean and variance estimate E and Var", language))
        formula = (how.format(n=self.n, logs=self.logs), _("MSE = variance + bias²", language))
        title = _("estimators of a value of {truth:.4f}, logs of {n} records", language).format(truth=self.truth,
                                                                                               n=self.n)
        return title, (table,), formula, ()


def _clean(bias):
    """A bias as shown: rounding noise of an exact 0 (1e-17) shown as 0, not -0.0000."""
    return 0.0 if abs(bias) < 1e-12 else float(bias)


def _fraction(value):
    """``value`` exactly as the decimal Python shows for it: 0.2 is 1/5, not the binary float nearest to 1/5."""
    return Fraction(repr(float(value)))


def _rows(matrix):
    """A matrix as rows of fractions."""
    return [[_fraction(value) for value in row] for row in matrix]


def _value(chances, policy, rewards):
    """``V(π) = Σ_x P(x) Σ_a π(a|x) q(x, a)`` in fractions."""
    return sum(p * sum(t * q for t, q in zip(row, reward_row)) for p, row, reward_row in zip(chances, policy, rewards))


def _linear_moments(records, n):
    """E and Var of the mean of ``n`` independent terms, each ``term`` with chance ``chance / Σ chance``."""
    total = sum(chance for chance, _term in records)  # 1 unless the probabilities given add up to 1 only within 1e-9
    mean = sum(chance * term for chance, term in records) / total
    return mean, (sum(chance * term * term for chance, term in records) / total - mean * mean) / n


def _ratio_moments(groups, n):
    """E and Var of ``Σ c_g a_g / Σ c_g b_g`` (0 when the denominator is 0; SNIPS) over the logs of ``n`` records.

    ``groups`` is ``[(chance, a, b), ...]``; ``c`` counts how often each group occurs in a log, with chance
    ``n! / Π c_g! · Π p_g^c_g``, ``p_g = chance_g / Σ chance``. Logs with the same sums are merged as the groups are
    added one at a time, in integers: the chances over a common denominator, ``a`` and ``b`` over another. The two
    moments are then summed scaled by ``2**SNIPS_BITS`` (each term rounded down there), the same on every machine.
    """
    denominator = lcm(*(chance.denominator for chance, _a, _b in groups))
    scale = lcm(*(value.denominator for _chance, a, b in groups for value in (a, b)))
    binomial = [[comb(left, c) for c in range(left + 1)] for left in range(n + 1)]
    states = {(n, 0, 0): 1}  # (records still to place, scaled Σ c a, scaled Σ c b) -> Σ multinomial · Π numerator^c
    for position, (chance, a, b) in enumerate(groups):
        a, b = int(a * scale), int(b * scale)
        powers = [int(chance * denominator) ** c for c in range(n + 1)]
        following = {}
        for (left, total_a, total_b), count in states.items():
            for c in (left,) if position == len(groups) - 1 else range(left + 1):
                key = (left - c, total_a + c * a, total_b + c * b)
                following[key] = following.get(key, 0) + count * binomial[left][c] * powers[c]
        states = following
    whole = sum(int(chance * denominator) for chance, _a, _b in groups) ** n  # the sum of every count
    first = second = 0
    for (_left, total_a, total_b), count in states.items():
        if total_b:
            first += (count * total_a << SNIPS_BITS) // (total_b * whole)
            second += (count * total_a * total_a << SNIPS_BITS) // (total_b * total_b * whole)
    mean = Fraction(first, 1 << SNIPS_BITS)
    return mean, Fraction(second, 1 << SNIPS_BITS) - mean * mean


@dataclass(frozen=True, repr=False, eq=False)
class BanditProblem(Explained):
    """A small world with a known truth: context chances, a logging policy and each action's click chance. Lesson 19.

    Parameters
    ----------
    contexts : sequence of str
    actions : sequence of str
    context_probabilities : sequence of float
        ``P(x)``, adding up to 1.
    logging : 2-D sequence of float
        ``π0(a|x)``: one row per context, one probability per action.
    rewards : 2-D sequence of float
        ``q(x, a)``: the chance of a click (reward 1; otherwise 0).

    Examples
    --------
    >>> world = BanditProblem(("u", "v"), ("a", "b"), [0.5, 0.5], [[0.8, 0.2], [0.5, 0.5]], [[0.1, 0.6], [0.3, 0.2]])
    >>> world.value({"u": "b", "v": "a"})  # 0.5·0.6 + 0.5·0.3
    0.45
    >>> world.value(world.logging)  # the logging policy: 0.5·(0.8·0.1 + 0.2·0.6) + 0.5·(0.5·0.3 + 0.5·0.2)
    0.225
    """

    contexts: tuple
    actions: tuple
    context_probabilities: tuple
    logging: np.ndarray
    rewards: np.ndarray

    def __post_init__(self):
        contexts = check_names("contexts", self.contexts, mark("the context names"))
        actions = check_names("actions", self.actions, mark("the action names"))
        chances = check_number_array("context_probabilities", self.context_probabilities, mark("P(x) for each context"))
        if chances.size != len(contexts) or (chances < 0).any() or not np.isclose(chances.sum(), 1.0, atol=1e-9):
            raise ValueError(gettext("context_probabilities must give each of the {n_contexts} contexts a "
                                     "probability, adding up to 1. Got {got} instead.")
                                    .format(n_contexts=len(contexts), got=shown(self.context_probabilities)))
        logging = policy_matrix("logging", self.logging, contexts, actions)
        rewards = value_matrix("rewards", self.rewards, contexts, actions, mark("q(x, a): the chance of a click"))
        if (rewards < 0).any() or (rewards > 1).any():
            raise ValueError(gettext("rewards must be click chances from 0 to 1. Got {got} instead.")
                                    .format(got=shown(rewards.tolist())))
        for name, value in (("contexts", contexts), ("actions", actions), ("context_probabilities", tuple(chances)),
                            ("logging", logging), ("rewards", rewards)):
            object.__setattr__(self, name, value)

    def policy(self, policy, name="policy"):
        """``policy`` as a contexts x actions matrix (from a matrix or a ``{context: action}`` mapping)."""
        return policy_matrix(name, policy, self.contexts, self.actions)

    def value(self, policy):
        """The true value ``V(π) = Σ_x P(x) Σ_a π(a|x) q(x, a)``, in fractions (the same on every machine)."""
        chances, _logging, rewards = self._exact_world()
        return float(_value(chances, _rows(self.policy(policy)), rewards))

    def _exact_world(self):
        """``P(x)``, ``π0(a|x)`` and ``q(x, a)`` as fractions."""
        return _rows([self.context_probabilities])[0], _rows(self.logging), [[_fraction(q) for q in row]
                                                                           for row in self.rewards]

    def simulate(self, n, *, seed=0):
        """A log of ``n`` records drawn with the logging policy (seeded).

        Examples
        --------
        >>> world = BanditProblem(("u",), ("a", "b"), [1.0], [[0.5, 0.5]], [[0.0, 1.0]])
        >>> log = world.simulate(4, seed=1)
        >>> [world.actions[a] for a in log.action], log.reward.tolist()  # "b" always clicked, "a" never
        (['a', 'a', 'b', 'a'], [0.0, 0.0, 1.0, 0.0])
        """
        n = check_count("n", n, mark("how many records to log"))
        rng = np.random.default_rng(check_seed(seed))
        context = rng.choice(len(self.contexts), size=n, p=self.context_probabilities)
        cumulative = np.cumsum(self.logging[context], axis=1)
        action = np.minimum((rng.random(n)[:, None] >= cumulative).sum(axis=1), len(self.actions) - 1)
        reward = (rng.random(n) < self.rewards[context, action]).astype(np.float64)
        return Log(self.contexts, self.actions, context, action, reward, self.logging[context, action])

    def exact(self, policy, n, *, reward_model=None, propensities=None):
        """Each estimator's exact expectation and variance over every possible log of ``n`` records. Lesson 19.

        A log's estimates depend only on how many times each possible record
        (context, action, reward) occurs in it, so the logs are grouped by
        those counts, each with its multinomial probability. Each probability
        is read exactly as the decimal Python shows for it (0.2 is 1/5), and
        the moments are computed in fractions and integers: IPS, DM and DR
        (each the mean of ``n`` independent terms) exactly, SNIPS with each
        log's share rounded down at ``2**-256``, far below a float's last
        digit. No float is rounded on the way, so the numbers are the same on
        every machine.

        Parameters
        ----------
        policy : 2-D sequence or mapping
            The new policy.
        n : int
            Records per log.
        reward_model : 2-D sequence of float or None
            ``q̂(x, a)`` for DM and DR (left out when None).
        propensities : 2-D sequence of float or None
            A model of the logging policy to weight with instead of the true one.

        Returns
        -------
        EstimatorMoments

        Examples
        --------
        >>> world = BanditProblem(("u",), ("a", "b"), [1.0], [[0.5, 0.5]], [[0.0, 1.0]])
        >>> moments = world.exact({"u": "b"}, 2)
        >>> moments.truth, moments.means  # IPS is unbiased; SNIPS here is exact whenever b was logged at all
        (1.0, (1.0, 0.75))
        """
        target = _rows(self.policy(policy))
        n = check_count("n", n, mark("how many records each log holds"))
        records = self._records(target, reward_model, propensities)
        counts_needed = comb(n + len(records) - 1, len(records) - 1)
        if counts_needed > MAX_LOG_COUNTS:
            raise ValueError(gettext("n must be small enough to enumerate every log: {size} possible records "
                                     "make {counts_needed:.3g} count vectors for n = {n}, more than "
                                     "{MAX_LOG_COUNTS}. Use simulate_estimates for larger logs. Got n={n} "
                                     "instead.").format(size=len(records), counts_needed=counts_needed, n=n,
                                                        MAX_LOG_COUNTS=MAX_LOG_COUNTS))
        # IPS, DM and DR are means of n independent terms; SNIPS depends on a record only through (w r, w).
        moments = {"IPS": _linear_moments([(chance, w * r) for chance, w, r, _model in records], n)}
        groups = {}
        for chance, w, r, _model in records:
            groups[w * r, w] = groups.get((w * r, w), 0) + chance
        moments["SNIPS"] = _ratio_moments([(chance, a, b) for (a, b), chance in groups.items()], n)
        if reward_model is not None:
            moments["DM"] = _linear_moments([(chance, direct) for chance, _w, _r, (direct, _dr) in records], n)
            moments["DR"] = _linear_moments([(chance, doubly) for chance, _w, _r, (_dm, doubly) in records], n)
        chances, _logging, rewards = self._exact_world()
        names = tuple(moments)
        return EstimatorMoments(float(_value(chances, target, rewards)), n, names,
                                tuple(float(moments[name][0]) for name in names),
                                tuple(float(moments[name][1]) for name in names), True, counts_needed)

    def _records(self, target, reward_model, propensities):
        """Every possible record (context, action, reward) with a positive chance under the logging policy, as
        ``(chance, w, r, (DM's term, DR's term) or None)`` in fractions."""
        chances, logging, rewards = self._exact_world()
        logged = logging if propensities is None else _rows(self.policy(propensities, "propensities"))
        model = None if reward_model is None else [
            [_fraction(value) for value in row] for row in
            value_matrix("reward_model", reward_model, self.contexts, self.actions, mark("q̂(x, a)"))]
        records = []
        for x, a, r in product(range(len(self.contexts)), range(len(self.actions)), (0, 1)):
            chance = chances[x] * logging[x][a] * (rewards[x][a] if r else 1 - rewards[x][a])
            if chance == 0:
                continue
            if logged[x][a] <= 0:
                raise ValueError(gettext("propensities must be positive for every action the logging policy "
                                         "takes. Got 0 for a logged action instead."))
            w = target[x][a] / logged[x][a]
            direct = None if model is None else sum(t * m for t, m in zip(target[x], model[x]))
            records.append((chance, w, r, None if model is None else (direct, direct + w * (r - model[x][a]))))
        return records

    def simulate_estimates(self, policy, n, *, trials=1000, seed=0, reward_model=None, propensities=None):
        """Each estimator's mean and variance over ``trials`` simulated logs of ``n`` records (seeded). Lesson 19."""
        target = self.policy(policy)
        n = check_count("n", n, mark("how many records each log holds"))
        trials = check_count("trials", trials, mark("how many logs to simulate"))
        rng = np.random.default_rng(check_seed(seed))
        results = {}
        for _trial in range(trials):
            log = self.simulate(n, seed=int(rng.integers(0, 2**32)))
            estimates = [ips(log, target, propensities=propensities), snips(log, target, propensities=propensities)]
            if reward_model is not None:
                estimates += [direct_method(log, target, reward_model),
                              doubly_robust(log, target, reward_model, propensities=propensities)]
            for estimate in estimates:
                results.setdefault(estimate.estimator, []).append(estimate.value)
        names = tuple(results)
        return EstimatorMoments(self.value(target), n, names, tuple(float(np.mean(results[k])) for k in names),
                                tuple(float(np.var(results[k], ddof=1)) if trials > 1 else 0.0 for k in names),
                                False, trials)

    def _parts(self):
        language = self.language
        rows = tuple((context, float(p), *map(float, self.logging[i]), *map(float, self.rewards[i]))
                     for i, (context, p) in enumerate(zip(self.contexts, self.context_probabilities)))
        headers = ("context", "P(x)", *(f"π0({a}|x)" for a in self.actions), *(f"q(x, {a})" for a in self.actions))
        table = Table(None, headers, rows, align="l" + "r" * (len(headers) - 1),
                      shown_headers=(_("context", language), *headers[1:]))
        formula = (_("V(π) = Σ_x P(x) Σ_a π(a|x)·q(x, a); the logging policy's own value is {value}", language)
                   .format(value=number(self.value(self.logging))),)
        return _("a logging world: {contexts} contexts, {actions} actions", language).format(
            contexts=len(self.contexts), actions=len(self.actions)), (table,), formula, ()
