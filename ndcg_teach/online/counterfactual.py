"""Counterfactual evaluation: a new policy's value from data logged by an old one. Lesson 19.

A recommender logged, for each context ``x`` (a user, a query), the action
``a`` its logging policy ``π0`` chose and the reward ``r`` (a click). Would
a new policy ``π`` have done better? Its choices were mostly never shown,
but the log can be reweighted:

* **IPS** (inverse propensity scoring): ``(1/n) Σ w_i r_i`` with
  ``w_i = π(a_i|x_i) / π0(a_i|x_i)``. Unbiased whenever ``π0`` gives every
  action ``π`` takes a positive chance, but its variance grows with the
  weights.
* **SNIPS** (self-normalised IPS): ``Σ w_i r_i / Σ w_i``, Hájek's (1971)
  estimator, self-normalised importance sampling. Biased for small logs
  (the bias is O(1/n)), usually far less variable.
* **DM** (direct method): the mean over the log's contexts of
  ``Σ_a π(a|x) q̂(x, a)`` for a reward model ``q̂``. As good as ``q̂``.
* **DR** (doubly robust, Dudík, Langford & Li 2011): DM plus IPS of the
  reward model's errors. Unbiased when the propensities are right *or* the
  reward model is.

:class:`~ndcg_teach.online.bandit_problem.BanditProblem` holds a small world whose
truth is known, draws logs from it, and gives each estimator's exact
expectation, bias and variance by enumerating every possible log.
Position-based IPS for rankings is in :mod:`ndcg_teach.online.counterfactual_rankings`.
"""

from dataclasses import dataclass

import numpy as np

from ..core.checks import check_label_list, check_number_array
from ..core.explained import Explained, number
from ..i18n import _, gettext, mark
from ..core.table import Table
from ..core.validation import shown

__all__ = ["Log", "ips", "snips", "direct_method", "doubly_robust", "OffPolicyEstimate"]

MAX_RECORDS = 20  # records an estimate's table shows; the formula uses them all


def check_names(name, values, meaning):
    labels = [str(v) for v in check_label_list(name, values, meaning)]
    if len(set(labels)) != len(labels):
        raise ValueError(gettext("{name} must name each one once. Got {got} instead.")
                                .format(name=name, got=shown(values)))
    return tuple(labels)


def policy_matrix(name, policy, contexts, actions):
    """A policy as a contexts x actions matrix of probabilities: a matrix, or ``{context: action}`` (deterministic)."""
    if hasattr(policy, "items"):
        matrix = np.zeros((len(contexts), len(actions)))
        for context in contexts:
            if context not in policy or policy[context] not in actions:
                raise ValueError(gettext("{name} must map every context {value} to one of the actions {value2}. "
                                         "Got {got} instead.").format(name=name, value=shown(list(contexts)),
                                                                      value2=shown(list(actions)),
                                                                      got=shown(dict(policy))))
            matrix[contexts.index(context), actions.index(policy[context])] = 1.0
        return matrix
    matrix = check_number_array(name, policy, mark("one row per context, one probability per action"), ndim=2)
    if matrix.shape != (len(contexts), len(actions)):
        raise ValueError(gettext("{name} must be {n_contexts} x {n_actions}: one row per context, one column per "
                                 "action. Got shape {shape} instead.").format(name=name, n_contexts=len(contexts),
                                                                              n_actions=len(actions),
                                                                              shape=matrix.shape))
    if (matrix < 0).any() or not np.allclose(matrix.sum(axis=1), 1.0, rtol=0, atol=1e-9):
        raise ValueError(gettext("{name} must hold probabilities, each row adding up to 1. Got row sums {got} "
                                 "instead.").format(name=name, got=shown(matrix.sum(axis=1).round(12).tolist())))
    return matrix


def value_matrix(name, values, contexts, actions, meaning):
    matrix = check_number_array(name, values, meaning, ndim=2)
    if matrix.shape != (len(contexts), len(actions)):
        raise ValueError(gettext("{name} must be {n_contexts} x {n_actions}: one row per context, one column per "
                                 "action. Got shape {shape} instead.").format(name=name, n_contexts=len(contexts),
                                                                              n_actions=len(actions),
                                                                              shape=matrix.shape))
    return matrix


@dataclass(frozen=True, eq=False)
class Log:
    """Logged records: each one's context, the action the logging policy took, its propensity, the reward. Lesson 19.

    Attributes
    ----------
    contexts, actions : tuple of str
        The names the indices below refer to.
    context, action : numpy.ndarray of int
        Per record, the context's and the action's index.
    reward : numpy.ndarray of float
    propensity : numpy.ndarray of float
        ``π0(a_i | x_i)``, recorded when the action was taken.

    Examples
    --------
    Three records of one user: "a" shown twice (logged with chance 0.8), "b" once (0.2), clicked once:

    >>> log = Log(("u",), ("a", "b"), np.array([0, 0, 0]), np.array([0, 0, 1]), np.array([0.0, 0.0, 1.0]),
    ...           np.array([0.8, 0.8, 0.2]))
    >>> len(log), round(ips(log, {"u": "b"}).value, 4)  # (0 + 0 + 1/0.2) / 3
    (3, 1.6667)
    """

    contexts: tuple
    actions: tuple
    context: np.ndarray
    action: np.ndarray
    reward: np.ndarray
    propensity: np.ndarray

    def __len__(self):
        return self.context.size


@dataclass(frozen=True, repr=False, eq=False)
class OffPolicyEstimate(Explained):
    """One estimate of a policy's value from a log, with each record's part. Lesson 19.

    Returned by :func:`ips`, :func:`snips`, :func:`direct_method` and :func:`doubly_robust`.

    Attributes
    ----------
    estimator : str
        ``"IPS"``, ``"SNIPS"``, ``"DM"`` or ``"DR"``.
    value : float
    weights, terms : numpy.ndarray
        Per record: ``w_i = π(a_i|x_i) / π0(a_i|x_i)`` and what the record adds to the sum.
    log : Log
    """

    estimator: str
    value: float
    weights: np.ndarray
    terms: np.ndarray
    log: Log

    def _parts(self):
        language = self.language
        log, n = self.log, len(self.log)
        rows = tuple((i + 1, log.contexts[log.context[i]], log.actions[log.action[i]], float(log.reward[i]),
                      float(log.propensity[i]), float(self.weights[i]), float(self.terms[i]))
                     for i in range(min(n, MAX_RECORDS)))
        table = Table(None, ("i", "context", "action", "r", "π0", "w", "term"), rows, align="rllrrrr",
                      shown_headers=("i", _("context", language), _("action", language), "r_i", "π0(a_i|x_i)",
                                     "w_i", _("term", language)))
        total = float(self.terms.sum())
        if self.estimator == "SNIPS":
            line = (f"SNIPS = Σ w_i·r_i / Σ w_i = {number(total)} / {number(float(self.weights.sum()))} = "
                    f"{number(self.value)}")
        else:
            line = _("{estimator} = (1/n) Σ term_i = {total} / {n} = {value}", language).format(
                estimator=self.estimator, total=number(total), n=n, value=number(self.value))
        formula = (_(_TERMS[self.estimator], language), line)
        notes = (_("the table shows the first {shown} of {n} records; the formula uses them all", language).format(
            shown=MAX_RECORDS, n=n),) if n > MAX_RECORDS else ()
        return f"{self.estimator} = {self.value:.4f}", (table,), formula, notes


_TERMS = {
    "IPS": mark("term_i = w_i·r_i, with w_i = π(a_i|x_i) / π0(a_i|x_i)"),
    "SNIPS": mark("term_i = w_i·r_i; the sum is divided by Σ w_i instead of n"),
    "DM": mark("term_i = Σ_a π(a|x_i)·q̂(x_i, a): the reward model's value of the new policy in context x_i"),
    "DR": mark("term_i = Σ_a π(a|x_i)·q̂(x_i, a) + w_i·(r_i - q̂(x_i, a_i)): the model, corrected by its weighted "
               "error"),
}


def _weighted(log, policy, propensities):
    """``(policy matrix, w_i)`` for a checked ``log``: ``π(a_i|x_i)`` over the logged (or modelled) propensity."""
    if not isinstance(log, Log):
        raise TypeError(gettext("log must be a Log (from BanditProblem.simulate or Log(...)). Got {got} instead.")
                               .format(got=shown(log)))
    if len(log) == 0:
        raise ValueError(gettext("log must hold at least one record. Got an empty log instead."))
    matrix = policy_matrix("policy", policy, log.contexts, log.actions)
    logged = log.propensity if propensities is None else \
        policy_matrix("propensities", propensities, log.contexts, log.actions)[log.context, log.action]
    if (logged <= 0).any():
        raise ValueError(gettext("propensities must be positive for every logged action (each was taken, so its "
                                 "chance was not 0). Got 0 for some records instead."))
    return matrix, matrix[log.context, log.action] / logged


def ips(log, policy, *, propensities=None):
    """IPS: ``(1/n) Σ w_i r_i`` with ``w_i = π(a_i|x_i) / π0(a_i|x_i)``. Lesson 19.

    Parameters
    ----------
    log : Log
    policy : 2-D sequence of float, or mapping of context to action
        The new policy ``π``: one row of action probabilities per context
        (in ``log.contexts`` x ``log.actions`` order), or ``{context: action}``.
    propensities : 2-D sequence of float or None, default None
        A model of the logging policy to use instead of the propensities the
        log recorded (to see what wrong propensities do).

    Returns
    -------
    OffPolicyEstimate

    Examples
    --------
    Two records, both in context "u"; the new policy always shows "b":

    >>> log = Log(("u",), ("a", "b"), np.array([0, 0]), np.array([0, 1]), np.array([1.0, 1.0]), np.array([0.8, 0.2]))
    >>> round(ips(log, {"u": "b"}).value, 4)  # weights 0/0.8 = 0 and 1/0.2 = 5: (0·1 + 5·1) / 2
    2.5
    """
    _, weights = _weighted(log, policy, propensities)
    terms = weights * log.reward
    return OffPolicyEstimate("IPS", float(terms.mean()), weights, terms, log)


def snips(log, policy, *, propensities=None):
    """SNIPS: ``Σ w_i r_i / Σ w_i``, IPS normalised by its own weights (0 when every weight is 0). Lesson 19.

    Examples
    --------
    >>> log = Log(("u",), ("a", "b"), np.array([0, 0]), np.array([0, 1]), np.array([1.0, 1.0]), np.array([0.8, 0.2]))
    >>> snips(log, {"u": "b"}).value  # (0·1 + 5·1) / (0 + 5)
    1.0
    """
    _, weights = _weighted(log, policy, propensities)
    terms = weights * log.reward
    total = float(weights.sum())
    return OffPolicyEstimate("SNIPS", float(terms.sum()) / total if total else 0.0, weights, terms, log)


def direct_method(log, policy, reward_model):
    """DM: the reward model's value of the new policy, averaged over the logged contexts. Lesson 19.

    Examples
    --------
    >>> log = Log(("u",), ("a", "b"), np.array([0, 0]), np.array([0, 1]), np.array([1.0, 1.0]), np.array([0.8, 0.2]))
    >>> direct_method(log, {"u": "b"}, [[0.5, 0.3]]).value  # q̂(u, b) for each of the two records
    0.3
    """
    matrix, weights = _weighted(log, policy, None)
    model = value_matrix("reward_model", reward_model, log.contexts, log.actions, mark("q̂(x, a): the predicted reward"))
    terms = (matrix * model).sum(axis=1)[log.context]
    return OffPolicyEstimate("DM", float(terms.mean()), weights, terms, log)


def doubly_robust(log, policy, reward_model, *, propensities=None):
    """DR: the direct method plus IPS of the reward model's errors (Dudík, Langford & Li 2011). Lesson 19.

    ``(1/n) Σ_i [Σ_a π(a|x_i) q̂(x_i, a) + w_i (r_i - q̂(x_i, a_i))]``.
    The correction has expectation 0 when the propensities are right, and
    each error ``r_i - q̂`` has expectation 0 when the model is right: either
    one suffices.

    Examples
    --------
    >>> log = Log(("u",), ("a", "b"), np.array([0, 0]), np.array([0, 1]), np.array([1.0, 1.0]), np.array([0.8, 0.2]))
    >>> round(doubly_robust(log, {"u": "b"}, [[0.5, 0.3]]).value, 4)  # 0.3 + (0 + 5·(1 - 0.3)) / 2
    2.05
    """
    matrix, weights = _weighted(log, policy, propensities)
    model = value_matrix("reward_model", reward_model, log.contexts, log.actions, mark("q̂(x, a): the predicted reward"))
    terms = (matrix * model).sum(axis=1)[log.context] + weights * (log.reward - model[log.context, log.action])
    return OffPolicyEstimate("DR", float(terms.mean()), weights, terms, log)
