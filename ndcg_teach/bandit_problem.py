"""A small logging world with a known truth, and each estimator's exact bias and variance in it. Lesson 19.

:class:`BanditProblem` holds context chances, a logging policy and each
action's click chance. :meth:`~BanditProblem.exact` enumerates every possible
log of ``n`` records (grouped by how often each possible record occurs, with
its multinomial probability) and gives the exact expectation, bias, variance
and MSE of IPS, SNIPS, DM and DR (:mod:`ndcg_teach.counterfactual`): IPS's
unbiasedness, SNIPS's bias and DR's double robustness are then facts to read,
not claims. :meth:`~BanditProblem.simulate` draws logs with a seed, and
:meth:`~BanditProblem.simulate_estimates` repeats that for logs too large to
enumerate.
"""

from dataclasses import dataclass
from math import lgamma

import numpy as np

from .checks import check_number_array
from .counterfactual import Log, check_names, direct_method, doubly_robust, ips, policy_matrix, snips, value_matrix
from .explained import Explained, number
from .i18n import _, gettext, mark
from .table import Table
from .validation import check_count, check_seed, shown

__all__ = ["BanditProblem", "EstimatorMoments"]

MAX_LOG_COUNTS = 2_000_000  # count vectors exact() may enumerate


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
        Count vectors enumerated (exact) or logs simulated.
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


def _compositions(total, parts):
    """Every vector of ``parts`` non-negative integers adding up to ``total``, as rows of an array."""
    if parts == 1:
        return np.array([[total]])
    blocks = [np.hstack([np.full((len(rest), 1), first), rest])
              for first in range(total, -1, -1) for rest in [_compositions(total - first, parts - 1)]]
    return np.vstack(blocks)


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
        """The true value ``V(π) = Σ_x P(x) Σ_a π(a|x) q(x, a)``."""
        return float(np.array(self.context_probabilities) @ (self.policy(policy) * self.rewards).sum(axis=1))

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

    def _outcomes(self):
        """Every possible record (context, action, reward) with its chance under the logging policy, 0s left out."""
        x, a, r = np.meshgrid(np.arange(len(self.contexts)), np.arange(len(self.actions)), (0, 1), indexing="ij")
        x, a, r = x.ravel(), a.ravel(), r.ravel().astype(np.float64)
        q = self.rewards[x, a]
        chance = np.array(self.context_probabilities)[x] * self.logging[x, a] * np.where(r == 1, q, 1 - q)
        keep = chance > 0
        return x[keep], a[keep], r[keep], chance[keep]

    def _terms(self, policy, reward_model, propensities, x, a, r):
        """Per record: the IPS weight, the reward model's value of ``policy`` and DR's term."""
        logged = self.logging if propensities is None else self.policy(propensities, "propensities")
        if (logged[x, a] <= 0).any():
            raise ValueError(gettext("propensities must be positive for every action the logging policy takes. "
                                     "Got 0 for a logged action instead."))
        weight = policy[x, a] / logged[x, a]
        if reward_model is None:
            return weight, None, None
        model = value_matrix("reward_model", reward_model, self.contexts, self.actions, mark("q̂(x, a)"))
        direct = (policy * model).sum(axis=1)[x]
        return weight, direct, direct + weight * (r - model[x, a])

    def exact(self, policy, n, *, reward_model=None, propensities=None):
        """Each estimator's exact expectation and variance over every possible log of ``n`` records. Lesson 19.

        A log's estimates depend only on how many times each possible record
        (context, action, reward) occurs in it, so the logs are grouped by
        those counts, each with its multinomial probability.

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
        target = self.policy(policy)
        n = check_count("n", n, mark("how many records each log holds"))
        x, a, r, chance = self._outcomes()
        counts_needed = np.exp(lgamma(n + x.size) - lgamma(n + 1) - lgamma(x.size))
        if counts_needed > MAX_LOG_COUNTS:
            raise ValueError(gettext("n must be small enough to enumerate every log: {size} possible records "
                                     "make {counts_needed:.3g} count vectors for n = {n}, more than "
                                     "{MAX_LOG_COUNTS}. Use simulate_estimates for larger logs. Got n={n} "
                                     "instead.").format(size=x.size, counts_needed=counts_needed, n=n,
                                                        MAX_LOG_COUNTS=MAX_LOG_COUNTS))
        weight, direct, doubly = self._terms(target, reward_model, propensities, x, a, r)
        counts = _compositions(n, x.size)
        log_chance = lgamma(n + 1) - np.array([[lgamma(c + 1) for c in row] for row in counts]).sum(axis=1) \
            + (counts * np.log(chance)).sum(axis=1)
        probability = np.exp(log_chance)
        estimates = {"IPS": counts @ (weight * r) / n}
        denominator = counts @ weight
        estimates["SNIPS"] = np.divide(counts @ (weight * r), denominator, out=np.zeros(len(counts)),
                                       where=denominator > 0)
        if direct is not None:
            estimates["DM"], estimates["DR"] = counts @ direct / n, counts @ doubly / n
        means = {name: float(probability @ values) for name, values in estimates.items()}
        variances = {name: float(probability @ (values - means[name]) ** 2) for name, values in estimates.items()}
        names = tuple(estimates)
        return EstimatorMoments(self.value(target), n, names, tuple(means[k] for k in names),
                                tuple(variances[k] for k in names), True, len(counts))

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
